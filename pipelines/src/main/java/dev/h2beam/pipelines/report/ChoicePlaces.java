package dev.h2beam.pipelines.report;

import dev.h2beam.transforms.selection.AnonIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the blind selector's choices stood in the list it was shown, per reported mode and k: how often it chose the
 * candidate listed first, against what a selector indifferent to the order would, and the count at each place. A
 * selector that prefers a place (the first, say) is a bias the method cannot see, and harness2's anonymous ids (spec
 * §19.2) depend on the task, k and mode alone: every replicate of a task lists the same candidate first, so replicates
 * do not average such a preference out. The report shows it instead of leaving a reader to assume it away.
 *
 * <p>Under indifference each choice picks the first of its n candidates with probability 1/n, independently; the
 * count of first places then has a Poisson-binomial distribution, whose tail beyond the count seen is given as an
 * exploratory p, never a verdict.
 */
final class ChoicePlaces {
  private ChoicePlaces() {}

  /**
   * The report's lines for the choices of each reported cell; none when no selector session made a choice.
   * {@code rules} says per k how its namespaces shuffled the ids ({@link AnonIds#TASK} or {@link AnonIds#REPLICATE}).
   */
  static List<String> lines(Map<ModeK, List<TaskSummary.Choice>> byCell, Map<Integer, String> rules) {
    List<String> out = new ArrayList<>();
    if (byCell.values().stream().allMatch(List::isEmpty)) return out;
    out.add("");
    out.add("Where the selector's choices stood in its list (its prompt names the anonymous ids in the order A, B,"
        + " C, ...; only choices its session made, not a single final of k = 1 or the stand-in after a failed"
        + " session; exploratory):");
    byCell.forEach((cell, choices) -> {
      if (!choices.isEmpty()) out.add("  " + cell.name() + ": " + line(choices));
    });
    java.util.TreeSet<Integer> byTask = new java.util.TreeSet<>();
    java.util.TreeSet<Integer> byReplicate = new java.util.TreeSet<>();
    byCell.forEach((cell, choices) -> {
      if (choices.isEmpty()) return;
      if (AnonIds.REPLICATE.equals(rules.get(cell.k()))) {
        byReplicate.add(cell.k());
      } else {
        byTask.add(cell.k());
      }
    });
    boolean both = !byTask.isEmpty() && !byReplicate.isEmpty();
    if (!byTask.isEmpty()) {
      out.add("  The ids " + (both ? "at " + ks(byTask) + " " : "") + "are harness2's (spec §19.2): they depend on"
          + " the task, k and mode alone, so every replicate of a task lists its candidates in the same order, and"
          + " replicates do not average a preference for a place out (--anonIds=replicate shuffles them per seed).");
    }
    if (!byReplicate.isEmpty()) {
      out.add("  The ids " + (both ? "at " + ks(byReplicate) + " " : "") + "were shuffled per replicate"
          + " (--anonIds=replicate: the seed enters the shuffle), so each replicate lists a task's candidates in an"
          + " order of its own.");
    }
    return out;
  }

  private static String ks(java.util.Set<Integer> ks) {
    return String.join(", ", ks.stream().map(k -> "k=" + k).toList());
  }

  /** {@code 31 of 40 choices the first listed (20.0 expected ...; that many or more: p = 0.0003); by place 31, 9}. */
  static String line(List<TaskSummary.Choice> choices) {
    int first = 0;
    double expected = 0;
    int places = 0;
    for (TaskSummary.Choice c : choices) {
      if (c.position() == 1) first++;
      expected += 1.0 / c.candidates();
      places = Math.max(places, c.candidates());
    }
    int[] at = new int[places];
    for (TaskSummary.Choice c : choices) at[c.position() - 1]++;
    StringBuilder byPlace = new StringBuilder();
    for (int i = 0; i < places; i++) byPlace.append(i == 0 ? "" : ", ").append(at[i]);
    boolean more = first >= expected;
    double p = tail(choices, first, more);
    return first + " of " + choices.size() + " choice" + (choices.size() == 1 ? "" : "s") + " the first listed ("
        + String.format(Locale.ROOT, "%.1f", expected) + " expected if the place did not matter; that "
        + (more ? "many or more" : "few or fewer") + ": p = " + pValue(p) + "); by place " + byPlace;
  }

  /**
   * The probability that a selector indifferent to the order chooses the first listed {@code first} times or more
   * ({@code more}), or that many times or fewer: each choice of n candidates picks the first with probability 1/n.
   */
  static double tail(List<TaskSummary.Choice> choices, int first, boolean more) {
    // dist[j]: the probability of j first places among the choices seen so far
    double[] dist = new double[choices.size() + 1];
    dist[0] = 1.0;
    int seen = 0;
    for (TaskSummary.Choice c : choices) {
      double q = 1.0 / c.candidates();
      seen++;
      for (int j = seen; j >= 0; j--) dist[j] = dist[j] * (1 - q) + (j > 0 ? dist[j - 1] * q : 0.0);
    }
    double sum = 0;
    for (int j = 0; j < dist.length; j++) if (more ? j >= first : j <= first) sum += dist[j];
    return Math.min(1.0, sum);
  }

  /** Two significant digits, never 0: {@code 1}, {@code 0.25}, {@code 0.00031}, {@code < 1e-12}. */
  static String pValue(double p) {
    if (p >= 0.995) return "1";
    if (p < 1e-12) return "< 1e-12";
    return new java.math.BigDecimal(p).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
  }
}
