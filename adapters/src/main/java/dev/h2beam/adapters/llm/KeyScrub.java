package dev.h2beam.adapters.llm;

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

  private static final byte[] REDACTED = "[redacted key]".getBytes(StandardCharsets.UTF_8);

  private final byte[] key;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

  KeyScrub(String key) {
    this.key = key.getBytes(StandardCharsets.UTF_8);
  }

  /** Takes {@code n} bytes of the reply; returns what may pass on now, without the key (empty while a line goes on). */
  byte[] pass(byte[] bytes, int n) {
    pending.write(bytes, 0, n);
    byte[] all = pending.toByteArray();
    int cut = lastNewLine(all) + 1;
    if (cut == 0 && all.length >= HELD_AT_MOST) cut = all.length - (key.length - 1);
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

  /** {@code b} with each occurrence of the key replaced; {@code b} itself when it holds none. */
  private byte[] scrubbed(byte[] b) {
    int at = indexOf(b, 0);
    if (at < 0) return b;
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length);
    int from = 0;
    while (at >= 0) {
      out.write(b, from, at - from);
      out.write(REDACTED, 0, REDACTED.length);
      from = at + key.length;
      at = indexOf(b, from);
    }
    out.write(b, from, b.length - from);
    return out.toByteArray();
  }

  private int indexOf(byte[] b, int from) {
    outer:
    for (int i = from; i <= b.length - key.length; i++) {
      for (int j = 0; j < key.length; j++) if (b[i + j] != key[j]) continue outer;
      return i;
    }
    return -1;
  }
}
