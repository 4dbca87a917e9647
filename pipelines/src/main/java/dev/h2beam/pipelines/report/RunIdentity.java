package dev.h2beam.pipelines.report;

import java.io.Serializable;

/**
 * The identity a namespace's {@code config.json} declares (spec §3.6): executor, improver and judge, each null
 * when not recorded. Comparability conditions C3 and C4 are read from here; unknown identity never counts as equal.
 *
 * @param timing the declared timing environment ({@code timing}: runner, machine, workers, limits) as canonical
 *     JSON, or null when not recorded; time metrics compare only under one such environment
 * @param timingMixed the namespace was resumed in different environments ({@code {"mixed": true, ...}}): its times
 *     compare with nothing
 */
public record RunIdentity(String path, String executor, String improver, String judge, Long seed, String timing,
    boolean timingMixed) implements Serializable {

  public RunIdentity {
    executor = blankToNull(executor);
    improver = blankToNull(improver);
    judge = blankToNull(judge);
    timing = blankToNull(timing);
  }

  /** An identity that declares no timing environment. */
  public RunIdentity(String path, String executor, String improver, String judge, Long seed) {
    this(path, executor, improver, judge, seed, null, false);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
