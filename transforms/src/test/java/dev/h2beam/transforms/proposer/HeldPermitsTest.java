package dev.h2beam.transforms.proposer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;

/** Two sweeps in one process share a limit, and each counts only the permits it holds. */
class HeldPermitsTest {
  @Test
  void eachViewCountsItsOwnPermitsOfTheSharedLimit() throws Exception {
    Semaphore shared = new Semaphore(3);
    HeldPermits a = new HeldPermits(shared);
    HeldPermits b = new HeldPermits(shared);
    a.acquire();
    a.acquireUninterruptibly();
    assertTrue(b.tryAcquire());
    assertFalse(a.tryAcquire(), "the shared limit holds across views");
    assertEquals(2, a.held());
    assertEquals(1, b.held());
    assertEquals(0, a.availablePermits());
    a.release();
    assertEquals(1, a.held());
    assertEquals(1, shared.availablePermits());
    b.release();
    a.release();
    assertEquals(0, a.held() + b.held());
    assertEquals(3, shared.availablePermits());
  }
}
