package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.transforms.proposer.HeldPermits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The boards' writer thread ends once every board is idle and starts again with the next change: a thread of the
 * job's left running holds the job's classes, and on a session cluster's TaskManager every job's stayed loaded until
 * the worker died of a full metaspace.
 */
class ProgressBoardWriterTest {
  @Test
  void theWriterEndsWhenEveryBoardIsIdleAndStartsAgainWithTheNextChange(@TempDir Path runs) throws Exception {
    long before = ProgressBoard.idleStopMs;
    // while the chain runs, no idle wait at all: a writer that took the running board for idle would stop at its
    // first tick (the writer ticks every second), within a second of running(); with an idle wait it would need a
    // second idle tick, up to 2 s away
    ProgressBoard.idleStopMs = 0;
    try {
      SweepConfig c = new SweepConfig("demo", "", Map.of(), "oc", runs.toString(), runs.resolve("lib").toString(), 1,
          List.of("agg"), java.math.BigInteger.valueOf(7), 1, 1, 1, 0, "", "", "demo", null, 1, "t", null);
      ProgressBoard board = new ProgressBoard(c, new HeldPermits(new Semaphore(1)), new HeldPermits(new Semaphore(1)));
      board.open();
      board.running("agg", "d1", "t1");
      assertTrue(ProgressBoard.writing());
      Thread.sleep(1500); // a chain is running: the writer stays past its first tick, half a second's margin
      assertTrue(ProgressBoard.writing(), "stopped while a chain runs");
      ProgressBoard.idleStopMs = 300; // from here the writer waits a little idle before it stops
      board.finished("agg", "d1", "done");
      awaitStopped();
      board.chainEnded("agg", "d1");
      assertTrue(ProgressBoard.writing(), "a change starts the writer again");
      awaitStopped();
      try (var files = Files.list(ProgressBoard.folder(runs, c.summaryNamespace().summary().toString()))) {
        Path written = files.findFirst().orElseThrow();
        assertTrue(Files.readString(written).contains("\"ended\": true"), Files.readString(written));
      }
    } finally {
      ProgressBoard.idleStopMs = before;
    }
  }

  private static void awaitStopped() throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (ProgressBoard.writing()) {
      assertTrue(System.nanoTime() < deadline, "the writer did not stop with every board idle");
      Thread.sleep(50);
    }
    assertFalse(ProgressBoard.writing());
  }
}
