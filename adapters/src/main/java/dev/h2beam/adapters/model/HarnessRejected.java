package dev.h2beam.adapters.model;

/** A proposed harness tree broke a rule; the message is actionable and is fed back to the improver verbatim. */
public class HarnessRejected extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public HarnessRejected(String message) {
    super(message);
  }
}
