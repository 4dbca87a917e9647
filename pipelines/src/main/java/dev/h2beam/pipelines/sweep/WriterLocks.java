package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.files.DiskFull;
import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.pipelines.UsageError;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The writer locks a command holds for its whole run: taken in path order (so two commands that need the same
 * folders never wait for each other in a cycle) and released in reverse. A folder held by a live writer refuses the
 * command (or waits {@code --lockWaitSeconds}) with a message that names the holder.
 */
public final class WriterLocks implements AutoCloseable {
  private final List<WriterLock> held = new ArrayList<>();

  private WriterLocks() {}

  /** Locks every folder the sweep writes: the runs root, the library root and a benchmark root it writes into. */
  static WriterLocks forSweep(Sweep.Plan plan, SweepOptions o) {
    TreeSet<Path> dirs = folders(plan);
    StringBuilder what = new StringBuilder("sweep of");
    for (String m : plan.config().modes()) what.append(' ').append(plan.config().namespace(m));
    // the summaries go into the parallel mode's namespace whichever modes run: a judge of it looks for its name
    Path ns = plan.config().runs().resolve(plan.config().summaryNamespace().toString());
    if (!plan.config().modes().contains("agg")) what.append(" (summaries in ").append(ns.getFileName()).append(')');
    Instant deadline = Instant.now().plusSeconds(o.getLockWaitSeconds());
    WriterLocks locks = of(dirs, what.toString(), o.getLockWaitSeconds());
    // a judge writing judged.json of a namespace this sweep writes summaries into: waited for within the same
    // --lockWaitSeconds (no new judge can begin meanwhile: it looks for this sweep first)
    try {
      awaitNone(ns, h -> h, deadline, h -> ns + " is being judged by " + h + "; sweep again once the judge has"
          + " finished (or pass --lockWaitSeconds=N to wait)");
    } catch (UsageError e) {
      locks.close();
      throw e;
    }
    return locks;
  }

  /** The folders a sweep writes and locks: its runs root, its library, and a benchmark folder it writes in. */
  static TreeSet<Path> folders(Sweep.Plan plan) {
    TreeSet<Path> dirs = new TreeSet<>();
    dirs.add(plan.config().runs());
    dirs.add(Path.of(plan.config().libraryRoot()));
    if (dev.h2beam.adapters.bench.Benchmarks.named(plan.config().bench()).writesRoot()) {
      dirs.add(Path.of(plan.config().benchRoot()));
    }
    return dirs;
  }

  /**
   * Waits until {@code dir}'s lock has no live holder that {@code match} picks (its description, or null when it is
   * not one this command waits for), or {@code deadline} passes: then a {@link UsageError} of {@code refusal}. The
   * wait is said once, on stderr, with its holder and how long it may last.
   */
  static void awaitNone(Path dir, java.util.function.UnaryOperator<String> match, Instant deadline,
      java.util.function.UnaryOperator<String> refusal) {
    boolean told = false;
    while (true) {
      String h = WriterLock.holder(dir).map(match).orElse(null);
      if (h == null) return;
      long left = Duration.between(Instant.now(), deadline).toSeconds();
      if (left <= 0) throw new UsageError(refusal.apply(h));
      if (!told) {
        System.err.println("h2beam: waiting up to " + left + " s (--lockWaitSeconds) for " + h + " to finish");
        told = true;
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UsageError(refusal.apply(h));
      }
    }
  }

  /**
   * Refuses to judge a namespace that a live sweep is writing (its runs root's lock names it, as one of the modes'
   * namespaces or as where the summaries of a sweep without the parallel mode go).
   */
  public static void refuseIfSwept(Path namespace) {
    refuseIfSwept(namespace, 0);
  }

  /** The same, waiting up to {@code waitSeconds} ({@code --lockWaitSeconds}) for that sweep to finish. */
  public static void refuseIfSwept(Path namespace, int waitSeconds) {
    awaitNone(namespace.toAbsolutePath().getParent(), sweepOf(namespace), Instant.now().plusSeconds(waitSeconds),
        h -> namespace + " is being swept by " + h + "; judge it once the sweep has finished (or pass"
            + " --lockWaitSeconds=N to wait)");
  }

  /** The live sweep writing {@code namespace}, as its runs root's lock describes it, if there is one. */
  public static java.util.Optional<String> sweptBy(Path namespace) {
    return WriterLock.holder(namespace.toAbsolutePath().getParent()).map(sweepOf(namespace));
  }

  /** A lock holder's description when it is a sweep that writes {@code namespace}, else null. */
  private static java.util.function.UnaryOperator<String> sweepOf(Path namespace) {
    String name = " " + namespace.getFileName() + " ";
    return h -> (" " + h.replace("(", " ").replace(")", " ") + " ").contains(name) ? h : null;
  }

  /** Locks {@code dirs} for {@code what}; a {@link UsageError} names the holder of the first one held. */
  public static WriterLocks of(Iterable<Path> dirs, String what, int waitSeconds) {
    WriterLocks locks = new WriterLocks();
    TreeSet<Path> sorted = new TreeSet<>();
    dirs.forEach(d -> sorted.add(d.toAbsolutePath().normalize()));
    try {
      for (Path d : sorted) locks.held.add(WriterLock.acquire(d, what, Duration.ofSeconds(waitSeconds)));
      return locks;
    } catch (WriterLock.Held e) {
      locks.close();
      throw new UsageError(e.getMessage());
    } catch (IOException e) {
      locks.close();
      throw new UsageError(lockFailure(e));
    }
  }

  /** Why a lock could not be taken: a full disk as such (the lock file named, and what to do), else the failure. */
  static String lockFailure(IOException e) {
    return "cannot take the writer lock: " + DiskFull.line(e).orElse(e.getMessage());
  }

  @Override public void close() {
    for (int i = held.size() - 1; i >= 0; i--) held.get(i).close();
    held.clear();
  }
}
