package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A shard's grading workers: no more calls of a grader at once than its permits, each selection graded once and its
 * row in the selection's order, one permit held at a time, and a grader's failure only its own row's absence.
 */
class GradingWorkersTest {
  /** Longer than any of these tests takes, and than a grader call that is not in process is ever waited on here. */
  private static final Duration BOUND = Duration.ofSeconds(30);

  @TempDir Path runDir;
  private final ExecutorService shards = Executors.newCachedThreadPool();

  @AfterEach void stop() {
    shards.shutdownNow();
  }

  /** What a test grader answers for a task: a score, or an exception it throws. */
  @FunctionalInterface
  interface Answer {
    Map<String, Object> of(String task) throws Exception;
  }

  private static Grader grader(boolean inProcess, Answer answer) {
    return new Grader() {
      @Override public String identity() {
        return "test";
      }

      @Override public Optional<Map<String, Object>> score(Path dir, String task) throws Exception {
        return Optional.of(answer.of(task));
      }

      @Override public boolean inProcess() {
        return inProcess;
      }
    };
  }

  private static Map<String, Object> score(int passed, int criteria) {
    return Map.of("n_passed", passed, "n_criteria", criteria);
  }

  private SelectionItem item(String grader, String task, boolean ok) {
    return new SelectionItem("/r/ns", grader, task, "agg", 1, "agg1", "run-" + task, runDir.toString(), false, ok, "",
        "", false);
  }

  private List<SelectionItem> items(String grader, int n) {
    List<SelectionItem> items = new ArrayList<>();
    for (int i = 0; i < n; i++) items.add(item(grader, "t" + i, true));
    return items;
  }

  private static GradingWorkers workers(int workers, Function<String, Semaphore> limits, Grader grader) {
    return new GradingWorkers(workers, limits, item -> grader, BOUND, 1);
  }

  /** Waits, polling, until {@code condition} holds; the test's own time bound stops a wait that never ends. */
  private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
    while (!condition.getAsBoolean()) Thread.sleep(1);
  }

  @ParameterizedTest(name = "in process: {0}")
  @ValueSource(booleans = {true, false})
  void noMoreCallsOfAGraderRunAtOnceThanItsPermitsThoughTheWorkersOutnumberThem(boolean inProcess) throws Exception {
    int permits = 2;
    int workerCount = 6;
    Semaphore limit = new Semaphore(permits, true);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    CountDownLatch answer = new CountDownLatch(1);
    Grader g = grader(inProcess, task -> {
      most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        answer.await();
        return score(1, 1);
      } finally {
        inFlight.decrementAndGet();
      }
    });
    List<SelectionItem> items = items("g", 3 * workerCount);
    try (GradingWorkers w = workers(workerCount, name -> limit, g)) {
      List<JudgedRow> rows = assertTimeoutPreemptively(BOUND, () -> {
        Future<List<JudgedRow>> grading = shards.submit(() -> w.grade(items));
        // the calls wait for their answer until every worker is in a call or waiting for a permit; without the
        // permit, more calls than permits start instead, and the wait ends there too
        awaitUntil(() -> inFlight.get() > permits
            || inFlight.get() == permits && limit.getQueueLength() == workerCount - permits);
        answer.countDown();
        return grading.get();
      });
      assertEquals(permits, most.get(), "the most calls at once");
      assertEquals(items.size(), rows.stream().filter(JudgedRow::graded).count());
      assertEquals(permits, limit.availablePermits(), "every permit given back");
    }
  }

  @Test
  void everySelectionIsGradedOnceAndTheRowsKeepTheSelectionsOrder() throws Exception {
    Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    Answer byTask = task -> {
      calls.computeIfAbsent(task, t -> new AtomicInteger()).incrementAndGet();
      return score(Integer.parseInt(task.substring(1)) % 3, 2);
    };
    // two graders, one in process and one not, each with a limit of its own; every fifth selection did not complete
    Map<String, Grader> graders = Map.of("a", grader(true, byTask), "b", grader(false, byTask));
    Map<String, Semaphore> limits = Map.of("a", new Semaphore(2, true), "b", new Semaphore(2, true));
    List<SelectionItem> items = new ArrayList<>();
    for (int i = 0; i < 200; i++) items.add(item(i % 2 == 0 ? "a" : "b", "t" + i, i % 5 != 4));
    List<JudgedRow> rows;
    try (GradingWorkers w = new GradingWorkers(4, limits::get, item -> graders.get(item.grader()), BOUND, 1)) {
      rows = assertTimeoutPreemptively(BOUND, () -> w.grade(items));
    }
    assertEquals(items.size(), rows.size());
    for (int i = 0; i < items.size(); i++) {
      JudgedRow row = rows.get(i);
      assertEquals("t" + i, row.taskId(), "row " + i);
      if (items.get(i).ok()) {
        assertEquals(i % 3, row.nPassed(), "row " + i);
        assertEquals(1, calls.get("t" + i).get(), "calls of t" + i);
      } else {
        assertEquals(Absence.SELECTION_FAILED.code, row.absence(), "row " + i);
        assertTrue(!calls.containsKey("t" + i), "t" + i + " is never sent to the grader");
      }
    }
    assertEquals(2, limits.get("a").availablePermits());
    assertEquals(2, limits.get("b").availablePermits());
  }

  /** A semaphore that counts how often a permit was waited for. */
  private static final class CountedLimit extends Semaphore {
    final AtomicInteger taken = new AtomicInteger();

    CountedLimit(int permits) {
      super(permits, true);
    }

    @Override public void acquireUninterruptibly() {
      taken.incrementAndGet();
      super.acquireUninterruptibly();
    }
  }

  @Test
  void aWorkerKeepsItsPermitFromRowToRowUntilItNeedsAnotherGradersPermit() throws Exception {
    Map<String, CountedLimit> limits = Map.of("a", new CountedLimit(1), "b", new CountedLimit(1));
    Grader g = grader(true, task -> score(1, 1));
    List<SelectionItem> items = new ArrayList<>();
    for (String name : List.of("a", "a", "a", "b", "b", "a", "a")) items.add(item(name, "t" + items.size(), true));
    try (GradingWorkers w = workers(1, limits::get, g)) {
      assertEquals(7, assertTimeoutPreemptively(BOUND, () -> w.grade(items)).stream().filter(JudgedRow::graded)
          .count());
    }
    assertEquals(2, limits.get("a").taken.get(), "a's permit: taken for the first row, again after b's rows");
    assertEquals(1, limits.get("b").taken.get());
    assertEquals(1, limits.get("a").availablePermits());
    assertEquals(1, limits.get("b").availablePermits());
  }

  /**
   * Two shards grade selections of two graders in opposite orders, each grader limited to one permit. Their first
   * calls wait for each other, so each shard's worker holds one grader's permit when it needs the other's: a worker
   * that kept its permit while it waited for another would wait forever on the other shard's.
   */
  @Test
  void aWorkerHoldsOnePermitAtATimeSoShardsThatNeedEachOthersGraderBothFinish() throws Exception {
    Map<String, Semaphore> limits = Map.of("a", new Semaphore(1, true), "b", new Semaphore(1, true));
    CyclicBarrier firstCalls = new CyclicBarrier(2);
    Grader g = grader(true, task -> {
      if (task.startsWith("first")) firstCalls.await(BOUND.toSeconds(), TimeUnit.SECONDS);
      return score(1, 1);
    });
    List<SelectionItem> one = List.of(item("a", "first-1", true), item("b", "x1", true), item("a", "x2", true),
        item("b", "x3", true));
    List<SelectionItem> two = List.of(item("b", "first-2", true), item("a", "y1", true), item("b", "y2", true),
        item("a", "y3", true));
    try (GradingWorkers shardOne = workers(1, limits::get, g); GradingWorkers shardTwo = workers(1, limits::get, g)) {
      List<List<JudgedRow>> rows = assertTimeoutPreemptively(BOUND, () -> {
        Future<List<JudgedRow>> first = shards.submit(() -> shardOne.grade(one));
        Future<List<JudgedRow>> second = shards.submit(() -> shardTwo.grade(two));
        return List.of(first.get(), second.get());
      });
      for (List<JudgedRow> shard : rows) {
        assertEquals(4, shard.stream().filter(JudgedRow::graded).count(), shard.toString());
      }
    }
    assertEquals(1, limits.get("a").availablePermits());
    assertEquals(1, limits.get("b").availablePermits());
  }

  @ParameterizedTest(name = "in process: {0}")
  @ValueSource(booleans = {true, false})
  void aGraderThatThrowsMakesOnlyItsOwnRowAnAbsenceAsJudgingDoes(boolean inProcess) throws Exception {
    Grader g = grader(inProcess, task -> {
      if (task.equals("t2")) throw new IllegalStateException("grader exploded on " + task);
      return score(1, 2);
    });
    List<SelectionItem> items = items("g", 6);
    Semaphore limit = new Semaphore(2, true);
    List<JudgedRow> rows;
    try (GradingWorkers w = workers(3, name -> limit, g)) {
      rows = assertTimeoutPreemptively(BOUND, () -> w.grade(items));
    }
    ExecutorService pool = Executors.newCachedThreadPool();
    try {
      assertEquals(Judging.judge(items.get(2), g, BOUND, pool), rows.get(2));
    } finally {
      pool.shutdownNow();
    }
    assertEquals(Absence.JUDGE_FAILED.code, rows.get(2).absence());
    assertEquals("IllegalStateException: grader exploded on t2", rows.get(2).error());
    for (int i : new int[] {0, 1, 3, 4, 5}) assertEquals(0.5, rows.get(i).frac(), "row " + i);
    assertEquals(2, limit.availablePermits());
  }

  @Test
  void aGraderThatCannotBeOpenedMakesItsRowsJudgeFailedAndTheOthersAreGraded() throws Exception {
    Grader g = grader(true, task -> score(1, 1));
    List<SelectionItem> items = List.of(item("g", "t0", true), item("gone", "t1", true), item("g", "t2", true));
    GradingWorkers.Graders open = item -> {
      if (item.grader().equals("gone")) throw new IllegalArgumentException("--grader=gone is not a known grader");
      return g;
    };
    Semaphore limit = new Semaphore(1, true);
    List<JudgedRow> rows;
    try (GradingWorkers w = new GradingWorkers(2, name -> limit, open, BOUND, 1)) {
      rows = assertTimeoutPreemptively(BOUND, () -> w.grade(items));
    }
    assertEquals(List.of(true, false, true), rows.stream().map(JudgedRow::graded).toList());
    assertEquals(Absence.JUDGE_FAILED.code, rows.get(1).absence());
    assertEquals("cannot open grader gone: --grader=gone is not a known grader", rows.get(1).error());
  }

  /** Waits for {@code latch} as a call that ignores its cancellation does: an interrupt does not end the wait. */
  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  /**
   * A call that is not in process and ignores its cancellation runs on after the judge abandons it at the timeout,
   * and keeps its grader's permit until it really ends: the worker's next row waits for a permit, so no more calls
   * run at once than the limit allows. The next row's grader is in process and under the same limit, so its call is
   * not timed (the timeout that gives up the first call at once could give up a second before it started).
   */
  @Test
  void aCallAbandonedAtItsTimeoutKeepsItsPermitUntilItReallyEnds() throws Exception {
    Semaphore limit = new Semaphore(1, true);
    CountDownLatch end = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    Answer counted = task -> {
      calls.incrementAndGet();
      most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        if (task.equals("t0")) awaitIgnoringInterrupts(end);
        return score(1, 1);
      } finally {
        inFlight.decrementAndGet();
      }
    };
    Map<String, Grader> graders = Map.of("outside", grader(false, counted), "inside", grader(true, counted));
    List<SelectionItem> items = List.of(item("outside", "t0", true), item("inside", "t1", true));
    // so short a timeout gives t0's call up at once: the call waits for the test however long that takes
    try (GradingWorkers w = new GradingWorkers(1, name -> limit, item -> graders.get(item.grader()),
        Duration.ofMillis(1), 1)) {
      List<JudgedRow> rows = assertTimeoutPreemptively(BOUND, () -> {
        Future<List<JudgedRow>> grading = shards.submit(() -> w.grade(items));
        // the worker has given t0 up and waits for a permit for t1; were the permit not kept by t0's call, t1's call
        // would start instead, and the wait ends there too
        awaitUntil(() -> limit.hasQueuedThreads() || calls.get() == 2);
        assertEquals(1, calls.get(), "t1 is not called while t0's abandoned call runs");
        end.countDown();
        return grading.get();
      });
      assertEquals(Absence.JUDGE_TIMEOUT.code, rows.get(0).absence());
      assertTrue(rows.get(1).graded(), rows.get(1).toString());
    }
    assertEquals(1, most.get(), "the most calls at once");
    assertEquals(1, limit.availablePermits(), "every permit given back");
  }

  /**
   * A worker that fails with a bug (here an Error out of a grader, which is no grader's failure to Judging) stops
   * the shard: the other workers finish the row they took and take no other, and the shard fails with that bug.
   * Two workers share one permit: the first call fails only once the other worker has taken its row and waits for
   * the permit, which it gets when the failed worker has stopped.
   */
  @Test
  void aWorkerThatFailsWithABugStopsTheOthersFromTakingRowsAndTheShardFailsWithIt() throws Exception {
    CountDownLatch bothWaited = new CountDownLatch(2);
    Semaphore limit = new Semaphore(1, true) {
      @Override public void acquireUninterruptibly() {
        bothWaited.countDown();
        super.acquireUninterruptibly();
      }
    };
    AssertionError bug = new AssertionError("a bug, not a grader's failure");
    AtomicInteger calls = new AtomicInteger();
    Grader g = grader(true, task -> {
      if (calls.getAndIncrement() == 0) {
        bothWaited.await();
        throw bug;
      }
      return score(1, 1);
    });
    List<SelectionItem> items = items("g", 10);
    try (GradingWorkers w = workers(2, name -> limit, g)) {
      ExecutionException failed = assertTimeoutPreemptively(BOUND,
          () -> assertThrows(ExecutionException.class, () -> w.grade(items)));
      assertSame(bug, failed.getCause(), "the shard fails with the worker's bug");
    }
    assertEquals(2, calls.get(), "the failed row and the one the other worker had taken; no other");
    assertEquals(1, limit.availablePermits());
  }
}
