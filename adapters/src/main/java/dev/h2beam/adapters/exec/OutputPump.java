package dev.h2beam.adapters.exec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Copies one output pipe of a child into a file, keeping at most {@code cap} bytes and reading (and counting) the rest
 * so the child never blocks on a full pipe. It ends at end of stream, which comes once every process holding the
 * pipe's write end is gone.
 */
final class OutputPump {
  private final InputStream in;
  private final OutputStream file;
  private final long cap;
  private final String name;
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile long total;
  private volatile long kept;
  private volatile boolean stopped;
  private volatile IOException writeError;

  private OutputPump(InputStream in, Path target, long cap, String name) throws IOException {
    this.in = in;
    this.file = Files.newOutputStream(target);
    this.cap = cap;
    this.name = name;
  }

  /**
   * The pumps' threads, kept between programs: two new threads for every program started cost more system calls
   * (stack mappings, guard pages, and the TLB flushes of unmapping them on both cores) than many a short program
   * itself. Daemons: a pipe held open by a process outside our reach must not keep the JVM alive.
   */
  private static final String IDLE = "h2beam-output-pump";
  private static final ExecutorService THREADS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, IDLE);
    t.setDaemon(true);
    return t;
  });

  static OutputPump start(InputStream in, Path target, long cap, String name) throws IOException {
    OutputPump p = new OutputPump(in, target, cap, name);
    try {
      THREADS.execute(p::run);
    } catch (RuntimeException e) {
      p.file.close();
      throw new IOException("cannot start a thread to read " + name, e);
    }
    return p;
  }

  /** Pumps under the program's name (for thread dumps), then gives the thread back. */
  private void run() {
    Thread self = Thread.currentThread();
    self.setName(name);
    try {
      pump();
    } finally {
      ended.countDown();
      self.setName(IDLE);
    }
  }

  private void pump() {
    byte[] buf = new byte[8192];
    try (in; file) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        if (stopped) break;
        long room = cap - kept;
        if (room > 0 && writeError == null) {
          int k = (int) Math.min(room, n);
          try {
            file.write(buf, 0, k);
            kept += k;
          } catch (IOException e) {
            writeError = e; // keep draining: a blocked child is worse than a short file
          }
        }
        total += n;
      }
    } catch (IOException e) {
      // The pipe was closed under us: the child and everything that held the pipe are gone.
    }
  }

  /**
   * Waits up to {@code graceMs} for end of stream; when it does not come (a process that left the group still holds
   * the pipe), stops keeping bytes so the file no longer changes. Returns whether the stream ended.
   */
  boolean finish(long graceMs) {
    boolean done = false;
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) break;
      try {
        done = ended.await(left, TimeUnit.NANOSECONDS);
        break;
      } catch (InterruptedException e) {
        interrupted = true; // finish the bookkeeping first; the caller sees the interrupt
      }
    }
    if (!done) stopped = true;
    if (interrupted) Thread.currentThread().interrupt();
    return done;
  }

  long total() {
    return total;
  }

  boolean truncated() {
    return total > cap;
  }

  /** The error that stopped the copy into the file, or null. */
  IOException writeError() {
    return writeError;
  }
}
