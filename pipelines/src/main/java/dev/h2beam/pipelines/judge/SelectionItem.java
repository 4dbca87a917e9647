package dev.h2beam.pipelines.judge;

import java.io.Serializable;

/**
 * One thing to judge: a mode's selection of one task (or, with {@code --bases}, one base rollout) as recorded in
 * summary.json, with the namespace it belongs to, the grader that judges it and what its evidence is checked
 * against.
 *
 * @param ok the selection completed (ok, a chosen label and a chosen run dir); always true for base rollouts
 * @param harnessDir the chosen harness folder ({@code <runs>/<mode namespace>/<task>/harnesses/<label>}); empty for a
 *     base rollout or when the namespace name does not say where it is
 * @param harnessFingerprint the fingerprint the summary recorded for it; empty when none was recorded
 * @param markerRequired the run was made by h2beam, which marks every rollout it completes: a missing marker means
 *     the run dir was changed
 * @param unrun why there is no selection to judge when the mode did not get to select: it failed on the task
 *     ({@link Absence#MODE_FAILED}) or never ran because every base rollout failed ({@link Absence#BASE_FAILED});
 *     null for a selection (or base rollout) that was made
 * @param unrunWhy the error that says so (the summary's {@code modes.<mode>.error} or {@code errors}); empty when
 *     {@code unrun} is null
 */
public record SelectionItem(
    String namespace, String grader, String taskId, String mode, int k, String label, String runId, String runDir,
    boolean chosenIsBase, boolean ok, String harnessDir, String harnessFingerprint, boolean markerRequired,
    Absence unrun, String unrunWhy) implements Serializable {

  public SelectionItem {
    harnessDir = harnessDir == null ? "" : harnessDir;
    harnessFingerprint = harnessFingerprint == null ? "" : harnessFingerprint;
    unrunWhy = unrunWhy == null ? "" : unrunWhy;
  }

  /** A selection (or base rollout) that was made. */
  public SelectionItem(String namespace, String grader, String taskId, String mode, int k, String label,
      String runId, String runDir, boolean chosenIsBase, boolean ok, String harnessDir, String harnessFingerprint,
      boolean markerRequired) {
    this(namespace, grader, taskId, mode, k, label, runId, runDir, chosenIsBase, ok, harnessDir, harnessFingerprint,
        markerRequired, null, "");
  }

  /** The item of a mode that failed on {@code taskId} before it selected anything: nothing to grade, an absence. */
  public static SelectionItem modeFailed(String namespace, String grader, String taskId, String mode, int k,
      String error) {
    return unrun(namespace, grader, taskId, mode, k, Absence.MODE_FAILED,
        error.isBlank() ? "the mode failed (its summary records no error)" : error);
  }

  /** The item of a mode that never ran on {@code taskId} because every base rollout of the task failed. */
  public static SelectionItem baseFailed(String namespace, String grader, String taskId, String mode, int k,
      String error) {
    return unrun(namespace, grader, taskId, mode, k, Absence.BASE_FAILED, "every base rollout failed, so no mode ran"
        + (error.isBlank() ? "" : " (" + error + ")"));
  }

  private static SelectionItem unrun(String namespace, String grader, String taskId, String mode, int k,
      Absence why, String error) {
    return new SelectionItem(namespace, grader, taskId, mode, k, "", "", "", false, false, "", "", false, why, error);
  }

  /** This item, with {@link #markerRequired} set. */
  public SelectionItem withMarkerRequired(boolean required) {
    return new SelectionItem(namespace, grader, taskId, mode, k, label, runId, runDir, chosenIsBase, ok, harnessDir,
        harnessFingerprint, required, unrun, unrunWhy);
  }
}
