package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Strict UTF-8: every valid text reads as itself, every invalid byte sequence is refused naming where it is. */
class TextFilesTest {

  @Test
  void validTextReadsAsItselfIncludingAnEncodedReplacementCharacter() throws IOException {
    for (String text : new String[] {"", "{\"a\": 1}\n", "caf\u00e9 \u2014 \ud83d\ude00", "a real \ufffd stays"}) {
      assertEquals(text, TextFiles.utf8(text.getBytes(StandardCharsets.UTF_8), "f.json"));
    }
  }

  @Test
  void everyKindOfInvalidSequenceIsRefusedWithItsOffset() {
    byte[][] bad = {
        {'o', 'k', (byte) 0xFF},                       // never valid in UTF-8
        {'a', (byte) 0xC3},                            // a sequence cut at the end
        {(byte) 0xC0, (byte) 0xAF},                    // overlong '/'
        {'x', (byte) 0xED, (byte) 0xA0, (byte) 0x80},  // an encoded surrogate
        {(byte) 0xE2, (byte) 0x28, (byte) 0xA1},       // a bad continuation byte
    };
    int[] offsets = {2, 1, 0, 1, 0};
    for (int i = 0; i < bad.length; i++) {
      byte[] b = bad[i];
      IOException e = assertThrows(IOException.class, () -> TextFiles.utf8(b, "f.json"));
      assertTrue(e.getMessage().startsWith("f.json is not UTF-8 text"), e.getMessage());
      assertTrue(e.getMessage().contains("at offset " + offsets[i] + " "), e.getMessage());
    }
    byte[] badWithReplacement = ("\ufffd" + "x").getBytes(StandardCharsets.UTF_8);
    badWithReplacement[badWithReplacement.length - 1] = (byte) 0xFE;
    assertThrows(IOException.class, () -> TextFiles.utf8(badWithReplacement, "f.json"),
        "a real U+FFFD beside a bad byte does not hide it");
  }

  /** A listed size is only a hint: a stream that holds fewer or more bytes than expected is still read whole. */
  @Test
  void aStreamIsReadWholeWhateverSizeWasExpected() throws IOException {
    byte[] text = "{\"task_id\": \"t1\"}".getBytes(StandardCharsets.UTF_8);
    for (long expected : new long[] {text.length, 0, 5, text.length - 1, text.length + 1, text.length * 3L, -1}) {
      assertArrayEquals(text, TextFiles.readAll(new ByteArrayInputStream(text), expected), "expected " + expected);
    }
    byte[] big = new byte[100_000];
    for (int i = 0; i < big.length; i++) big[i] = (byte) i;
    assertArrayEquals(big, TextFiles.readAll(new ByteArrayInputStream(big), 16_384), "grown past a buffer's size");
    assertArrayEquals(new byte[0], TextFiles.readAll(new ByteArrayInputStream(new byte[0]), 10));
  }

  /**
   * A capped read decoded at once gives what the reader gives: valid and malformed UTF-8 (cut, overlong, surrogates,
   * stray continuation bytes), NULs, and lengths just under, at and over the cap, which is then marked.
   */
  @Test
  void aCappedReadIsTheReadersText() throws IOException {
    byte[][] pieces = {"a".getBytes(StandardCharsets.UTF_8), "\u00e9".getBytes(StandardCharsets.UTF_8),
        "\u2014".getBytes(StandardCharsets.UTF_8), "\ud83d\ude00".getBytes(StandardCharsets.UTF_8), {0},
        {(byte) 0xFF}, {(byte) 0xC3}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xE2, (byte) 0x28, (byte) 0xA1}, {(byte) 0x80}, {(byte) 0xF0, (byte) 0x9F}, {'\n'}};
    java.util.Random random = new java.util.Random(29);
    int marked = 0;
    for (int round = 0; round < 20_000; round++) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      for (int k = random.nextInt(12); k > 0; k--) out.writeBytes(pieces[random.nextInt(pieces.length)]);
      byte[] bytes = out.toByteArray();
      int cap = random.nextInt(bytes.length + 3);
      String expected = TextFiles.readCappedByReader(new ByteArrayInputStream(bytes), cap);
      assertEquals(expected, TextFiles.readCapped(new ByteArrayInputStream(bytes), cap), "cap " + cap);
      if (expected.contains("render truncation")) marked++;
    }
    assertTrue(marked > 1000, "reads over their cap: " + marked);
    // a stream read whole is closed, and so is one read by the reader
    boolean[] closed = new boolean[2];
    for (int i = 0; i < 2; i++) {
      int at = i;
      TextFiles.readCapped(new ByteArrayInputStream("abc".getBytes(StandardCharsets.UTF_8)) {
        @Override public void close() {
          closed[at] = true;
        }
      }, i == 0 ? 10 : 1);
    }
    assertArrayEquals(new boolean[] {true, true}, closed);
  }
}
