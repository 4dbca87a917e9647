package dev.h2beam.pipelines.judge;

import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The graders one judge job opened in this JVM: shared by the job's workers here, and closed with the last of them.
 * A grader is opened once per grader name, namespace and settings while any worker of the job is set up in this JVM
 * (a rubric grader's model client serves every shard), and closed and forgotten when the job's last worker here is
 * torn down ({@code GradeFn}'s {@code @Teardown}). So a long-lived worker process that runs many judge jobs (a Flink
 * TaskManager) keeps none of their graders, and a later job opens its own, from the rubrics and config it finds then.
 * Should every worker of a job be torn down while the job goes on (a runner may replace them), the next worker opens
 * the graders again. A grader is closed even while a call of it that the judge abandoned at its timeout runs on: that
 * call's answer is never read. Beam tears a DoFn down on a best-effort basis: a worker that is never torn down keeps
 * its job's graders open.
 */
final class OpenedGraders {

  /** The jobs with a worker in this JVM, by name; its lock also guards every job's {@link #workers}. */
  private static final Map<String, OpenedGraders> JOBS = new HashMap<>();

  private final String job;
  /** The job's workers here that joined and have not left. */
  private int workers;
  /** The job's graders by grader name, namespace and settings; an opening that failed is not kept. */
  private final ConcurrentHashMap<Key, CompletableFuture<Grader>> opened = new ConcurrentHashMap<>();

  /**
   * What a grader is opened for: its name, its namespace and the judge's settings as text. Its equality and hash are
   * written out: a record's derived ones go through method handles, which the client compiler runs slowly, for every
   * row.
   */
  private record Key(String grader, String namespace, String settings) {
    @Override public boolean equals(Object o) {
      return o instanceof Key k && Objects.equals(grader, k.grader) && Objects.equals(namespace, k.namespace)
          && Objects.equals(settings, k.settings);
    }

    @Override public int hashCode() {
      return (Objects.hashCode(grader) * 31 + Objects.hashCode(namespace)) * 31 + Objects.hashCode(settings);
    }
  }

  private OpenedGraders(String job) {
    this.job = job;
  }

  /**
   * A worker joins {@code job}: the graders it opens with {@code settings} are the job's, shared by every worker of
   * the job in this JVM. The worker closes what this gives back when it is torn down; the job's last worker to do so
   * closes the job's graders. Closing it again does nothing, and it opens nothing once closed.
   */
  static GradingWorkers.Graders join(String job, Map<String, String> settings) {
    OpenedGraders graders;
    synchronized (JOBS) {
      graders = JOBS.computeIfAbsent(job, OpenedGraders::new);
      graders.workers++;
    }
    AtomicBoolean left = new AtomicBoolean();
    String settingsKey = String.valueOf(settings);
    return new GradingWorkers.Graders() {
      @Override public Grader open(SelectionItem item) throws Exception {
        if (left.get()) throw new IllegalStateException("a worker of judge job " + job + " opened a grader after it"
            + " was torn down");
        return graders.open(item, settings, settingsKey);
      }

      @Override public void close() {
        if (left.compareAndSet(false, true)) graders.leave();
      }
    };
  }

  /**
   * The grader of {@code item}'s grader name and namespace with {@code settings}, opened on first use by one worker
   * while the others that need it wait for it: opened twice, one of the two would never be closed. An opening that
   * fails is forgotten, so a later selection tries again.
   */
  private Grader open(SelectionItem item, Map<String, String> settings, String settingsKey) throws Exception {
    Key key = new Key(item.grader(), item.namespace(), settingsKey);
    // every row of a namespace asks: the grader opened is found without making a future or a string per row
    CompletableFuture<Grader> opening = opened.get(key);
    if (opening == null) {
      CompletableFuture<Grader> mine = new CompletableFuture<>();
      opening = opened.putIfAbsent(key, mine);
      if (opening == null) {
        opening = mine;
        try {
          mine.complete(GraderProvider.named(item.grader()).open(Paths.get(item.namespace()), settings));
        } catch (Exception | Error e) {
          opened.remove(key, mine);
          mine.completeExceptionally(e);
        }
      }
    }
    try {
      return opening.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof Exception cause) throw cause;
      throw e;
    }
  }

  /**
   * A worker of the job leaves; the last one forgets the job and closes its graders (outside the lock: a grader that
   * is slow to close holds up no other job). Every grader is closed though one fails to; the first failure is thrown
   * after.
   */
  private void leave() {
    synchronized (JOBS) {
      if (--workers > 0) return;
      JOBS.remove(job, this);
    }
    // no worker of the job is left here to open a grader or to wait for one being opened
    RuntimeException failed = null;
    for (CompletableFuture<Grader> g : opened.values()) {
      try {
        g.join().close();
      } catch (RuntimeException e) {
        if (failed == null) failed = e;
        else failed.addSuppressed(e);
      }
    }
    opened.clear();
    if (failed != null) throw failed;
  }
}
