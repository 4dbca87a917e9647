package dev.h2beam.adapters.files;

import java.time.Instant;
import java.time.LocalDate;

/**
 * An instant as {@link Instant#toString} writes it (ISO-8601 in UTC, the fraction in groups of three digits as
 * needed), made from its fields for the years 1970 to 9999: the JDK's formatter, with its parsed pattern and
 * temporal field look-ups, was a third of a percent of an L = 0 sweep's CPU in two times per session (BENCHMARKS.md,
 * issue 11). Any other instant is written by the JDK.
 */
public final class IsoInstant {
  private IsoInstant() {}

  /** The first second of the year 10000. */
  private static final long YEAR_10000 = 253_402_300_800L;

  public static String of(Instant t) {
    long seconds = t.getEpochSecond();
    if (seconds < 0 || seconds >= YEAR_10000) return t.toString();
    LocalDate day = LocalDate.ofEpochDay(seconds / 86_400);
    int inDay = (int) (seconds % 86_400);
    StringBuilder out = new StringBuilder(30);
    digits(out, day.getYear(), 4).append('-');
    digits(out, day.getMonthValue(), 2).append('-');
    digits(out, day.getDayOfMonth(), 2).append('T');
    digits(out, inDay / 3600, 2).append(':');
    digits(out, inDay / 60 % 60, 2).append(':');
    digits(out, inDay % 60, 2);
    int nano = t.getNano();
    if (nano != 0) {
      out.append('.');
      if (nano % 1_000_000 == 0) {
        digits(out, nano / 1_000_000, 3);
      } else if (nano % 1000 == 0) {
        digits(out, nano / 1000, 6);
      } else {
        digits(out, nano, 9);
      }
    }
    return out.append('Z').toString();
  }

  /** {@code value} (not negative) in exactly {@code width} digits, zeros in front. */
  private static StringBuilder digits(StringBuilder out, int value, int width) {
    for (int unit = pow10(width - 1); unit > 0; unit /= 10) out.append((char) ('0' + value / unit % 10));
    return out;
  }

  private static int pow10(int n) {
    int p = 1;
    for (int i = 0; i < n; i++) p *= 10;
    return p;
  }
}
