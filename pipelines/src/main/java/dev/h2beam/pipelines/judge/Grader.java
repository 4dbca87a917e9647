package dev.h2beam.pipelines.judge;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Scores one chosen run of one task, on the judge side only. An empty result is an absence (the judge failed), never
 * a zero. It lives in {@code pipelines} so that the method, in {@code transforms}, cannot import it.
 */
public interface Grader {

  /** The grader's identity as recorded in a namespace's config.json ({@code judge}): its name and model. */
  String identity();

  /**
   * Scores a run dir.
   *
   * @return the raw score ({@code n_passed}, {@code n_criteria}, optional {@code all_pass}, {@code metric}, anything
   *     else), or empty when there was nothing to grade
   */
  Optional<Map<String, Object>> score(Path runDir, String task) throws Exception;
}
