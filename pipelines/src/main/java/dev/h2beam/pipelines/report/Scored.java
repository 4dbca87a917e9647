package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.List;

/**
 * One judged row of {@code judged.json} (spec §2.12), as the report needs it. {@code graded} and {@code frac} are
 * recomputed here, never read: a row is graded when the judge produced criteria ({@code n_criteria > 0}) and a
 * passed count. A row that is not graded is an absence with a reason; it is never a zero.
 *
 * @param nPassed the judge's passed count or weighted points; null when absent
 * @param nCriteria the judge's criteria count or total points; null when absent
 * @param metric {@code raw.metric} of a graded row (the scoring unit), or ""
 * @param absence h2beam's recorded reason, or "" (harness2 rows); see {@link #reason()}
 * @param repeatSd {@code raw.repeat_sd}: the sample sd of the judge's repeated scores of this row (a fraction), null
 *     when the judge graded it fewer than twice
 */
public record Scored(String taskId, String mode, int k, String label, String runId, boolean chosenIsBase,
    Double nPassed, Double nCriteria, boolean allPass, String metric, String error, String absence, Double repeatSd)
    implements Serializable {

  /** A row graded once (no judge repeats). */
  public Scored(String taskId, String mode, int k, String label, String runId, boolean chosenIsBase,
      Double nPassed, Double nCriteria, boolean allPass, String metric, String error, String absence) {
    this(taskId, mode, k, label, runId, chosenIsBase, nPassed, nCriteria, allPass, metric, error, absence, null);
  }

  public Scored {
    taskId = taskId == null ? "" : taskId;
    mode = mode == null ? "" : mode;
    label = label == null ? "" : label;
    runId = runId == null ? "" : runId;
    metric = metric == null ? "" : metric;
    error = error == null ? "" : error;
    absence = absence == null ? "" : absence;
  }

  /** The judge succeeded (it says nothing about passing). */
  public boolean graded() {
    return nCriteria != null && nCriteria > 0 && nPassed != null;
  }

  /** {@code n_passed / n_criteria} of a graded row; null for an absence. */
  public Double frac() {
    return graded() ? nPassed / nCriteria : null;
  }

  /**
   * Why a row has no score: h2beam's recorded absence, else (harness2 rows) {@code selection-failed} when the
   * selection never completed and {@code judge-failed} otherwise; null for a graded row.
   */
  public String reason() {
    if (graded()) return null;
    if (!absence.isBlank()) return absence;
    return error.startsWith("selection") ? "selection-failed" : "judge-failed";
  }

  /**
   * What the selected output was (spec §13.2): {@code base}, {@code final} (a composed final of the mode: {@code agg*}
   * for parallel, {@code c1..ck} for sequential), else {@code candidate}. A gated row is never final here: its finals
   * are only known from its summary ({@link #pick(List)}).
   */
  public String pick() {
    return pick(List.of());
  }

  /**
   * {@link #pick()} given the mode's {@code finals} from the task's summary.json. Gated labels ({@code base1..basek}
   * shared, {@code g1..g3k} each step's candidate episode, {@code r1..} a re-rolled current harness) do not say which
   * harness was kept, so a gated final is any label its summary lists, a base among them too (the gate kept the
   * base); parallel and sequential finals are told by their labels.
   */
  public String pick(List<String> finals) {
    if (mode.equals("gat")) return finals.contains(label) ? "final" : label.startsWith("base") ? "base" : "candidate";
    if (label.startsWith("base")) return "base";
    if (mode.equals("agg")) return label.startsWith("agg") ? "final" : "candidate";
    if (mode.equals("seq")) {
      for (int i = 1; i <= k; i++) if (label.equals("c" + i)) return "final";
    }
    return "candidate";
  }
}
