package dev.h2beam.adapters.model;

import java.io.IOException;

/**
 * A rollout that ran and failed (its executor reported an error, or it left no deliverable), with what it cost: the
 * dead rollout keeps its spend in the ledger rather than $0, and says whether that spend is all of it.
 */
public final class RolloutFailed extends IOException {
  private static final long serialVersionUID = 1L;
  private final double costUsd;
  private final boolean costKnown;

  public RolloutFailed(String message, double costUsd, boolean costKnown) {
    super(message);
    this.costUsd = costUsd;
    this.costKnown = costKnown;
  }

  public double costUsd() {
    return costUsd;
  }

  public boolean costKnown() {
    return costKnown;
  }
}
