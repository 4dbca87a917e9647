package dev.h2beam.adapters.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Hex digests used in file formats (SHA-1 fingerprints and ids, SHA-256 cache keys). */
public final class Hashes {
  private Hashes() {}

  /**
   * A fresh digest of {@code algorithm}. Cloned from one made the first time: asking the security providers for each
   * digest (a lookup and a reflective construction) cost more than hashing a small text (BENCHMARKS.md, issue 11).
   */
  public static MessageDigest digest(String algorithm) {
    MessageDigest prototype = PROTOTYPES.computeIfAbsent(algorithm, Hashes::newDigest);
    try {
      return (MessageDigest) prototype.clone();
    } catch (CloneNotSupportedException e) {
      return newDigest(algorithm);
    }
  }

  /** One untouched digest per algorithm, only ever cloned. */
  private static final Map<String, MessageDigest> PROTOTYPES = new ConcurrentHashMap<>();

  private static MessageDigest newDigest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is missing from this JVM", e);
    }
  }

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  public static String sha1Hex(String text) {
    return hex(digest("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  public static String sha1Hex(byte[] bytes) {
    return hex(digest("SHA-1").digest(bytes));
  }

  /** One read buffer per thread: hashing a tree of small files would otherwise allocate 64 KiB a file. */
  private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[65536]);

  /**
   * Feeds a file's bytes to {@code digest} in 64 KiB reads: the same digest as hashing the whole content, without
   * ever holding a large file (a huge source, a runaway deliverable) in memory.
   */
  public static void update(MessageDigest digest, Path file) throws IOException {
    byte[] buf = BUFFER.get();
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buf)) > 0) digest.update(buf, 0, n);
    }
  }

  /** SHA-1 of a file's bytes, streamed. */
  public static String sha1Hex(Path file) throws IOException {
    MessageDigest sha1 = digest("SHA-1");
    update(sha1, file);
    return hex(sha1.digest());
  }
}
