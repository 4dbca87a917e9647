package dev.h2beam.pipelines.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The metric vectors of every reported namespace, looked up by (namespace, task, mode, k, metric): a value or the
 * reason it is absent. A namespace without metrics.json records nothing: every metric is {@code not-recorded} there.
 * Run values (one per replicate of a mode) are means over every task of the mode; a metric absent on any task has
 * no run value, and zero never stands in for it.
 */
final class MetricTable {
  /** One observation: a value in metrics.json's unit, or null with its reason. */
  record Obs(Double value, String reason) {}

  /** A replicate's run value of one metric in the report unit, or null with the absences that leave it without. */
  record RunValue(NamespaceRef namespace, ModeK cell, Double value, int tasks, List<String> absences) {}

  static final String NO_FILE = "not-recorded";

  private final Map<String, Boolean> recorded = new HashMap<>();
  // per namespace folder, then per (task, mode, k): hashed, not sorted (a sorted map compared the keys' long shared
  // folder prefixes each time), and a folder's name compared once per lookup of a run's rows, not once per row
  private final Map<String, Map<Key, MetricRow>> rows = new HashMap<>();

  MetricTable(Map<String, NamespaceFacts> byDir) {
    for (NamespaceFacts f : byDir.values()) {
      recorded.put(f.dir(), f.metricsPresent());
      Map<Key, MetricRow> own = rows.computeIfAbsent(f.dir(), d -> new HashMap<>());
      for (MetricRow r : f.metrics()) own.putIfAbsent(new Key(r.taskId(), r.mode(), r.k()), r);
    }
  }

  boolean recorded(NamespaceRef ns) {
    return recorded.getOrDefault(ns.dir(), false);
  }

  /** Whether any namespace has a metrics.json. */
  boolean any() {
    return recorded.containsValue(true);
  }

  /** The namespace's metrics.json row of the task in the mode at k, or null. */
  MetricRow row(NamespaceRef ns, String task, String mode, int k) {
    return rowsOf(ns).get(new Key(task, mode, k));
  }

  /** The namespace's metrics.json rows, by (task, mode, k); empty without the file. */
  private Map<Key, MetricRow> rowsOf(NamespaceRef ns) {
    return rows.getOrDefault(ns.dir(), Map.of());
  }

  Obs obs(NamespaceRef ns, String task, String mode, int k, String metric) {
    return obs(recorded(ns), rowsOf(ns), task, mode, k, metric);
  }

  private static Obs obs(boolean recorded, Map<Key, MetricRow> rows, String task, String mode, int k,
      String metric) {
    if (!recorded) return new Obs(null, NO_FILE);
    MetricRow r = rows.get(new Key(task, mode, k));
    if (r == null) return new Obs(null, NO_FILE);
    Double v = r.value(metric);
    return v == null ? new Obs(null, r.reason(metric)) : new Obs(v, null);
  }

  /** Score or pass of a judged row as metrics.json records them (a fraction, 0 or 1), or the row's absence. */
  static Obs judged(Scored row, String metric) {
    if (!row.graded()) return new Obs(null, row.reason());
    return new Obs(metric.equals("score") ? row.frac() : row.allPass() ? 1.0 : 0.0, null);
  }

  /**
   * The run value of {@code o} for one replicate's rows of one mode: the mean over every row's task, absent when any
   * task is (score and pass from the judged rows: an ungraded row is an absence).
   */
  RunValue runValue(NamespaceRef ns, ModeK cell, List<Scored> rows, Objective o) {
    List<Double> values = new ArrayList<>();
    List<String> absences = new ArrayList<>();
    boolean hasFile = recorded(ns);
    Map<Key, MetricRow> own = rowsOf(ns);
    for (Scored row : rows) {
      Obs x = o.fromJudgedRows() ? judged(row, o.metric())
          : obs(hasFile, own, row.taskId(), cell.mode(), cell.k(), o.metric());
      if (x.value() == null) absences.add(row.taskId() + ": " + x.reason());
      else values.add(o.scale() * x.value());
    }
    Double v = absences.isEmpty() && !values.isEmpty() ? PyFormat.mean(values) : null;
    return new RunValue(ns, cell, v, rows.size(), absences);
  }

  private record Key(String task, String mode, int k) {
    /**
     * Mixed with a large odd multiplier, as the folder and the task were when they shared one key: a record's own hash
     * (31 times each part) spreads names that differ in a digit over a few neighbouring values.
     */
    @Override public int hashCode() {
      int h = task.hashCode() * 0x9E3779B1 + mode.hashCode();
      return h * 0x9E3779B1 + k;
    }
  }
}
