package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.Modes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Two modes compared on paired differences, {@code first} minus {@code second}, the first earlier in the fixed mode
 * order (agg, seq, gat).
 */
record ModePair(String first, String second) implements Serializable {
  /** The order {@link #of} gives pairs in. */
  static final Comparator<ModePair> ORDER = Comparator.comparing(ModePair::first, Modes.ORDER)
      .thenComparing(ModePair::second, Modes.ORDER);

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
    return ModeK.human(first);
  }

  String secondName() {
    return ModeK.human(second);
  }

  /** {@code parallel - sequential}: the sign of every difference. */
  String difference() {
    return firstName() + " - " + secondName();
  }
}
