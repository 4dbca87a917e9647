package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.Modes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Two modes compared on paired differences, {@code first} minus {@code second}, the first earlier in the fixed mode
 * order (agg, seq, gat); or one mode of two runs roots ({@code report --versus}: the gated mode of two methods), each
 * side then named by its label.
 *
 * @param firstLabel the first side's name where it is not its mode's ({@link #methods}), else null
 * @param secondLabel the second side's name where it is not its mode's, else null
 */
record ModePair(String first, String second, String firstLabel, String secondLabel) implements Serializable {
  /** Two modes of one namespace, named by their modes. */
  ModePair(String first, String second) {
    this(first, second, null, null);
  }

  /** One mode of two runs roots, each side named by a label of its own ({@link MethodComparison}). */
  static ModePair methods(String mode, String firstLabel, String secondLabel) {
    return new ModePair(mode, mode, firstLabel, secondLabel);
  }

  /** Whether the sides are one mode of two runs roots ({@link #methods}). */
  boolean versus() {
    return firstLabel != null;
  }

  /** The order {@link #of} gives pairs in. */
  static final Comparator<ModePair> ORDER = Comparator.comparing(ModePair::first, Modes.ORDER)
      .thenComparing(ModePair::second, Modes.ORDER).thenComparing(ModePair::versus);

  /** Every pair of {@code modes} in the fixed order: agg–seq, agg–gat, seq–gat for all three. */
  static List<ModePair> of(List<String> modes) {
    List<String> ordered = Namespace.MODES.stream().filter(modes::contains).toList();
    List<ModePair> out = new ArrayList<>();
    for (int i = 0; i < ordered.size(); i++) {
      for (int j = i + 1; j < ordered.size(); j++) out.add(new ModePair(ordered.get(i), ordered.get(j)));
    }
    return out;
  }

  String firstName() {
    return firstLabel != null ? firstLabel : ModeK.human(first);
  }

  String secondName() {
    return secondLabel != null ? secondLabel : ModeK.human(second);
  }

  /** {@code parallel - sequential}: the sign of every difference. */
  String difference() {
    return firstName() + " - " + secondName();
  }
}
