package dev.h2beam.adapters.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outcome of one attempt of one agent session: its reply text (blank means no reply), cost, an error description
 * when the session did not answer, what the session reported about itself for the audit trail ({@code meta}:
 * {@link #USAGE}, {@link #MODEL_ID}, {@link #FINISH_REASON}; empty for channels that report nothing, never null), and
 * whether {@code costUsd} is all the attempt cost ({@code costKnown} false when a model call went unanswered or
 * answered without its token counts: {@code costUsd} is then only what is known, never a stand-in for the rest), and
 * the model tokens it spent ({@link Tokens}: a channel that calls a model counts them from its calls; a result that
 * does not say is {@link Tokens#UNKNOWN}, and a channel that calls no model says {@link Tokens#NONE}).
 *
 * <p>{@code refused} is why the channel itself refused the session's edits when it answered with edits it never
 * applied (the {@code openai} channel's edit blocks, refused after every correction), and empty otherwise: the model
 * answered, so the session is not a failed one (its endpoint works), and the stage that asked for the edits counts
 * a refused proposal, with this reason, as it does for a harness it refuses itself. {@code text} is then the model's
 * last reply, for the audit trail.
 */
public record SessionResult(String text, double costUsd, String error, Map<String, Object> meta, boolean costKnown,
    Tokens tokens, String refused) {
  /** Token counts as a map of {@code prompt_tokens}, {@code completion_tokens}, {@code cached_tokens}, ... */
  public static final String USAGE = "usage";
  /** The model id the server reported (it may differ from the one requested). */
  public static final String MODEL_ID = "model_id";
  /** Why the model stopped ({@code stop}, {@code length}, ...), as the server reported it. */
  public static final String FINISH_REASON = "finish_reason";
  /**
   * The session's model calls (a list of maps, one per HTTP call: arrived, sent, done, waited_s, held_s, method,
   * path, status, tokens, dropped), as the chat client or an agent CLI's endpoint relay recorded them; absent for a
   * channel that calls no endpoint (the demo's scripted roles).
   */
  public static final String MODEL_CALLS = "model_calls";
  /**
   * The messages of the session's last model call exactly as the channel sent them (a list of maps of {@code role}
   * and {@code content}: the system message, the mission with the evidence quoted in its fences and their random
   * delimiter, and any correction turns), for a channel that builds the whole prompt itself (the {@code openai} one);
   * absent for a channel whose agent builds its own.
   */
  public static final String PROMPT = "prompt";

  public SessionResult {
    text = text == null ? "" : text;
    error = error == null ? "" : error;
    // insertion order kept for the audit file; a null value (a count the server did not report) is allowed
    meta = meta == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(meta));
    tokens = tokens == null ? Tokens.UNKNOWN : tokens;
    refused = refused == null ? "" : refused;
  }

  /** A result whose edits, if any, were not refused by the channel. */
  public SessionResult(String text, double costUsd, String error, Map<String, Object> meta, boolean costKnown,
      Tokens tokens) {
    this(text, costUsd, error, meta, costKnown, tokens, "");
  }

  /** A result whose tokens it does not say ({@link Tokens#UNKNOWN}). */
  public SessionResult(String text, double costUsd, String error, Map<String, Object> meta, boolean costKnown) {
    this(text, costUsd, error, meta, costKnown, Tokens.UNKNOWN);
  }

  /** A result whose cost is known. */
  public SessionResult(String text, double costUsd, String error, Map<String, Object> meta) {
    this(text, costUsd, error, meta, true);
  }

  public SessionResult(String text, double costUsd, String error) {
    this(text, costUsd, error, Map.of());
  }

  public static SessionResult reply(String text, double costUsd) {
    return new SessionResult(text, costUsd, "");
  }

  public static SessionResult failed(String error, double costUsd) {
    return new SessionResult("", costUsd, error);
  }

  /** A reply of a session that called no model: a known $0 and no tokens (the demo's scripted roles). */
  public static SessionResult scripted(String text) {
    return new SessionResult(text, 0.0, "", Map.of(), true, Tokens.NONE);
  }

  /** This result with the session's self-report attached. */
  public SessionResult withMeta(Map<String, Object> sessionMeta) {
    return new SessionResult(text, costUsd, error, sessionMeta, costKnown, tokens, refused);
  }
}
