package dev.h2beam.transforms.recursion;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one concurrent phase: up to {@code width} items at once, results in input order. Recording happens after the
 * phase drains, from the ordered results, so nothing written depends on thread timing.
 */
public final class Phases {
  private Phases() {}

  public interface Step<T, R> {
    R apply(T item) throws Exception;
  }

  /**
   * The phases' threads, kept between phases: a pool of its own for every phase started about 22 threads a task,
   * each with its own buffers, a percent or two of a sweep's CPU at L = 0 (BENCHMARKS.md, issue 11). Daemons, so an
   * idle one never holds the JVM; a phase inside a phase's item takes threads of its own from here, never waiting for
   * its caller's.
   */
  private static final ExecutorService THREADS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "h2beam-phase");
    t.setDaemon(true);
    return t;
  });

  /**
   * Applies {@code step} to each item, at most {@code width} at once, taken in input order as threads come free; the
   * results in input order. A failure is thrown when its item's turn comes, as the first failure in input order; the
   * items still running are then interrupted and waited for, and those not started are dropped, as when the caller
   * is interrupted.
   */
  public static <T, R> List<R> map(List<T> items, int width, Step<T, R> step) throws Exception {
    int w = Math.max(1, Math.min(width, items.size()));
    List<R> out = new ArrayList<>();
    if (w == 1) {
      for (T item : items) out.add(step.apply(item));
      return out;
    }
    int n = items.size();
    List<CompletableFuture<R>> results = new ArrayList<>(n);
    for (int i = 0; i < n; i++) results.add(new CompletableFuture<>());
    AtomicInteger next = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    // counted down as each worker leaves (one not yet started leaves as it starts, seeing stop), so that a failed
    // phase returns once nothing of it runs; the threads running an item, to interrupt them then
    java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(w);
    java.util.Set<Thread> running = new java.util.HashSet<>();
    Runnable worker = () -> {
      synchronized (running) {
        running.add(Thread.currentThread());
      }
      try {
        for (int i; !stop.get() && (i = next.getAndIncrement()) < n; ) {
          try {
            results.get(i).complete(step.apply(items.get(i)));
          } catch (Throwable t) {
            results.get(i).completeExceptionally(t);
          }
        }
      } finally {
        synchronized (running) {
          running.remove(Thread.currentThread());
        }
        // an interrupt meant for this phase is not the pooled thread's next task's
        Thread.interrupted();
        ended.countDown();
      }
    };
    boolean drained = false;
    int started = 0;
    try {
      for (int k = 0; k < w; k++) {
        THREADS.execute(worker);
        started++;
      }
      for (CompletableFuture<R> f : results) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          if (c instanceof Exception ex) throw ex;
          if (c instanceof Error er) throw er;
          throw e;
        }
      }
      drained = true;
      return out;
    } finally {
      if (!drained) {
        stop.set(true);
        synchronized (running) {
          for (Thread t : running) t.interrupt();
        }
        // the items still running are waited for, interrupted: the caller records the phase failed and goes on, and
        // nothing of this phase may still be writing its files then (dogAJ, unconfirmed 1); a worker never handed
        // to a thread (the pool refused it) never counts down
        for (int k = started; k < w; k++) ended.countDown();
        awaitEnd(ended);
      }
    }
  }

  /** Waits for {@code ended}, through interrupts, which are kept for the caller. */
  private static void awaitEnd(java.util.concurrent.CountDownLatch ended) {
    boolean interrupted = false;
    while (true) {
      try {
        ended.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }
}
