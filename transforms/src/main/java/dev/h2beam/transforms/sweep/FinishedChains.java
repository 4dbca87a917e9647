package dev.h2beam.transforms.sweep;

/**
 * Keeps a finished chain's thread until every chain running in this JVM has finished, where the chains run on the
 * DirectRunner. That runner's monitor is a task on the same fixed pool that resubmits itself with no wait
 * (apache/beam#18070): a pool thread with no bundle to run spins it on a core. A sweep's pool has one thread per chain
 * ({@code DirectThreads.fit}), so the first chain to finish freed a thread that then spun for as long as the others ran,
 * taking one of the machine's cores from the chains still working. A held thread only waits.
 *
 * <p>Only chains that have started are waited for: a chain still queued for a thread cannot be waited on by a thread
 * it needs. A chain that fails does not wait, so the failure reaches the runner at once, and an interrupted wait (the
 * runner cancelling the job) ends the hold.
 */
public final class FinishedChains {
  private int running;

  /** A chain's work, which may fail. */
  public interface Chain {
    void run() throws Exception;
  }

  /**
   * Runs one chain, then holds its thread until the other chains running in this JVM have finished; a chain that
   * fails leaves at once with its error.
   */
  public void hold(Chain chain) throws Exception {
    started();
    try {
      chain.run();
    } catch (Exception | Error e) {
      failed();
      throw e;
    }
    finishedAndWait();
  }

  /** A chain starts. */
  synchronized void started() {
    running++;
  }

  /** A chain ended with an error: it leaves without waiting. */
  synchronized void failed() {
    running--;
    notifyAll();
  }

  /** A chain finished: returns once no chain is running in this JVM (or the thread is interrupted). */
  synchronized void finishedAndWait() {
    running--;
    notifyAll();
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
