package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.Comparator;
import java.util.List;

/**
 * Everything one summary namespace holds for the report: its judged rows (if {@code judged.json} was read), its task
 * summaries, its declared identity (null when there is no {@code config.json}, as in harness2's layout) and its
 * metric vector ({@code metrics.json}; {@code metricsPresent} false when there is none).
 */
public record NamespaceFacts(String dir, boolean judgedPresent, List<Scored> rows, List<TaskSummary> summaries,
    RunIdentity identity, boolean metricsPresent, List<MetricRow> metrics) implements Serializable {

  public NamespaceFacts {
    rows = List.copyOf(rows);
    summaries = summaries.stream().sorted(Comparator.comparing(TaskSummary::path)).toList();
    metrics = List.copyOf(metrics);
  }

  /** A namespace without metrics.json. */
  public NamespaceFacts(String dir, boolean judgedPresent, List<Scored> rows, List<TaskSummary> summaries,
      RunIdentity identity) {
    this(dir, judgedPresent, rows, summaries, identity, false, List.of());
  }

  /** A namespace the pipeline found no readable file in. */
  static NamespaceFacts empty(String dir) {
    return new NamespaceFacts(dir, false, List.of(), List.of(), null);
  }
}
