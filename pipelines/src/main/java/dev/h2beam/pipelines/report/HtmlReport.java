package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.Modes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched) with score versus k per
 * mode, the k=1 noise-floor band, error bars of ±1 standard error where replicates exist, the coverage (n and
 * ungraded) of every point, spend per mode, model tokens per mode (when the runs counted any), and the text report
 * itself. Withheld figures are neither plotted nor printed; a figure not known is said, never drawn as 0.
 */
final class HtmlReport {
  private HtmlReport() {}

  static final Map<String, String> COLOURS = Map.of("agg", "#1f6fb4", "seq", "#c8302b", "gat", "#2a8a3e");
  /**
   * Where a point's label sits, in pixels below the point (negative: above): parallel above, sequential below,
   * gated below that, so that labels of one k do not overlap; the coverage line follows away from the point.
   */
  private static final Map<String, Integer> LABEL_DY = Map.of("agg", -16, "seq", 22, "gat", 50);
  private static final int W = 960;
  private static final int H = 510;
  private static final int LEFT = 70;
  private static final int RIGHT = 230;
  private static final int TOP = 100;
  private static final int BOTTOM = 60;

  /**
   * What the page shows; {@code text} is the whole text report as released. {@code improverUnknown} and
   * {@code executorUnknown} count, per cell, the improver stages and selections and the rollouts whose cost is not
   * known (left out of the spend; a cell without any is not in them); {@code deadBases} is what the base rollouts of
   * the reported tasks whose every base failed cost, which no mode's ledger holds, and {@code deadBasesByCell} the
   * part of them each cell is charged (a namespace's, to each mode reported there, as ledgers charge shared bases);
   * {@code tokens} the model tokens each cell spent ({@link Render#tokens}), shown in a column of the table and a
   * chart of their own when some cell counted or left out any.
   */
  record Page(String title, String text, List<Summary> summaries, List<Replicates.Cell> replicates,
      Map<ModeK, Double> executorUsd, Disclosure disclosure, Predicate<Summary> withheld,
      Map<ModeK, Integer> improverUnknown, Map<ModeK, Integer> executorUnknown, Render.DeadBaseSpend deadBases,
      Map<ModeK, TaskSummary.TokenCount> tokens, Map<ModeK, Render.DeadBaseSpend> deadBasesByCell) {

    /** A page whose every cost is known, of tasks that all had a base. */
    Page(String title, String text, List<Summary> summaries, List<Replicates.Cell> replicates,
        Map<ModeK, Double> executorUsd, Disclosure disclosure, Predicate<Summary> withheld) {
      this(title, text, summaries, replicates, executorUsd, disclosure, withheld, Map.of(), Map.of(),
          Render.DeadBaseSpend.NONE, Map.of(), Map.of());
    }
  }

  static String render(Page p) {
    return render(p, "");
  }

  /** The page with {@code vector} (the objectives' charts, already rendered) before the text report. */
  static String render(Page p, String vector) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>h2beam report: ")
        .append(esc(p.title())).append("</title>\n<style>\n")
        .append("body{font-family:DejaVu Sans,Arial,sans-serif;margin:24px;color:#111;background:#fff}\n")
        .append("h1{font-size:22px}h2{font-size:17px;margin-top:28px}\n")
        .append("table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #bbb;padding:3px 8px}")
        .append("td{text-align:right}td.l,th{text-align:left}\n")
        .append("pre{background:#f4f4f4;border:1px solid #ddd;padding:10px;font-size:12px;white-space:pre-wrap}\n")
        .append(".note{color:#444;font-size:13px}\n</style>\n</head>\n<body>\n");
    b.append("<h1>").append(esc(p.title())).append("</h1>\n");
    b.append("<p class=\"note\">Disclosure: ").append(p.disclosure().flag).append(" -- ")
        .append(p.disclosure() == Disclosure.AGGREGATE
            ? "per-task scores, figures over a single task and successful-tasks slices are withheld from this page."
            : "per-task scores and successful-tasks slices are released (see the text report below).")
        .append(" Ungraded rows are absences, never zeros: every figure is over graded rows only.</p>\n");
    b.append("<h2>Score versus k</h2>\n").append(scoreChart(p));
    b.append("<h2>Coverage and figures</h2>\n").append(table(p));
    b.append("<h2>Spend per mode</h2>\n").append(spendChart(p));
    if (showsTokens(p)) b.append("<h2>Model tokens per mode</h2>\n").append(tokensChart(p));
    b.append(vector);
    b.append("<h2>Text report</h2>\n<pre>").append(esc(p.text())).append("</pre>\n</body>\n</html>\n");
    return b.toString();
  }

  /**
   * The value plotted for a cell: the replicate mean with its se when two or more replicates have a graded task and
   * none is withheld, else ({@code pooled}) the score over every graded task of the cell.
   *
   * @param partial the replicates with a graded task and an ungraded one, scored over their graded tasks only
   * @param withheldMean the replicate mean is withheld under aggregate disclosure (a replicate of a single task)
   */
  record Point(ModeK cell, double value, Double se, int replicates, int partial, boolean pooled,
      boolean withheldMean, Summary summary) {}

  static List<Point> points(Page p) {
    Map<ModeK, Replicates.Cell> reps = new TreeMap<>();
    for (Replicates.Cell c : p.replicates()) reps.put(c.cell(), c);
    List<Point> out = new ArrayList<>();
    for (Summary s : p.summaries()) {
      if (s.score() == null || p.withheld().test(s)) continue;
      Replicates.Cell c = reps.get(s.cell());
      boolean anyWithheld = c != null && Replicates.withheld(c, p.disclosure() == Disclosure.AGGREGATE);
      int partial = c == null ? 0 : (int) c.replicates().stream().filter(r -> r.score() != null && r.nUngraded() > 0)
          .count();
      if (c != null && c.valued() >= 2 && !anyWithheld) {
        out.add(new Point(s.cell(), c.meanScore(), c.scoreSe(), c.valued(), partial, false, false, s));
      } else {
        out.add(new Point(s.cell(), s.score(), null, c == null ? 1 : c.valued(), partial, true,
            anyWithheld && c.valued() >= 2, s));
      }
    }
    return out;
  }

  /**
   * The score chart's caption: which statistic its points are (the replicate mean, the pooled graded mean, or each
   * as labelled), and, when a point's replicates include partial ones, what that favours.
   */
  static List<String> caption(List<Point> points) {
    boolean pooled = points.stream().anyMatch(Point::pooled);
    boolean means = points.stream().anyMatch(q -> !q.pooled());
    String withheld = points.stream().anyMatch(Point::withheldMean)
        ? "; the replicate mean is withheld under aggregate disclosure where a replicate is a single task" : "";
    List<String> lines = new ArrayList<>();
    lines.add(!pooled ? "points: the replicate mean (over seeds) with bars of \u00b11 standard error"
        : !means ? "points: the pooled score over every graded task of the mode and k" + withheld
        : "points: the replicate mean (over seeds) with bars of \u00b11 standard error (labelled with its"
            + " replicates), or, without bars, the pooled score over every graded task" + withheld);
    if (points.stream().anyMatch(q -> q.partial() > 0)) {
      lines.add("partial: a replicate with ungraded tasks, scored over its graded tasks only, which favours runs"
          + " whose missing tasks would have failed");
    }
    return lines;
  }

  /**
   * What a point's label adds to its value: {@code  ± 2.50 (3 replicates, 1 partial)} for a replicate mean;
   * {@code  pooled (1 partial of 3 replicates)} for a pooled score over two or more replicates (not their mean);
   * {@code  (partial)} for a single partial replicate.
   */
  static String pointNote(Point q) {
    if (!q.pooled()) {
      return (q.se() == null ? "" : " ± " + PyFormat.fixed(q.se(), 0, 2)) + " (" + q.replicates() + " replicates"
          + (q.partial() == 0 ? "" : ", " + q.partial() + " partial") + ")";
    }
    if (q.replicates() < 2) return q.partial() == 0 ? "" : " (partial)";
    return " pooled" + (q.partial() == 0 ? "" : " (" + q.partial() + " partial of " + q.replicates()
        + " replicates)");
  }

  static String scoreChart(Page p) {
    List<Point> points = points(p);
    TreeSet<Integer> ks = new TreeSet<>();
    for (Summary s : p.summaries()) ks.add(s.cell().k());
    List<Integer> kList = new ArrayList<>(ks);
    int plotW = W - LEFT - RIGHT;
    int plotH = H - TOP - BOTTOM;
    StringBuilder b = new StringBuilder();
    b.append("<svg width=\"").append(W).append("\" height=\"").append(H).append("\" viewBox=\"0 0 ").append(W)
        .append(' ').append(H).append("\" role=\"img\" aria-label=\"score versus k per mode\">\n");
    b.append("<rect x=\"0\" y=\"0\" width=\"").append(W).append("\" height=\"").append(H)
        .append("\" fill=\"#ffffff\"/>\n");
    for (int v = 0; v <= 100; v += 20) {
      double y = y(v, plotH);
      b.append(line(LEFT, y, LEFT + plotW, y, "#dddddd", 1));
      b.append(text(LEFT - 8, y + 4, v + "%", "end", 12, "#333"));
    }
    b.append(line(LEFT, TOP, LEFT, TOP + plotH, "#333", 1.5)).append(line(LEFT, TOP + plotH, LEFT + plotW,
        TOP + plotH, "#333", 1.5));
    for (int i = 0; i < kList.size(); i++) {
      b.append(text(x(i, kList.size(), plotW), TOP + plotH + 20, "k=" + kList.get(i), "middle", 13, "#111"));
    }
    b.append(text(LEFT + plotW / 2.0, H - 12, "task-level budget k (4k rollouts, 3k improver stages per task)",
        "middle", 12, "#333"));
    b.append(text(16, TOP + plotH / 2.0, "score (mean over graded tasks)", "middle", 12, "#333")
        .replace("<text ", "<text transform=\"rotate(-90 16 " + (TOP + plotH / 2.0) + ")\" "));
    Summary a1 = find(p.summaries(), "agg", 1);
    Summary s1 = find(p.summaries(), "seq", 1);
    double legendX = LEFT;
    int legendY = 24;
    for (String mode : Namespace.MODES) {
      if (points.stream().noneMatch(q -> q.cell().mode().equals(mode))) continue;
      String colour = COLOURS.get(mode);
      b.append(line(legendX, legendY - 4, legendX + 28, legendY - 4, colour, 3));
      b.append(text(legendX + 34, legendY, ModeK.human(mode), "start", 13, colour));
      legendX += 130;
    }
    // a third series leaves no room for the band's legend on the first row: it moves to the second, the note below
    int series = (int) Namespace.MODES.stream().filter(m -> points.stream().anyMatch(q -> q.cell().mode().equals(m)))
        .count();
    int bandY = series > 2 ? legendY + 22 : legendY;
    if (series > 2) legendX = LEFT;
    if (a1 != null && s1 != null && a1.score() != null && s1.score() != null && !p.withheld().test(a1)
        && !p.withheld().test(s1)) {
      double lo = Math.min(a1.score(), s1.score());
      double hi = Math.max(a1.score(), s1.score());
      double top = y(hi, plotH);
      double height = Math.max(2, y(lo, plotH) - top);
      b.append("<rect x=\"").append(LEFT).append("\" y=\"").append(fmt(top)).append("\" width=\"").append(plotW)
          .append("\" height=\"").append(fmt(height)).append("\" fill=\"#f2c94c\" fill-opacity=\"0.45\"/>\n");
      b.append("<rect x=\"").append(fmt(legendX)).append("\" y=\"").append(bandY - 10)
          .append("\" width=\"28\" height=\"12\" fill=\"#f2c94c\" fill-opacity=\"0.6\"/>\n");
      b.append(text(legendX + 34, bandY, "k=1 noise floor: " + PyFormat.fixed(hi - lo, 0, 2) + " pt (the"
          + " parallel-sequential gap where both modes are the same procedure)", "start", 12, "#7a5b00"));
    }
    List<String> caption = caption(points);
    for (int i = 0; i < caption.size(); i++) b.append(text(LEFT, bandY + 22 + 14 * i, caption.get(i), "start", 11,
        "#333"));
    for (String mode : Namespace.MODES) {
      List<Point> mine = points.stream().filter(q -> q.cell().mode().equals(mode)).toList();
      if (mine.isEmpty()) continue;
      String colour = COLOURS.get(mode);
      StringBuilder poly = new StringBuilder();
      for (Point q : mine) {
        poly.append(fmt(x(kList.indexOf(q.cell().k()), kList.size(), plotW))).append(',')
            .append(fmt(y(q.value(), plotH))).append(' ');
      }
      if (mine.size() > 1) {
        b.append("<polyline points=\"").append(poly.toString().strip()).append("\" fill=\"none\" stroke=\"")
            .append(colour).append("\" stroke-width=\"2.5\"/>\n");
      }
      int dy = LABEL_DY.get(mode);
      for (Point q : mine) {
        double cx = x(kList.indexOf(q.cell().k()), kList.size(), plotW);
        double cy = y(q.value(), plotH);
        if (q.se() != null) {
          double up = y(Math.min(100, q.value() + q.se()), plotH);
          double down = y(Math.max(0, q.value() - q.se()), plotH);
          b.append(line(cx, up, cx, down, colour, 2)).append(line(cx - 6, up, cx + 6, up, colour, 2))
              .append(line(cx - 6, down, cx + 6, down, colour, 2));
        }
        b.append("<circle cx=\"").append(fmt(cx)).append("\" cy=\"").append(fmt(cy)).append("\" r=\"5\" fill=\"")
            .append(colour).append("\"/>\n");
        String label = PyFormat.fixed(q.value(), 0, 2) + "%" + pointNote(q);
        String coverage = "n=" + q.summary().n() + ", ungraded " + q.summary().nUngraded();
        double ty = cy + dy;
        b.append(text(cx + 10, ty, label, "start", 12, colour));
        b.append(text(cx + 10, ty + Integer.signum(dy) * 14, coverage, "start", 11, "#333"));
      }
    }
    if (points.isEmpty()) {
      b.append(text(LEFT + plotW / 2.0, TOP + plotH / 2.0, "no figure to plot (nothing graded, or withheld)",
          "middle", 14, "#555"));
    }
    b.append("</svg>\n");
    return b.toString();
  }

  static String table(Page p) {
    Map<ModeK, Replicates.Cell> reps = new TreeMap<>();
    for (Replicates.Cell c : p.replicates()) reps.put(c.cell(), c);
    boolean tokens = Render.saysTokens(p.tokens());
    StringBuilder b = new StringBuilder("<table>\n<tr><th>mode, k</th><th>n (graded)</th><th>ungraded</th>"
        + "<th>score</th><th>pass</th><th>replicates</th><th>replicate mean ± se</th><th>fell back</th>"
        + "<th>improver spend</th><th>executor spend</th>" + (tokens ? "<th>model tokens (in / out)</th>" : "")
        + "</tr>\n");
    for (Summary s : p.summaries().stream().sorted((a, c) -> ModeK.BY_K_THEN_MODE.compare(a.cell(), c.cell()))
        .toList()) {
      boolean hidden = p.withheld().test(s);
      Replicates.Cell c = reps.get(s.cell());
      boolean repHidden = c != null && Replicates.withheld(c, p.disclosure() == Disclosure.AGGREGATE);
      String mean = c == null || c.meanScore() == null ? "-" : repHidden ? "withheld"
          : PyFormat.fixed(c.meanScore(), 0, 2) + "% ± " + (c.scoreSe() == null ? "unknown (one replicate)"
              : PyFormat.fixed(c.scoreSe(), 0, 2) + " pt");
      b.append("<tr><td class=\"l\">").append(esc(s.name())).append("</td><td>").append(s.n()).append("</td><td>")
          .append(s.nUngraded()).append("</td><td>")
          .append(s.score() == null ? "-" : hidden ? "withheld" : PyFormat.fixed(s.score(), 0, 2) + "%")
          .append("</td><td>")
          .append(s.allPass() == null ? "-" : hidden ? "withheld" : PyFormat.fixed(s.allPass(), 0, 1) + "%")
          .append("</td><td>").append(c == null ? 0 : c.replicates().size()).append("</td><td>").append(esc(mean))
          .append("</td><td>").append(s.fellBack()).append("</td><td>").append(esc(Render.dollars(s.usd())))
          .append(notKnown(p.improverUnknown().getOrDefault(s.cell(), 0), " + ", ""))
          .append("</td><td>").append(esc(Render.dollars(p.executorUsd().getOrDefault(s.cell(), 0.0))))
          .append(notKnown(p.executorUnknown().getOrDefault(s.cell(), 0), " + ", ""))
          .append(tokens ? "</td><td>" + esc(tokenCell(p.tokens().get(s.cell()))) : "")
          .append("</td></tr>\n");
    }
    return b.append("</table>\n").toString();
  }

  static String spendChart(Page p) {
    // per mode: improver, executor, and the dead bases charged to it; and the costs not known of each
    Map<String, double[]> byMode = new TreeMap<>(Modes.ORDER);
    Map<String, int[]> unknownByMode = new TreeMap<>(Modes.ORDER);
    for (Summary s : p.summaries()) {
      Render.DeadBaseSpend charged = p.deadBasesByCell().getOrDefault(s.cell(), Render.DeadBaseSpend.NONE);
      double[] v = byMode.computeIfAbsent(s.cell().mode(), m -> new double[3]);
      v[0] += s.usd();
      v[1] += p.executorUsd().getOrDefault(s.cell(), 0.0);
      v[2] += charged.usd();
      int[] u = unknownByMode.computeIfAbsent(s.cell().mode(), m -> new int[4]);
      u[0] += p.improverUnknown().getOrDefault(s.cell(), 0);
      u[1] += p.executorUnknown().getOrDefault(s.cell(), 0);
      u[2] += charged.unknown();
      u[3] += charged.tasks();
    }
    // the dead bases of tasks whose every base failed are in no mode's ledger: each mode's bar is charged them apart
    Render.DeadBaseSpend dead = p.deadBases();
    boolean showDead = dead.tasks() > 0;
    boolean anyUnknown = unknownByMode.values().stream().anyMatch(u -> u[0] > 0 || u[1] > 0) || dead.unknown() > 0;
    double max = 0;
    for (double[] v : byMode.values()) max = Math.max(max, v[0] + v[1] + v[2]);
    // a row's dead bases are said on a line under its bar (beside it, a long label would run off the page)
    int rowH = showDead ? 50 : 34;
    // two lines more for the dead bases, and one to say what "not known" is
    int h = 30 + rowH * byMode.size() + 20 + (showDead ? 28 : 0) + (anyUnknown ? 14 : 0);
    int barMax = 520;
    StringBuilder b = barChart(h, "spend per mode");
    int y = 20;
    for (Map.Entry<String, double[]> e : byMode.entrySet()) {
      String colour = COLOURS.getOrDefault(e.getKey(), "#555");
      double[] v = e.getValue();
      double improverW = max == 0 ? 0 : barMax * v[0] / max;
      double executorW = max == 0 ? 0 : barMax * v[1] / max;
      double deadW = max == 0 ? 0 : barMax * v[2] / max;
      b.append(text(150, y + 16, ModeK.human(e.getKey()), "end", 13, colour));
      b.append(rect(160, y, Math.max(1, improverW), colour, null));
      if (executorW > 0) b.append(rect(160 + improverW, y, executorW, colour, "0.4"));
      if (deadW > 0) b.append(rect(160 + improverW + executorW, y, deadW, colour, "0.15"));
      int[] u = unknownByMode.get(e.getKey());
      String label = "improver " + Render.dollars(v[0]) + notKnown(u[0], " (+ ", ")")
          + (v[1] > 0 || u[1] > 0 ? " + executor " + Render.dollars(v[1])
              + notKnown(u[1], " (+ ", ")") : "");
      b.append(text(170 + improverW + executorW + deadW, y + 16, label, "start", 12, "#111"));
      if (u[3] > 0) {
        b.append(text(160, y + 36, "+ dead bases " + Render.dollars(v[2]) + notKnown(u[2], " (+ ", ")")
            + " (the lightest part)", "start", 11, "#111"));
      }
      y += rowH;
    }
    int noteY = y + 12;
    b.append(text(160, noteY, "improver = editors, composer, selection, reflection; executor only when reported",
        "start", 11, "#444"));
    if (showDead) {
      noteY += 14;
      b.append(text(160, noteY, "base rollouts of " + dead.tasks() + " task(s) whose every base failed, in no mode's"
          + " ledger: " + Render.dollars(dead.usd()) + notKnown(dead.unknown(), " (+ ", ")"), "start", 11,
          "#111"));
      noteY += 14;
      b.append(text(160, noteY, "dead bases = those, charged to each mode (the lightest part of its bar) as its"
          + " ledger holds its tasks' shared bases; each ran once", "start", 11, "#444"));
    }
    if (anyUnknown) {
      noteY += 14;
      b.append(text(160, noteY, "not known = stages, selections or rollouts whose cost is not known: left out of the"
          + " bars and amounts, not zero", "start", 11, "#444"));
    }
    return b.append("</svg>\n").toString();
  }

  /** Whether the page has a tokens chart: on the condition the text has its tokens lines ({@link Render#tokens}). */
  static boolean showsTokens(Page p) {
    return Render.saysTokens(p.tokens()) || p.deadBases().tokens().says();
  }

  /**
   * The model tokens per mode as bars beside the spend's: input, then output (lighter), then the dead bases charged
   * to the mode (lightest), over its reported cells. A count that is only the part counted ends in a dashed tail and
   * says so; a mode whose tasks record no count has no bar (a bar of 0 would say it spent none), only the words.
   */
  static String tokensChart(Page p) {
    Map<String, TaskSummary.TokenCount> byMode = new TreeMap<>(Modes.ORDER);
    Map<String, TaskSummary.TokenCount> deadByMode = new TreeMap<>(Modes.ORDER);
    Map<String, Integer> deadTasks = new TreeMap<>(Modes.ORDER);
    // the cells no summary of the mode was read for: nothing of theirs is counted, and they are not a known 0
    Map<String, Integer> unread = new TreeMap<>(Modes.ORDER);
    for (Summary s : p.summaries()) {
      String mode = s.cell().mode();
      TaskSummary.TokenCount c = p.tokens().get(s.cell());
      byMode.merge(mode, c == null ? TaskSummary.TokenCount.NONE : c, TaskSummary.TokenCount::plus);
      unread.merge(mode, c == null ? 1 : 0, Integer::sum);
      Render.DeadBaseSpend charged = p.deadBasesByCell().getOrDefault(s.cell(), Render.DeadBaseSpend.NONE);
      deadByMode.merge(mode, charged.tokens(), TaskSummary.TokenCount::plus);
      deadTasks.merge(mode, charged.tasks(), Integer::sum);
    }
    long max = 0;
    for (String mode : byMode.keySet()) {
      TaskSummary.TokenCount c = byMode.get(mode);
      TaskSummary.TokenCount d = deadByMode.get(mode);
      max = Math.max(max, c.input() + c.output() + d.input() + d.output());
    }
    boolean anyPartial = false;
    // a bar's amount beside it, what it leaves out and its dead bases on a line under it
    int rowH = 50;
    int h = 30 + rowH * byMode.size() + 20 + 28;
    int barMax = 520;
    StringBuilder b = barChart(h, "model tokens per mode");
    int y = 20;
    for (Map.Entry<String, TaskSummary.TokenCount> e : byMode.entrySet()) {
      String colour = COLOURS.getOrDefault(e.getKey(), "#555");
      TaskSummary.TokenCount c = e.getValue();
      TaskSummary.TokenCount d = deadByMode.get(e.getKey());
      int dead = deadTasks.get(e.getKey());
      int cellsUnread = unread.get(e.getKey());
      b.append(text(150, y + 16, ModeK.human(e.getKey()), "end", 13, colour));
      // counted: something was counted, or the count is a known nothing (every task of every cell recorded one)
      boolean counted = c.input() + c.output() > 0 || c.partial() > 0 || (c.notRecorded() == 0 && cellsUnread == 0);
      double inW = max == 0 ? 0 : barMax * (double) c.input() / max;
      double outW = max == 0 ? 0 : barMax * (double) c.output() / max;
      double deadW = max == 0 ? 0 : barMax * (double) (d.input() + d.output()) / max;
      double x = 160;
      if (counted) {
        b.append(rect(x, y, Math.max(1, inW), colour, null));
        x += Math.max(1, inW);
        if (outW > 0) b.append(rect(x, y, outW, colour, "0.4"));
        x += outW;
      }
      if (deadW > 0) b.append(rect(x, y, deadW, colour, "0.15"));
      x += deadW;
      boolean partial = c.partial() > 0 || (counted && c.notRecorded() + cellsUnread > 0) || d.partial() > 0
          || d.notRecorded() > 0;
      if (partial) {
        anyPartial = true;
        b.append("<line x1=\"").append(fmt(x)).append("\" y1=\"").append(y + 11).append("\" x2=\"")
            .append(fmt(x + 24)).append("\" y2=\"").append(y + 11).append("\" stroke=\"").append(colour)
            .append("\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>\n");
        x += 24;
      }
      b.append(text(x + 10, y + 16, counted ? c.input() + " in + " + c.output() + " out" : "not recorded", "start",
          12, "#111"));
      String more = left(c, "task(s)", counted)
          + (cellsUnread == 0 ? "" : " (+ " + cellsUnread + " k with no summary of the mode read: not counted)")
          + (dead > 0 ? " + dead bases of " + dead + " task(s): " + d.input() + " in + " + d.output() + " out"
              + left(d, "rollout(s)", true) + " (the lightest part)" : "");
      if (!more.isEmpty()) b.append(text(160, y + 36, more.strip(), "start", 11, "#111"));
      y += rowH;
    }
    int noteY = y + 12;
    b.append(text(160, noteY, "every rollout (bases included) and every improver, selector and reflector session;"
        + " in = input tokens, out = output tokens (lighter)", "start", 11, "#444"));
    noteY += 14;
    b.append(text(160, noteY, (anyPartial ? "dashed end = more was spent than counted; " : "")
        + "not recorded = no count in the summaries (not drawn, not zero)", "start", 11, "#444"));
    return b.append("</svg>\n").toString();
  }

  /** What a token count leaves out, in a bar's label: the partly counted and not recorded {@code what}. */
  private static String left(TaskSummary.TokenCount c, String what, boolean counted) {
    return (c.partial() == 0 ? "" : " (" + c.partial() + " " + what + " not all counted: the part counted)")
        + (c.notRecorded() == 0 ? "" : counted ? " (+ " + c.notRecorded() + " " + what + " not recorded)"
            : " (" + c.notRecorded() + " " + what + ": not counted, not zero)");
  }

  /** A bar chart's SVG opened, {@code h} px high on a white ground, named {@code label} for a screen reader. */
  private static StringBuilder barChart(int h, String label) {
    return new StringBuilder("<svg width=\"" + W + "\" height=\"" + h + "\" viewBox=\"0 0 " + W + " " + h
        + "\" role=\"img\" aria-label=\"" + label + "\">\n<rect x=\"0\" y=\"0\" width=\"" + W + "\" height=\""
        + h + "\" fill=\"#ffffff\"/>\n");
  }

  /** One segment of a bar, 22 px high, at {@code opacity} (null: solid). */
  private static String rect(double x, int y, double width, String colour, String opacity) {
    return "<rect x=\"" + fmt(x) + "\" y=\"" + y + "\" width=\"" + fmt(width) + "\" height=\"22\" fill=\"" + colour
        + (opacity == null ? "" : "\" fill-opacity=\"" + opacity) + "\"/>\n";
  }

  /**
   * A cell's tokens in the table: {@code 48210 / 1934}, then {@code + 2 not all counted} (tasks whose counts are
   * partial) and {@code + 1 not recorded} (tasks whose summary records none) as they apply; {@code -} for a cell with
   * no task of the mode.
   */
  static String tokenCell(TaskSummary.TokenCount c) {
    if (c == null) return "-";
    return c.input() + " / " + c.output() + (c.partial() == 0 ? "" : " + " + c.partial() + " not all counted")
        + (c.notRecorded() == 0 ? "" : " + " + c.notRecorded() + " not recorded");
  }

  /** {@code n} costs not known, between {@code before} and {@code after}; nothing when there are none. */
  private static String notKnown(int n, String before, String after) {
    return n == 0 ? "" : before + n + " not known" + after;
  }

  private static Summary find(List<Summary> summaries, String mode, int k) {
    for (Summary s : summaries) if (s.cell().mode().equals(mode) && s.cell().k() == k) return s;
    return null;
  }

  private static double x(int index, int count, int plotW) {
    return LEFT + plotW * (index + 0.5) / Math.max(1, count);
  }

  private static double y(double value, int plotH) {
    return TOP + plotH * (1 - value / 100.0);
  }

  private static String line(double x1, double y1, double x2, double y2, String colour, double width) {
    return "<line x1=\"" + fmt(x1) + "\" y1=\"" + fmt(y1) + "\" x2=\"" + fmt(x2) + "\" y2=\"" + fmt(y2)
        + "\" stroke=\"" + colour + "\" stroke-width=\"" + fmt(width) + "\"/>\n";
  }

  private static String text(double x, double y, String s, String anchor, int size, String colour) {
    return "<text x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"" + size
        + "\" fill=\"" + colour + "\">" + esc(s) + "</text>\n";
  }

  private static String fmt(double v) {
    return PyFormat.fixed(v, 0, 1);
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
