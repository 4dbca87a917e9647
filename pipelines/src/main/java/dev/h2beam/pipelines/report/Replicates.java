package dev.h2beam.pipelines.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * replicate-mean/v1: each namespace of a (bench, mode, k) cell is one replicate (they differ in seed). Each replicate
 * is summarised over its graded rows; the replicates' mean carries the spread across them as a standard error, which
 * is unknown (null) with one replicate, never 0.
 */
final class Replicates {
  private Replicates() {}

  /**
   * One replicate of one (mode, k): its graded count, absences and figures in percent at full precision (null when
   * nothing is graded).
   */
  record Replicate(NamespaceRef namespace, int n, int nUngraded, Double score, Double pass) {}

  /**
   * The replicates of one (mode, k) and their mean.
   *
   * @param valued replicates with at least one graded row: the ones the mean is taken over
   * @param scoreSe standard error of the mean score in points; null when unknown (fewer than two valued replicates)
   */
  record Cell(ModeK cell, List<Replicate> replicates, int valued, Double meanScore, Double scoreSe, Double meanPass,
      Double passSe) {
    Cell {
      replicates = List.copyOf(replicates);
    }
  }

  /** Summarises every (mode, k) of the rows, replicate by replicate (namespaces in the given order). */
  static List<Cell> summarise(Map<NamespaceRef, List<Scored>> rowsByNamespace) {
    Map<ModeK, List<Replicate>> cells = new TreeMap<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNamespace.entrySet()) {
      Map<ModeK, List<Scored>> groups = new TreeMap<>();
      for (Scored r : e.getValue()) groups.computeIfAbsent(new ModeK(r.mode(), r.k()), x -> new ArrayList<>()).add(r);
      for (Map.Entry<ModeK, List<Scored>> g : groups.entrySet()) {
        cells.computeIfAbsent(g.getKey(), x -> new ArrayList<>()).add(replicate(e.getKey(), g.getValue()));
      }
    }
    List<Cell> out = new ArrayList<>();
    for (Map.Entry<ModeK, List<Replicate>> e : cells.entrySet()) {
      List<Double> scores = new ArrayList<>();
      List<Double> passes = new ArrayList<>();
      for (Replicate r : e.getValue()) {
        if (r.score() == null) continue;
        scores.add(r.score());
        passes.add(r.pass());
      }
      // at full precision: a figure is rounded once, where it is shown (a mean of rounded replicates missed the
      // pooled mean of the same rows by 0.01)
      out.add(new Cell(e.getKey(), e.getValue(), scores.size(),
          scores.isEmpty() ? null : PyFormat.mean(scores), PyFormat.standardError(scores),
          passes.isEmpty() ? null : PyFormat.mean(passes), PyFormat.standardError(passes)));
    }
    return out;
  }

  static Replicate replicate(NamespaceRef ns, List<Scored> rows) {
    List<Scored> good = rows.stream().filter(Scored::graded).toList();
    if (good.isEmpty()) return new Replicate(ns, 0, rows.size(), null, null);
    double score = 100 * PyFormat.mean(good.stream().map(Scored::frac).toList());
    double pass = 100.0 * good.stream().filter(Scored::allPass).count() / good.size();
    return new Replicate(ns, good.size(), rows.size() - good.size(), score, pass);
  }

  /**
   * The replicate section's lines: one per replicate, then the mean with its standard error, then the partial
   * replicates (a task ungraded: an absence, never a zero) the mean includes over their graded tasks. Under aggregate
   * disclosure, when a replicate of a cell is a single graded task, every replicate figure of that cell and their
   * mean are withheld: the pooled line and the other replicates would otherwise give that task's score away.
   */
  static List<String> lines(List<Cell> cells, boolean aggregate) {
    List<String> lines = new ArrayList<>();
    for (Cell c : cells.stream().sorted((a, b) -> ModeK.BY_K_THEN_MODE.compare(a.cell(), b.cell())).toList()) {
      boolean withheld = withheld(c, aggregate);
      for (Replicate r : c.replicates()) {
        String head = "  " + c.cell().name() + " seed=" + r.namespace().seedLabel() + " (" + r.namespace().name()
            + "): n=" + String.format(Locale.ROOT, "%3d", r.n()) + " | ungraded " + r.nUngraded() + " | ";
        String partial = r.nUngraded() == 0 ? "" : " | partial: over " + r.n() + " of " + (r.n() + r.nUngraded())
            + " tasks";
        if (r.score() == null) lines.add(head + "no graded task");
        else if (withheld) lines.add(head + "score withheld | pass withheld" + partial);
        else {
          lines.add(head + "score " + PyFormat.fixed(r.score(), 6, 2) + "% | pass " + PyFormat.fixed(r.pass(), 5, 1)
              + "%" + partial);
        }
      }
      List<String> partial = c.replicates().stream().filter(r -> r.score() != null && r.nUngraded() > 0)
          .map(r -> r.namespace().seedLabel()).toList();
      String head = "  " + c.cell().name() + ": " + c.valued() + " replicate" + (c.valued() == 1 ? "" : "s")
          + " with a graded task";
      if (c.valued() == 0) lines.add(head + " | no mean");
      else if (withheld) lines.add(head + " | mean withheld (" + singleTask(c) + ")");
      else {
        lines.add(head + " | mean score " + PyFormat.fixed(c.meanScore(), 6, 2) + "% (" + se(c.scoreSe(), 2)
            + ") | mean pass " + PyFormat.fixed(c.meanPass(), 5, 1) + "% (" + se(c.passSe(), 1) + ")");
      }
      if (!partial.isEmpty()) {
        lines.add("    " + partial.size() + " of them partial (seed " + String.join(", ", partial) + "): scored over"
            + " their graded tasks only, which favours runs whose missing tasks would have failed; a comparison gives"
            + " a partial replicate no run value");
      }
    }
    return lines;
  }

  /**
   * Why a withheld cell's figures are withheld, counted: {@code one of 5 replicates is a single task}, {@code 2 of 5
   * replicates are single tasks}, {@code its one replicate is a single task}.
   */
  static String singleTask(Cell c) {
    long single = c.replicates().stream().filter(r -> r.n() == 1).count();
    int all = c.replicates().size();
    if (all == 1) return "its one replicate is a single task";
    return (single == 1 ? "one" : String.valueOf(single)) + " of " + all + " replicates "
        + (single == 1 ? "is a single task" : "are single tasks");
  }

  /** Whether a cell's replicate figures are withheld: aggregate disclosure and a replicate of one graded task. */
  static boolean withheld(Cell c, boolean aggregate) {
    return aggregate && c.replicates().stream().anyMatch(r -> r.n() == 1);
  }

  /** {@code se 1.25 pt}, or {@code se unknown: one replicate}: one replicate has no spread to measure, not zero. */
  static String se(Double se, int places) {
    return se(se, places, "pt");
  }

  /** The same in {@code unit}. */
  static String se(Double se, int places, String unit) {
    return se == null ? "se unknown: one replicate" : "se " + PyFormat.fixed(se, 0, places) + " " + unit;
  }
}
