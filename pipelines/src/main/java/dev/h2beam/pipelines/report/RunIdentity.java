package dev.h2beam.pipelines.report;

import java.io.Serializable;

/**
 * The identity a namespace's {@code config.json} declares (spec §3.6): executor, improver and judge, each null
 * when not recorded. Comparability conditions C3 and C4 are read from here; unknown identity never counts as equal.
 */
public record RunIdentity(String path, String executor, String improver, String judge, Long seed)
    implements Serializable {

  public RunIdentity {
    executor = blankToNull(executor);
    improver = blankToNull(improver);
    judge = blankToNull(judge);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
