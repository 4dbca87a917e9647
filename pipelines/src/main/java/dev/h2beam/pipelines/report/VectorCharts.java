package dev.h2beam.pipelines.report;

import dev.h2beam.pipelines.Modes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The metric vector on the HTML page: a small multiple per objective (per mode and k, each replicate's run value and
 * their mean ± 1 standard error) and a cost-versus-score plot per mode (one point per replicate where both are
 * present). Absent run values are named, never drawn at zero; under aggregate disclosure a mode whose replicate is a
 * single task is withheld, as everywhere else.
 */
final class VectorCharts {
  private VectorCharts() {}

  private static final int W = 300;
  private static final int H = 220;
  private static final int PAD = 44;

  /** Run values of one objective per (mode, k), each replicate in namespace order. */
  static Map<ModeK, List<MetricTable.RunValue>> runValues(Map<NamespaceRef, List<Scored>> rowsByNs, Objective o,
      MetricTable table) {
    Map<ModeK, List<MetricTable.RunValue>> out = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNs.entrySet()) {
      Map<ModeK, List<Scored>> groups = new TreeMap<>(ModeK.BY_K_THEN_MODE);
      for (Scored r : e.getValue()) groups.computeIfAbsent(new ModeK(r.mode(), r.k()), x -> new ArrayList<>()).add(r);
      groups.forEach((cell, rows) -> out.computeIfAbsent(cell, x -> new ArrayList<>())
          .add(table.runValue(e.getKey(), cell, rows, o)));
    }
    return out;
  }

  /**
   * The page's section; {@code hidden} the (mode, k) cells whose replicate figures the text withholds ({@link
   * Replicates#withheld}: a replicate of a single graded task, whose score the pooled line less the other replicates'
   * values would give), withheld here in every panel too.
   */
  static String render(Map<NamespaceRef, List<Scored>> rowsByNs, List<Objective> objectives, MetricTable table,
      boolean aggregate, Set<ModeK> hidden) {
    StringBuilder b = new StringBuilder("<h2>Objectives: replicate values per mode</h2>\n<p class=\"note\">One panel"
        + " per objective: each dot a replicate's run value (the mean over its tasks), the bar the mean \u00b11"
        + " standard error across replicates. A replicate with the metric absent on any task has no run value; it is"
        + " listed, never drawn at zero.</p>\n<div>\n");
    for (Objective o : objectives) b.append(panel(o, runValues(rowsByNs, o, table), aggregate, hidden));
    b.append("</div>\n<h2>Cost versus score per mode</h2>\n<div>\n");
    Map<ModeK, List<MetricTable.RunValue>> cost = runValues(rowsByNs, new Objective("cost", false, 0), table);
    Map<ModeK, List<MetricTable.RunValue>> score = runValues(rowsByNs, new Objective("score", true, 0), table);
    Map<String, List<double[]>> byMode = new TreeMap<>(Modes.ORDER);
    // the k whose replicates' scores aggregate disclosure withholds, per mode: said, not taken for no score
    Map<String, List<Integer>> withheldKs = new TreeMap<>();
    for (ModeK cell : score.keySet()) {
      List<double[]> points = byMode.computeIfAbsent(cell.mode(), x -> new ArrayList<>());
      if (hidden.contains(cell) || withheld(score.get(cell), aggregate)) {
        withheldKs.computeIfAbsent(cell.mode(), x -> new ArrayList<>()).add(cell.k());
        continue;
      }
      List<MetricTable.RunValue> costs = cost.getOrDefault(cell, List.of());
      for (int i = 0; i < score.get(cell).size() && i < costs.size(); i++) {
        Double s = score.get(cell).get(i).value();
        Double c = costs.get(i).value();
        if (s != null && c != null) points.add(new double[] {c, s, cell.k()});
      }
    }
    byMode.forEach((mode, points) -> b.append(scatter(mode, points, withheldKs.getOrDefault(mode, List.of()))));
    return b.append("</div>\n").toString();
  }

  private static boolean withheld(List<MetricTable.RunValue> values, boolean aggregate) {
    return aggregate && values.stream().anyMatch(v -> v.tasks() == 1);
  }

  static String panel(Objective o, Map<ModeK, List<MetricTable.RunValue>> cells, boolean aggregate,
      Set<ModeK> hidden) {
    List<Double> all = new ArrayList<>();
    cells.forEach((cell, vs) -> {
      if (hidden.contains(cell) || withheld(vs, aggregate)) return;
      for (MetricTable.RunValue v : vs) if (v.value() != null) all.add(v.value());
    });
    double lo = all.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double hi = all.stream().mapToDouble(Double::doubleValue).max().orElse(1);
    if (hi - lo < 1e-9) {
      lo -= 1;
      hi += 1;
    }
    StringBuilder b = svg(o.metric() + " per mode").append(txt(8, 16, o.label(), "start", 11));
    b.append(txt(PAD - 4, PAD + 4, PyFormat.fixed(hi, 0, o.places()), "end", 10))
        .append(txt(PAD - 4, H - PAD + 4, PyFormat.fixed(lo, 0, o.places()), "end", 10));
    int i = 0;
    for (Map.Entry<ModeK, List<MetricTable.RunValue>> e : cells.entrySet()) {
      double x = PAD + (W - 2 * PAD) * (i++ + 0.5) / cells.size();
      String colour = HtmlReport.COLOURS.getOrDefault(e.getKey().mode(), "#555");
      b.append(txt(x, H - PAD + 18, e.getKey().name(), "middle", 10));
      if (hidden.contains(e.getKey()) || withheld(e.getValue(), aggregate)) {
        b.append(txt(x, H / 2.0, "withheld", "middle", 10));
        continue;
      }
      List<Double> values = new ArrayList<>();
      int absent = 0;
      for (MetricTable.RunValue v : e.getValue()) {
        if (v.value() == null) {
          absent++;
          continue;
        }
        values.add(v.value());
        b.append("<circle cx=\"").append(f(x - 8)).append("\" cy=\"").append(f(y(v.value(), lo, hi)))
            .append("\" r=\"3.5\" fill=\"").append(colour).append("\" fill-opacity=\"0.6\"/>\n");
      }
      if (!values.isEmpty()) {
        double mean = PyFormat.mean(values);
        Double se = PyFormat.standardError(values);
        double half = se == null ? 0 : se;
        b.append(line(x + 8, y(mean + half, lo, hi), x + 8, y(mean - half, lo, hi), colour))
            .append(line(x + 2, y(mean, lo, hi), x + 14, y(mean, lo, hi), colour));
      }
      if (absent > 0) b.append(txt(x, H - PAD + 30, absent + " absent", "middle", 10));
    }
    return b.append("</svg>\n").toString();
  }

  /**
   * One mode's plot; {@code withheldKs} the k whose replicates' scores aggregate disclosure withholds (a replicate of
   * a single task), said on the plot rather than read as replicates without a score.
   */
  static String scatter(String mode, List<double[]> points, List<Integer> withheldKs) {
    String colour = HtmlReport.COLOURS.getOrDefault(mode, "#555");
    StringBuilder b = svg("cost versus score, " + ModeK.human(mode))
        .append(txt(PAD, 16, ModeK.human(mode) + ": cost (usd) versus score (%)", "start", 13));
    String withheld = withheldKs.isEmpty() ? null : "k=" + String.join(",", withheldKs.stream()
        .map(String::valueOf).toList()) + ": scores withheld under aggregate disclosure";
    if (withheld != null) b.append(txt(W / 2.0, H - 8, withheld, "middle", 10));
    if (points.isEmpty()) {
      String why = withheld != null ? "withheld under aggregate disclosure" : "no replicate has both cost and score";
      return b.append(txt(W / 2.0, H / 2.0, why, "middle", 11)).append("</svg>\n").toString();
    }
    double cLo = points.stream().mapToDouble(p -> p[0]).min().orElse(0);
    double cHi = points.stream().mapToDouble(p -> p[0]).max().orElse(1);
    if (cHi - cLo < 1e-9) {
      cLo = Math.max(0, cLo - 0.01);
      cHi += 0.01;
    }
    b.append(txt(PAD, H - PAD + 18, "$" + PyFormat.fixed(cLo, 0, 4), "start", 10))
        .append(txt(W - PAD, H - PAD + 18, "$" + PyFormat.fixed(cHi, 0, 4), "end", 10))
        .append(txt(PAD - 4, PAD + 4, "100%", "end", 10)).append(txt(PAD - 4, H - PAD + 4, "0%", "end", 10));
    for (double[] p : points) {
      double x = PAD + (W - 2 * PAD) * (p[0] - cLo) / (cHi - cLo);
      b.append("<circle cx=\"").append(f(x)).append("\" cy=\"").append(f(y(p[1], 0, 100)))
          .append("\" r=\"4\" fill=\"").append(colour).append("\"/>\n")
          .append(txt(x + 6, y(p[1], 0, 100) - 4, "k=" + (int) p[2], "start", 9));
    }
    return b.append("</svg>\n").toString();
  }

  private static StringBuilder svg(String label) {
    return new StringBuilder("<svg width=\"" + W + "\" height=\"" + H + "\" viewBox=\"0 0 " + W + " " + H
        + "\" role=\"img\" aria-label=\"" + HtmlReport.esc(label) + "\">\n<rect x=\"0\" y=\"0\" width=\"" + W
        + "\" height=\"" + H + "\" fill=\"#ffffff\" stroke=\"#ddd\"/>\n")
        .append(line(PAD, PAD, PAD, H - PAD, "#333")).append(line(PAD, H - PAD, W - PAD, H - PAD, "#333"));
  }

  private static double y(double v, double lo, double hi) {
    return H - PAD - (H - 2 * PAD) * (v - lo) / (hi - lo);
  }

  private static String line(double x1, double y1, double x2, double y2, String colour) {
    return "<line x1=\"" + f(x1) + "\" y1=\"" + f(y1) + "\" x2=\"" + f(x2) + "\" y2=\"" + f(y2) + "\" stroke=\""
        + colour + "\" stroke-width=\"1.5\"/>\n";
  }

  private static String txt(double x, double y, String s, String anchor, int size) {
    return "<text x=\"" + f(x) + "\" y=\"" + f(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"" + size
        + "\" fill=\"#222\">" + HtmlReport.esc(s) + "</text>\n";
  }

  private static String f(double v) {
    return PyFormat.fixed(v, 0, 1);
  }
}
