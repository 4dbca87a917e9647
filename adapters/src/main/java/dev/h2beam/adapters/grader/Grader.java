package dev.h2beam.adapters.grader;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Scores one chosen run of one task, on the judge side only. An empty result is an absence (the judge failed), never
 * a zero. Nothing in the method may import this type.
 */
public interface Grader {

  /** The grader's identity as recorded in a namespace's config.json ({@code judge}). */
  String identity();

  /**
   * Scores a run dir.
   *
   * @return the raw score ({@code n_passed}, {@code n_criteria}, optional {@code all_pass}, {@code metric}), or empty
   *     when there is nothing to grade
   */
  Optional<Map<String, Object>> score(Path runDir, String task) throws Exception;
}
