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
 * present); with {@code report --versus}, the same for the two methods side by side. Absent run values are named,
 * never drawn at zero; under aggregate disclosure a mode whose replicate is a single task is withheld, as everywhere
 * else.
 */
final class VectorCharts {
  private VectorCharts() {}

  private static final int W = 300;
  private static final int H = 220;
  private static final int PAD = 44;
  /** The {@code --versus} side's colour in the methods' charts, beside gated's own for the other side. */
  static final String VERSUS_COLOUR = "#7a4fa3";

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
    for (Objective o : objectives) {
      List<Column> columns = new ArrayList<>();
      runValues(rowsByNs, o, table).forEach((cell, vs) -> columns.add(new Column(cell.name(),
          HtmlReport.COLOURS.getOrDefault(cell.mode(), "#555"), vs, hidden.contains(cell) || withheld(vs, aggregate))));
      b.append(panel(o.metric() + " per mode", o, columns));
    }
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
      points.addAll(points(score.get(cell), cost.getOrDefault(cell, List.of()), cell.k()));
    }
    byMode.forEach((mode, points) -> {
      List<Integer> ks = withheldKs.getOrDefault(mode, List.of());
      String withheld = ks.isEmpty() ? null : "k=" + String.join(",", ks.stream().map(String::valueOf).toList());
      b.append(scatter("cost versus score, " + ModeK.human(mode), ModeK.human(mode) + ": cost (usd) versus score (%)",
          List.of(new Series("k=", HtmlReport.COLOURS.getOrDefault(mode, "#555"), points)), withheld));
    });
    return b.append("</div>\n").toString();
  }

  /** Each replicate's (cost, score, k) where both figures are present, in namespace order. */
  private static List<double[]> points(List<MetricTable.RunValue> score, List<MetricTable.RunValue> cost, int k) {
    List<double[]> out = new ArrayList<>();
    for (int i = 0; i < score.size() && i < cost.size(); i++) {
      Double s = score.get(i).value();
      Double c = cost.get(i).value();
      if (s != null && c != null) out.add(new double[] {c, s, k});
    }
    return out;
  }

  /**
   * The methods comparison's section ({@code report --versus}): per objective, each side's gated replicates at each k
   * both sides ran, side by side (A the {@code --namespaces} side, B the {@code --versus} side), and both sides on one
   * cost-versus-score plot. A column whose figures the text withholds is withheld here too: {@code hidden} the
   * {@code --namespaces} side's cells, {@code sides.hidden()} the other side's.
   */
  static String methods(MethodComparison.Sides sides, List<Objective> objectives, MetricTable table,
      boolean aggregate, Set<ModeK> hidden) {
    String a = HtmlReport.COLOURS.get(Report.GATED);
    StringBuilder b = new StringBuilder("<h2>Methods: replicate values per objective</h2>\n<p class=\"note\">A: "
        + HtmlReport.esc(sides.first()) + ", the " + MethodComparison.FIRST + " side (" + a + "); B: "
        + HtmlReport.esc(sides.second()) + ", the " + MethodComparison.SECOND + " side (" + VERSUS_COLOUR + "); at each"
        + " k both sides ran. Each dot a replicate's run value, the bar the mean \u00b11 standard error across"
        + " replicates; the paired comparison is in the text below.</p>\n<div>\n");
    for (Objective o : objectives) {
      Map<ModeK, List<MetricTable.RunValue>> first = runValues(sides.firstRows(), o, table);
      Map<ModeK, List<MetricTable.RunValue>> second = runValues(sides.secondRows(), o, table);
      List<Column> columns = new ArrayList<>();
      for (int k : sides.ks()) {
        ModeK cell = new ModeK(Report.GATED, k);
        List<MetricTable.RunValue> x = first.getOrDefault(cell, List.of());
        List<MetricTable.RunValue> y = second.getOrDefault(cell, List.of());
        columns.add(new Column("A k=" + k, a, x, hidden.contains(cell) || withheld(x, aggregate)));
        columns.add(new Column("B k=" + k, VERSUS_COLOUR, y, sides.hidden().contains(cell) || withheld(y, aggregate)));
      }
      b.append(panel(o.metric() + " per method", o, columns));
    }
    Objective costO = new Objective("cost", false, 0);
    Objective scoreO = new Objective("score", true, 0);
    List<Series> series = new ArrayList<>();
    List<String> withheldColumns = new ArrayList<>();
    for (int side = 0; side < 2; side++) {
      Map<NamespaceRef, List<Scored>> rows = side == 0 ? sides.firstRows() : sides.secondRows();
      Set<ModeK> sideHidden = side == 0 ? hidden : sides.hidden();
      String name = side == 0 ? "A" : "B";
      Map<ModeK, List<MetricTable.RunValue>> cost = runValues(rows, costO, table);
      Map<ModeK, List<MetricTable.RunValue>> score = runValues(rows, scoreO, table);
      List<double[]> points = new ArrayList<>();
      for (int k : sides.ks()) {
        ModeK cell = new ModeK(Report.GATED, k);
        List<MetricTable.RunValue> s = score.getOrDefault(cell, List.of());
        if (sideHidden.contains(cell) || withheld(s, aggregate)) withheldColumns.add(name + " k=" + k);
        else points.addAll(points(s, cost.getOrDefault(cell, List.of()), k));
      }
      series.add(new Series(name + " k=", side == 0 ? a : VERSUS_COLOUR, points));
    }
    b.append(scatter("cost versus score, methods", "A and B: cost (usd) versus score (%)", series,
        withheldColumns.isEmpty() ? null : String.join(", ", withheldColumns)));
    return b.append("</div>\n").toString();
  }

  private static boolean withheld(List<MetricTable.RunValue> values, boolean aggregate) {
    return aggregate && values.stream().anyMatch(v -> v.tasks() == 1);
  }

  /**
   * One column of an objective's panel: its label under the axis, its colour, its replicates' run values, and
   * whether its figures are withheld (drawn as the word, never as dots).
   */
  record Column(String label, String colour, List<MetricTable.RunValue> values, boolean withheld) {}

  /** One series of a cost-versus-score plot: each point's label prefix (before its k), its colour, its points. */
  record Series(String prefix, String colour, List<double[]> points) {}

  static String panel(String title, Objective o, List<Column> columns) {
    List<Double> all = new ArrayList<>();
    for (Column c : columns) {
      if (c.withheld()) continue;
      for (MetricTable.RunValue v : c.values()) if (v.value() != null) all.add(v.value());
    }
    double lo = all.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double hi = all.stream().mapToDouble(Double::doubleValue).max().orElse(1);
    if (hi - lo < 1e-9) {
      lo -= 1;
      hi += 1;
    }
    StringBuilder b = svg(title).append(txt(8, 16, o.label(), "start", 11));
    b.append(txt(PAD - 4, PAD + 4, PyFormat.fixed(hi, 0, o.places()), "end", 10))
        .append(txt(PAD - 4, H - PAD + 4, PyFormat.fixed(lo, 0, o.places()), "end", 10));
    int i = 0;
    for (Column c : columns) {
      double x = PAD + (W - 2 * PAD) * (i++ + 0.5) / columns.size();
      String colour = c.colour();
      b.append(txt(x, H - PAD + 18, c.label(), "middle", 10));
      if (c.withheld()) {
        b.append(txt(x, H / 2.0, "withheld", "middle", 10));
        continue;
      }
      List<Double> values = new ArrayList<>();
      int absent = 0;
      for (MetricTable.RunValue v : c.values()) {
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
   * A cost-versus-score plot of {@code series} (a mode's, or each method's); {@code withheld} the columns (as "k=2,3")
   * whose replicates' scores aggregate disclosure withholds (a replicate of a single task), said on the plot rather
   * than read as replicates without a score; null for none.
   */
  static String scatter(String label, String title, List<Series> series, String withheld) {
    StringBuilder b = svg(label).append(txt(PAD, 16, title, "start", 13));
    if (withheld != null) b.append(txt(W / 2.0, H - 8, withheld + ": scores withheld under aggregate disclosure",
        "middle", 10));
    List<double[]> points = series.stream().flatMap(x -> x.points().stream()).toList();
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
    for (Series s : series) {
      for (double[] p : s.points()) {
        double x = PAD + (W - 2 * PAD) * (p[0] - cLo) / (cHi - cLo);
        b.append("<circle cx=\"").append(f(x)).append("\" cy=\"").append(f(y(p[1], 0, 100)))
            .append("\" r=\"4\" fill=\"").append(s.colour()).append("\"/>\n")
            .append(txt(x + 6, y(p[1], 0, 100) - 4, s.prefix() + (int) p[2], "start", 9));
      }
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
