package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HashesTest {
  @Test
  void aStreamedFileDigestEqualsTheDigestOfItsBytes(@TempDir Path dir) throws Exception {
    byte[] bytes = new byte[200_000];
    new Random(7).nextBytes(bytes);
    Files.write(dir.resolve("f"), bytes);
    assertEquals(Hashes.sha1Hex(bytes), Hashes.sha1Hex(dir.resolve("f")));
    assertEquals(Hashes.sha1Hex(bytes).substring(0, 16), Runmark.fileDigest(dir.resolve("f")));
  }

  @Test
  void eachDigestIsFreshAndItsOwnWhileOthersAreInUse() throws Exception {
    // known answers (FIPS 180-2 "abc"), from digests handed out while another one of the same algorithm is half fed
    MessageDigest half = Hashes.digest("SHA-256");
    half.update("ab".getBytes(StandardCharsets.UTF_8));
    MessageDigest sha256 = Hashes.digest("SHA-256");
    assertNotSame(half, sha256);
    assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        HexFormat.of().formatHex(sha256.digest("abc".getBytes(StandardCharsets.UTF_8))));
    half.update((byte) 'c');
    assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        HexFormat.of().formatHex(half.digest()));
    assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", Hashes.sha1Hex("abc"));
    // the same on many threads at once
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 8; t++) {
      String text = "text " + t;
      String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8)));
      threads.add(new Thread(() -> {
        try {
          for (int i = 0; i < 2_000; i++) {
            assertEquals(expected, Hashes.hex(Hashes.digest("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8))));
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    for (Thread t : threads) t.start();
    for (Thread t : threads) t.join();
    assertEquals(List.of(), failures);
    IllegalStateException missing = assertThrows(IllegalStateException.class, () -> Hashes.digest("SHA-999"));
    assertEquals("SHA-999 is missing from this JVM", missing.getMessage());
  }
}
