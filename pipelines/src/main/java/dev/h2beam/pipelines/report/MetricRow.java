package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.Map;

/**
 * One row of a namespace's {@code metrics.json} (schema h2beam-metrics/v1): the metric vector of one task in one mode
 * at one k, each metric a value in {@code values} or a reason in {@code absent}, never both. Both maps are immutable
 * and sorted by metric name.
 */
public record MetricRow(String taskId, String mode, int k, Map<String, Double> values, Map<String, String> absent)
    implements Serializable {

  public MetricRow {
    values = SortedArrayMap.copyOf(values);
    absent = SortedArrayMap.copyOf(absent);
  }

  /** The metric's value, or null when absent or not named at all. */
  Double value(String metric) {
    return values.get(metric);
  }

  /** Why the metric has no value: the recorded reason, {@code not-recorded} when the row does not name it. */
  String reason(String metric) {
    return absent.getOrDefault(metric, "not-recorded");
  }
}
