package dev.h2beam.transforms.proposer;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One sweep's view of a shared limit: acquires and releases the shared semaphore ({@link Limits#of}), and counts the
 * permits this sweep holds, so a progress board reports its own sessions or rollouts in flight and not those of
 * another sweep in the same worker process.
 */
public final class HeldPermits extends Semaphore {
  private static final long serialVersionUID = 1L;
  private final Semaphore shared;
  private final AtomicInteger held = new AtomicInteger();

  public HeldPermits(Semaphore shared) {
    super(0);
    this.shared = shared;
  }

  /** Permits this view holds now. */
  public int held() {
    return held.get();
  }

  @Override public void acquire() throws InterruptedException {
    shared.acquire();
    held.incrementAndGet();
  }

  @Override public void acquire(int permits) throws InterruptedException {
    shared.acquire(permits);
    held.addAndGet(permits);
  }

  @Override public void acquireUninterruptibly() {
    shared.acquireUninterruptibly();
    held.incrementAndGet();
  }

  @Override public void acquireUninterruptibly(int permits) {
    shared.acquireUninterruptibly(permits);
    held.addAndGet(permits);
  }

  @Override public boolean tryAcquire() {
    return counted(shared.tryAcquire(), 1);
  }

  @Override public boolean tryAcquire(int permits) {
    return counted(shared.tryAcquire(permits), permits);
  }

  @Override public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
    return counted(shared.tryAcquire(timeout, unit), 1);
  }

  @Override public boolean tryAcquire(int permits, long timeout, TimeUnit unit) throws InterruptedException {
    return counted(shared.tryAcquire(permits, timeout, unit), permits);
  }

  private boolean counted(boolean got, int permits) {
    if (got) held.addAndGet(permits);
    return got;
  }

  @Override public void release() {
    held.decrementAndGet();
    shared.release();
  }

  @Override public void release(int permits) {
    held.addAndGet(-permits);
    shared.release(permits);
  }

  @Override public int availablePermits() {
    return shared.availablePermits();
  }

  @Override public int drainPermits() {
    throw new UnsupportedOperationException("a sweep's view of a shared limit cannot drain it");
  }
}
