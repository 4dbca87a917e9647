package dev.h2beam.pipelines.judge;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Scores one chosen run of one task, on the judge side only. An empty result is an absence (the judge failed), never
 * a zero. It lives in {@code pipelines} so that the method, in {@code transforms}, cannot import it.
 */
public interface Grader extends AutoCloseable {

  /** The grader's identity as recorded in a namespace's config.json ({@code judge}): its name and model. */
  String identity();

  /**
   * Scores a run dir.
   *
   * @return the raw score ({@code n_passed}, {@code n_criteria}, optional {@code all_pass}, {@code metric}, anything
   *     else), or empty when there was nothing to grade
   */
  Optional<Map<String, Object>> score(Path runDir, String task) throws Exception;

  /**
   * Whether this grader scores from files in this JVM alone (no model, no process, no network), so that it cannot
   * hang: it is then called on the judge's own worker thread, and {@code --graderTimeoutSeconds} does not apply to
   * it. A grader that waits on anything outside the JVM keeps the default: each of its calls runs on a thread of its
   * own that the judge abandons at the timeout, at the cost of a hand-off between two threads per call.
   */
  default boolean inProcess() {
    return false;
  }

  /**
   * Whether the judge keeps each grade of this grader as it is made ({@link KeptGrades}), so that a judge stopped
   * part-way serves it next time instead of calling the grader again: by default a grader that waits on something
   * outside the JVM (a model, a process); one that keeps its own answers says no.
   */
  default boolean keepsGrades() {
    return !inProcess();
  }

  /**
   * Lets go of what the grader holds (a model client). The judge's workers call it once, when the last worker of the
   * job that opened the grader is torn down in this JVM ({@link OpenedGraders}), perhaps while a call the judge
   * abandoned at its timeout runs on; that call's answer is no longer read.
   */
  @Override default void close() {}
}
