package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Runmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a grader is called: one that reads files in this JVM only ({@link Grader#inProcess}) on the judging thread,
 * with its failures still absences; any other on a thread of its own that the timeout abandons.
 */
class JudgingTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach void stop() {
    pool.shutdownNow();
  }

  /** A grader that records the thread it ran on and answers {@code answer} (or throws it). */
  private static Grader grader(boolean inProcess, AtomicReference<Thread> ranOn, Object answer) {
    return new Grader() {
      @Override public String identity() {
        return "test";
      }

      @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws Exception {
        ranOn.set(Thread.currentThread());
        if (answer instanceof Exception e) throw e;
        if (answer == null) Thread.sleep(60_000);
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) answer;
        return Optional.of(m);
      }

      @Override public boolean inProcess() {
        return inProcess;
      }
    };
  }

  private static SelectionItem item(Path runDir) {
    return new SelectionItem("/r/ns", "test", "t1", "agg", 1, "agg1", "run-1", runDir.toString(), false, true, "", "",
        false);
  }

  /**
   * dogQ #2: a mode that failed on a task (its budget guard) wrote no selection, and the judge no row: the absence had
   * no reason anywhere a reader looks. Its item is an ungraded row, mode-failed with the mode's error, and the grader
   * is never called.
   */
  @Test
  void aModeThatFailedBeforeSelectingIsAnAbsenceWithItsErrorAndNoGraderCall() throws Exception {
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    String summary = "{\"task_id\": \"t1\", \"k\": 2, \"modes\": {\"agg\": {\"ok\": false, \"error\":"
        + " \"BudgetError: agg ledger of t1 at k=2 is off budget\\nTraceback ...\"}, \"seq\": {\"ok\": true},"
        + " \"gat\": {\"ok\": true}}, \"selections\": {\"seq\": {\"chosen_label\": \"c2\", \"chosen_run_dir\":"
        + " \"/x/s\", \"ok\": true}}}";
    List<SelectionItem> items = Summaries.selections("/r/ns", "test", summary, List.of("agg", "seq", "gat"));
    assertEquals(List.of("agg", "seq"), items.stream().map(SelectionItem::mode).toList(),
        "a mode that ran without selecting, not recorded as failed, has no item, as before");
    SelectionItem failed = items.get(0);
    assertEquals("BudgetError: agg ledger of t1 at k=2 is off budget", failed.unrunWhy());
    assertEquals(2, failed.k());
    JudgedRow row = Judging.judge(failed, grader(true, ranOn, Map.of("n_passed", 1, "n_criteria", 1)),
        Duration.ofSeconds(5), pool);
    assertEquals(null, ranOn.get(), "the grader is never called");
    assertEquals(false, row.graded());
    assertEquals(Absence.MODE_FAILED.code, row.absence());
    assertEquals("agg: BudgetError: agg ledger of t1 at k=2 is off budget", row.error());
    assertEquals(null, items.get(1).unrun());
  }

  /**
   * dogT: a task whose every base rollout failed (status base-failed, no modes, no selections) had no judged row in
   * any mode, so a replicate's figures and the comparison ran over fewer tasks with nothing said. Each requested mode
   * gets an ungraded row, base-failed with the summary's errors, and the grader is never called.
   */
  @Test
  void aTaskWhoseEveryBaseFailedIsAnAbsenceInEveryRequestedMode() throws Exception {
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    String summary = "{\"task_id\": \"d/t3\", \"k\": 1, \"status\": \"base-failed\", \"base\": [], \"modes\": {},"
        + " \"selections\": {}, \"errors\": [\"no base rollout produced anything\"]}";
    List<SelectionItem> items = Summaries.selections("/r/ns", "test", summary, List.of("agg", "seq"));
    assertEquals(List.of("agg", "seq"), items.stream().map(SelectionItem::mode).toList());
    for (SelectionItem item : items) {
      assertEquals(Absence.BASE_FAILED, item.unrun());
      JudgedRow row = Judging.judge(item, grader(true, ranOn, Map.of("n_passed", 1, "n_criteria", 1)),
          Duration.ofSeconds(5), pool);
      assertEquals("base-failed", row.absence());
      assertEquals(item.mode() + ": every base rollout failed, so no mode ran (no base rollout produced anything)",
          row.error());
      assertEquals(1, row.k());
    }
    assertEquals(null, ranOn.get(), "the grader is never called");
    // a task that ran: no such row for a mode it did not run
    assertEquals(List.of(), Summaries.selections("/r/ns", "test", "{\"task_id\": \"t\", \"k\": 1, \"status\":"
        + " \"ok\", \"modes\": {}, \"selections\": {}}", List.of("agg")));
  }

  @Test
  void anInProcessGraderRunsOnTheJudgingThreadAndItsFailureIsStillAnAbsence(@TempDir Path runDir) {
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    JudgedRow row = Judging.judge(item(runDir), grader(true, ranOn, Map.of("n_passed", 1, "n_criteria", 2)),
        Duration.ofSeconds(5), pool);
    assertSame(Thread.currentThread(), ranOn.get());
    assertTrue(row.graded());
    assertEquals(0.5, row.frac());

    JudgedRow failed = Judging.judge(item(runDir), grader(true, ranOn, new IllegalStateException("no expected file")),
        Duration.ofSeconds(5), pool);
    assertEquals(Absence.JUDGE_FAILED.code, failed.absence());
    assertEquals("IllegalStateException: no expected file", failed.error());
  }

  @Test
  void anyOtherGraderRunsOnAThreadOfItsOwnThatTheTimeoutAbandons(@TempDir Path runDir) {
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    JudgedRow row = Judging.judge(item(runDir), grader(false, ranOn, Map.of("n_passed", 2, "n_criteria", 2)),
        Duration.ofSeconds(5), pool);
    assertNotSame(Thread.currentThread(), ranOn.get());
    assertTrue(row.graded());

    JudgedRow hung = Judging.judge(item(runDir), grader(false, ranOn, null), Duration.ofMillis(300), pool);
    assertEquals(Absence.JUDGE_TIMEOUT.code, hung.absence());
  }

  /**
   * A model judge that could not grade says what its calls cost: the ungraded row keeps it, and so does every repeat
   * of a row none of whose repeats was graded.
   */
  @Test
  void aFailedModelGradeKeepsWhatItsCallsCost(@TempDir Path runDir) {
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    Grader g = grader(false, ranOn, new JudgeModelFailure("the judge's answer could not be used", 0.0125));
    JudgedRow failed = Judging.judge(item(runDir), g, Duration.ofSeconds(5), pool);
    assertEquals(Absence.JUDGE_FAILED.code, failed.absence());
    assertEquals("JudgeModelFailure: the judge's answer could not be used", failed.error());
    assertEquals(0.0125, failed.raw().get("judge_cost_usd"));
    JudgedRow twice = Judging.repeated(item(runDir), g, Duration.ofSeconds(5), pool, new Semaphore(2), 2, x -> { });
    assertEquals(Absence.JUDGE_FAILED.code, twice.absence());
    assertEquals(List.of(0.0125, 0.0125), ((List<?>) twice.raw().get("repeat_raw")).stream()
        .map(r -> ((Map<?, ?>) r).get("judge_cost_usd")).toList());
    assertEquals(0.0375, (double) NamespaceWrite.judgeSpend(List.of(failed, twice)).get("judge_usd"), 1e-12);
    assertEquals(0L, NamespaceWrite.judgeSpend(List.of(failed, twice)).get("judge_usd_unknown_rows"));
    // a failure whose calls' cost is not known (one got no answer) leaves the row's cost unknown, not $0
    JudgedRow unknown = Judging.judge(item(runDir), grader(false, ranOn, new JudgeModelFailure("no answer", null)),
        Duration.ofSeconds(5), pool);
    assertEquals(Map.of(), unknown.raw());
    assertEquals(1L, NamespaceWrite.judgeSpend(List.of(unknown)).get("judge_usd_unknown_rows"));
  }

  /**
   * Runs with and without a marker judged in turn on one thread are each judged as they are on a thread of their own:
   * what the run before had only orders the looks at the marker.
   */
  @Test
  void runsWithAndWithoutAMarkerInTurnAreEachJudgedAsTheyAre(@TempDir Path tmp) throws Exception {
    Path marked = Files.createDirectories(tmp.resolve("marked"));
    Runmark.markComplete(marked, "run-1", "fp", 1.0, Map.of());
    Path unmarked = Files.createDirectories(tmp.resolve("unmarked"));
    Path folderMarker = Files.createDirectories(tmp.resolve("folder").resolve(Runmark.MARKER)).getParent();
    Path missing = tmp.resolve("missing");
    List<Path> order = List.of(marked, unmarked, missing, marked, marked, folderMarker, unmarked, unmarked, marked);
    Grader g = grader(true, new AtomicReference<>(), Map.of("n_passed", 1, "n_criteria", 1));
    for (Path run : order) {
      List<Object> alone = new ArrayList<>();
      Thread t = new Thread(() -> {
        List<MetricVector.Seen> seen = new ArrayList<>();
        alone.add(Judging.judge(item(run), g, Duration.ofSeconds(5), pool, new Semaphore(1), seen::add));
        alone.add(seen);
      });
      t.start();
      t.join();
      List<MetricVector.Seen> seen = new ArrayList<>();
      JudgedRow inTurn = Judging.judge(item(run), g, Duration.ofSeconds(5), pool, new Semaphore(1), seen::add);
      assertEquals(alone, List.of(inTurn, seen), run.toString());
    }
  }
}
