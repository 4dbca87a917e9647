package dev.h2beam.adapters.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads text that h2beam did not write. Rendered evidence (deliverables, trajectories) is read without trusting its
 * size or its encoding: at most {@code maxChars} characters are held in memory, malformed UTF-8 becomes U+FFFD instead
 * of an exception, and a clipped text says so. Text whose bytes matter (JSON, a ledger, a harness file) is read
 * strictly, and bytes that are not UTF-8 are refused with the file and the offset named.
 */
public final class TextFiles {
  private TextFiles() {}

  /**
   * The file's text, decoded strictly as UTF-8; an {@link IOException} naming the file and the first bad byte's offset
   * when it is not UTF-8.
   */
  public static String readUtf8(Path file) throws IOException {
    return utf8(Files.readAllBytes(file), file.toString());
  }

  /**
   * Every byte {@code in} gives, read into one array of the {@code expected} size when the stream holds that many (a
   * listed file's size), so that a small file costs no buffer of the JDK's 16 KB; a stream that holds fewer or more
   * is read whole all the same. A negative {@code expected} (unknown) reads as {@link InputStream#readAllBytes}.
   */
  public static byte[] readAll(InputStream in, long expected) throws IOException {
    if (expected < 0 || expected >= Integer.MAX_VALUE - 8) return in.readAllBytes();
    byte[] bytes = new byte[(int) expected];
    int n = in.readNBytes(bytes, 0, bytes.length);
    if (n < bytes.length) return Arrays.copyOf(bytes, n);
    int next = in.read();
    if (next < 0) return bytes;
    // longer than expected (written to since it was listed): the rest as it comes
    ByteArrayOutputStream all = new ByteArrayOutputStream(bytes.length * 2 + 1);
    all.write(bytes);
    all.write(next);
    in.transferTo(all);
    return all.toByteArray();
  }

  /** {@code bytes} decoded strictly as UTF-8; the error names {@code source} and the first bad byte's offset. */
  public static String utf8(byte[] bytes, String source) throws IOException {
    // the JDK's own decoding is several times faster (vectorised for ASCII) but replaces a bad sequence with U+FFFD;
    // a result without U+FFFD therefore had none, and only a text holding U+FFFD is decoded strictly to tell
    String fast = new String(bytes, StandardCharsets.UTF_8);
    if (fast.indexOf('\uFFFD') < 0) return fast;
    CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult r = dec.decode(in, out, true);
    if (!r.isError()) r = dec.flush(out);
    if (r.isError()) {
      int at = in.position();
      throw new IOException(source + " is not UTF-8 text (byte 0x"
          + String.format(Locale.ROOT, "%02X", bytes[at] & 0xff) + " at offset " + at
          + " is invalid); save it as UTF-8");
    }
    return out.flip().toString();
  }

  /**
   * The file's text, clipped to {@code maxChars} with the marker {@code …(+N chars — render truncation)} when longer
   * (N counted without holding the rest).
   */
  public static String readCapped(Path file, int maxChars) throws IOException {
    return readCapped(Files.newInputStream(file), maxChars);
  }

  /** The same from a stream, which is closed. */
  public static String readCapped(InputStream bytes, int maxChars) throws IOException {
    // a text of at most maxChars bytes has at most as many chars (UTF-8 makes at most one char of each byte, a
    // malformed one included): read whole and decoded at once, without a reader and its decoder (a rollout's
    // trajectory and deliverable each, nearly a percent of an L = 0 sweep's CPU; BENCHMARKS.md, issue 11)
    byte[] head;
    int next;
    try {
      head = bytes.readNBytes(Math.max(maxChars, 0));
      next = bytes.read();
    } catch (IOException | RuntimeException e) {
      bytes.close();
      throw e;
    }
    if (next < 0) {
      bytes.close();
      return new String(head, StandardCharsets.UTF_8).replace("\u0000", "");
    }
    return readCappedByReader(new java.io.SequenceInputStream(
        new java.io.ByteArrayInputStream(appended(head, next)), bytes), maxChars);
  }

  private static byte[] appended(byte[] head, int next) {
    byte[] all = java.util.Arrays.copyOf(head, head.length + 1);
    all[head.length] = (byte) next;
    return all;
  }

  /** {@link #readCapped}, every byte decoded by a reader. */
  static String readCappedByReader(InputStream bytes, int maxChars) throws IOException {
    CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
    StringBuilder sb = new StringBuilder();
    long more = 0;
    char[] buf = new char[8192];
    try (InputStream in = bytes; Reader r = new InputStreamReader(in, dec)) {
      int n;
      while ((n = r.read(buf)) > 0) {
        int room = maxChars - sb.length();
        if (room > 0) sb.append(buf, 0, Math.min(room, n));
        if (n > room) more += n - Math.max(room, 0);
      }
    }
    String text = sb.toString().replace("\u0000", "");
    return more == 0 ? text : text + "…(+" + more + " chars — render truncation)";
  }

  /**
   * Every regular file below {@code dir} (path order, relative path → text capped at {@code maxCharsPerFile}); a
   * symbolic link is skipped, so a deliverable can never show a file from outside the folder. A missing folder is
   * empty.
   */
  public static Map<String, String> readAll(Path dir, int maxCharsPerFile) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    for (String rel : PathOrder.files(dir)) {
      if (Files.isSymbolicLink(dir.resolve(rel))) continue;
      out.put(rel, readCapped(dir.resolve(rel), maxCharsPerFile));
    }
    return out;
  }
}
