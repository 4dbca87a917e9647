package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.Endpoint;

/** What an endpoint's limits in this JVM hold now, for tests outside this package. */
public final class EndpointLimits {
  private EndpointLimits() {}

  /** The tokens charged to the endpoint's rate window in the last minute; -1 when it has no rate limit. */
  public static long tokensCharged(Endpoint e) {
    RateWindow w = RateWindow.of(e);
    return w == null ? -1 : w.tokensInWindow(System.nanoTime());
  }

  /** The endpoint's free slots of its max_concurrency. */
  public static int freeSlots(Endpoint e) {
    return EndpointSlots.of(e).availablePermits();
  }
}
