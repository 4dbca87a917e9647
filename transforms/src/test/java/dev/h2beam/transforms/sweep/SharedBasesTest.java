package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each task's bases are rolled once per JVM however the chains of its domain ask for them, and then forgotten. */
class SharedBasesTest {
  private static TaskRef ref(String task) {
    return new TaskRef("d", task, 1, 1, 0);
  }

  private static TaskBases bases(TaskRef ref) {
    return new TaskBases(ref, false, false, List.of());
  }

  @Test
  void chainsAskingAtOnceGetOneRollAndOneOfThemCountsIt() throws Exception {
    ConcurrentHashMap<String, AtomicInteger> rolls = new ConcurrentHashMap<>();
    CountDownLatch rolling = new CountDownLatch(1);
    SharedBases shared = new SharedBases(ref -> {
      rolls.computeIfAbsent(ref.task(), t -> new AtomicInteger()).incrementAndGet();
      rolling.await(5, TimeUnit.SECONDS); // the other chains ask while the roll is under way
      return bases(ref);
    }, 3);
    ExecutorService chains = Executors.newFixedThreadPool(3);
    try {
      List<Future<SharedBases.Taken>> taken = new ArrayList<>();
      for (int i = 0; i < 3; i++) taken.add(chains.submit(() -> shared.take(ref("t1"))));
      Thread.sleep(100);
      rolling.countDown();
      int first = 0;
      TaskBases seen = null;
      for (Future<SharedBases.Taken> f : taken) {
        SharedBases.Taken t = f.get(5, TimeUnit.SECONDS);
        if (t.first()) first++;
        if (seen == null) seen = t.bases();
        assertSame(seen, t.bases(), "every chain gets the one result");
      }
      assertEquals(1, first, "one chain counts the task");
      assertEquals(1, rolls.get("t1").get(), "rolled once");
    } finally {
      chains.shutdownNow();
    }
  }

  @Test
  void basesRolledAheadAreTakenNotRolledAgainAndForgottenAfterTheLastChain() throws Exception {
    AtomicInteger rolls = new AtomicInteger();
    SharedBases shared = new SharedBases(ref -> {
      rolls.incrementAndGet();
      return bases(ref);
    }, 2);
    shared.ahead(ref("t2"));
    shared.ahead(ref("t2"));
    assertTrue(shared.take(ref("t2")).first());
    assertEquals(false, shared.take(ref("t2")).first());
    assertEquals(1, rolls.get(), "rolled ahead once, taken twice");
    // both chains took it: a later take (another sweep in this JVM) rolls again rather than reuse a stale result
    shared.take(ref("t2"));
    assertEquals(2, rolls.get());
  }

  @Test
  void whatRollingThrewReachesEveryChain() {
    AtomicInteger rolls = new AtomicInteger();
    SharedBases shared = new SharedBases(ref -> {
      rolls.incrementAndGet();
      throw new IOException("runs root unwritable");
    }, 2);
    for (int i = 0; i < 2; i++) {
      IOException e = assertThrows(IOException.class, () -> shared.take(ref("t3")));
      assertEquals("runs root unwritable", e.getMessage());
    }
    assertEquals(1, rolls.get());
  }

  /** A sweep that failed may leave a roll going ahead: settling interrupts it and waits for it to end. */
  @Test
  void settleStopsARollStillRunningAhead() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    SharedBases shared = new SharedBases(ref -> {
      started.countDown();
      Thread.sleep(60_000);
      return bases(ref);
    }, 2);
    shared.ahead(ref("t4"));
    assertTrue(started.await(5, TimeUnit.SECONDS));
    assertTrue(shared.settle(java.time.Duration.ofSeconds(10)), "the roll ended");
    assertThrows(InterruptedException.class, () -> shared.take(ref("t4")), "its chains see why");
  }

  /** Every thread rolling ahead busy, and a roll ahead queued behind them: the chain that needs it rolls it itself. */
  @Test
  void aRollAheadStillQueuedIsRolledByTheChainThatNeedsIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch busy = new CountDownLatch(SharedBases.AHEAD_THREADS);
    ConcurrentHashMap<String, String> rolledOn = new ConcurrentHashMap<>();
    SharedBases shared = new SharedBases(ref -> {
      rolledOn.put(ref.task(), Thread.currentThread().getName());
      if (ref.task().startsWith("busy")) {
        busy.countDown();
        release.await(30, TimeUnit.SECONDS);
      }
      return bases(ref);
    }, 1);
    try {
      for (int i = 0; i < SharedBases.AHEAD_THREADS; i++) shared.ahead(ref("busy" + i));
      assertTrue(busy.await(10, TimeUnit.SECONDS), "every thread rolling ahead is busy");
      shared.ahead(ref("queued"));
      assertTrue(shared.take(ref("queued")).first(), "taken while every thread is busy");
      assertEquals(Thread.currentThread().getName(), rolledOn.get("queued"), "rolled by the chain itself");
    } finally {
      release.countDown();
    }
    for (int i = 0; i < SharedBases.AHEAD_THREADS; i++) shared.take(ref("busy" + i));
    assertEquals(SharedBases.AHEAD_THREADS + 1, rolledOn.size(), "each task rolled once");
  }

  /** A sweep that failed with rolls ahead still queued: settling stops them before they start. */
  @Test
  void settleCancelsRollsAheadStillQueued() throws Exception {
    CountDownLatch busy = new CountDownLatch(SharedBases.AHEAD_THREADS);
    ConcurrentHashMap<String, Boolean> rolled = new ConcurrentHashMap<>();
    SharedBases shared = new SharedBases(ref -> {
      rolled.put(ref.task(), true);
      if (ref.task().startsWith("busy")) {
        busy.countDown();
        Thread.sleep(60_000);
      }
      return bases(ref);
    }, 1);
    for (int i = 0; i < SharedBases.AHEAD_THREADS; i++) shared.ahead(ref("busy" + i));
    assertTrue(busy.await(10, TimeUnit.SECONDS));
    shared.ahead(ref("queued"));
    assertTrue(shared.settle(java.time.Duration.ofSeconds(10)), "the busy rolls ended");
    Thread.sleep(200); // a thread freed by the settle reaches the queued roll, which must not run
    assertEquals(null, rolled.get("queued"), "never rolled");
    assertThrows(InterruptedException.class, () -> shared.take(ref("queued")), "its chain sees why");
  }
}
