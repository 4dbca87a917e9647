package dev.h2beam.adapters.llm;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A call that did not produce a reply after its attempts: fatal at once (a 4xx other than 429, a refused key) or out
 * of attempts on transient failures (429, 5xx, timeouts, refused connections, empty or unparsable replies). The
 * message says which and why; it never contains a key.
 */
public final class ChatException extends Exception {
  private final boolean fatal;
  private final int attempts;
  private final double costUsd;

  private final List<Map<String, Object>> calls;
  private final boolean costKnown;
  private final String lastFailure;

  public ChatException(String message, boolean fatal, int attempts, double costUsd) {
    this(message, fatal, attempts, costUsd, List.of(), true);
  }

  /** The same with the attempts' call records and whether their cost is known ({@link ChatReply#costKnown}). */
  public ChatException(String message, boolean fatal, int attempts, double costUsd, List<Map<String, Object>> calls,
      boolean costKnown) {
    this(message, fatal, attempts, costUsd, calls, costKnown, null);
  }

  /**
   * The same, out of attempts: {@code lastFailure} is why the last one failed, so a caller that chose the attempts
   * itself (check's one ping) can give its own advice in place of the message's.
   */
  public ChatException(String message, boolean fatal, int attempts, double costUsd, List<Map<String, Object>> calls,
      boolean costKnown, String lastFailure) {
    super(message);
    this.lastFailure = lastFailure;
    this.fatal = fatal;
    this.attempts = attempts;
    this.costUsd = costUsd;
    this.calls = List.copyOf(calls);
    this.costKnown = costKnown;
  }

  /** Whether {@link #costUsd} is all the attempts cost ({@link ChatReply#costKnown}). */
  public boolean costKnown() {
    return costKnown;
  }

  /** Each attempt made, as a call record; empty when none reached the wire. */
  public List<Map<String, Object>> calls() {
    return calls;
  }

  /** Why the last of its attempts failed, when the call ran out of attempts; empty when it failed at once. */
  public Optional<String> lastFailure() {
    return Optional.ofNullable(lastFailure);
  }

  public boolean fatal() {
    return fatal;
  }

  public int attempts() {
    return attempts;
  }

  public double costUsd() {
    return costUsd;
  }
}
