package dev.h2beam.transforms.tree;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The diversity census of a set of final harness trees (spec §4.8): how many are distinct and how much their lines
 * overlap on average, so a collapse of the candidates to one body is visible.
 */
public final class Diversity {
  private Diversity() {}

  /**
   * {@code {n, n_distinct, mean_line_jaccard}} over {@code trees} (name → tree). The Jaccard mean is over every
   * unordered pair of trees, each seen as its set of non-blank {@code "<rel>:<line>"} strings, rounded to 4 decimals.
   */
  public static LinkedHashMap<String, Object> of(Map<String, ? extends Map<String, String>> trees) {
    List<String> names = new ArrayList<>(trees.keySet());
    names.sort(Py.CODE_POINT_ORDER);
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    out.put("n", names.size());
    if (names.size() < 2) {
      out.put("n_distinct", names.size());
      out.put("mean_line_jaccard", 1.0);
      return out;
    }
    List<Set<String>> sets = new ArrayList<>();
    for (String name : names) sets.add(lines(trees.get(name)));
    double sum = 0;
    int pairs = 0;
    for (int i = 0; i < sets.size(); i++) {
      for (int j = i + 1; j < sets.size(); j++) {
        Set<String> union = new HashSet<>(sets.get(i));
        union.addAll(sets.get(j));
        Set<String> both = new HashSet<>(sets.get(i));
        both.retainAll(sets.get(j));
        sum += union.isEmpty() ? 1.0 : (double) both.size() / union.size();
        pairs++;
      }
    }
    Set<Map<String, String>> distinct = new HashSet<>();
    for (Map<String, String> t : trees.values()) distinct.add(Map.copyOf(t));
    out.put("n_distinct", distinct.size());
    out.put("mean_line_jaccard", new BigDecimal(sum / pairs).setScale(4, RoundingMode.HALF_EVEN).doubleValue());
    return out;
  }

  private static Set<String> lines(Map<String, String> tree) {
    Set<String> out = new HashSet<>();
    tree.forEach((rel, text) -> {
      for (String line : Py.splitlines(text, false)) {
        if (!Py.isBlank(line)) out.add(rel + ":" + line);
      }
    });
    return out;
  }
}
