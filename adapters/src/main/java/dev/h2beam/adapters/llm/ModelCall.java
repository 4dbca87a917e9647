package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One HTTP call to a model endpoint as h2beam makes and records it, whoever made it (the chat client's attempts, an
 * agent CLI's calls through its relay): when it arrived, when it got its turn under the endpoint's limits and was sent
 * (null if never), when it gave its slot back, its status (null when no reply came), the tokens its reply reported
 * (null when none; in all, and its input and output tokens apart, each null when the reply did not say) and why it
 * ended without its whole reply (null when it did not). While open it counts in its
 * endpoint's {@link EndpointLoad}, waiting until {@link #sent()}, sending after. Made by {@link EndpointLoad#arrive}
 * and filled in by the one thread making the call.
 */
final class ModelCall implements AutoCloseable {
  private final EndpointLoad load;
  final String method;
  final String path;
  final Instant arrived = Instant.now();
  Instant sent;
  /** When the call ended (it was closed); null until then. */
  Instant done;
  Integer status;
  Long tokens;
  /** The prompt (input) and completion (output) tokens its reply reported, each null when it did not say. */
  Long inputTokens;
  Long outputTokens;
  /** Why the call ended without its whole reply, or null. */
  String dropped;
  /** Its reply came whole, but could not be used (a body that is not the endpoint's answer); not in the record. */
  boolean unusable;
  /**
   * It got its turn, but no connection to the endpoint was made (refused, no route, a name that does not resolve, a
   * connect that timed out): the request never left, and nothing of it can have been billed. In the record as
   * {@code "connected": false}, only then.
   */
  boolean unconnected;
  /**
   * Its reply had a success status but was an error object with no usage (a gateway's way of saying 5xx): taken as
   * unbilled, as an error status is. In the record as {@code "error_reply": true}, only then.
   */
  boolean errorReply;
  private boolean counted;

  ModelCall(EndpointLoad load, String method, String path) {
    this.load = load;
    this.method = method;
    this.path = path;
  }

  /** The call got its turn and is sent now: it counts as sending, no longer as waiting. */
  void sent() {
    if (sent != null || done != null) return;
    sent = Instant.now();
    load.sending();
  }

  /**
   * The call ended (answered, failed, or dropped while it waited): it counts no more. A call that holds a slot is
   * closed before it gives the slot back, so that its {@code done} never follows the next holder's {@code sent}.
   * Closing again does nothing.
   */
  @Override public void close() {
    if (done != null) return;
    done = Instant.now();
    load.ended(sent != null);
  }

  /**
   * Whether the call failed: it got no answer, an answer whose status is not a success (2xx), a reply cut off, or
   * one it could not use.
   */
  boolean failed() {
    return status == null || status < 200 || status >= 300 || dropped != null || unusable;
  }

  /**
   * Whether what the call cost is known from what it reported: it never left (dropped while it waited, or no
   * connection was made), or it is not a POST (neither is billed: a look at the model list), or it was answered, and
   * an answer that succeeded reported its input and its output tokens, which are priced apart (an error status, or
   * an error object under a success status with no usage, is taken as not billed; a call sent and unanswered, or a
   * success without both counts, may have been). An endpoint whose prices are 0 costs nothing whatever its calls
   * reported: its callers ask {@link Endpoint#free} first. Read from the call's record ({@link #line}), as every
   * caller has it.
   */
  static boolean priced(Map<String, Object> line) {
    if (Boolean.TRUE.equals(line.get("error_reply"))) return true;
    return priced(line.get("sent") != null && !Boolean.FALSE.equals(line.get("connected")),
        String.valueOf(line.get("method")), line.get("status") instanceof Number n ? n.intValue() : null,
        count(line, "input_tokens"), count(line, "output_tokens"));
  }

  /**
   * Whether {@code failure} says no connection to the endpoint was made, so the request never left: refused, no
   * route, a host name that does not resolve, a connect that timed out. Only the failure itself is read, as the JDK's
   * client reports it: a failure after the request went (a timeout, a connection that broke, a TLS error on a
   * connection in use) may carry one of these as its cause, and may have been billed.
   */
  static boolean neverConnected(Throwable failure) {
    return failure instanceof ConnectException || failure instanceof NoRouteToHostException
        || failure instanceof UnknownHostException || failure instanceof HttpConnectTimeoutException;
  }

  /** A token count of a record, null when it holds none. */
  static Long count(Map<String, Object> line, String key) {
    return line.get(key) instanceof Number n ? n.longValue() : null;
  }

  private static boolean priced(boolean sent, String method, Integer status, Long in, Long out) {
    if (!sent || !"POST".equals(method)) return true;
    return status != null && (status / 100 != 2 || (in != null && out != null));
  }

  /**
   * The call's record is final (its status, tokens and the reason it was cut off set, and closed): it counts in its
   * endpoint's totals, once, and is returned as one record ({@link #line}).
   */
  Map<String, Object> finish() {
    close();
    if (!counted) {
      counted = true;
      load.finished(this);
    }
    return line();
  }

  /**
   * The call as one record: {@code arrived}, {@code sent}, {@code done}, {@code waited_s} (for its slot and rate
   * turn), {@code held_s} (its slot), {@code method}, {@code path}, {@code status}, {@code tokens},
   * {@code input_tokens}, {@code output_tokens}, {@code dropped}, and {@code connected} (false) when no connection was
   * made.
   * A call not yet done is taken as done now.
   */
  Map<String, Object> line() {
    Instant end = done == null ? Instant.now() : done;
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("arrived", arrived.toString());
    line.put("sent", sent == null ? null : sent.toString());
    line.put("done", end.toString());
    line.put("waited_s", seconds(arrived, sent == null ? end : sent));
    line.put("held_s", sent == null ? null : seconds(sent, end));
    line.put("method", method);
    line.put("path", path);
    line.put("status", status);
    line.put("tokens", tokens);
    line.put("input_tokens", inputTokens);
    line.put("output_tokens", outputTokens);
    line.put("dropped", dropped);
    if (unconnected) line.put("connected", false);
    if (errorReply) line.put("error_reply", true);
    return line;
  }

  /** A record as one line of a call log ({@link EndpointProxy#CALL_LOG}), its newline included. */
  static String jsonLine(Map<String, Object> line) throws IOException {
    return Json.MAPPER.writeValueAsString(line) + "\n";
  }

  /** The records as a whole call log; empty for none. */
  static String jsonLines(List<Map<String, Object>> lines) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (Map<String, Object> l : lines) sb.append(jsonLine(l));
    return sb.toString();
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1_000_000L / 1000.0;
  }
}
