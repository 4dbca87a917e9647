package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.sweep.FlinkCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bench whose sweep ran on a cluster's workers measures them from their boards, not its client. */
class WorkerUsageTest {
  static void board(Path dir, String worker, String token, String usage) throws Exception {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(worker + ".json"), "{\"format\":1,\"root_token\":\"" + token + "\",\"worker\":\""
        + worker + "\",\"updated_ms\":1,\"sessions_in_flight\":0,\"rollouts_in_flight\":0,\"chains\":[]"
        + (usage == null ? "" : ",\"usage\":" + usage) + "}\n");
  }

  static String onWorkers(WorkerUsage w) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    Instant t0 = Instant.ofEpochSecond(0);
    List<Instant[]> sessions = List.of(new Instant[] {t0, Instant.ofEpochSecond(5)},
        new Instant[] {Instant.ofEpochSecond(2), Instant.ofEpochSecond(7)});
    BenchCommand.printOnWorkers(new PrintStream(printed, true, StandardCharsets.UTF_8), w, 4, 0.5, sessions,
        List.of(), t0, Instant.ofEpochSecond(10), 2, 0, new SweepBounds(4, 2, 1, List.of("agg"), 2, 2, 2, 0, 0));
    return printed.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theRunsBoardsAreSummedAndTheClientIsAddedToH2beamsShare(@TempDir Path dir) throws Exception {
    board(dir, "h1-10", "run", "{\"cpu_s\":3.25,\"children_cpu_s\":1.0,\"rss_peak_kb\":204800}");
    board(dir, "h2-20", "run", "{\"cpu_s\":2.75,\"children_cpu_s\":0.5,\"rss_peak_kb\":102400}");
    board(dir, "h3-30", "an earlier run", "{\"cpu_s\":99,\"children_cpu_s\":99,\"rss_peak_kb\":1}");
    WorkerUsage w = WorkerUsage.read(dir, "run", "client-1");
    assertEquals(2, w.workers().size());
    assertTrue(w.known());
    assertEquals(6.0, w.cpuSeconds(), 1e-9);
    assertEquals(1.5, w.childCpuSeconds(), 1e-9);
    assertEquals("h1-10 200.0 MiB, h2-20 100.0 MiB", w.peaks());
    String printed = onWorkers(w);
    // h2beam: the workers' 6.0 and the client's 0.5 over 4 tasks; the scripts: 1.5
    assertTrue(printed.contains("CPU in the sweep        8.00 s = h2beam (JVMs) 6.50 + rollout scripts 1.50; per task"
        + " 2.000 (h2beam 1.625); h2beam = 2 workers' 6.00"), printed);
    assertTrue(printed.contains("this client's 0.50"), printed);
    // 5 + 5 seconds held in a window of 10
    assertTrue(printed.contains("sessions in flight: peak 2, mean 1.00 from the journals (2 sessions run"), printed);
  }

  @Test
  void aWorkerWhoseBoardDoesNotTellItsCpuMakesTheSumUnknownNotSmaller(@TempDir Path dir) throws Exception {
    board(dir, "h1-10", "run", "{\"cpu_s\":3.25,\"children_cpu_s\":1.0,\"rss_peak_kb\":204800}");
    board(dir, "h2-20", "run", null);
    board(dir, "h4-40", "run", "{\"cpu_s\":null,\"children_cpu_s\":0.5,\"rss_peak_kb\":null}");
    WorkerUsage w = WorkerUsage.read(dir, "run", "client-1");
    assertFalse(w.known());
    assertEquals(List.of("h2-20", "h4-40"), w.unknown());
    Files.writeString(dir.resolve("h5-50.json"), "{\"root_token\": \"ru");
    assertTrue(WorkerUsage.read(dir, "run", "client-1").unknown().get(2).startsWith("h5-50.json (unreadable: "),
        "a damaged board is an unknown, not a failed bench after its sweep");
    String printed = onWorkers(w);
    assertTrue(printed.contains("CPU in the sweep   unknown: the board of h2-20, h4-40 does not tell its CPU"), printed);
    assertFalse(printed.contains("per task"), printed);
  }

  @Test
  void noBoardOfTheRunMeansTheClientDidTheWork(@TempDir Path dir) throws Exception {
    assertFalse(WorkerUsage.read(dir.resolve("missing"), "run", "client-1").any());
    board(dir, "h1-10", "another run", "{\"cpu_s\":1,\"children_cpu_s\":1,\"rss_peak_kb\":1}");
    assertFalse(WorkerUsage.read(dir, "run", "client-1").any());
    assertFalse(WorkerUsage.read(dir, "", "client-1").any(), "without a token no board is this run's");
  }

  /**
   * A client that replays a finished sweep itself (no job is submitted) writes a board of its own: that CPU is the
   * client's, already counted once. It was counted again as a worker's (a cluster resume of 2,000 tasks printed
   * "1 workers' 6.82 + this client's 15.38", the client's board named as the worker).
   */
  @Test
  void theClientsOwnBoardIsNotAWorkers(@TempDir Path dir) throws Exception {
    board(dir, "client-1", "run", "{\"cpu_s\":6.82,\"children_cpu_s\":0,\"rss_peak_kb\":272384}");
    assertFalse(WorkerUsage.read(dir, "run", "client-1").any(), "the client replayed: no worker did the work");
    board(dir, "h1-10", "run", "{\"cpu_s\":3.25,\"children_cpu_s\":1.0,\"rss_peak_kb\":204800}");
    WorkerUsage w = WorkerUsage.read(dir, "run", "client-1");
    assertEquals(List.of("h1-10"), w.workers().stream().map(WorkerUsage.Board::worker).toList());
    assertEquals(3.25, w.cpuSeconds(), 1e-9);
  }
  static String jobManager(FlinkCluster.JobManagerCpu before, FlinkCluster.JobManagerCpu after) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    BenchCommand.printJobManager(new PrintStream(printed, true, StandardCharsets.UTF_8), before, after, 4);
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** The JobManager works for the job too: its CPU is shown beside h2beam's, and an unknown reading says why. */
  @Test
  void theJobManagersCpuIsShownBesideH2beamsOrUnknownWithWhy() {
    FlinkCluster.JobManagerCpu at30 = new FlinkCluster.JobManagerCpu(30.0, null);
    String known = jobManager(at30, new FlinkCluster.JobManagerCpu(48.5, null));
    assertTrue(known.startsWith("  JobManager CPU         18.50 s in the sweep = 4.625 per task"), known);
    assertTrue(known.contains("not in h2beam's CPU above"), known);
    FlinkCluster.JobManagerCpu none = new FlinkCluster.JobManagerCpu(Double.NaN, "HTTP 503 from http://jm:8081");
    assertEquals("  JobManager CPU     unknown: HTTP 503 from http://jm:8081" + System.lineSeparator(),
        jobManager(at30, none));
    assertEquals(jobManager(at30, none), jobManager(none, at30), "either reading unknown: the difference is");
  }
}

