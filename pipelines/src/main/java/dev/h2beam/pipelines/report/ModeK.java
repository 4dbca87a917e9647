package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.Modes;
import java.io.Serializable;
import java.util.Comparator;

/**
 * A report cell: one mode token at one k. Natural order (mode, k), as harness2 sorts summaries, with modes in the fixed
 * order ({@link Modes#ORDER}: agg, seq, gat).
 */
record ModeK(String mode, int k) implements Comparable<ModeK>, Serializable {
  static final Comparator<ModeK> BY_K_THEN_MODE = Comparator.comparingInt(ModeK::k)
      .thenComparing(ModeK::mode, Modes.ORDER);

  @Override public int compareTo(ModeK o) {
    int c = Modes.ORDER.compare(mode, o.mode);
    return c != 0 ? c : Integer.compare(k, o.k);
  }

  /** {@code parallel k=2}: the human mode name and k. */
  String name() {
    return human(mode) + " k=" + k;
  }

  /**
   * The human name of a mode token ({@code agg → parallel}, see {@link Namespace#modeName}); an unknown token as
   * written.
   */
  static String human(String mode) {
    try {
      return Namespace.modeName(mode);
    } catch (IllegalArgumentException e) {
      return mode;
    }
  }
}
