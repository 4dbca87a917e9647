package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import java.io.Serializable;
import java.util.Comparator;

/** A report cell: one mode token at one k. Natural order (mode, k), as harness2 sorts summaries. */
record ModeK(String mode, int k) implements Comparable<ModeK>, Serializable {
  static final Comparator<ModeK> BY_K_THEN_MODE = Comparator.comparingInt(ModeK::k).thenComparing(ModeK::mode);

  @Override public int compareTo(ModeK o) {
    int c = mode.compareTo(o.mode);
    return c != 0 ? c : Integer.compare(k, o.k);
  }

  /** {@code parallel k=2}: the human mode name and k. */
  String name() {
    return human(mode) + " k=" + k;
  }

  /** {@code parallel} for {@code agg}, {@code sequential} for {@code seq}; an unknown token as written. */
  static String human(String mode) {
    try {
      return Namespace.modeName(mode);
    } catch (IllegalArgumentException e) {
      return mode;
    }
  }
}
