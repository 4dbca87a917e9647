package dev.h2beam.pipelines.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

/**
 * Numbers as harness2 prints them. Python rounds and formats the exact binary value of a float, halving ties to
 * even; Java's {@code %f} rounds its shortest decimal half-up, which differs on exact ties (12.25 → "12.2" in
 * Python). Every figure the report prints goes through here.
 */
final class PyFormat {
  private PyFormat() {}

  /** Python's {@code round(v, places)}. */
  static double round(double v, int places) {
    if (Double.isNaN(v) || Double.isInfinite(v)) return v;
    return new BigDecimal(v).setScale(places, RoundingMode.HALF_EVEN).doubleValue();
  }

  /** Python's {@code f"{v:<width>.<places>f}"}: right-aligned in {@code width}. */
  static String fixed(double v, int width, int places) {
    // Python keeps the sign of a negative value that rounds to zero ("-0.00"); BigDecimal has no negative zero.
    boolean negative = v < 0 || (v == 0 && 1 / v < 0);
    String s = (negative ? "-" : "") + new BigDecimal(Math.abs(v)).setScale(places, RoundingMode.HALF_EVEN)
        .toPlainString();
    return " ".repeat(Math.max(0, width - s.length())) + s;
  }

  /** {@code fixed} with an explicit sign, for differences: {@code +1.50}, {@code -0.25}, {@code +0.00}. */
  static String signed(double v, int places) {
    String s = fixed(v, 0, places);
    return s.startsWith("-") ? s : "+" + s;
  }

  /** Python's {@code statistics.mean}: the exact mean of the floats, rounded once. */
  static double mean(List<Double> values) {
    if (values.isEmpty()) throw new IllegalArgumentException("mean of no values");
    BigDecimal sum = BigDecimal.ZERO;
    for (double v : values) sum = sum.add(new BigDecimal(v));
    return sum.divide(BigDecimal.valueOf(values.size()), MathContext.DECIMAL128).doubleValue();
  }

  /** The sample standard error of the mean, sd / sqrt(n); null (unknown, never 0) below two values. */
  static Double standardError(List<Double> values) {
    if (values.size() < 2) return null;
    double m = mean(values);
    double ss = 0;
    for (double v : values) ss += (v - m) * (v - m);
    return Math.sqrt(ss / (values.size() - 1)) / Math.sqrt(values.size());
  }
}
