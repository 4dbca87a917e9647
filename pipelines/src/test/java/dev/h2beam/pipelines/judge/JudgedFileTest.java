package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** harness2's judged.json merge rule (spec §14.2), one rule per test. */
class JudgedFileTest {

  static JudgedRow graded(String task, String runId) {
    return new JudgedRow("ns", task, "agg", 2, "agg1", runId, false, 1, 2, false, Map.of(), "", null);
  }

  static JudgedRow failed(String task, String runId, String error) {
    return JudgedRow.absent("ns", task, "agg", 2, "agg1", runId, false, Absence.JUDGE_FAILED, error);
  }

  @Test
  void aFailedReJudgeOfTheSameRunKeepsTheGradedRow() {
    JudgedRow old = graded("t", "r1");
    assertSame(old, JudgedFile.merge(List.of(old), List.of(failed("t", "r1", "boom"))).get(0));
  }

  @Test
  void aDifferentRunIdReplacesEvenAGradedRow() {
    JudgedRow fresh = failed("t", "r2", "boom");
    assertSame(fresh, JudgedFile.merge(List.of(graded("t", "r1")), List.of(fresh)).get(0));
  }

  @Test
  void aSelectionErrorAlwaysReplaces() {
    JudgedRow fresh = failed("t", "r1", "selection did not complete successfully");
    assertSame(fresh, JudgedFile.merge(List.of(graded("t", "r1")), List.of(fresh)).get(0));
  }

  @Test
  void aNewGradedRowReplacesAnOldOne() {
    JudgedRow fresh = graded("t", "r1");
    assertSame(fresh, JudgedFile.merge(List.of(failed("t", "r1", "boom")), List.of(fresh)).get(0));
  }

  @Test
  void rowsOfOtherTasksStayAndTheResultIsSortedByTaskModeK() {
    List<JudgedRow> merged = JudgedFile.merge(List.of(graded("b", "r"), graded("a", "r")), List.of(graded("c", "r")));
    assertEquals(List.of("a", "b", "c"), merged.stream().map(JudgedRow::taskId).toList());
  }

  @Test
  void legacyArmIsReadAsModeAndDerivedKeysAreRecomputed(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("judged.json"), "[{\"task_id\": \"t\", \"arm\": \"seq\", \"k\": 1, \"n_passed\": 1,"
        + " \"n_criteria\": 4, \"frac\": 0.9, \"graded\": false}]");
    JudgedRow r = JudgedFile.read(dir.resolve("judged.json"), "ns").get(0);
    assertEquals("seq", r.mode());
    assertEquals(0.25, r.frac());
    assertEquals(true, r.graded());
  }

  @Test
  void anUnreadableFileIsAnErrorNotAnEmptyList(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("judged.json"), "{}");
    assertThrows(IOException.class, () -> JudgedFile.read(dir.resolve("judged.json"), "ns"));
  }
}
