package dev.h2beam.demo;

import dev.h2beam.adapters.files.Hashes;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How long a synthetic rollout or session waits before it works, as an agent or a model would: a fixed number of
 * milliseconds ({@code 50}), uniform between two ({@code uniform:20:80}) or exponential with a mean
 * ({@code exp:50}). A drawn latency depends only on the seed and the call's key (its run id, or its session label
 * and mission), never on thread timing, so a run and its repeat wait alike; it changes no file the sweep writes.
 *
 * @param kind {@code fixed}, {@code uniform} or {@code exp}
 * @param a the fixed value, the uniform minimum or the exponential mean, in milliseconds
 * @param b the uniform maximum (unused otherwise)
 */
record Latency(String kind, double a, double b, long seed) {

  static final Latency NONE = new Latency("fixed", 0, 0, 0);

  static final String FORMS = "a number of milliseconds (50), uniform:MIN:MAX (uniform:20:80) or exp:MEAN (exp:50)";

  Latency {
    if (!kind.equals("fixed") && !kind.equals("uniform") && !kind.equals("exp")) {
      throw new IllegalArgumentException("latency kind must be fixed, uniform or exp, got " + kind);
    }
    if (!(a >= 0) || !(b >= 0) || Double.isInfinite(a) || Double.isInfinite(b) || (kind.equals("uniform") && b < a)) {
      throw new IllegalArgumentException("latency bounds must be finite, >= 0 and in order, got " + a + ", " + b);
    }
  }

  /**
   * Parses a latency flag's value.
   *
   * @throws IllegalArgumentException naming {@code flag}, the value and the accepted forms
   */
  static Latency parse(String flag, String text, long seed) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    String[] parts = t.split(":", -1);
    try {
      Latency l = switch (parts[0]) {
        case "uniform" -> parts.length == 3 ? new Latency("uniform", number(parts[1]), number(parts[2]), seed) : null;
        case "exp" -> parts.length == 2 ? new Latency("exp", number(parts[1]), 0, seed) : null;
        default -> parts.length == 1 ? new Latency("fixed", number(parts[0]), 0, seed) : null;
      };
      if (l != null) return l;
    } catch (IllegalArgumentException e) {
      // fall through to the message naming the flag
    }
    throw new IllegalArgumentException(flag + "=" + text + " is not a latency; use " + FORMS
        + ", every number finite and >= 0 and MIN <= MAX");
  }

  private static double number(String s) {
    double v = Double.parseDouble(s);
    if (!Double.isFinite(v) || v < 0) throw new IllegalArgumentException(s);
    return v;
  }

  /** The mean latency in milliseconds. */
  double meanMs() {
    return kind.equals("uniform") ? (a + b) / 2 : a;
  }

  /** The latency drawn for {@code key}, in milliseconds. */
  long millis(String key) {
    if (kind.equals("fixed")) return Math.round(a);
    double u = new SplittableRandom(seed ^ keyBits(key)).nextDouble();
    return Math.round(kind.equals("uniform") ? a + u * (b - a) : -a * Math.log1p(-u));
  }

  /** Sleeps the latency drawn for {@code key}; a zero latency returns at once. */
  void sleep(String key) throws InterruptedException {
    long ms = millis(key);
    if (ms > 0) Thread.sleep(ms);
  }

  /** The flag value that parses back to this latency ({@code 50}, {@code uniform:20:80}, {@code exp:50}). */
  String text() {
    return switch (kind) {
      case "uniform" -> "uniform:" + plain(a) + ":" + plain(b);
      case "exp" -> "exp:" + plain(a);
      default -> plain(a);
    };
  }

  private static String plain(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  private static long keyBits(String key) {
    MessageDigest sha = Hashes.digest("SHA-256");
    return ByteBuffer.wrap(sha.digest(key.getBytes(StandardCharsets.UTF_8))).getLong();
  }
}
