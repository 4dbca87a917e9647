package dev.h2beam.transforms.proposer;

/**
 * A proposer call failed after all its attempts; carries the attempts used, the cost already spent, and whether that
 * cost is all of it ({@link Reply#costKnown}).
 */
public final class ProposerError extends Exception {
  private static final long serialVersionUID = 1L;
  private final int attempts;
  private final double costUsd;
  private final boolean costKnown;

  public ProposerError(String message, int attempts, double costUsd) {
    this(message, attempts, costUsd, true);
  }

  public ProposerError(String message, int attempts, double costUsd, boolean costKnown) {
    super(message);
    this.attempts = attempts;
    this.costUsd = costUsd;
    this.costKnown = costKnown;
  }

  public boolean costKnown() {
    return costKnown;
  }

  public int attempts() {
    return attempts;
  }

  public double costUsd() {
    return costUsd;
  }
}
