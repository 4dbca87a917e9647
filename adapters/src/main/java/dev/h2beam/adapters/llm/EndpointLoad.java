package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.Endpoint;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many model calls of each endpoint this process has waiting for their turn (a slot of {@code max_concurrency},
 * then the rate window) and how many it has sent and not yet finished: the chat channel's calls and the agent CLIs'
 * calls through their relays alike. The progress boards carry it, so a sweep held back by an endpoint's limits shows
 * it while it runs ("waiting" grows while "sending" stays at the limit). Counted per endpoint name, for every sweep
 * the process runs. A view: no limit is enforced here.
 */
public final class EndpointLoad {
  private static final Map<String, EndpointLoad> BY_NAME = new ConcurrentHashMap<>();

  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger sending = new AtomicInteger();

  private EndpointLoad() {}

  /** The counts of the endpoint's calls in this process. */
  static EndpointLoad of(Endpoint e) {
    return BY_NAME.computeIfAbsent(e.name(), k -> new EndpointLoad());
  }

  /** A call arrived: it counts as waiting until {@link ModelCall#sent()}, and no more once closed. */
  ModelCall arrive(String method, String path) {
    waiting.incrementAndGet();
    return new ModelCall(this, method, path);
  }

  /** A waiting call was sent. */
  void sending() {
    waiting.decrementAndGet();
    sending.incrementAndGet();
  }

  /** A call ended, sent or still waiting. */
  void ended(boolean sent) {
    (sent ? sending : waiting).decrementAndGet();
  }

  /**
   * Every endpoint this process has called, by name: {@code {waiting, sending}} now. Endpoints with nothing in flight
   * are listed too (zeros), so that a display can tell an idle endpoint from one never called.
   */
  public static Map<String, int[]> now() {
    Map<String, int[]> m = new TreeMap<>();
    BY_NAME.forEach((name, l) -> m.put(name, new int[] {l.waiting.get(), l.sending.get()}));
    return m;
  }
}
