package dev.h2beam.transforms.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A finished chain keeps its thread until the other running chains finish; a failed one leaves at once. */
class FinishedChainsTest {

  /** Runs {@code finishedAndWait} on a thread of its own; the latch opens when it returns. */
  private static CountDownLatch finishOnAThread(FinishedChains chains) {
    return finishOnAThread(chains, null, 0);
  }

  /** The same for a chain of {@code job}, which has {@code chainsInJob} chains. */
  private static CountDownLatch finishOnAThread(FinishedChains chains, String job, int chainsInJob) {
    CountDownLatch returned = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      chains.finishedAndWait(job, chainsInJob);
      returned.countDown();
    });
    t.setDaemon(true);
    t.start();
    return returned;
  }

  @Test
  void aFinishedChainWaitsForTheChainsStillRunningAndTheLastReleasesEveryOne() throws Exception {
    FinishedChains chains = new FinishedChains();
    chains.started();
    chains.started();
    chains.started();
    CountDownLatch first = finishOnAThread(chains);
    CountDownLatch second = finishOnAThread(chains);
    assertFalse(first.await(200, TimeUnit.MILLISECONDS), "two chains finished, one still runs: both wait");
    assertFalse(second.await(10, TimeUnit.MILLISECONDS));
    chains.finishedAndWait();   // the last one: returns at once
    assertTrue(first.await(5, TimeUnit.SECONDS) && second.await(5, TimeUnit.SECONDS), "the last released both");
    assertEquals(0, chains.running());
  }

  /**
   * More chains than threads ({@code --chainsAtOnce}): a chain that finishes while some of its job's chains wait for a
   * thread leaves its own to them; once all have started, the hold is as before.
   */
  @Test
  void aFinishedChainLeavesItsThreadWhileChainsOfItsJobHaveNotStarted() throws Exception {
    FinishedChains chains = new FinishedChains();
    chains.started("job");
    chains.started("job");
    CountDownLatch first = finishOnAThread(chains, "job", 3);
    assertTrue(first.await(5, TimeUnit.SECONDS), "one of three chains has not started: the thread is left to it");
    chains.started("job");
    CountDownLatch second = finishOnAThread(chains, "job", 3);
    assertFalse(second.await(200, TimeUnit.MILLISECONDS), "all three started, one still runs: held");
    chains.finishedAndWait("job", 3);
    assertTrue(second.await(5, TimeUnit.SECONDS), "the last released it");
    assertEquals(0, chains.running());
  }

  @Test
  void aFailedChainDoesNotWaitAndCountsAsEnded() throws Exception {
    FinishedChains chains = new FinishedChains();
    chains.started();
    chains.started();
    CountDownLatch waiting = finishOnAThread(chains);
    assertFalse(waiting.await(100, TimeUnit.MILLISECONDS));
    chains.failed();   // returns at once, and the waiting chain is no longer held by it
    assertTrue(waiting.await(5, TimeUnit.SECONDS));
    assertEquals(0, chains.running());
    // a chain alone does not wait for anyone, so the same object serves the next sweep in this JVM
    chains.started();
    chains.finishedAndWait();
    assertEquals(0, chains.running());
  }

  @Test
  void anInterruptEndsTheHoldAndKeepsTheInterrupt() throws Exception {
    FinishedChains chains = new FinishedChains();
    chains.started();
    chains.started();
    CountDownLatch returned = new CountDownLatch(1);
    boolean[] interrupted = new boolean[1];
    Thread t = new Thread(() -> {
      chains.finishedAndWait();
      interrupted[0] = Thread.currentThread().isInterrupted();
      returned.countDown();
    });
    t.start();
    assertFalse(returned.await(100, TimeUnit.MILLISECONDS));
    t.interrupt();
    assertTrue(returned.await(5, TimeUnit.SECONDS), "the runner's cancel ends the hold");
    t.join();
    assertTrue(interrupted[0], "and the thread still knows it was interrupted");
  }

  @Test
  void anIdleThreadWaitsForAChainToStartThenUntilNoneRunsAndLeavesAfterItsGraceWhenNoneStarts() throws Exception {
    FinishedChains chains = new FinishedChains();
    long t0 = System.nanoTime();
    chains.idle(Duration.ofMillis(150));   // nothing starts: it leaves after its grace
    assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(150), "it waited for its grace");

    CountDownLatch returned = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      chains.idle(Duration.ofSeconds(30));
      returned.countDown();
    });
    t.setDaemon(true);
    t.start();
    assertFalse(returned.await(100, TimeUnit.MILLISECONDS), "no chain yet: it waits within its grace");
    chains.started();
    assertFalse(returned.await(100, TimeUnit.MILLISECONDS), "a chain runs: it is held");
    chains.finishedAndWait();   // the only chain ends: returns at once, and releases the idle thread
    assertTrue(returned.await(5, TimeUnit.SECONDS));
    assertEquals(0, chains.running());
  }
}
