package dev.h2beam.adapters.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes that a cancelled thread must still finish. A runner cancels work by interrupting its threads, and Java's file
 * channels close on an interrupt: a session or rollout that had run, and was being recorded when a sibling task failed
 * the job, lost its journal line while its cached reply survived, so the spend went unrecorded. The record of work
 * done is therefore written on a thread of h2beam's own that no runner interrupts; the caller waits for it and keeps
 * its interrupt for afterwards.
 */
public final class Uninterruptible {
  private Uninterruptible() {}

  /** An I/O block. */
  @FunctionalInterface
  public interface IoBlock {
    void run() throws IOException;
  }

  private static final ExecutorService WRITERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "h2beam-record-writer");
    t.setDaemon(true);
    return t;
  });

  /** Records being written now; an exiting process waits for them (see the shutdown hook below). */
  private static final java.util.concurrent.atomic.AtomicInteger WRITING =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * A process that exits (a job failed and the command returns its exit code) while a writer is between a session's
   * cached reply and its journal line would leave a reply that a resume reuses but no record of its spend. This hook,
   * waiting at most a few seconds, lets the record finish; only kill -9 can still cut one short. It is registered
   * while a record is being written and removed when none is: a registered hook holds its job's classes, and on a
   * session cluster's TaskManager every job's stayed loaded until the worker's metaspace was full.
   */
  static final Thread DRAIN = new Thread(() -> {
    int pending = WRITING.get();
    if (pending > 0) {
      System.err.println("h2beam: exiting once " + pending + " rollout(s) or record(s) in progress are recorded"
          + " (at most 10 s; a program still running then is killed)");
    }
    awaitRecords();
  }, "h2beam-record-writer-drain");

  /** Guards the count's moves to and from zero with the drain's registration. */
  private static final Object HOOKING = new Object();

  /** Counts one more record being written, registering the drain for the first. */
  private static void writingOne() {
    synchronized (HOOKING) {
      if (WRITING.getAndIncrement() == 0) hook(true);
    }
  }

  /** Counts one record written, removing the drain after the last. */
  private static void wroteOne() {
    synchronized (HOOKING) {
      if (WRITING.decrementAndGet() == 0) hook(false);
    }
  }

  private static void hook(boolean on) {
    try {
      if (on) Runtime.getRuntime().addShutdownHook(DRAIN);
      else Runtime.getRuntime().removeShutdownHook(DRAIN);
    } catch (IllegalStateException | IllegalArgumentException exiting) {
      // the exit has begun (the hook runs, or no longer can be changed), or it is registered already
    }
  }

  /**
   * Waits, at most 10 s, until no record is being written. For the exit only: shutdown hooks run at once, so another
   * hook that must come after the records (releasing the folders' writer locks, killing the programs still running)
   * waits here too.
   */
  public static void awaitRecords() {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (WRITING.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** A span during which an exiting process waits (see {@link #hold}); closing it twice releases it once. */
  public static final class Hold implements AutoCloseable {
    private final java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);

    private Hold() {
      writingOne();
    }

    @Override
    public void close() {
      if (open.compareAndSet(true, false)) wroteOne();
    }
  }

  /**
   * Counts the caller as writing a record until the returned hold is closed. For work whose own completion mark is
   * written by code h2beam does not own (a benchmark marks a rollout complete as it ends) and whose record follows:
   * an exit between the two would leave work a resume reuses but no record of it, so the exit waits (at most the
   * drain's few seconds) for the whole span, not only for the record's write.
   */
  public static Hold hold() {
    return new Hold();
  }

  /** Runs {@code block} to completion whatever interrupts the calling thread; re-asserts the interrupt after. */
  public static void run(IoBlock block) throws IOException {
    // counted as being written from the call on, released by the writer thread when the block ends
    Hold writing = hold();
    Future<?> f;
    try {
      f = WRITERS.submit(() -> {
        try {
          block.run();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } finally {
          writing.close();
        }
        return null;
      });
    } catch (RuntimeException e) {
      writing.close();
      throw e;
    }
    boolean interrupted = false;
    try {
      while (true) {
        try {
          f.get();
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          if (c instanceof UncheckedIOException u) throw u.getCause();
          if (c instanceof RuntimeException r) throw r;
          if (c instanceof Error err) throw err;
          throw new IOException(c);
        }
      }
    } finally {
      if (interrupted) Thread.currentThread().interrupt();
    }
  }
}
