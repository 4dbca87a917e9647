package dev.h2beam.pipelines.judge;

/** Why a judged row has no score (xaytune's rule: zero never stands in for an absence). A closed set. */
public enum Absence {
  /** The selection did not complete (failed, fell back, or chose no run): the grader was never called. */
  SELECTION_FAILED("selection-failed"),
  /**
   * The mode itself failed on the task (its budget guard, an error of its own) and selected nothing: the grader was
   * never called. Its error is the summary's {@code modes.<mode>.error}.
   */
  MODE_FAILED("mode-failed"),
  /**
   * Every base rollout of the task failed, so no mode ran on it (harness2's {@code base-failed} task): nothing to
   * grade in any mode.
   */
  BASE_FAILED("base-failed"),
  /** The grader threw, returned nothing, or returned something that is not a score. */
  JUDGE_FAILED("judge-failed"),
  /** The grader did not answer within its timeout; the judge stopped waiting. */
  JUDGE_TIMEOUT("judge-timeout"),
  /** The chosen run directory no longer exists. */
  RUN_MISSING("run-missing"),
  /** The chosen run's deliverables no longer match the digests its completion marker recorded. */
  EVIDENCE_CHANGED("evidence-changed");

  public final String code;

  Absence(String code) {
    this.code = code;
  }
}
