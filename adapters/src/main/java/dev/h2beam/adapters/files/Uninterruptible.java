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

  /** Runs {@code block} to completion whatever interrupts the calling thread; re-asserts the interrupt after. */
  public static void run(IoBlock block) throws IOException {
    Future<?> f = WRITERS.submit(() -> {
      try {
        block.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return null;
    });
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
