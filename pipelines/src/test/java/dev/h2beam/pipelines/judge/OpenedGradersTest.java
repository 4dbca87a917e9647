package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * A judge job's graders in one JVM: opened once and shared by the job's workers, closed once when the last of them
 * leaves, and opened anew by a later job.
 */
class OpenedGradersTest {
  @TempDir Path runDir;
  /** A job name no other test uses: the jobs of a JVM are process-wide. */
  private String job;

  @BeforeEach void reset(TestInfo test) {
    job = "job-" + test.getDisplayName();
    ScriptedGraderProvider.OPENS.set(0);
    ScriptedGraderProvider.CLOSES.set(0);
    ScriptedGraderProvider.FAILING_OPENS.set(0);
  }

  @AfterEach void stopFailing() {
    ScriptedGraderProvider.FAILING_OPENS.set(0);
  }

  private SelectionItem item(String namespace) {
    return new SelectionItem(runDir.resolve(namespace).toString(), "scripted", "t0", "agg", 1, "agg1", "run-t0",
        runDir.toString(), false, true, "", "", false);
  }

  @Test
  void aJobsGraderIsSharedByItsWorkersAndClosedOnceWhenTheLastOfThemLeaves() throws Exception {
    GradingWorkers.Graders one = OpenedGraders.join(job, Map.of());
    GradingWorkers.Graders two = OpenedGraders.join(job, Map.of());
    Grader first = one.open(item("ns"));
    assertSame(first, two.open(item("ns")), "one grader for the job's workers");
    assertEquals(1, ScriptedGraderProvider.OPENS.get());
    one.close();
    one.close();
    assertEquals(0, ScriptedGraderProvider.CLOSES.get(), "a worker of the job still uses it, however often one left");
    assertSame(first, two.open(item("ns")));
    two.close();
    assertEquals(1, ScriptedGraderProvider.CLOSES.get(), "closed when the last worker left");
    assertThrows(IllegalStateException.class, () -> two.open(item("ns")), "a worker that left opens nothing");

    GradingWorkers.Graders later = OpenedGraders.join(job, Map.of());
    assertNotSame(first, later.open(item("ns")), "the job's later workers open it anew");
    assertEquals(2, ScriptedGraderProvider.OPENS.get());
    later.close();
    assertEquals(2, ScriptedGraderProvider.CLOSES.get());
  }

  @Test
  void eachJobNamespaceAndSettingsHasAGraderOfItsOwnAndAJobClosesOnlyItsOwn() throws Exception {
    GradingWorkers.Graders mine = OpenedGraders.join(job, Map.of());
    GradingWorkers.Graders mineOtherSettings = OpenedGraders.join(job, Map.of("command", "scripted:v2"));
    GradingWorkers.Graders other = OpenedGraders.join(job + "-other", Map.of());
    Grader g = mine.open(item("ns"));
    assertNotSame(g, mine.open(item("ns2")), "another namespace");
    assertNotSame(g, mineOtherSettings.open(item("ns")), "other settings");
    assertNotSame(g, other.open(item("ns")), "another job");
    assertEquals(4, ScriptedGraderProvider.OPENS.get());
    mine.close();
    mineOtherSettings.close();
    assertEquals(3, ScriptedGraderProvider.CLOSES.get(), "the job's three graders");
    other.close();
    assertEquals(4, ScriptedGraderProvider.CLOSES.get());
  }

  @Test
  void anOpeningThatFailedIsForgottenSoALaterSelectionTriesAgain() throws Exception {
    ScriptedGraderProvider.FAILING_OPENS.set(1);
    GradingWorkers.Graders graders = OpenedGraders.join(job, Map.of());
    assertEquals("no model client today", assertThrows(IOException.class, () -> graders.open(item("ns")))
        .getMessage());
    Grader g = graders.open(item("ns"));
    assertSame(g, graders.open(item("ns")));
    assertEquals(2, ScriptedGraderProvider.OPENS.get(), "tried again once");
    graders.close();
    assertEquals(1, ScriptedGraderProvider.CLOSES.get(), "the grader that was opened, closed once");
  }

  /** Workers that need a grader nobody opened yet open it once between them: the others wait for that one. */
  @Test
  void aGraderIsOpenedOnceThoughManyWorkersNeedItAtOnce() throws Exception {
    ScriptedGraderProvider.OPEN_MILLIS = 200;
    GradingWorkers.Graders graders = OpenedGraders.join(job, Map.of());
    try {
      SelectionItem item = item("ns-opened-once");
      int n = 8;
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Grader>> got = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(n);
      try {
        for (int i = 0; i < n; i++) {
          got.add(pool.submit(() -> {
            start.await();
            return graders.open(item);
          }));
        }
        start.countDown();
        Grader first = got.get(0).get();
        for (Future<Grader> f : got) assertSame(first, f.get(), "one grader, shared");
      } finally {
        pool.shutdownNow();
      }
      assertEquals(1, ScriptedGraderProvider.OPENS.get(), "opened once");
    } finally {
      ScriptedGraderProvider.OPEN_MILLIS = 0;
      graders.close();
    }
    assertEquals(1, ScriptedGraderProvider.CLOSES.get());
  }
}
