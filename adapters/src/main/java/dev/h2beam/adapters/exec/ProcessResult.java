package dev.h2beam.adapters.exec;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How a program run by {@link ProcessRunner} ended. Exactly one of: it exited ({@code exit} set), it outlived its
 * timeout ({@code timedOut}), or its cancellation hook fired ({@code cancelled}); in the last two cases its whole
 * process group was killed and {@code exit} is null.
 *
 * @param exit the exit status (128 + the signal for a program killed by a signal nobody here sent), or null
 * @param wallS seconds from start to exit or kill
 * @param stdoutBytes every byte the program wrote to standard output, the discarded ones included
 * @param stdoutTruncated true when {@code stdoutBytes} passed the cap, so the file holds only the first bytes
 * @param stdout the file holding standard output (at most the cap)
 * @param outputCut true when its output could not be read to its end: a process that escaped its group still held
 *     the pipe open after the group was gone, and what it wrote later was discarded. Such output is incomplete
 *     whatever the exit status says, so a rollout with it is never marked complete and a score from it is not read.
 */
public record ProcessResult(Integer exit, boolean timedOut, boolean cancelled, double wallS, long stdoutBytes,
    long stderrBytes, boolean stdoutTruncated, boolean stderrTruncated, Path stdout, Path stderr,
    boolean outputCut) {

  public ProcessResult {
    if ((exit != null ? 1 : 0) + (timedOut ? 1 : 0) + (cancelled ? 1 : 0) != 1) {
      throw new IllegalArgumentException("a process ends one way: exited (" + exit + "), timed out (" + timedOut
          + ") or cancelled (" + cancelled + ")");
    }
    if (stdoutBytes < 0 || stderrBytes < 0) throw new IllegalArgumentException("byte counts cannot be negative");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
  }

  /** True when the program exited with status 0. */
  public boolean succeeded() {
    return exit != null && exit == 0;
  }

  /** Why the output may not be trusted to be whole, for an error message; call only when {@link #outputCut}. */
  public String cutReason() {
    return "its output could not be read to its end: a process it started outside its process group held the"
        + " output open after the program ended, and what came later was discarded";
  }

  /** The last {@code maxChars} characters of standard output, stripped; see {@link #tail(Path, int)}. */
  public String stdoutTail(int maxChars) {
    return tail(stdout, maxChars);
  }

  /** The last {@code maxChars} characters of standard error, stripped; see {@link #tail(Path, int)}. */
  public String stderrTail(int maxChars) {
    return tail(stderr, maxChars);
  }

  /** All of standard output as text (it is at most the cap); malformed UTF-8 becomes U+FFFD. */
  public String stdoutText() {
    return tail(stdout, Integer.MAX_VALUE);
  }

  /** All of standard error as text (it is at most the cap); malformed UTF-8 becomes U+FFFD. */
  public String stderrText() {
    return tail(stderr, Integer.MAX_VALUE);
  }

  /**
   * The last {@code maxChars} characters of a file as stripped text, prefixed by {@code …} when earlier text was left
   * out. Bytes that are not UTF-8 become U+FFFD rather than an exception: a program's output is whatever it printed.
   * A missing file reads as "".
   */
  static String tail(Path file, int maxChars) {
    if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be positive, got " + maxChars);
    if (!Files.isRegularFile(file)) return "";
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long size = f.length();
      // A UTF-8 character is at most 4 bytes, so this many bytes always hold maxChars characters.
      long want = Math.min(size, Math.min((long) maxChars * 4, Integer.MAX_VALUE - 8));
      byte[] bytes = new byte[(int) want];
      f.seek(size - want);
      f.readFully(bytes);
      int from = 0;
      if (want < size) {
        // Starting inside a character would decode its continuation bytes as U+FFFD; skip them.
        while (from < bytes.length && from < 3 && (bytes[from] & 0xC0) == 0x80) from++;
      }
      String text = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8).replace("\0", "");
      boolean clipped = want < size || text.length() > maxChars;
      if (text.length() > maxChars) {
        int cut = text.length() - maxChars;
        if (Character.isLowSurrogate(text.charAt(cut))) cut++; // never keep half a character
        text = text.substring(cut);
      }
      text = text.strip();
      return clipped ? "…" + text : text;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
