package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.Modes;
import dev.h2beam.pipelines.UsageError;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

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

  /** The per-task section released under {@code per-task}: scores, paired differences, successful-tasks slices. */
  static List<String> perTaskLines(Map<NamespaceRef, List<Scored>> rowsByNamespace, List<Comparison.Pair> pairs) {
    List<String> lines = new ArrayList<>();
    lines.add("Per-task scores (released by --disclosure=per-task)");
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
    List<String> lines = new ArrayList<>();
    for (Map<String, Object> m : metricRows(rowsByNamespace, table)) {
      if (lines.isEmpty()) lines.add("Per-task metric vector (metrics.json; released by --disclosure=per-task)");
      List<String> each = new ArrayList<>();
      ((Map<?, ?>) m.get("values")).forEach((name, v) -> each.add(name + " " + number((Double) v)));
      ((Map<?, ?>) m.get("absent")).forEach((name, why) -> each.add(name + " absent (" + why + ")"));
      lines.add("  " + new ModeK((String) m.get("mode"), (Integer) m.get("k")).name() + " seed="
          + (m.get("seed") == null ? "none" : m.get("seed")) + " " + m.get("task_id") + ": "
          + String.join(" | ", each));
    }
    return lines;
  }

  /**
   * The metrics.json rows of the reported rows' tasks, in report order (k, mode, task per namespace), without the
   * wall-clock times: those measure the machine at that moment, so listing them per task would make two runs of the
   * same inputs write different report files. They stay in metrics.json, and a time objective still compares them.
   */
  private static List<Map<String, Object>> metricRows(Map<NamespaceRef, List<Scored>> rowsByNamespace,
      MetricTable table) {
    return metricRowStream(rowsByNamespace, table).toList();
  }

  /** {@link #metricRows}, made one row at a time as the stream is read. */
  private static Stream<Map<String, Object>> metricRowStream(Map<NamespaceRef, List<Scored>> rowsByNamespace,
      MetricTable table) {
    return rowsByNamespace.entrySet().stream().flatMap(e -> metricRowStream(e.getKey(), e.getValue(), table));
  }

  /** One namespace's {@link #metricRows}. */
  private static Stream<Map<String, Object>> metricRowStream(NamespaceRef ns, List<Scored> rows, MetricTable table) {
    return sorted(rows).stream().map(s -> {
      MetricRow r = table.row(ns, s.taskId(), s.mode(), s.k());
      if (r == null) return null;
      Map<String, Object> m = head(ns, s);
      Map<String, Object> values = new LinkedHashMap<>(r.values());
      Map<String, Object> absent = new LinkedHashMap<>(r.absent());
      values.keySet().removeIf(Objective::timed);
      absent.keySet().removeIf(Objective::timed);
      m.put("values", values);
      m.put("absent", absent);
      return m;
    }).filter(Objects::nonNull);
  }

  /**
   * A JSON array written from parts made ahead of its writer on the common pool, in order ({@link Json#writePretty}
   * writes any {@code Iterable} as an array): each part is the items of one namespace already in their bytes
   * ({@link Json#prettyItems}). The restricted file has a row per task and mode (a hundred thousand over 100
   * namespaces of 500 tasks): made and written one at a time by the report's one writing thread, they took most of
   * a second while the other core waited; held all at once as maps they outlived several young collections, each of
   * which copied them again. A few namespaces ahead at a time are made, as bytes; a namespace with no item gives no
   * part. The writer makes a part itself when no pool thread has begun it ({@link Forked}).
   */
  static final class Parts implements Iterable<Object> {
    /** Parts made ahead of the writer at most. */
    static final int AHEAD = 8;
    /** The depth of a top-level array's elements in the restricted file (the root object's arrays). */
    private static final int DEPTH = 2;
    private final List<Supplier<Stream<?>>> parts;

    Parts(List<Supplier<Stream<?>>> parts) {
      this.parts = List.copyOf(parts);
    }

    @Override public Iterator<Object> iterator() {
      return new Iterator<>() {
        private final ArrayDeque<Forked<byte[]>> ahead = new ArrayDeque<>();
        private int next;
        private Object pending;

        @Override public boolean hasNext() {
          while (pending == null && (next < parts.size() || !ahead.isEmpty())) {
            while (ahead.size() < AHEAD && next < parts.size()) {
              Supplier<Stream<?>> items = parts.get(next++);
              ahead.add(Forked.begin(() -> Json.prettyItems(items.get().iterator(), DEPTH)));
            }
            // while a pool thread makes this part, the writer makes later ones none has begun
            Forked<byte[]> first = ahead.poll();
            first.help();
            for (Iterator<Forked<byte[]>> it = ahead.iterator(); it.hasNext() && !first.isDone(); ) it.next().help();
            byte[] bytes = first.join();
            if (bytes.length > 0) pending = Json.part(bytes);
          }
          return pending != null;
        }

        @Override public Object next() {
          if (!hasNext()) throw new NoSuchElementException();
          Object out = pending;
          pending = null;
          return out;
        }
      };
    }
  }

  /** The restricted file's content under {@code aggregate}: everything the released report withholds. */
  static Map<String, Object> restricted(Map<NamespaceRef, List<Scored>> rowsByNamespace,
      List<Comparison.Pair> pairs, MetricTable table) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("disclosure", AGGREGATE.flag);
    out.put("restricted", "per-task scores, paired differences, successful-tasks slices, per-task metric vectors and"
        + " judge repeats withheld from report.txt and report.html; never hand this file to an improver or a"
        + " selector");
    List<Supplier<Stream<?>>> scores = new ArrayList<>();
    List<Supplier<Stream<?>>> metrics = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNamespace.entrySet()) {
      scores.add(() -> perTaskRows(e.getKey(), e.getValue()));
      metrics.add(() -> metricRowStream(e.getKey(), e.getValue(), table));
    }
    out.put("per_task", new Parts(scores));
    List<Object> diffs = new ArrayList<>();
    for (Comparison.Pair p : pairs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("k", p.k());
      m.put("modes", p.modes().first() + " - " + p.modes().second());
      m.put("namespace", p.namespace().name());
      m.put("seed", p.namespace().seed());
      m.put("task_id", p.taskId());
      m.put("score_diff_pt", p.score());
      m.put("pass_diff_pt", p.pass());
      diffs.add(m);
    }
    out.put("paired_differences", diffs);
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
    out.put("successful_tasks", slices);
    out.put("per_task_metrics", new Parts(metrics));
    return out;
  }

  /** A namespace's per-task entries of the restricted file, in report order (k, mode, task). */
  private static Stream<Map<String, Object>> perTaskRows(NamespaceRef ns, List<Scored> rows) {
    return sorted(rows).stream().map(r -> {
      Map<String, Object> m = head(ns, r);
      m.put("label", r.label());
      m.put("run_id", r.runId());
      m.put("n_passed", json(r.nPassed()));
      m.put("n_criteria", json(r.nCriteria()));
      m.put("all_pass", r.allPass());
      m.put("frac", r.frac());
      m.put("graded", r.graded());
      m.put("absence", r.reason());
      if (r.repeatSd() != null) m.put("judge_repeat_sd", r.repeatSd());
      return m;
    });
  }

  /** What a per-task entry of the restricted file starts with: where it is and which task, mode and k. */
  private static Map<String, Object> head(NamespaceRef ns, Scored r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("namespace", ns.name());
    m.put("seed", ns.seed());
    m.put("task_id", r.taskId());
    m.put("mode", r.mode());
    m.put("k", r.k());
    return m;
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
