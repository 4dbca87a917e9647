package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.EndpointLoad;
import dev.h2beam.transforms.proposer.HeldPermits;
import dev.h2beam.transforms.proposer.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The endpoints' counts on a board are the process's. A board whose sweep is idle here is not rewritten when they move:
 * the judge the demo runs after its sweep (and the refused judges of ReferenceGrantTest, which found this) or another
 * job on a session cluster's worker calls a model, and a finished sweep's audit file changed under its owner's eyes.
 * While the sweep has work here, the counts are written as they move.
 */
class ProgressBoardIdleTest {
  private static SweepConfig config(Path runs) {
    return new SweepConfig("demo", "", Map.of(), "oc", runs.toString(), runs.resolve("lib").toString(), 1,
        List.of("agg"), java.math.BigInteger.valueOf(7), 1, 1, 1, 0, "", "", "demo", null, 1, "t", null);
  }

  private static ProgressBoard board(Path runs, java.util.function.Supplier<Map<String, EndpointLoad.Counts>> counts) {
    return new ProgressBoard(config(runs), new HeldPermits(new Semaphore(1)), new HeldPermits(new Semaphore(1)),
        counts);
  }

  /** The board's file, its folder made by hand, not by open(): no writer thread, every write is the test's own. */
  private static Path file(Path runs) throws java.io.IOException {
    Path file = ProgressBoard.folder(runs, config(runs).summaryNamespace().summary().toString())
        .resolve(Journal.writer() + ".json");
    Files.createDirectories(file.getParent());
    return file;
  }

  @Test
  void anIdleBoardKeepsItsLastWriteWhenOtherCallsMoveTheCounts(@TempDir Path runs) throws Exception {
    AtomicLong calls = new AtomicLong();
    ProgressBoard board = board(runs, () -> Map.of("local", new EndpointLoad.Counts(0, 0, calls.get(), 0, 0)));
    Path file = file(runs);

    // running: a call of the process's is this sweep's, and the board shows it
    board.chainStarted("agg", "d1");
    board.running("agg", "d1", "t1");
    board.writeIfChanged();
    calls.incrementAndGet();
    board.writeIfChanged();
    assertEquals(1, Json.readTree(file).at("/endpoints/local/calls").asInt(), Files.readString(file));

    // the chain ends: written at once, then the sweep has nothing here
    board.finished("agg", "d1", "done");
    board.chainEnded("agg", "d1");
    String last = Files.readString(file);
    calls.addAndGet(5); // another command's calls in this process
    board.writeIfChanged();
    assertEquals(last, Files.readString(file), "an idle board was rewritten for calls not its sweep's");

    // its sweep's next change is written, with the counts as they are then
    board.stepDone();
    JsonNode after = Json.readTree(file);
    assertNotEquals(last, Files.readString(file));
    assertEquals(6, after.at("/endpoints/local/calls").asInt(), after.toString());
  }

  /**
   * A chain its job cancelled (a restart after a lost worker, a lost JobManager) left its task running on the board,
   * which stayed busy: the writer thread rewrote it every few seconds for as long as the TaskManager lived (dogAC F1).
   */
  @Test
  void aChainStoppedBeforeItsEndLeavesTheBoardIdle(@TempDir Path runs) throws Exception {
    ProgressBoard board = board(runs, Map::of);
    Path file = file(runs);
    board.chainStarted("agg", "d1");
    board.running("agg", "d1", "t1");
    board.writeIfChanged();
    org.junit.jupiter.api.Assertions.assertTrue(board.busy(), "a task running");
    board.chainStopped("agg", "d1");
    board.writeIfChanged();
    org.junit.jupiter.api.Assertions.assertFalse(board.busy(), "nothing runs here once the chain stopped");
    assertEquals("", Json.readTree(file).at("/chains/0/running").asText("?"), Files.readString(file));
  }
}
