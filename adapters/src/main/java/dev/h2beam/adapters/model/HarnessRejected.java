package dev.h2beam.adapters.model;

import dev.h2beam.adapters.config.EnvKeys;

/**
 * A proposed harness tree broke a rule; the message is actionable and is fed back to the improver verbatim. It often
 * quotes a path or a name the improver chose, so any key in it is redacted here ({@link EnvKeys#redact}), where every
 * such reason is made, before it reaches the console, a summary or a later prompt.
 */
public class HarnessRejected extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public HarnessRejected(String message) {
    super(EnvKeys.redact(message));
  }
}
