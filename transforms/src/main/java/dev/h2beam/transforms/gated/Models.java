package dev.h2beam.transforms.gated;

import java.util.List;

/**
 * A method's only way to a model: the configured improver role, through whichever channel the sweep uses (a model
 * endpoint answering in the block format, an agent CLI, the demo's scripted channel). Every session is journalled,
 * cached for resume and priced like the other modes' sessions.
 */
public interface Models {

  /**
   * Runs one improver session on {@code job} over the current harness (in {@code context/harness/}, edited in place)
   * with the current harness's episodes and the domain's library as evidence. At most one per step: a second call
   * is refused.
   *
   * @throws SessionFailed the session failed or its harness was refused twice ({@link SessionFailed#refused}); the
   *     step is skipped with the reason, and a refused harness joins the rejected history
   */
  Edit improver(String job) throws SessionFailed;

  /** The harness the session left, and its notes. */
  record Edit(List<TreeEntry> tree, String notes) {}

  /** The improver session produced no usable harness. */
  final class SessionFailed extends Exception {
    private final boolean refused;

    public SessionFailed(String message) {
      this(message, false);
    }

    /** @param refused the session answered, and its harness was refused (else the session itself failed) */
    public SessionFailed(String message, boolean refused) {
      super(message);
      this.refused = refused;
    }

    /** Whether the session answered and its harness was refused, rather than the session failing. */
    public boolean refused() {
      return refused;
    }
  }
}
