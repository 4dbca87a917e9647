package dev.h2beam.adapters.model;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a benchmark returns for one execution request: the run directory and whether a finished execution with the
 * same run id and harness fingerprint was reused instead of running again, with the executor's spend and wall time
 * (those recorded when it ran, for a reused rollout, so a resumed run records what a clean one does), and whether
 * that spend is all it cost ({@link dev.h2beam.adapters.exec.ExecResult#costKnown}).
 */
public record Rollout(Path runDir, boolean reused, double costUsd, double wallS, boolean costKnown) {
  public Rollout {
    Objects.requireNonNull(runDir, "runDir");
  }

  /** A rollout whose cost is known. */
  public Rollout(Path runDir, boolean reused, double costUsd, double wallS) {
    this(runDir, reused, costUsd, wallS, true);
  }

  /** A rollout whose executor spends nothing it can measure (the demo's script). */
  public Rollout(Path runDir, boolean reused) {
    this(runDir, reused, 0.0, 0.0);
  }
}
