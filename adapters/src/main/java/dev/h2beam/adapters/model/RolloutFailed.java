package dev.h2beam.adapters.model;

import java.io.IOException;

/**
 * A rollout that ran and failed (its executor reported an error, or it left no deliverable), with what it cost: the
 * dead rollout keeps its spend in the ledger rather than $0, and says whether that spend is all of it, with the model
 * tokens it spent.
 */
public final class RolloutFailed extends IOException {
  private static final long serialVersionUID = 1L;
  private final double costUsd;
  private final boolean costKnown;
  private final Tokens tokens;

  public RolloutFailed(String message, double costUsd, boolean costKnown, Tokens tokens) {
    super(message);
    this.costUsd = costUsd;
    this.costKnown = costKnown;
    this.tokens = tokens == null ? Tokens.UNKNOWN : tokens;
  }

  /** A failed rollout whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public RolloutFailed(String message, double costUsd, boolean costKnown) {
    this(message, costUsd, costKnown, Tokens.UNKNOWN);
  }

  public Tokens tokens() {
    return tokens;
  }

  public double costUsd() {
    return costUsd;
  }

  public boolean costKnown() {
    return costKnown;
  }
}
