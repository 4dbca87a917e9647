package dev.h2beam.transforms.proposer;

import dev.h2beam.adapters.model.Tokens;

/**
 * A proposer call failed after all its attempts; carries the attempts used, the cost already spent, whether that
 * cost is all of it ({@link Reply#costKnown}), and the model tokens spent ({@link Reply#tokens}).
 */
public final class ProposerError extends Exception {
  private static final long serialVersionUID = 1L;
  private final int attempts;
  private final double costUsd;
  private final boolean costKnown;
  private final Tokens tokens;

  /** A call that spent {@code costUsd}, all of it known, and no model tokens (one that never started a session). */
  public ProposerError(String message, int attempts, double costUsd) {
    this(message, attempts, costUsd, true, Tokens.NONE);
  }

  /** A call whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public ProposerError(String message, int attempts, double costUsd, boolean costKnown) {
    this(message, attempts, costUsd, costKnown, Tokens.UNKNOWN);
  }

  public ProposerError(String message, int attempts, double costUsd, boolean costKnown, Tokens tokens) {
    super(message);
    this.attempts = attempts;
    this.costUsd = costUsd;
    this.costKnown = costKnown;
    this.tokens = tokens == null ? Tokens.UNKNOWN : tokens;
  }

  public Tokens tokens() {
    return tokens;
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
