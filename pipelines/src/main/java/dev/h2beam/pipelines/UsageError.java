package dev.h2beam.pipelines;

/** Bad options or input, found before anything ran; the message names the flag or file and the fix. */
public final class UsageError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageError(String message) {
    super(message);
  }
}
