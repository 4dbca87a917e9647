package dev.h2beam.transforms.recursion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A phase runs its items on shared threads, at most its width at once, and answers in input order. */
class PhasesTest {
  @Test
  void resultsComeInInputOrderAndNoMoreThanTheWidthRunAtOnce() throws Exception {
    List<Integer> items = new ArrayList<>();
    for (int i = 0; i < 200; i++) items.add(i);
    for (int width : new int[] {1, 2, 5, 16}) {
      AtomicInteger running = new AtomicInteger();
      AtomicInteger most = new AtomicInteger();
      List<Integer> out = Phases.map(items, width, i -> {
        most.accumulateAndGet(running.incrementAndGet(), Math::max);
        Thread.yield();
        running.decrementAndGet();
        return i * i;
      });
      for (int i = 0; i < items.size(); i++) assertEquals(i * i, out.get(i));
      assertTrue(most.get() <= width, "at most " + width + " at once, saw " + most.get());
    }
    // a phase inside an item takes threads of its own
    List<List<Integer>> nested = Phases.map(List.of(1, 2, 3), 3, n -> Phases.map(List.of(n, n + 10), 2, m -> -m));
    assertEquals(List.of(List.of(-1, -11), List.of(-2, -12), List.of(-3, -13)), nested);
  }

  /**
   * The first failure in input order is thrown, though a later item failed first; an item still running is then
   * interrupted.
   */
  @Test
  void theFirstFailureInInputOrderIsThrownAndTheRestStopped() throws Exception {
    CountDownLatch laterFailed = new CountDownLatch(1);
    CountDownLatch blockedStarted = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Phases.map(List.of(0, 1, 2, 3, 4),
        3, i -> {
          switch (i) {
            case 0 -> {
              laterFailed.await();
              blockedStarted.await();
              throw new IllegalStateException("item 0");
            }
            case 1 -> {
              try {
                blockedStarted.countDown();
                new CountDownLatch(1).await();
              } catch (InterruptedException stopped) {
                interrupted.countDown();
                throw stopped;
              }
              return i;
            }
            case 2 -> throw new IllegalStateException("item 2");
            default -> {
              laterFailed.countDown(); // items 3 and 4 come after item 2 failed
              return i;
            }
          }
        }));
    assertEquals("item 0", e.getMessage());
    assertTrue(interrupted.await(30, TimeUnit.SECONDS), "the item still running was interrupted");
  }

  /**
   * dogAJ's unconfirmed 1: when a phase fails, the items still running are waited for before the failure reaches the
   * caller, which records the phase failed and goes on: nothing of the phase is still writing then.
   */
  @Test
  void aFailedPhaseReturnsOnlyOnceItsRunningItemsHaveEnded() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
    CountDownLatch running = new CountDownLatch(1);
    assertThrows(IllegalStateException.class, () -> Phases.map(List.of(1, 2), 2, i -> {
      if (i == 2) {
        running.countDown();
        long until = System.nanoTime() + 300_000_000L;
        // an item that finishes what it is writing before it stops, interrupted or not
        while (System.nanoTime() < until) {
          try {
            Thread.sleep(10);
          } catch (InterruptedException e) {
            // keeps going
          }
        }
        ended.set(true);
        return i;
      }
      running.await();
      throw new IllegalStateException("one");
    }));
    assertTrue(ended.get(), "the running item had ended when the failure was thrown");
  }

  @Test
  void anErrorIsThrownAsItself() {
    AssertionError e = assertThrows(AssertionError.class, () -> Phases.map(List.of(1, 2), 2, i -> {
      if (i == 2) throw new AssertionError("two");
      return i;
    }));
    assertEquals("two", e.getMessage());
  }
}
