package dev.h2beam.pipelines;

import dev.h2beam.adapters.model.Namespace;
import java.util.Comparator;

/** The fixed order of mode tokens that every mode-ordered file and report section uses. */
public final class Modes {
  private Modes() {}

  /**
   * The modes the judge and the report take when {@code --modes} is not given. Here rather than beside the judge's
   * options, so that the sweep names them in its next-step line without referring to any class of the judge.
   */
  public static final String JUDGED_BY_DEFAULT = "parallel,sequential";

  /**
   * Mode tokens in {@link Namespace#MODES} order (agg, seq, gat); a token outside it (a legacy file's) comes after
   * them, by its text, so the order stays total.
   */
  public static final Comparator<String> ORDER = Comparator.comparingInt(Modes::rank)
      .thenComparing(Comparator.naturalOrder());

  private static int rank(String mode) {
    int i = Namespace.MODES.indexOf(mode);
    return i < 0 ? Namespace.MODES.size() : i;
  }
}
