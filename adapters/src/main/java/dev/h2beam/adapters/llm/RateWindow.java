package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.Endpoint;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * An endpoint's provider rate limits in this worker, over a sliding minute: an attempt starts only when fewer than
 * {@code requests_per_minute} attempts started in the last 60 s, and while the tokens the replies of the last 60 s
 * reported stay below {@code tokens_per_minute}. A token count is known only when a reply arrives, so one call's
 * tokens is the most the token limit can be overshot by. A worker is given its {@link Endpoint#share}, so the workers
 * of a job together keep the provider's limits. JVM-wide like {@link EndpointSlots}, for the same reason.
 */
final class RateWindow {
  private static final long MINUTE_NANOS = 60_000_000_000L;
  private static final ConcurrentMap<String, RateWindow> WINDOWS = new ConcurrentHashMap<>();

  private final int requestsPerMinute;
  private final int tokensPerMinute;
  private final LongSupplier clock;
  /** Start times of the attempts of the last minute, oldest first. */
  private final ArrayDeque<Long> starts = new ArrayDeque<>();
  /** (time, tokens) of the replies of the last minute, oldest first. */
  private final ArrayDeque<long[]> charges = new ArrayDeque<>();
  private long tokensInWindow;

  RateWindow(int requestsPerMinute, int tokensPerMinute, LongSupplier clock) {
    this.requestsPerMinute = requestsPerMinute;
    this.tokensPerMinute = tokensPerMinute;
    this.clock = clock;
  }

  /** The window for an endpoint (by name, base URL and limits), or null when it has no rate limit. */
  static RateWindow of(Endpoint e) {
    if (e.requestsPerMinute() == 0 && e.tokensPerMinute() == 0) return null;
    String key = e.name() + "\n" + e.baseUrl() + "\n" + e.requestsPerMinute() + "\n" + e.tokensPerMinute();
    return WINDOWS.computeIfAbsent(key, k -> new RateWindow(e.requestsPerMinute(), e.tokensPerMinute(),
        System::nanoTime));
  }

  /** Waits until an attempt may start under both limits, then records its start. */
  synchronized void awaitTurn() throws InterruptedException {
    while (true) {
      long now = clock.getAsLong();
      long wait = nanosUntilFree(now);
      if (wait <= 0) {
        if (requestsPerMinute > 0) starts.addLast(now);
        return;
      }
      long ms = Math.max(1, wait / 1_000_000);
      wait(ms);
    }
  }

  /** Records the tokens a reply reported (nothing when its usage was not reported). */
  synchronized void charge(long tokens) {
    if (tokensPerMinute == 0 || tokens <= 0) return;
    charges.addLast(new long[] {clock.getAsLong(), tokens});
    tokensInWindow += tokens;
  }

  /** The tokens the replies of the minute before {@code now} reported (what the token limit is checked against). */
  synchronized long tokensInWindow(long now) {
    nanosUntilFree(now);
    return tokensInWindow;
  }

  /** How long from {@code now} until an attempt may start; 0 or less when it may start now. */
  synchronized long nanosUntilFree(long now) {
    while (!starts.isEmpty() && now - starts.peekFirst() >= MINUTE_NANOS) starts.removeFirst();
    while (!charges.isEmpty() && now - charges.peekFirst()[0] >= MINUTE_NANOS) {
      tokensInWindow -= charges.removeFirst()[1];
    }
    long wait = 0;
    if (requestsPerMinute > 0 && starts.size() >= requestsPerMinute) {
      wait = Math.max(wait, starts.peekFirst() + MINUTE_NANOS - now);
    }
    if (tokensPerMinute > 0 && tokensInWindow >= tokensPerMinute) {
      // free once enough of the oldest replies leave the window to bring the total below the limit
      long total = tokensInWindow;
      for (long[] c : charges) {
        total -= c[1];
        if (total < tokensPerMinute) {
          wait = Math.max(wait, c[0] + MINUTE_NANOS - now);
          break;
        }
      }
    }
    return wait;
  }
}
