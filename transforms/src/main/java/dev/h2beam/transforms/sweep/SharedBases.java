package dev.h2beam.transforms.sweep;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tasks' shared base rollouts, rolled by the chains themselves where every chain runs in one JVM (the
 * DirectRunner): the first chain of a task's domain to need them rolls them (or they were rolled ahead, see {@link
 * #ahead}), and the other modes' chains wait for the same result. Each task's bases are rolled once per JVM, so a
 * chain starts after its first task's bases, not after every task's, and a task's bases are rolled while the chain
 * still works on the task before it. Across JVMs two chains of a domain could roll the same bases at once; there the
 * sweep keeps its separate base stage (a grouping step waits for it), and nothing here is used.
 */
public final class SharedBases {
  /**
   * Threads rolling bases ahead; daemons, so a sweep that failed while one rolls does not keep the JVM alive. As many
   * as the chains a sweep runs at once by default (each rolls its next task's ahead): a sweep of 400 domains started a
   * thread for every domain's first task; now a roll still queued here is taken over by the chain that needs it
   * ({@link #take}).
   */
  static final int AHEAD_THREADS = 64;

  private static final ThreadPoolExecutor AHEAD = new ThreadPoolExecutor(AHEAD_THREADS, AHEAD_THREADS, 30,
      TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "h2beam-bases-ahead");
        t.setDaemon(true);
        return t;
      });

  static {
    AHEAD.allowCoreThreadTimeOut(true);
  }

  /** A task's bases: their result, the chains that took them, and whether a thread has begun rolling them. */
  private record Entry(CompletableFuture<TaskBases> result, AtomicInteger taken, AtomicBoolean claimed) {
    Entry() {
      this(new CompletableFuture<>(), new AtomicInteger(), new AtomicBoolean());
    }
  }

  /** How a task's bases are rolled ({@link SweepSteps#rollBases} in a sweep). */
  interface Roll {
    TaskBases roll(TaskRef ref) throws Exception;
  }

  private final ConcurrentHashMap<String, Entry> tasks = new ConcurrentHashMap<>();
  private final Roll rolling;
  private final int chainsPerTask;

  /**
   * @param chainsPerTask the chains that take each task's bases (one per mode): after the last, the task is forgotten
   */
  SharedBases(Roll rolling, int chainsPerTask) {
    this.rolling = rolling;
    this.chainsPerTask = chainsPerTask;
  }

  /** What one chain takes: the task's bases, and whether it is the first chain to take them (it counts the task). */
  public record Taken(TaskBases bases, boolean first) {}

  /**
   * The task's bases: rolled on this thread when no chain has started them, else waited for. Throws what rolling them
   * threw, to every chain that takes them.
   */
  public Taken take(TaskRef ref) throws Exception {
    Entry mine = new Entry();
    Entry e = tasks.putIfAbsent(ref.task(), mine);
    if (e == null) e = mine;
    // rolled here when no thread has begun them: nobody else's, or a roll ahead still queued for a thread
    if (e.claimed().compareAndSet(false, true)) roll(ref, e.result());
    int n = e.taken().incrementAndGet();
    if (n >= chainsPerTask) tasks.remove(ref.task(), e);
    try {
      return new Taken(e.result().get(), n == 1);
    } catch (ExecutionException x) {
      throw x.getCause() instanceof Exception ex ? ex : new IllegalStateException(x.getCause());
    }
  }

  /** Starts rolling the task's bases on a thread of their own, unless they are rolled or being rolled already. */
  public void ahead(TaskRef ref) {
    Entry mine = new Entry();
    if (tasks.putIfAbsent(ref.task(), mine) != null) return;
    AHEAD.execute(() -> {
      if (!mine.claimed().compareAndSet(false, true)) return; // a chain took it over while it was queued
      Thread self = Thread.currentThread();
      rollingAhead.add(self);
      try {
        roll(ref, mine.result());
      } finally {
        rollingAhead.remove(self);
        Thread.interrupted(); // a settle's interrupt must not reach the next task this pool thread runs
      }
    });
  }

  /**
   * Stops the rolls still running ahead and waits for them to end, up to {@code wait}; whether none is left. After a
   * sweep: one that succeeded has taken every task's bases, so nothing is rolling; one that failed may have left a
   * roll under way, which must not go on writing into the runs root under a resume that follows in this JVM.
   */
  public boolean settle(java.time.Duration wait) {
    // a roll ahead still queued for a thread never starts: its chains, if any come, see why
    for (Entry e : tasks.values()) {
      if (e.claimed().compareAndSet(false, true)) {
        e.result().completeExceptionally(new InterruptedException("the sweep ended before these bases were rolled"));
      }
    }
    rollingAhead.forEach(Thread::interrupt);
    long deadline = System.nanoTime() + wait.toNanos();
    while (!rollingAhead.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return rollingAhead.isEmpty();
      }
    }
    return rollingAhead.isEmpty();
  }

  /** The threads rolling a task's bases ahead right now. */
  private final java.util.Set<Thread> rollingAhead = ConcurrentHashMap.newKeySet();

  private void roll(TaskRef ref, CompletableFuture<TaskBases> result) {
    try {
      result.complete(rolling.roll(ref));
    } catch (Throwable t) {
      result.completeExceptionally(t);
    }
  }
}
