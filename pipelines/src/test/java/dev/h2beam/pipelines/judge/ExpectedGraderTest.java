package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The expected grader on a run's {@code output/<deliverable>}: a match, a miss, nothing delivered, another layout. */
class ExpectedGraderTest {
  @TempDir Path tmp;
  ExpectedGrader grader;

  @BeforeEach
  void setUp() throws Exception {
    Path bench = tmp.resolve("bench");
    Files.createDirectories(bench.resolve("tasks/ledgers/march/grading"));
    Files.writeString(bench.resolve("tasks/ledgers/march/grading/expected.txt"), "Total: 85.15\n");
    grader = new ExpectedGrader(new FolderGrading(bench, "answer.md", JsonNodeFactory.instance.objectNode()), false);
  }

  Path run(String name) throws IOException {
    return Files.createDirectories(tmp.resolve("runs").resolve(name));
  }

  @Test
  void theDeliverableInOutputIsComparedWithTheExpectedText() throws Exception {
    Path right = run("right");
    Files.createDirectories(right.resolve("output"));
    Files.writeString(right.resolve("output/answer.md"), "Total: 85.15");
    Map<String, Object> score = grader.score(right, "ledgers/march").orElseThrow();
    assertEquals(1, score.get("n_passed"));
    assertEquals(true, score.get("all_pass"));
  }

  @Test
  void aRunThatDeliveredNothingIsARealZeroAsHarness2ScoresNoOutput() throws Exception {
    Map<String, Object> score = grader.score(run("empty"), "ledgers/march").orElseThrow();
    assertEquals(0, score.get("n_passed"));
    assertEquals(1, score.get("n_criteria"));
    assertEquals(true, score.get("no_output"));
  }

  @Test
  void aDeliverableAtTheRunsRootIsAnotherLayoutNamedAndNotGradedAsAZero() throws Exception {
    Path other = run("other");
    Files.writeString(other.resolve("answer.md"), "Total: 85.15");
    IOException e = assertThrows(IOException.class, () -> grader.score(other, "ledgers/march"));
    assertTrue(e.getMessage().contains(other.resolve("output/answer.md") + " is missing, but "
        + other.resolve("answer.md") + " is there"), e.getMessage());
    assertTrue(e.getMessage().contains("move the file into output/"), e.getMessage());
  }

  /**
   * dogAK F2: the answer keys are part of the grader's identity, so grades against an edited key are never mixed with
   * or kept as the earlier ones; each row still names the comparison alone, and the identity an earlier h2beam
   * recorded without the digest is the same instrument.
   */
  @Test
  void theAnswerKeysArePartOfTheIdentity() throws Exception {
    Path bench = tmp.resolve("bench");
    FolderGrading folder = new FolderGrading(bench, "answer.md", JsonNodeFactory.instance.objectNode());
    String before = grader.identity();
    assertTrue(before.matches("expected:exact:[0-9a-f]{16}"), before);
    assertEquals(before, new ExpectedGrader(folder, false).identity(), "the same keys, the same identity");
    assertTrue(new ExpectedGrader(folder, true).identity().startsWith("expected:normalized:"));

    Files.writeString(bench.resolve("tasks/ledgers/march/grading/expected.txt"), "Total: 99.00\n");
    ExpectedGrader edited = new ExpectedGrader(folder, false);
    assertNotEquals(before, edited.identity());
    Path right = run("right");
    Files.createDirectories(right.resolve("output"));
    Files.writeString(right.resolve("output/answer.md"), "Total: 99.00");
    assertEquals("expected:exact", edited.score(right, "ledgers/march").orElseThrow().get("metric"));

    assertTrue(JudgeIdentity.sameInstrument("expected:exact", before));
    assertFalse(JudgeIdentity.sameInstrument("expected:normalized", before));
    assertFalse(JudgeIdentity.sameInstrument(before, edited.identity()));
    assertFalse(JudgeIdentity.sameInstrument("command:x", "command:x:y"));
  }

  /** dogAK F3: an empty answer key is no key: the row is an absence naming it, never a 0 against nothing. */
  @Test
  void anEmptyAnswerKeyIsAnAbsenceNotAZero() throws Exception {
    Path key = tmp.resolve("bench/tasks/ledgers/march/grading/expected.txt");
    Files.writeString(key, " \n\n");
    Path right = run("right");
    Files.createDirectories(right.resolve("output"));
    Files.writeString(right.resolve("output/answer.md"), "Total: 85.15");
    IOException e = assertThrows(IOException.class, () -> grader.score(right, "ledgers/march"));
    assertEquals(key + ": empty (white space only); write the answer the deliverable must match, or grade the task"
        + " with another grader", e.getMessage());
    assertEquals(e.getMessage(), GraderPreflight.expectedProblem(key).orElseThrow());
    Files.writeString(key, "Total: 85.15\n");
    assertTrue(GraderPreflight.expectedProblem(key).isEmpty());
  }
}
