package dev.h2beam.transforms.ledger;

/** A mode spent a budget other than R = 4k rollouts and P = 3k sessions, or recorded a label twice. */
public final class BudgetError extends AssertionError {
  private static final long serialVersionUID = 1L;

  BudgetError(String message) {
    super(message);
  }
}
