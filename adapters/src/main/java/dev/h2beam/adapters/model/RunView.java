package dev.h2beam.adapters.model;

import java.util.Objects;

/**
 * What the method knows about one finished rollout (spec §2.5). It never carries a score.
 *
 * @param runDir the adapter's run directory, as an absolute path string; a non-existent placeholder for dead rollouts
 * @param costKnown whether {@code costUsd} is all the rollout cost ({@link Rollout#costKnown}); false for a rollout
 *     whose execution ended in an exception, which reports nothing of what it spent
 * @param tokens the model tokens it spent ({@link Rollout#tokens})
 */
public record RunView(
    String label, String runId, String runDir, boolean ok, boolean delivered, double costUsd, double wallS,
    String error, boolean costKnown, Tokens tokens) {
  public RunView {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(runDir, "runDir");
    error = error == null ? "" : error;
    tokens = tokens == null ? Tokens.UNKNOWN : tokens;
  }

  /** A rollout whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public RunView(String label, String runId, String runDir, boolean ok, boolean delivered, double costUsd,
      double wallS, String error, boolean costKnown) {
    this(label, runId, runDir, ok, delivered, costUsd, wallS, error, costKnown, Tokens.UNKNOWN);
  }

  /** A rollout whose cost is known. */
  public RunView(String label, String runId, String runDir, boolean ok, boolean delivered, double costUsd,
      double wallS, String error) {
    this(label, runId, runDir, ok, delivered, costUsd, wallS, error, true);
  }

  /** A rollout that did not come back, whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public static RunView dead(String label, String runId, String placeholderDir, String error, double costUsd,
      boolean costKnown) {
    return dead(label, runId, placeholderDir, error, costUsd, costKnown, Tokens.UNKNOWN);
  }

  /**
   * A rollout that did not come back, with what it cost and the tokens it spent: nothing and known when it never
   * started; what its executor reported when it ran and failed ({@link RolloutFailed}); nothing known when its
   * execution ended in any other exception, which reports nothing of what it spent.
   */
  public static RunView dead(String label, String runId, String placeholderDir, String error, double costUsd,
      boolean costKnown, Tokens tokens) {
    return new RunView(label, runId, placeholderDir, false, false, costUsd, 0.0, error, costKnown, tokens);
  }
}
