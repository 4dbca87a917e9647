package dev.h2beam.adapters.model;

import java.util.Objects;

/**
 * What the method knows about one finished rollout (spec §2.5). It never carries a score.
 *
 * @param runDir the adapter's run directory, as an absolute path string; a non-existent placeholder for dead rollouts
 */
public record RunView(
    String label, String runId, String runDir, boolean ok, boolean delivered, double costUsd, double wallS,
    String error) {
  public RunView {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(runDir, "runDir");
    error = error == null ? "" : error;
  }

  public static RunView dead(String label, String runId, String placeholderDir, String error) {
    return new RunView(label, runId, placeholderDir, false, false, 0.0, 0.0, error);
  }
}
