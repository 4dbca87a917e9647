package dev.h2beam.pipelines.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.Modes;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.files.JsonParts;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the released report may contain (seed document 001). {@code aggregate} (the default) withholds per-task
 * scores, any figure over a single graded task (that is one task's score), and every slice over only the successful
 * tasks, and writes the per-task scores to a separate restricted file; {@code per-task} releases them in the report.
 */
public enum Disclosure {
  AGGREGATE("aggregate"),
  PER_TASK("per-task");

  public final String flag;

  Disclosure(String flag) {
    this.flag = flag;
  }

  static Disclosure parse(String value) {
    for (Disclosure d : values()) if (d.flag.equals(value == null ? "" : value.strip())) return d;
    throw new UsageError("--disclosure must be aggregate (per-task scores go to a restricted file) or per-task"
        + " (released in the report), got '" + value + "'");
  }

  /** One replicate's graded tasks whose selected output met every criterion: a successful-tasks slice. */
  record Passing(ModeK cell, NamespaceRef namespace, int graded, List<String> tasks) {}

  static List<Passing> passing(Map<NamespaceRef, List<Scored>> rowsByNamespace) {
    List<Passing> out = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNamespace.entrySet()) {
      Map<ModeK, List<Scored>> groups = new TreeMap<>();
      for (Scored r : e.getValue()) groups.computeIfAbsent(new ModeK(r.mode(), r.k()), x -> new ArrayList<>()).add(r);
      groups.forEach((cell, rows) -> {
        List<Scored> good = rows.stream().filter(Scored::graded).toList();
        out.add(new Passing(cell, e.getKey(), good.size(), good.stream().filter(Scored::allPass).map(Scored::taskId)
            .sorted().toList()));
      });
    }
    out.sort((a, b) -> ModeK.BY_K_THEN_MODE.compare(a.cell(), b.cell()));
    return out;
  }

  /** Each row's line of the per-task scores: cell, seed, task, then its label and score or why it has none. */
  private static List<String> scoreLines(Map<NamespaceRef, List<Scored>> rowsByNamespace) {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNamespace.entrySet()) {
      for (Scored r : sorted(e.getValue())) {
        String head = "  " + new ModeK(r.mode(), r.k()).name() + " seed=" + e.getKey().seedLabel() + " " + r.taskId()
            + ": ";
        if (r.graded()) {
          lines.add(head + (r.label().isEmpty() ? "-" : r.label()) + " | " + number(r.nPassed()) + "/"
              + number(r.nCriteria()) + " | " + PyFormat.fixed(100 * r.frac(), 6, 2) + "%"
              + (r.allPass() ? " | every criterion met" : ""));
        } else lines.add(head + "ungraded (" + r.reason() + ")");
      }
    }
    return lines;
  }

  /** The per-task section released under {@code per-task}: scores, paired differences, successful-tasks slices. */
  static List<String> perTaskLines(Map<NamespaceRef, List<Scored>> rowsByNamespace, List<Comparison.Pair> pairs) {
    return perTaskLines(rowsByNamespace, pairs, "");
  }

  /**
   * {@link #perTaskLines(Map, List)} with {@code side} after its scores' heading ({@code " of the --namespaces
   * side"} beside a {@code --versus} side, else empty).
   */
  static List<String> perTaskLines(Map<NamespaceRef, List<Scored>> rowsByNamespace, List<Comparison.Pair> pairs,
      String side) {
    List<String> lines = new ArrayList<>();
    lines.add("Per-task scores" + side + " (released by --disclosure=per-task)");
    lines.addAll(scoreLines(rowsByNamespace));
    Map<ModePair, List<Comparison.Pair>> byModes = new TreeMap<>(ModePair.ORDER);
    for (Comparison.Pair p : pairs) byModes.computeIfAbsent(p.modes(), x -> new ArrayList<>()).add(p);
    byModes.forEach((modes, each) -> {
      lines.add("Paired differences per task and seed (" + modes.difference() + ", points)");
      for (Comparison.Pair p : each) {
        lines.add("  k=" + p.k() + " seed=" + p.namespace().seedLabel() + " " + p.taskId()
            + ": score " + PyFormat.signed(p.score(), 2) + " | pass " + PyFormat.signed(p.pass(), 2));
      }
    });
    lines.add("Successful-tasks slice (graded tasks whose selected output met every criterion)");
    lines.addAll(sliceLines(rowsByNamespace));
    return lines;
  }

  /** Each cell and seed's successful-tasks slice: how many of its graded tasks met every criterion, and which. */
  private static List<String> sliceLines(Map<NamespaceRef, List<Scored>> rowsByNamespace) {
    List<String> lines = new ArrayList<>();
    for (Passing p : passing(rowsByNamespace)) {
      lines.add("  " + p.cell().name() + " seed=" + p.namespace().seedLabel() + ": " + p.tasks().size() + " of "
          + p.graded() + " graded" + (p.tasks().isEmpty() ? "" : ": " + String.join(", ", p.tasks())));
    }
    return lines;
  }

  /**
   * The per-task metric vectors of the reported rows (metrics.json), released under {@code per-task}: every value in
   * metrics.json's unit, every absence with its reason; nothing for a namespace without the file.
   */
  static List<String> perTaskMetricLines(Map<NamespaceRef, List<Scored>> rowsByNamespace,
      MetricTable table) {
    return perTaskMetricLines(rowsByNamespace, table, "", "");
  }

  /**
   * {@link #perTaskMetricLines(Map, MetricTable)} under a heading naming its {@code side} (as {@link #perTaskLines(Map,
   * List, String)}) and, first in its brackets, {@code where} its namespaces are (empty, or ending {@code "; "}).
   */
  static List<String> perTaskMetricLines(Map<NamespaceRef, List<Scored>> rowsByNamespace, MetricTable table,
      String side, String where) {
    List<String> lines = new ArrayList<>();
    rowsByNamespace.forEach((ns, rows) -> {
      for (Vector v : vectors(ns, rows, table)) {
        if (lines.isEmpty()) {
          lines.add("Per-task metric vector" + side + " (" + where + "metrics.json; released by"
              + " --disclosure=per-task)");
        }
        List<String> each = new ArrayList<>();
        v.metrics().values().forEach((name, x) -> {
          if (!Objective.timed(name)) each.add(name + " " + number(x));
        });
        v.metrics().absent().forEach((name, why) -> {
          if (!Objective.timed(name)) each.add(name + " absent (" + why + ")");
        });
        lines.add("  " + new ModeK(v.row().mode(), v.row().k()).name() + " seed="
            + (ns.seed() == null ? "none" : ns.seed()) + " " + v.row().taskId() + ": " + String.join(" | ", each));
      }
    });
    return lines;
  }

  /** A reported row and its metrics.json row, whose times ({@link Objective#timed}) the report leaves out. */
  private record Vector(Scored row, MetricRow metrics) {}

  /**
   * The metrics.json rows of one namespace's reported rows, in report order (k, mode, task), without the wall-clock
   * times: those measure the machine at that moment, so listing them per task would make two runs of the same inputs
   * write different report files. They stay in metrics.json, and a time objective still compares them. A task
   * without a row in metrics.json (or a namespace without the file) gives none.
   */
  private static List<Vector> vectors(NamespaceRef ns, List<Scored> rows, MetricTable table) {
    List<Vector> out = new ArrayList<>();
    for (Scored s : sorted(rows)) {
      MetricRow r = table.row(ns, s.taskId(), s.mode(), s.k());
      if (r != null) out.add(new Vector(s, r));
    }
    return out;
  }

  /** The depth of a top-level array's elements in the restricted file (the root object's arrays). */
  private static final int DEPTH = 2;

  /**
   * The restricted file's content under {@code aggregate}: everything the released report withholds. Its two long
   * arrays (a row per task and mode, a hundred thousand over 100 namespaces of 500 tasks) are {@link JsonParts}, a
   * namespace's rows each; made one at a time by the report's one writing thread, they took most of a second while
   * the other core waited, and held all at once as maps they outlived several young collections.
   */
  static Map<String, Object> restricted(Map<NamespaceRef, List<Scored>> rowsByNamespace,
      List<Comparison.Pair> pairs, MetricTable table) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("disclosure", AGGREGATE.flag);
    out.put("restricted", "per-task scores, paired differences, successful-tasks slices, per-task metric vectors and"
        + " judge repeats withheld from report.txt and report.html; never hand this file to an improver or a"
        + " selector");
    List<Json.ItemWriter> scores = new ArrayList<>();
    List<Json.ItemWriter> metrics = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNamespace.entrySet()) {
      scores.add(g -> writePerTaskRows(g, e.getKey(), e.getValue()));
      metrics.add(g -> writeMetricRows(g, e.getKey(), e.getValue(), table));
    }
    out.put("per_task", new JsonParts(scores, DEPTH));
    List<Object> diffs = new ArrayList<>();
    for (Comparison.Pair p : pairs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("k", p.k());
      m.put("modes", p.modes().versus() ? p.modes().difference() : p.modes().first() + " - " + p.modes().second());
      m.put("namespace", p.namespace().name());
      m.put("seed", p.namespace().seed());
      m.put("task_id", p.taskId());
      m.put("score_diff_pt", p.score());
      m.put("pass_diff_pt", p.pass());
      diffs.add(m);
    }
    out.put("paired_differences", diffs);
    out.put("successful_tasks", slices(rowsByNamespace));
    out.put("per_task_metrics", new JsonParts(metrics, DEPTH));
    return out;
  }

  /** The successful-tasks slices of the restricted file: per cell and seed, the graded count and the tasks. */
  private static List<Object> slices(Map<NamespaceRef, List<Scored>> rowsByNamespace) {
    List<Object> slices = new ArrayList<>();
    for (Passing p : passing(rowsByNamespace)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", p.cell().mode());
      m.put("k", p.cell().k());
      m.put("namespace", p.namespace().name());
      m.put("seed", p.namespace().seed());
      m.put("graded", p.graded());
      m.put("tasks_meeting_every_criterion", p.tasks());
      slices.add(m);
    }
    return slices;
  }

  /**
   * The restricted file with the {@code --versus} side's rows too ({@link MethodComparison}): {@code versus_per_task},
   * {@code versus_per_task_metrics} and {@code versus_successful_tasks}, entries as {@code per_task}'s,
   * {@code per_task_metrics}'s and {@code successful_tasks}', each namespace's folder under {@code
   * versus_namespaces}; as {@link #restricted(Map, List, MetricTable)} without one.
   */
  static Map<String, Object> restricted(Map<NamespaceRef, List<Scored>> rowsByNamespace,
      Map<NamespaceRef, List<Scored>> versus, List<Comparison.Pair> pairs, MetricTable table) {
    Map<String, Object> out = restricted(rowsByNamespace, pairs, table);
    if (versus.isEmpty()) return out;
    List<Json.ItemWriter> scores = new ArrayList<>();
    List<Json.ItemWriter> metrics = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : versus.entrySet()) {
      scores.add(g -> writePerTaskRows(g, e.getKey(), e.getValue()));
      metrics.add(g -> writeMetricRows(g, e.getKey(), e.getValue(), table));
    }
    out.put("versus_namespaces", versus.keySet().stream().map(NamespaceRef::dir).toList());
    out.put("versus_per_task", new JsonParts(scores, DEPTH));
    out.put("versus_per_task_metrics", new JsonParts(metrics, DEPTH));
    out.put("versus_successful_tasks", slices(versus));
    return out;
  }

  /**
   * The {@code --versus} side's per-task scores, successful-tasks slices and metric vectors, released under
   * {@code per-task} (none without it), as the restricted file holds them under aggregate.
   */
  static List<String> versusLines(Map<NamespaceRef, List<Scored>> versus, MetricTable table) {
    if (versus.isEmpty()) return List.of();
    TreeSet<String> roots = new TreeSet<>();
    versus.keySet().forEach(ns -> roots.add(String.valueOf(Path.of(ns.dir()).getParent())));
    String side = " of the --versus side";
    String where = String.join(", ", roots) + "; ";
    List<String> lines = new ArrayList<>();
    lines.add("Per-task scores" + side + " (" + where + "released by --disclosure=per-task)");
    lines.addAll(scoreLines(versus));
    lines.add("Successful-tasks slice" + side + " (" + where + "graded tasks whose selected output met every"
        + " criterion)");
    lines.addAll(sliceLines(versus));
    lines.addAll(perTaskMetricLines(versus, table, side, where));
    return lines;
  }

  /**
   * A namespace's per-task entries of the restricted file, in report order (k, mode, task), each an object of
   * {@link #writeHead}'s fields then label, run_id, n_passed, n_criteria, all_pass, frac, graded, absence and, for a
   * row graded more than once, judge_repeat_sd.
   */
  private static void writePerTaskRows(JsonGenerator g, NamespaceRef ns, List<Scored> rows) throws IOException {
    String name = ns.name();
    for (Scored r : sorted(rows)) {
      writeHead(g, name, ns.seed(), r);
      g.writeStringField("label", r.label());
      g.writeStringField("run_id", r.runId());
      writeCount(g, "n_passed", r.nPassed());
      writeCount(g, "n_criteria", r.nCriteria());
      // an ungraded row met no criterion and failed none: its all_pass is unknown, never false (dogAA F8)
      if (r.graded()) g.writeBooleanField("all_pass", r.allPass());
      else g.writeNullField("all_pass");
      writeFloat(g, "frac", r.frac());
      g.writeBooleanField("graded", r.graded());
      g.writeStringField("absence", r.reason());
      if (r.repeatSd() != null) writeFloat(g, "judge_repeat_sd", r.repeatSd());
      g.writeEndObject();
    }
  }

  /**
   * A namespace's entries of {@link #vectors} in the restricted file: {@link #writeHead}'s fields, then the
   * values and the absences without the wall-clock times.
   */
  private static void writeMetricRows(JsonGenerator g, NamespaceRef ns, List<Scored> rows, MetricTable table)
      throws IOException {
    String name = ns.name();
    for (Vector v : vectors(ns, rows, table)) {
      writeHead(g, name, ns.seed(), v.row());
      g.writeObjectFieldStart("values");
      for (Map.Entry<String, Double> x : v.metrics().values().entrySet()) {
        if (!Objective.timed(x.getKey())) writeFloat(g, x.getKey(), x.getValue());
      }
      g.writeEndObject();
      g.writeObjectFieldStart("absent");
      for (Map.Entry<String, String> x : v.metrics().absent().entrySet()) {
        if (!Objective.timed(x.getKey())) g.writeStringField(x.getKey(), x.getValue());
      }
      g.writeEndObject();
      g.writeEndObject();
    }
  }

  /** What a per-task entry of the restricted file starts with: its object begun, where it is, which task, mode, k. */
  private static void writeHead(JsonGenerator g, String namespace, BigInteger seed, Scored r) throws IOException {
    g.writeStartObject();
    g.writeStringField("namespace", namespace);
    if (seed == null) g.writeNullField("seed");
    else g.writeNumberField("seed", seed);
    g.writeStringField("task_id", r.taskId());
    g.writeStringField("mode", r.mode());
    g.writeNumberField("k", r.k());
  }

  /** A judge count as {@link #json} gives it to the writer. */
  private static void writeCount(JsonGenerator g, String name, Double v) throws IOException {
    Object n = json(v);
    if (n instanceof Long l) g.writeNumberField(name, l);
    else writeFloat(g, name, (Double) n);
  }

  /** A float as Python writes it ({@link Json#pythonFloat}), or null. */
  private static void writeFloat(JsonGenerator g, String name, Double v) throws IOException {
    g.writeFieldName(name);
    if (v == null) g.writeNull();
    else g.writeNumber(Json.pythonFloat(v));
  }

  private static List<Scored> sorted(List<Scored> rows) {
    return rows.stream().sorted(Comparator.comparing(Scored::k).thenComparing(Scored::mode, Modes.ORDER)
        .thenComparing(Scored::taskId)).toList();
  }

  /** A judge count as harness2 wrote it: an integer when integral, else the decimal. */
  static String number(Double v) {
    if (v == null) return "-";
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }

  private static Object json(Double v) {
    if (v == null) return null;
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? (Object) v.longValue() : v;
  }
}
