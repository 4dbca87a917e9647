package dev.h2beam.transforms.proposer;

import dev.h2beam.adapters.model.Tokens;
import java.nio.file.Path;
import java.util.List;

/**
 * A proposer call's answer (spec §2.14).
 *
 * @param workspace the harvested folder (the edited harness) or null when nothing was harvested
 * @param workspaceFiles the files in {@code workspace} as the harvest placed them (relative, path order; no link or
 *     special file among them, the harvest refuses those), or null when not known (a reply from the cache): a reader
 *     lists the folder then
 * @param costKnown whether {@code costUsd} is all the call cost ({@link
 *     dev.h2beam.adapters.model.SessionResult#costKnown} of every attempt, and no attempt ended in an exception,
 *     which reports no cost); {@code costUsd} is then what is known of it
 * @param tokens the model tokens every attempt spent ({@link dev.h2beam.adapters.model.SessionResult#tokens}); a
 *     reply from the cache reports those of the session that made it
 * @param withheld why files of {@code workspace} hold a note in place of their text (one credential finding, or a
 *     file too large or unreadable to screen, per line; {@link Proposer#withhold}): the session left a credential,
 *     or what could not be screened, in its harvested folder, which is never kept; empty when nothing was withheld
 * @param refused why the channel refused the session's edits ({@link
 *     dev.h2beam.adapters.model.SessionResult#refused}), a reply served from the cache included; empty when it did
 *     not: the session answered, so the reply is ok, and its stage counts a refused proposal
 */
public record Reply(
    String label, String text, boolean ok, double costUsd, double wallS, int attempts, boolean cached,
    String channel, String error, Path audit, Path workspace, List<String> workspaceFiles, boolean costKnown,
    Tokens tokens, List<String> withheld, String refused) {

  public Reply {
    tokens = tokens == null ? Tokens.UNKNOWN : tokens;
    withheld = withheld == null ? List.of() : List.copyOf(withheld);
    refused = refused == null ? "" : refused;
  }

  /** A reply whose edits, if any, the channel did not refuse. */
  public Reply(String label, String text, boolean ok, double costUsd, double wallS, int attempts, boolean cached,
      String channel, String error, Path audit, Path workspace, List<String> workspaceFiles, boolean costKnown,
      Tokens tokens, List<String> withheld) {
    this(label, text, ok, costUsd, wallS, attempts, cached, channel, error, audit, workspace, workspaceFiles,
        costKnown, tokens, withheld, "");
  }

  /** A reply of which nothing was withheld. */
  public Reply(String label, String text, boolean ok, double costUsd, double wallS, int attempts, boolean cached,
      String channel, String error, Path audit, Path workspace, List<String> workspaceFiles, boolean costKnown,
      Tokens tokens) {
    this(label, text, ok, costUsd, wallS, attempts, cached, channel, error, audit, workspace, workspaceFiles,
        costKnown, tokens, List.of());
  }

  /** A reply whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public Reply(String label, String text, boolean ok, double costUsd, double wallS, int attempts, boolean cached,
      String channel, String error, Path audit, Path workspace, List<String> workspaceFiles, boolean costKnown) {
    this(label, text, ok, costUsd, wallS, attempts, cached, channel, error, audit, workspace, workspaceFiles,
        costKnown, Tokens.UNKNOWN);
  }

  /** A reply whose cost is known. */
  public Reply(String label, String text, boolean ok, double costUsd, double wallS, int attempts, boolean cached,
      String channel, String error, Path audit, Path workspace, List<String> workspaceFiles) {
    this(label, text, ok, costUsd, wallS, attempts, cached, channel, error, audit, workspace, workspaceFiles, true);
  }

  /** A reply whose workspace's files are not known (or that has no workspace). */
  public Reply(String label, String text, boolean ok, double costUsd, double wallS, int attempts, boolean cached,
      String channel, String error, Path audit, Path workspace) {
    this(label, text, ok, costUsd, wallS, attempts, cached, channel, error, audit, workspace, null);
  }
}
