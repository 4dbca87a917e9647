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

  /**
   * Whether the channel reads the evidence from {@link #run(Path, EvidenceView, String, String, String, Duration)}'s
   * view, in memory, rather than from {@code cwd/context}. Such a channel runs in this process and writes only in
   * the folder the method harvests ({@code context/harness} for an improver stage): only that folder is then copied
   * into its working folder, where the rest of the evidence would be copied, read back and deleted for nothing.
   * False by default: an agent that opens files needs the whole folder.
   */
  default boolean readsEvidenceFromMemory() {
    return false;
  }

  /**
   * Runs one session attempt with the evidence also given as a view ({@link EvidenceView}: the same files and bytes
   * as {@code cwd/context} holds when the channel does not {@linkplain #readsEvidenceFromMemory read from memory}).
   * By default the view is not used.
   */
  default SessionResult run(Path cwd, EvidenceView evidence, String mission, String system, String label,
      Duration timeout) throws Exception {
    return run(cwd, mission, system, label, timeout);
  }
}
