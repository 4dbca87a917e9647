package dev.h2beam.adapters.proposer;

import dev.h2beam.adapters.model.SessionResult;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One kind of agent session (spec §10.3): runs a mission in a fresh working folder whose {@code context/} holds the
 * evidence, lets the agent edit files there, and returns its reply. Retries, the reply cache, the audit trail and
 * harvesting are the method's; a channel runs exactly one attempt.
 */
public interface ProposerChannel {

  /**
   * Runs one session attempt.
   *
   * @param cwd the session's own working folder, with the evidence at {@code cwd/context}
   * @param label the call's label, e.g. {@code inv1.a1}, {@code select.agg2}, {@code experience.seq2}
   * @return the reply; a blank text means the attempt failed (its error says why)
   */
  SessionResult run(Path cwd, String mission, String system, String label, Duration timeout) throws Exception;
}
