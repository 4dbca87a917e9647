package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.proposer.HeldPermits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's board outlives an attempt of its job: when the job restarts after a lost worker, a chain this worker ran
 * before starts again here and counts its tasks anew (its finished tasks now resumed), never on top of the first
 * attempt's counts. Each chain carries the time it last changed, by which the client picks the newest report.
 */
class ProgressBoardRestartTest {
  @Test
  void aChainStartedAgainCountsItsTasksAnewAndCarriesItsOwnTime(@TempDir Path runs) throws Exception {
    SweepConfig c = new SweepConfig("demo", "", Map.of(), "oc", runs.toString(), runs.resolve("lib").toString(), 1,
        List.of("agg"), java.math.BigInteger.valueOf(7), 1, 1, 1, 0, "", "", "demo", null, 1, "t", null);
    ProgressBoard board = new ProgressBoard(c, new HeldPermits(new Semaphore(1)), new HeldPermits(new Semaphore(1)));
    board.open();
    // the first attempt: two of the chain's three tasks done, then the job is restarted
    board.chainStarted("agg", "d1");
    for (String t : List.of("t1", "t2")) {
      board.running("agg", "d1", t);
      board.finished("agg", "d1", "done");
    }
    board.writeIfChanged();
    JsonNode first = chain(runs, c);
    assertEquals(2, first.path("done").asInt());
    long firstAt = first.path("changed_ms").asLong(-1);
    assertTrue(firstAt > 0, first.toString());
    Thread.sleep(5);
    // the second attempt runs the chain again on this worker: two tasks resumed, the third done
    board.chainStarted("agg", "d1");
    for (String t : List.of("t1", "t2")) {
      board.running("agg", "d1", t);
      board.finished("agg", "d1", "resumed");
    }
    board.running("agg", "d1", "t3");
    board.finished("agg", "d1", "done");
    board.chainEnded("agg", "d1");
    JsonNode again = chain(runs, c);
    assertEquals(1, again.path("done").asInt(), again.toString());
    assertEquals(2, again.path("resumed").asInt(), again.toString());
    assertEquals(0, again.path("failed").asInt(), again.toString());
    assertTrue(again.path("ended").asBoolean());
    assertTrue(again.path("changed_ms").asLong() > firstAt, again.toString());
    board.chainStarted("agg", "d1");
    board.writeIfChanged();
    assertFalse(chain(runs, c).path("ended").asBoolean(), "a chain started again has not ended");
  }

  private static JsonNode chain(Path runs, SweepConfig c) throws Exception {
    Path written;
    try (Stream<Path> files = Files.list(ProgressBoard.folder(runs, c.summaryNamespace().summary().toString()))) {
      written = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
    }
    JsonNode chains = Json.readTree(written).path("chains");
    assertEquals(1, chains.size(), chains.toString());
    return chains.get(0);
  }
}
