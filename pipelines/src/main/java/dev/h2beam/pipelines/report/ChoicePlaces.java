package dev.h2beam.pipelines.report;

import dev.h2beam.transforms.selection.AnonIds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the blind selector's choices stood in the list it was shown, per reported mode and k: how often it chose the
 * candidate listed first, against what a selector indifferent to the order would, and the count at each place. A
 * selector that prefers a place (the first, say) is a bias the method cannot see, and harness2's anonymous ids (spec
 * §19.2) depend on the task, k and mode alone: every replicate of a task lists the same candidate first, so replicates
 * do not average such a preference out. The report shows it instead of leaving a reader to assume it away.
 *
 * <p>Under indifference each choice picks the first of its n candidates with probability 1/n, and choices in lists
 * shuffled independently are independent: the count of first places then has a Poisson-binomial distribution, and
 * the line gives its exact two-sided p (the outcomes no more likely than the one seen), as an exploratory figure,
 * never a verdict. Under harness2's rule the replicates of a task share one list order, so a selector that prefers
 * the same content every time picks the same place in each of them: their choices are not independent, and the p is
 * then over one choice per task (its first reported replicate's).
 */
final class ChoicePlaces {
  private ChoicePlaces() {}

  /** One selection's choice, with its task: the unit a p over one choice per task keeps once. */
  record Seen(String task, TaskSummary.Choice choice) {}

  /**
   * The report's lines for the choices of each reported cell; none when no selection of theirs ran a selector
   * session. {@code rules} says per k how its namespaces shuffled the ids ({@link AnonIds#TASK},
   * {@link AnonIds#REPLICATE}, or both joined by " and " when its namespaces differ).
   */
  static List<String> lines(Map<ModeK, List<Seen>> byCell, Map<Integer, String> rules) {
    List<String> out = new ArrayList<>();
    if (byCell.values().stream().allMatch(List::isEmpty)) return out;
    out.add("");
    out.add("Where the selector's choices stood in its list (its prompt names the anonymous ids in the order A, B,"
        + " C, ...; only choices its session made; exploratory):");
    Map<String, TreeSet<Integer>> byRule = new LinkedHashMap<>();
    for (String r : List.of(AnonIds.TASK, AnonIds.REPLICATE, MIXED)) byRule.put(r, new TreeSet<>());
    byCell.forEach((cell, seen) -> {
      if (seen.isEmpty()) return;
      String rule = rule(rules.get(cell.k()));
      out.add("  " + cell.name() + ": " + line(seen, rule.equals(AnonIds.REPLICATE)));
      byRule.get(rule).add(cell.k());
    });
    long rulesSeen = byRule.values().stream().filter(ks -> !ks.isEmpty()).count();
    String at = "";
    if (!byRule.get(AnonIds.TASK).isEmpty()) {
      at = rulesSeen > 1 ? "at " + ks(byRule.get(AnonIds.TASK)) + " " : "";
      out.add("  The ids " + at + "are harness2's (spec §19.2): they depend on the task, k and mode alone, so every"
          + " replicate of a task lists its candidates in the same order, and replicates do not average a preference"
          + " for a place out (--anonIds=replicate shuffles them per seed).");
    }
    if (!byRule.get(AnonIds.REPLICATE).isEmpty()) {
      at = rulesSeen > 1 ? "at " + ks(byRule.get(AnonIds.REPLICATE)) + " " : "";
      out.add("  The ids " + at + "were shuffled per replicate (--anonIds=replicate: the seed enters the shuffle), so"
          + " each replicate lists a task's candidates in an order of its own.");
    }
    if (!byRule.get(MIXED).isEmpty()) {
      at = rulesSeen > 1 ? "at " + ks(byRule.get(MIXED)) + " " : "";
      out.add("  The ids " + at + "were shuffled by different rules in different namespaces (per replicate in some,"
          + " by harness2's rule in others, which a namespace whose config.json records none followed), so some"
          + " replicates of a task share one order.");
    }
    return out;
  }

  /** The rule of a k whose namespaces differ in it. */
  private static final String MIXED = "mixed";

  private static String rule(String recorded) {
    if (AnonIds.REPLICATE.equals(recorded)) return AnonIds.REPLICATE;
    return recorded == null || recorded.equals(AnonIds.TASK) ? AnonIds.TASK : MIXED;
  }

  private static String ks(Set<Integer> ks) {
    return String.join(", ", ks.stream().map(k -> "k=" + k).toList());
  }

  /**
   * {@code 31 of 40 choices were of the candidate listed first (20.0 expected if the place did not matter; exact
   * two-sided p = 0.00068); by place 31, 9}; when the choices' lists are not {@code independent} (harness2's rule)
   * and a task has more than one, the p is over one choice per task, said after the counts.
   */
  static String line(List<Seen> seen, boolean independent) {
    List<TaskSummary.Choice> placed = new ArrayList<>();
    List<TaskSummary.Choice> perTask = new ArrayList<>();
    Set<String> tasks = new TreeSet<>();
    int unplaced = 0;
    for (Seen s : seen) {
      if (!s.choice().placed()) {
        unplaced++;
        continue;
      }
      placed.add(s.choice());
      if (tasks.add(s.task())) perTask.add(s.choice());
    }
    String more = unplaced == 0 ? "" : "; " + unplaced + " more selection" + (unplaced == 1 ? "" : "s") + " not placed"
        + " (a failed session's stand-in, a record without its ids or whose chosen id is not among them, a list of"
        + " one)";
    if (placed.isEmpty()) return "no choice placed" + more;
    int first = firsts(placed);
    StringBuilder out = new StringBuilder().append(first).append(" of ").append(placed.size())
        .append(placed.size() == 1 ? " choice was" : " choices were").append(" of the candidate listed first (")
        .append(String.format(Locale.ROOT, "%.1f", expected(placed))).append(" expected if the place did not matter");
    boolean oneEach = independent || perTask.size() == placed.size();
    if (oneEach) out.append("; exact two-sided p = ").append(pValue(twoSided(placed, first)));
    out.append("); by place ").append(byPlace(placed));
    if (!oneEach) {
      int f = firsts(perTask);
      out.append("; the replicates of a task list its candidates in one order, so their choices are not independent:"
          + " one choice per task, ").append(f).append(" of ").append(perTask.size()).append(" (")
          .append(String.format(Locale.ROOT, "%.1f", expected(perTask))).append(" expected; exact two-sided p = ")
          .append(pValue(twoSided(perTask, f))).append(")");
    }
    return out.append(more).toString();
  }

  private static int firsts(List<TaskSummary.Choice> choices) {
    int n = 0;
    for (TaskSummary.Choice c : choices) if (c.position() == 1) n++;
    return n;
  }

  private static double expected(List<TaskSummary.Choice> choices) {
    double e = 0;
    for (TaskSummary.Choice c : choices) e += 1.0 / c.candidates();
    return e;
  }

  /** The count at each place, {@code 31, 9}; lists of different lengths are said ({@code (lists of 2 to 4) ...}). */
  private static String byPlace(List<TaskSummary.Choice> choices) {
    int most = 0;
    int fewest = Integer.MAX_VALUE;
    for (TaskSummary.Choice c : choices) {
      most = Math.max(most, c.candidates());
      fewest = Math.min(fewest, c.candidates());
    }
    int[] at = new int[most];
    for (TaskSummary.Choice c : choices) at[c.position() - 1]++;
    StringBuilder out = new StringBuilder(fewest == most ? "" : "(lists of " + fewest + " to " + most + ") ");
    for (int i = 0; i < most; i++) out.append(i == 0 ? "" : ", ").append(at[i]);
    return out.toString();
  }

  /** The distribution of the count of first places among {@code choices} under an order-indifferent selector. */
  static double[] distribution(List<TaskSummary.Choice> choices) {
    double[] dist = new double[choices.size() + 1];
    dist[0] = 1.0;
    int seen = 0;
    for (TaskSummary.Choice c : choices) {
      double q = 1.0 / c.candidates();
      seen++;
      for (int j = seen; j >= 0; j--) dist[j] = dist[j] * (1 - q) + (j > 0 ? dist[j - 1] * q : 0.0);
    }
    return dist;
  }

  /**
   * The exact two-sided p of {@code first} first places: the probability, under an order-indifferent selector, of a
   * count no more likely than it (a relative tolerance keeps equally likely counts together despite rounding).
   */
  static double twoSided(List<TaskSummary.Choice> choices, int first) {
    double[] dist = distribution(choices);
    double seen = dist[first] * (1 + 1e-7);
    double sum = 0;
    for (double d : dist) if (d <= seen) sum += d;
    return Math.min(1.0, sum);
  }

  /** Two significant digits, never 0: {@code 1}, {@code 0.25}, {@code 0.00031}, {@code < 1e-12}. */
  static String pValue(double p) {
    if (p >= 0.995) return "1";
    if (p < 1e-12) return "< 1e-12";
    return new java.math.BigDecimal(p).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
  }
}
