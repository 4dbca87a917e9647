package dev.h2beam.pipelines.judge;

import dev.h2beam.transforms.proposer.Limits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * The workers that grade one shard's selections: up to {@code workers} of them take the selections one after
 * another, each selection once, and give back a row per selection in the selections' order. Every call of a grader
 * runs under a permit of the grader's process-wide limit, so the process keeps no more calls of a grader running than
 * that limit allows, however many shards are graded at once and however many calls were abandoned at their timeout.
 *
 * <p>Why it works this way: every shard in flight brings its own workers for the same permits, so the workers
 * outnumber the permits, and every hand-off between two threads costs a wake and a sleep in the kernel (BENCHMARKS.md,
 * "The report's collector, the judge's hand-offs"):
 * <ul>
 *   <li>a worker takes its next selection itself (a shared index): handing each selection to a pool thread cost two
 *       system calls per row, which on 100,000 rows cost more than reading the summaries;
 *   <li>a grader that only reads files in this JVM ({@link Grader#inProcess}) is called on the worker's own thread,
 *       without a timeout, under a permit the worker keeps from row to row: taking and giving it back around every
 *       row put the workers that had none to sleep and woke them again for each row (a tenth of the judge's CPU);
 *   <li>any other grader is called on a thread of its own that {@link Judging} abandons at the timeout, and each such
 *       call takes a permit of its own and keeps it until it really ends: a call abandoned while it runs on (it
 *       ignores its cancellation) still counts against the limit, and the worker takes another permit for its next
 *       call. Such a call (a process, a model's answer) costs far more than taking a permit for it. When every
 *       permit is held by abandoned calls that run on, the workers wait for them to end: that is the limit at work,
 *       not a deadlock, and a grader that must not hold the judge up ends its calls when they are cancelled
 *       ({@link CommandGrader} kills its command's process group);
 *   <li>a worker holds one permit at a time: it gives back the one it holds before it waits for another (another
 *       grader's, or one for a call), so no two workers can wait on each other's.
 * </ul>
 */
final class GradingWorkers implements AutoCloseable {

  /** Opens the grader that judges a selection, and lets go of the graders it opened when the workers close. */
  @FunctionalInterface
  interface Graders extends AutoCloseable {
    Grader open(SelectionItem item) throws Exception;

    @Override default void close() {}
  }

  private final int workers;
  private final Function<String, Semaphore> limits;
  private final Graders graders;
  private final Duration timeout;
  private final int repeats;
  /** Whether each grade is served from, or kept in, the namespace's kept grades ({@link KeptGrades}). */
  private final boolean keep;
  private final ExecutorService calls;
  private final ExecutorService threads;

  /**
   * @param workers the most workers one shard is graded by, and the threads kept for them
   * @param limits the process-wide limit of a grader, by the grader's name
   * @param graders opens a selection's grader; one that cannot be opened makes the selection's row judge-failed.
   *     Closed when the workers close
   * @param timeout how long to wait for a call of a grader that is not {@linkplain Grader#inProcess in process}
   * @param repeats how many times each selection is graded ({@link Judging#repeated})
   */
  GradingWorkers(int workers, Function<String, Semaphore> limits, Graders graders, Duration timeout, int repeats) {
    this(workers, limits, graders, timeout, repeats, false);
  }

  /** The same, with {@code keep} telling whether grades are served from and kept in {@link KeptGrades}. */
  GradingWorkers(int workers, Function<String, Semaphore> limits, Graders graders, Duration timeout, int repeats,
      boolean keep) {
    this.workers = workers;
    this.keep = keep;
    this.limits = limits;
    this.graders = graders;
    this.timeout = timeout;
    this.repeats = repeats;
    this.calls = Executors.newCachedThreadPool(daemon("h2beam-grader"));
    this.threads = Executors.newFixedThreadPool(workers, daemon("h2beam-grade"));
  }

  /**
   * The judge's workers: {@code --graderConcurrency} of them per shard, under a limit of as many permits per grader
   * in this process ({@link Limits}), each call of a grader that is not in process within
   * {@code --graderTimeoutSeconds}, and the graders those of the job's other workers in this JVM use
   * ({@link OpenedGraders}); each grade served from, or kept in, the namespace's {@link KeptGrades}.
   */
  static GradingWorkers of(JudgePipeline.Config c) {
    return new GradingWorkers(c.concurrency(), grader -> Limits.of("grader:" + grader, c.concurrency()),
        OpenedGraders.join(c.job(), c.settings()), Duration.ofSeconds(c.timeoutSeconds()), c.repeats(), true);
  }

  /**
   * Grades {@code items}, each once, and gives back their rows in their order. A grader's failure is its row's
   * absence; a worker that fails otherwise (a bug) stops the others from taking more rows (the rows they took are
   * finished), and the call then fails with that worker's failure as its cause, the first one when several failed.
   */
  List<JudgedRow> grade(List<SelectionItem> items) throws InterruptedException, ExecutionException {
    return grade(items, new MetricVector.Seen[items.size()], new int[items.size()]);
  }

  /**
   * As {@link #grade(List)}, with {@code seen[i]} set to what grading {@code items.get(i)} saw of its chosen run
   * ({@link Judging}), left null where it looked at none, and {@code served[i]} to the mask of its repeats whose
   * grades were served from {@link KeptGrades} (bit {@code r} for repeat {@code r}). Both are as long as
   * {@code items}.
   */
  List<JudgedRow> grade(List<SelectionItem> items, MetricVector.Seen[] seen, int[] served)
      throws InterruptedException, ExecutionException {
    JudgedRow[] rows = new JudgedRow[items.size()];
    AtomicInteger next = new AtomicInteger();
    // why the workers stop taking rows before they run out: the first failure of one of them
    AtomicReference<Throwable> failed = new AtomicReference<>();
    List<Future<?>> running = new ArrayList<>();
    for (int w = 0; w < Math.min(workers, rows.length); w++) {
      running.add(threads.submit(() -> {
        Worker worker = new Worker();
        try {
          for (int i; failed.get() == null && (i = next.getAndIncrement()) < rows.length; ) {
            int row = i;
            rows[i] = worker.row(items.get(i), m -> seen[row] = m, r -> served[row] |= 1 << r);
          }
        } catch (RuntimeException | Error e) {
          // recorded before the permit is given back, so a worker that waited for it sees the failure after its row
          failed.compareAndSet(null, e);
          throw e;
        } finally {
          worker.giveBack();
        }
      }));
    }
    try {
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          // the first failure is what the shard fails with; the other workers are still waited for
        }
      }
    } catch (InterruptedException e) {
      // nobody waits for the rows any more: the workers finish the rows they took and take no other
      failed.compareAndSet(null, e);
      throw e;
    }
    Throwable first = failed.get();
    if (first != null) throw new ExecutionException(first);
    return List.of(rows);
  }

  /** One worker of a shard, and the permit it keeps from row to row for a grader in process. */
  private final class Worker {
    /** The permit of the in-process grader of the worker's last row, or null. */
    private Semaphore held;

    /**
     * The row of one selection. A call of an in-process grader runs under the permit the worker holds: the one it
     * held when it is that grader's, else that one given back and this one taken; any other call takes a permit of
     * its own ({@link Judging#judge}), once the worker has given back the one it held.
     */
    JudgedRow row(SelectionItem item, Consumer<MetricVector.Seen> seen, IntConsumer served) {
      if (!item.ok()) return Judging.judge(item, null, Duration.ZERO, calls);
      Grader grader;
      try {
        grader = graders.open(item);
      } catch (Exception e) {
        return Judging.absent(item, Absence.JUDGE_FAILED, "cannot open grader " + item.grader() + ": "
            + e.getMessage());
      }
      Semaphore limit = limits.apply(item.grader());
      if (!grader.inProcess()) {
        giveBack();
      } else if (limit != held) {
        giveBack();
        limit.acquireUninterruptibly();
        held = limit;
      }
      // only the opening is this row's "cannot open": a grader's own failures are absences inside Judging, and
      // anything else thrown there is a bug that fails the shard rather than a row that names the wrong cause
      return Judging.repeated(item, grader, timeout, calls, limit, repeats, seen, keep ? served : null);
    }

    /** Gives back the permit the worker holds, if any. */
    void giveBack() {
      if (held != null) held.release();
      held = null;
    }
  }

  /**
   * Stops the calls still running and the workers' threads, then lets go of the graders ({@link Graders#close}): the
   * last of the job's workers in this JVM closes them. A call that runs on keeps its permit until it ends.
   */
  @Override public void close() {
    calls.shutdownNow();
    threads.shutdownNow();
    graders.close();
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
