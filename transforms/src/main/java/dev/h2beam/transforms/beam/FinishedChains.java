package dev.h2beam.transforms.beam;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a finished chain's thread until every chain running in this JVM has finished, where the chains run on the
 * DirectRunner. That runner's monitor is a task on the same fixed pool that resubmits itself with no wait
 * (apache/beam#18070): a pool thread with no bundle to run spins it on a core. A sweep's pool has one thread per chain
 * ({@code DirectThreads.fit}), so the first chain to finish freed a thread that then spun for as long as the others ran,
 * taking one of the machine's cores from the chains still working. A held thread only waits.
 *
 * <p>Only chains that have started are waited for: a chain still queued for a thread cannot be waited on by a thread
 * it needs. So where a job has more chains than the pool has threads ({@code --chainsAtOnce}), a chain that finishes
 * while some of its job's chains have not started yet leaves its thread at once, to one of them; the hold begins
 * once every chain of the job has started. A chain that fails does not wait, so the failure reaches the runner at
 * once, and an interrupted wait (the runner cancelling the job) ends the hold. The report uses the same hold for its
 * one writing step ({@link #idle}).
 */
public final class FinishedChains {
  private int running;
  /** Chains started since this object was made: an idle thread sees one start even if it has ended since. */
  private long starts;
  /** Chains started of each job, by the job's name ({@link #hold}). */
  private final Map<String, Integer> jobStarts = new HashMap<>();

  /** A chain's work, which may fail. */
  public interface Chain {
    void run() throws Exception;
  }

  /**
   * Runs one chain, then holds its thread until the other chains running in this JVM have finished; a chain that
   * fails leaves at once with its error.
   */
  public void hold(Chain chain) throws Exception {
    hold(null, 0, chain);
  }

  /**
   * The same for one of the {@code chainsInJob} chains of the job named {@code job} (a name of its own for each run of
   * a pipeline): while some of them have not started, a finished chain leaves its thread to them.
   */
  public void hold(String job, int chainsInJob, Chain chain) throws Exception {
    started(job);
    try {
      chain.run();
    } catch (Exception | Error e) {
      failed();
      throw e;
    }
    finishedAndWait(job, chainsInJob);
  }

  /**
   * Holds a thread that has no chain of its own (a spare thread of the runner's pool) while chains run: waits up to
   * {@code grace} for one to start, then until none is running; returns at once on an interrupt, keeping it.
   */
  public synchronized void idle(Duration grace) {
    long end = System.nanoTime() + grace.toNanos();
    long seen = starts;
    try {
      for (long left = grace.toNanos(); running == 0 && starts == seen && left > 0; left = end - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      while (running > 0) wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A chain starts. */
  synchronized void started() {
    started(null);
  }

  /** A chain of {@code job} (null: of no job counted) starts. */
  synchronized void started(String job) {
    running++;
    starts++;
    if (job != null) jobStarts.merge(job, 1, Integer::sum);
    notifyAll();
  }

  /** A chain ended with an error: it leaves without waiting. */
  synchronized void failed() {
    running--;
    notifyAll();
  }

  /** A chain finished: returns once no chain is running in this JVM (or the thread is interrupted). */
  synchronized void finishedAndWait() {
    finishedAndWait(null, 0);
  }

  /**
   * A chain of {@code job} finished: returns at once while fewer than {@code chainsInJob} of the job's chains have
   * started (the thread is needed for one of the others), else once no chain is running in this JVM.
   */
  synchronized void finishedAndWait(String job, int chainsInJob) {
    running--;
    notifyAll();
    if (job != null && jobStarts.getOrDefault(job, 0) < chainsInJob) return;
    try {
      while (running > 0) wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Chains running now (for tests). */
  synchronized int running() {
    return running;
  }
}
