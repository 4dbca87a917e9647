package dev.h2beam.transforms.proposer;

/** A proposer call failed after all its attempts; carries the attempts used and the cost already spent. */
public final class ProposerError extends Exception {
  private static final long serialVersionUID = 1L;
  private final int attempts;
  private final double costUsd;

  public ProposerError(String message, int attempts, double costUsd) {
    super(message);
    this.attempts = attempts;
    this.costUsd = costUsd;
  }

  public int attempts() {
    return attempts;
  }

  public double costUsd() {
    return costUsd;
  }
}
