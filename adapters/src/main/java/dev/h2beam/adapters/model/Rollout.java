package dev.h2beam.adapters.model;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a benchmark returns for one execution request: the run directory and whether a finished execution with the
 * same run id and harness fingerprint was reused instead of running again.
 */
public record Rollout(Path runDir, boolean reused) {
  public Rollout {
    Objects.requireNonNull(runDir, "runDir");
  }
}
