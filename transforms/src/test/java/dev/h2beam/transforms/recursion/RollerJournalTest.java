package dev.h2beam.transforms.recursion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RolloutFailed;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.proposer.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The executions journal holds every execution once, even when a process was killed between a run's completion mark
 * and its journal line: the rollout that later reuses the run appends the lost line.
 */
class RollerJournalTest {
  private static final String RUN = "demo-oc-agg2/t1/base1";

  @TempDir Path tmp;
  private final AtomicInteger executed = new AtomicInteger();
  /** When set, the execution is interrupted as the runner's cancel would: its wait throws InterruptedException. */
  private volatile boolean cancelled;
  /** When set, the execution fails as this exception after it spent what the exception says (if anything). */
  private volatile Exception fails;

  /** A benchmark that marks a run complete and reuses a marked run, as every adapter does. */
  private Benchmark bench() {
    return new Benchmark() {
      @Override
      public BenchSpec spec() {
        return null;
      }

      @Override
      public String substrate() {
        return "oc";
      }

      @Override
      public List<String> tasks() {
        return List.of("t1");
      }

      @Override
      public String domainOf(String task) {
        return "d";
      }

      @Override
      public String taskPrompt(String task) {
        return "Do it.";
      }

      @Override
      public Rollout execute(String task, Path harnessDir, String runId) throws Exception {
        Path runDir = tmp.resolve("runs").resolve(runId);
        if (Runmark.readMark(runDir) != null) return new Rollout(runDir, true, 0.5, 2.0);
        if (cancelled) throw new InterruptedException("cancelled while the script ran");
        executed.incrementAndGet();
        if (fails != null) throw fails;
        Files.createDirectories(runDir);
        Runmark.markComplete(runDir, runId, "fp-of-the-harness", 1_700_000_010.0, Map.of());
        return new Rollout(runDir, false, 0.5, 2.0);
      }

      @Override
      public boolean delivered(Path runDir) {
        return true;
      }

      @Override
      public String trajectory(Path runDir, int obsTrunc) {
        return "";
      }

      @Override
      public String deliverableText(Path runDir) {
        return "";
      }

      @Override
      public Path baseHarness() {
        return tmp.resolve("base");
      }
    };
  }

  private RunView roll(Path journal) {
    return Roller.execute(bench(), "t1", "base1", RUN, null, new Semaphore(1), journal, tmp.resolve("missing"));
  }

  @Test
  void aReusedRunWhoseLineWasLostIsJournalledOnceMarkedRecovered() throws Exception {
    Path journal = tmp.resolve("_audit").resolve("executions.jsonl");
    roll(journal);
    assertEquals(1, Journal.lines(journal).size());
    Files.delete(Journal.ownFile(journal)); // as if killed between the completion mark and the line

    assertTrue(roll(journal).ok());
    roll(journal);
    assertEquals(1, executed.get(), "the run is reused, not executed again");
    List<String> lines = Journal.lines(journal);
    assertEquals(1, lines.size(), "recovered once: " + lines);
    JsonNode line = Json.readTree(lines.get(0));
    assertEquals(RUN, line.path("run_id").asText());
    assertEquals("fp-of-the-harness", line.path("harness").asText(), "the fingerprint the mark names");
    assertEquals(0.5, line.path("cost_usd").asDouble());
    assertTrue(line.path(Journal.RECOVERED).asText().contains("killed"), lines.get(0));
    JsonNode held = line.path("held").get(0);
    assertEquals(Instant.ofEpochSecond(1_700_000_008), Instant.parse(held.path("started_at").asText()),
        "the mark's time less the run's wall time");
    assertEquals(Instant.ofEpochSecond(1_700_000_010), Instant.parse(held.path("ended_at").asText()));
    assertEquals(0, Journal.ranNow(lines));
  }

  @Test
  void anExecutionInterruptedByTheRunnersCancelIsDeadAndKeepsTheInterrupt() throws Exception {
    Path journal = tmp.resolve("_audit").resolve("executions.jsonl");
    cancelled = true;
    try {
      RunView v = roll(journal);
      assertTrue(!v.ok(), "a dead rollout");
      // the InterruptedException cleared the flag; without it the cancelled element would run on past this rollout
      assertTrue(Thread.currentThread().isInterrupted(), "the caller still sees the cancel");
    } finally {
      Thread.interrupted();
    }
    assertEquals(0, Journal.lines(journal).size(), "nothing ran to completion, nothing journalled");
  }

  /**
   * An execution that failed held its slot and spent what it spent: journalled as failed, with its error and cost.
   * Its record is not the run's, so the run that completes later is journalled too, and a lost line of that run is
   * still recovered.
   */
  @Test
  void aFailedExecutionIsJournalledAsFailedWithItsCostAndTheRunThatCompletesLaterHasItsOwnRecord() throws Exception {
    Path journal = tmp.resolve("_audit").resolve("executions.jsonl");
    fails = new RolloutFailed("the agent exited 1", 0.25, true);
    RunView dead = roll(journal);
    assertTrue(!dead.ok());
    fails = new java.io.IOException("the script could not start");
    roll(journal);
    List<String> lines = Journal.lines(journal);
    assertEquals(2, lines.size(), lines.toString());
    JsonNode failed = Json.readTree(lines.get(0));
    assertEquals(RUN, failed.path("run_id").asText());
    assertEquals(false, failed.path("ok").asBoolean(true), lines.get(0));
    assertTrue(failed.path("error").asText().contains("the agent exited 1"), lines.get(0));
    assertEquals(0.25, failed.path("cost_usd").asDouble());
    assertTrue(failed.path("cost_known").isMissingNode(), "its cost is known: " + lines.get(0));
    assertEquals(1, failed.path("held").size(), "it held its slot: " + lines.get(0));
    JsonNode unknown = Json.readTree(lines.get(1));
    assertEquals(false, unknown.path("cost_known").asBoolean(true), "an exception says nothing of what was spent");
    assertEquals(2, Journal.ranNow(lines), "both ran");

    fails = null;
    assertTrue(roll(journal).ok());
    assertEquals(3, Journal.lines(journal).size());
    Files.delete(Journal.ownFile(journal)); // every line lost, the run's included
    Files.createDirectories(journal.getParent());
    Files.writeString(Journal.ownFile(journal), lines.get(0) + "\n"); // the failed line alone survives
    assertTrue(roll(journal).ok());
    List<String> after = Journal.lines(journal);
    assertEquals(2, after.size(), "the run's record is recovered beside the failed one: " + after);
    assertTrue(after.get(1).contains(Journal.RECOVERED), after.get(1));
  }

  /** dogAF #7: a task whose bases all came from their marks is told apart from one whose bases ran. */
  @Test
  void aBaseRunIsReusedAllOnlyWhenItWasFoundCompleteAndIsForgottenOnceAsked() throws Exception {
    Path journal = tmp.resolve("_audit").resolve("executions.jsonl");
    // this JVM's other tests reused a run of this id, which no task counted
    Roller.reusedAll(List.of(new RunView("base1", RUN, tmp.toString(), true, true, 0.0, 0.0, "")));
    RunView ran = roll(journal);
    assertFalse(Roller.reusedAll(List.of(ran)), "it ran");
    RunView reused = roll(journal);
    assertEquals(1, executed.get());
    assertTrue(Roller.reusedAll(List.of(reused)));
    assertFalse(Roller.reusedAll(List.of(reused)), "forgotten once counted");
    assertFalse(Roller.reusedAll(List.of()), "no base is no reuse");
  }

  @Test
  void aReusedRunWithItsLineAppendsNothing() throws Exception {
    Path journal = tmp.resolve("_audit").resolve("executions.jsonl");
    roll(journal);
    roll(journal);
    roll(journal);
    List<String> lines = Journal.lines(journal);
    assertEquals(1, lines.size(), lines.toString());
    assertEquals(1, Journal.ranNow(lines));
    assertTrue(!lines.get(0).contains(Journal.RECOVERED), lines.get(0));
  }
}
