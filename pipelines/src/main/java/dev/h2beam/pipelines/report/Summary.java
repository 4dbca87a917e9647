package dev.h2beam.pipelines.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The report line of one (mode, k) (spec §2.13): graded rows are the denominator; ungraded rows are counted and
 * shown, never scored.
 *
 * @param n graded rows
 * @param nUngraded rows of the group that are absences
 * @param score {@code round(100 · mean frac, 2)} over graded rows; null when none is graded
 * @param allPass percentage of graded rows that passed every criterion; null when none is graded
 * @param usd improver spend (stages + selection) from the task summaries, summed as recorded: rounded where printed
 *     ({@link Render#dollars}), as cents rounded per cell drift with the cells and hide a spend under a cent
 * @param metrics sorted distinct scoring units ({@code raw.metric}) of the graded rows
 * @param tasks distinct tasks among the graded rows: over replicates one task has a row per seed, and a figure over
 *     one task is that task's score, whatever {@code n}
 * @param baseFinals of {@code choseFinal}, the rows whose final was a base rollout: the gated mode's final harness
 *     when its gate kept the base (final, base and candidate stay a partition of the graded rows)
 */
record Summary(ModeK cell, int n, int nUngraded, Double score, Double allPass, int keptBase, int choseFinal,
    int choseCandidate, int fellBack, double usd, List<String> metrics, int tasks, int baseFinals) {

  Summary {
    metrics = List.copyOf(metrics);
  }

  /** A summary whose graded rows are each of another task. */
  Summary(ModeK cell, int n, int nUngraded, Double score, Double allPass, int keptBase, int choseFinal,
      int choseCandidate, int fellBack, double usd, List<String> metrics) {
    this(cell, n, nUngraded, score, allPass, keptBase, choseFinal, choseCandidate, fellBack, usd, metrics, n, 0);
  }

  String name() {
    return cell.name();
  }

  /** {@link #summarise(List, Function, Map, Map)} with each row's pick told by its label alone. */
  static List<Summary> summarise(List<Scored> rows, Map<ModeK, Integer> fellBack, Map<ModeK, Double> usd) {
    return summarise(rows, Scored::pick, fellBack, usd);
  }

  /**
   * One Summary per distinct (mode, k) of the rows, sorted by (mode, k); spend and fallbacks come from summaries,
   * and {@code pick} says what each row's selected output was (final, candidate or base).
   */
  static List<Summary> summarise(List<Scored> rows, Function<Scored, String> pick, Map<ModeK, Integer> fellBack,
      Map<ModeK, Double> usd) {
    Map<ModeK, List<Scored>> groups = new TreeMap<>();
    for (Scored r : rows) groups.computeIfAbsent(new ModeK(r.mode(), r.k()), x -> new ArrayList<>()).add(r);
    List<Summary> out = new ArrayList<>();
    for (Map.Entry<ModeK, List<Scored>> e : groups.entrySet()) {
      List<Scored> good = e.getValue().stream().filter(Scored::graded).toList();
      TreeSet<String> units = new TreeSet<>();
      for (Scored r : good) if (!r.metric().isEmpty()) units.add(r.metric());
      Double score = null;
      Double pass = null;
      if (!good.isEmpty()) {
        score = PyFormat.round(100 * PyFormat.mean(good.stream().map(Scored::frac).toList()), 2);
        pass = PyFormat.round(100.0 * good.stream().filter(Scored::allPass).count() / good.size(), 2);
      }
      out.add(new Summary(e.getKey(), good.size(), e.getValue().size() - good.size(), score, pass,
          // a base rollout the gated mode delivered as its final is a final (Scored#pick), counted once
          (int) good.stream().filter(r -> pick.apply(r).equals("base")).count(),
          (int) good.stream().filter(r -> pick.apply(r).equals("final")).count(),
          (int) good.stream().filter(r -> pick.apply(r).equals("candidate")).count(),
          fellBack.getOrDefault(e.getKey(), 0), usd.getOrDefault(e.getKey(), 0.0),
          new ArrayList<>(units), (int) good.stream().map(Scored::taskId).distinct().count(),
          (int) good.stream().filter(r -> r.chosenIsBase() && pick.apply(r).equals("final")).count()));
    }
    return out;
  }

  /**
   * harness2's line: {@code partial}/{@code pass} figures for LAB, one score elsewhere; pick provenance; fell-back and
   * ungraded counts when non-zero. A line with no graded task still shows its ungraded count. {@code withheld}
   * replaces the figures when they are one task's score (aggregate disclosure).
   */
  String line(String bench, boolean withheld) {
    if (n == 0) return "  " + name() + ": no graded task" + (nUngraded > 0 ? " | ungraded " + nUngraded : "");
    String figures;
    if (withheld) figures = bench.equals("lab") ? "partial withheld | pass withheld" : "score withheld";
    else if (bench.equals("lab")) {
      figures = "partial " + PyFormat.fixed(score, 6, 2) + "% | pass " + PyFormat.fixed(allPass, 5, 1) + "%";
    } else figures = "score " + PyFormat.fixed(score, 6, 2) + "%";
    String pick = " | picked output: final " + choseFinal + (baseFinals == 0 ? "" : " (" + baseFinals + " the base,"
        + " which the gate kept)") + " / candidate " + choseCandidate + " / base " + keptBase;
    String fb = fellBack > 0 ? " | fell back " + fellBack : "";
    String ug = nUngraded > 0 ? " | ungraded " + nUngraded : "";
    return "  " + name() + ": n=" + String.format(Locale.ROOT, "%3d", n) + " | " + figures + pick + fb + ug;
  }
}
