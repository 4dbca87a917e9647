package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.Map;

/**
 * One row of a namespace's {@code metrics.json} (schema h2beam-metrics/v2): the metric vector of one task in one mode
 * at one k, each metric a value in {@code values} or a reason in {@code absent}, never both. Both maps are immutable
 * and sorted by metric name.
 */
public record MetricRow(String taskId, String mode, int k, Map<String, Double> values, Map<String, String> absent)
    implements Serializable {

  public MetricRow {
    values = SortedArrayMap.copyOf(values);
    absent = SortedArrayMap.copyOf(absent);
  }

  /**
   * A row of a {@link dev.h2beam.pipelines.judge.MetricVector#SCHEMA_V1} file as this schema reads it: that file's
   * {@code cost} was the ledger's rollouts and improver sessions only, a quantity v2's {@code cost} (the mode's whole
   * spend, its selection included) is not, so it is absent, {@link #OLDER_JUDGE}; re-running the judge writes it.
   */
  MetricRow fromV1() {
    if (!values.containsKey("cost")) return this;
    Map<String, Double> v = new java.util.TreeMap<>(values);
    v.remove("cost");
    Map<String, String> a = new java.util.TreeMap<>(absent);
    a.put("cost", OLDER_JUDGE);
    return new MetricRow(taskId, mode, k, v, a);
  }

  /**
   * The reason of a metric the row's metrics.json does not name at all, neither as a value nor as an absence (a judge
   * names every metric it knows, one way or the other): the file is an older judge's, written before the metric
   * existed (or, for v1's {@code cost}, when it meant less). Not the sweep's {@code not-recorded}: re-running the
   * judge over the same summaries records it. Read only; no metrics.json holds it.
   */
  static final String OLDER_JUDGE = "older-judge";

  /** The metric's value, or null when absent or not named at all. */
  Double value(String metric) {
    return values.get(metric);
  }

  /**
   * Why the metric has no value: the recorded reason; {@link #OLDER_JUDGE} when the row does not name the metric and
   * names others (an older judge's row), {@code not-recorded} when it names none.
   */
  String reason(String metric) {
    String r = absent.get(metric);
    if (r != null) return r;
    return values.isEmpty() && absent.isEmpty() ? "not-recorded" : OLDER_JUDGE;
  }
}
