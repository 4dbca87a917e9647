package dev.h2beam.pipelines.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The judge's own spread (replicate-mean/v1 keeps it apart from the execution standard error): a stochastic judge that
 * graded each selected output several times ({@code --judgeRepeats}) records per row the sample sd of its repeated
 * scores; per mode and k the report gives the mean of those per-row sds, in points, beside (never folded into) the
 * standard error across replicates. Rows graded once measure no judge spread: it is unknown there, not zero.
 */
final class JudgeSpread {
  private JudgeSpread() {}

  /** The section's lines; empty when no row carries repeats, so a run judged once reads as before. */
  static List<String> lines(Map<NamespaceRef, List<Scored>> rowsByNs, List<Replicates.Cell> cells,
      boolean aggregate) {
    Map<ModeK, List<Double>> sds = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    Map<ModeK, Integer> graded = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    // the tasks each cell's spread is over: one task's, in any number of seeds, is that task's figure (dogAL F4)
    Map<ModeK, java.util.Set<String>> tasks = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    boolean any = false;
    for (List<Scored> rows : rowsByNs.values()) {
      for (Scored r : rows) {
        ModeK cell = new ModeK(r.mode(), r.k());
        List<Double> mine = sds.computeIfAbsent(cell, x -> new ArrayList<>());
        if (!r.graded()) continue;
        graded.merge(cell, 1, Integer::sum);
        if (r.repeatSd() != null) {
          mine.add(100 * r.repeatSd());
          tasks.computeIfAbsent(cell, x -> new java.util.TreeSet<>()).add(r.taskId());
          any = true;
        }
      }
    }
    if (!any) return List.of();
    Map<ModeK, Replicates.Cell> byCell = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    for (Replicates.Cell c : cells) byCell.put(c.cell(), c);
    List<String> lines = new ArrayList<>();
    lines.add("");
    lines.add("Judge spread (--judgeRepeats: mean over rows of the sd of each row's repeated grades), apart from the"
        + " execution standard error across replicates");
    sds.forEach((cell, values) -> {
      StringBuilder b = new StringBuilder("  " + cell.name() + ": judge spread ");
      if (values.isEmpty()) b.append("unknown (no row graded twice)");
      else if (aggregate && values.size() == 1) b.append("withheld (a single row)");
      else if (aggregate && tasks.get(cell).size() == 1) {
        b.append("withheld (").append(values.size()).append(" rows of a single task)");
      }
      else b.append(PyFormat.fixed(PyFormat.mean(values), 0, 2)).append(" pt over ").append(values.size())
          .append(" of ").append(graded.getOrDefault(cell, 0)).append(" graded rows");
      Replicates.Cell c = byCell.get(cell);
      b.append(" | execution ");
      if (c == null || c.meanScore() == null) b.append("se: no graded replicate");
      else if (Replicates.withheld(c, aggregate)) {
        b.append("se withheld (").append(Replicates.singleTask(c)).append(")");
      } else b.append(Replicates.se(c.scoreSe(), 2)).append(" across ").append(c.valued()).append(" replicate")
          .append(c.valued() == 1 ? "" : "s");
      lines.add(b.toString());
    });
    return lines;
  }
}
