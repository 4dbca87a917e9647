package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.EnvKeys;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reply's bytes on their way to an agent, with every occurrence of a key replaced by {@code [redacted key]}: an
 * endpoint that echoes what it was sent (a gateway's debug route, a proxy's error page) would otherwise hand the agent
 * the key its relay holds for it. Bytes pass on a line at a time (an event stream's events end with a new line, so
 * none is held back), and a line longer than {@link #HELD_AT_MOST} passes on all but its last bytes, which may begin
 * a key that the next read completes; a key has no new line, so it never straddles what passed.
 */
final class KeyScrub {
  /** The most bytes of one line held back before they pass on (less the key's length less one, kept). */
  static final int HELD_AT_MOST = 64 << 10;

  /** The key's UTF-8 bytes as ISO-8859-1 chars, and how many bytes they are. */
  private final String latinKey;
  private final int keyBytes;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

  KeyScrub(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    this.latinKey = new String(bytes, StandardCharsets.ISO_8859_1);
    this.keyBytes = bytes.length;
  }

  /** Takes {@code n} bytes of the reply; returns what may pass on now, without the key (empty while a line goes on). */
  byte[] pass(byte[] bytes, int n) {
    pending.write(bytes, 0, n);
    byte[] all = pending.toByteArray();
    int cut = lastNewLine(all) + 1;
    if (cut == 0 && all.length >= HELD_AT_MOST) cut = all.length - (keyBytes - 1);
    if (cut <= 0) return new byte[0];
    pending.reset();
    pending.write(all, cut, all.length - cut);
    return scrubbed(Arrays.copyOf(all, cut));
  }

  /** What is left at the reply's end, without the key. */
  byte[] rest() {
    byte[] all = pending.toByteArray();
    pending.reset();
    return scrubbed(all);
  }

  private static int lastNewLine(byte[] b) {
    for (int i = b.length - 1; i >= 0; i--) if (b[i] == '\n') return i;
    return -1;
  }

  /**
   * {@code b} with each occurrence of the key replaced; {@code b} itself when it holds none. Read as ISO-8859-1 (one
   * char per byte, and back), as {@code KeysOutOfRuns} reads a rollout's files: the reply's other bytes pass as they
   * came, UTF-8 or not.
   */
  private byte[] scrubbed(byte[] b) {
    String text = new String(b, StandardCharsets.ISO_8859_1);
    if (!text.contains(latinKey)) return b;
    return text.replace(latinKey, EnvKeys.REDACTED).getBytes(StandardCharsets.ISO_8859_1);
  }
}
