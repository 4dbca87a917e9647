package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A provider's per-minute limits over a sliding minute, on a clock the test moves. */
class RateWindowTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void requestsWaitUntilTheOldestLeavesTheMinute() throws Exception {
    AtomicLong now = new AtomicLong(1000 * SECOND);
    RateWindow w = new RateWindow(2, 0, now::get);
    w.awaitTurn();
    now.addAndGet(10 * SECOND);
    w.awaitTurn();
    assertEquals(50 * SECOND, w.nanosUntilFree(now.get()), "the third waits for the first to be a minute old");
    now.addAndGet(50 * SECOND);
    assertTrue(w.nanosUntilFree(now.get()) <= 0);
  }

  @Test
  void tokensBlockNewCallsWhileTheLastMinuteReachedTheLimit() {
    AtomicLong now = new AtomicLong(0);
    RateWindow w = new RateWindow(0, 1000, now::get);
    w.charge(600);
    assertTrue(w.nanosUntilFree(now.get()) <= 0, "600 of 1000: a call may start");
    now.addAndGet(20 * SECOND);
    w.charge(500);
    assertEquals(40 * SECOND, w.nanosUntilFree(now.get()), "1100 of 1000: free when the 600 leave the minute");
    w.charge(0);
    now.addAndGet(40 * SECOND);
    assertTrue(w.nanosUntilFree(now.get()) <= 0);
  }
}
