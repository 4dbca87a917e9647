package dev.h2beam.adapters.model;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a benchmark returns for one execution request: the run directory and whether a finished execution with the
 * same run id and harness fingerprint was reused instead of running again, with the executor's spend and wall time
 * (those recorded when it ran, for a reused rollout, so a resumed run records what a clean one does), and whether
 * that spend is all it cost ({@link dev.h2beam.adapters.exec.ExecResult#costKnown}), and the model tokens it spent.
 */
public record Rollout(Path runDir, boolean reused, double costUsd, double wallS, boolean costKnown, Tokens tokens) {
  public Rollout {
    Objects.requireNonNull(runDir, "runDir");
    tokens = tokens == null ? Tokens.UNKNOWN : tokens;
  }

  /** A rollout whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public Rollout(Path runDir, boolean reused, double costUsd, double wallS, boolean costKnown) {
    this(runDir, reused, costUsd, wallS, costKnown, Tokens.UNKNOWN);
  }

  /** A rollout whose cost is known. */
  public Rollout(Path runDir, boolean reused, double costUsd, double wallS) {
    this(runDir, reused, costUsd, wallS, true);
  }

  /** A rollout whose executor calls no model (the demo's script): a known $0 and no tokens. */
  public Rollout(Path runDir, boolean reused) {
    this(runDir, reused, 0.0, 0.0, true, Tokens.NONE);
  }
}
