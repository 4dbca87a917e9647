package dev.h2beam.adapters.exec;

/**
 * Runs one rollout of a harness on a task (the executor agent of spec §11). Must be safe to call from several threads
 * at once for different run folders. An outside-world failure (the model, the agent, a timeout) is an
 * {@link ExecResult} with its error class and cause; an exception means a bug or an unusable setup.
 */
public interface Executor {

  ExecResult run(ExecRequest request) throws Exception;

  /** What the run identity records for this executor, e.g. {@code chat:<base_url>#<model>}. */
  String identity();

  /**
   * Whether this executor runs its agent in the {@link ExecRequest#isolation} it is given. An executor that does not
   * (a plug-in's, written before it) is refused when the sweep asks for isolation, rather than run unisolated.
   */
  default boolean isolates() {
    return false;
  }
}
