package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A judge is refused on a namespace a live sweep writes: one of the modes' namespaces the sweep's lock names, and
 * the parallel mode's, where a sweep of the other modes alone writes its summaries.
 */
class WriterLocksTest {

  /** The runs root locked by another live process (a sleeping child) for {@code what}. */
  static Process lockedBy(Path runs, String what) throws Exception {
    Process other = new ProcessBuilder("sleep", "60").start();
    Files.createDirectories(runs);
    Files.writeString(runs.resolve(WriterLock.FILE), "{\"what\": \"" + what + "\", \"host\": \"" + WriterLock.host()
        + "\", \"pid\": " + other.pid() + ", \"started_at\": \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
    return other;
  }

  /** A started thread that ends {@code holder} (and reaps it) a second from now, as a finishing writer would. */
  static Thread endsInASecond(Process holder) {
    Thread t = new Thread(() -> {
      try {
        Thread.sleep(1000);
        holder.destroy();
        holder.waitFor();
      } catch (InterruptedException x) {
        Thread.currentThread().interrupt();
      }
    });
    t.start();
    return t;
  }

  @Test
  void aSweepOfTheSequentialModeAloneKeepsTheJudgeOffTheNamespaceItsSummariesGoTo(@TempDir Path runs)
      throws Exception {
    Process other = lockedBy(runs, "sweep of synthetic-oc-seq1-s1 (summaries in synthetic-oc-agg1-s1)");
    try {
      UsageError e = assertThrows(UsageError.class,
          () -> WriterLocks.refuseIfSwept(runs.resolve("synthetic-oc-agg1-s1")));
      assertTrue(e.getMessage().contains("synthetic-oc-agg1-s1 is being swept by a sweep of synthetic-oc-seq1-s1"),
          e.getMessage());
      assertThrows(UsageError.class, () -> WriterLocks.refuseIfSwept(runs.resolve("synthetic-oc-seq1-s1")));
      // a namespace whose name another's only starts with is not that one
      assertDoesNotThrow(() -> WriterLocks.refuseIfSwept(runs.resolve("synthetic-oc-agg1")));
    } finally {
      other.destroy();
    }
  }

  /**
   * dogU: --lockWaitSeconds was not honoured between a judge and a sweep: a judge beside a live sweep of its
   * namespace was refused at once. It now waits for the sweep within that time, and is refused after it.
   */
  @Test
  void aJudgeWaitsForTheSweepOfItsNamespaceWithinLockWaitSeconds(@TempDir Path runs) throws Exception {
    Process other = lockedBy(runs, "sweep of synthetic-oc-agg1-s1");
    try {
      UsageError e = assertThrows(UsageError.class,
          () -> WriterLocks.refuseIfSwept(runs.resolve("synthetic-oc-agg1-s1"), 1));
      assertTrue(e.getMessage().endsWith("judge it once the sweep has finished (or pass --lockWaitSeconds=N to"
          + " wait)"), e.getMessage());
      Thread ends = endsInASecond(other);
      assertDoesNotThrow(() -> WriterLocks.refuseIfSwept(runs.resolve("synthetic-oc-agg1-s1"), 60));
      ends.join();
    } finally {
      other.destroy();
    }
  }

  /** A JobBench sweep's options over a checkout written under {@code tmp} (again for each call), k = 1. */
  static SweepOptions jobBench(Path tmp, String... more) {
    try {
      Path root = dev.h2beam.adapters.jobbench.JobBenchFixture.write(tmp.resolve("job-bench-eval"));
      Path cfg = Files.writeString(tmp.resolve("c.yaml"), "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\n"
          + "roles:\n  executor: {endpoint: m, model: e}\n  improver: {endpoint: m, model: e}\n"
          + "  selector: {endpoint: m, model: e}\n  reflector: {endpoint: m, model: e}\n");
      java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--bench=jobbench", "--benchRoot="
          + root, "--runsRoot=" + tmp.resolve("runs"), "--config=" + cfg, "--k=1"));
      args.addAll(java.util.List.of(more));
      return org.apache.beam.sdk.options.PipelineOptionsFactory.fromArgs(args.toArray(String[]::new))
          .as(SweepOptions.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The sweep's own lock says where its summaries go when the parallel mode is not among its modes. */
  @Test
  void aSweepWithoutTheParallelModeNamesWhereItsSummariesGo(@TempDir Path tmp) throws Exception {
    SweepOptions o = jobBench(tmp, "--modes=sequential");
    Sweep.Plan plan = Sweep.plan(o, java.time.Instant.EPOCH);
    try (WriterLocks locks = WriterLocks.forSweep(plan, o)) {
      String what = dev.h2beam.adapters.files.Json.readTree(tmp.resolve("runs").resolve(WriterLock.FILE))
          .path("what").asText();
      assertTrue(what.equals("sweep of " + plan.config().namespace("seq") + " (summaries in "
          + plan.config().summaryNamespace() + ")"), what);
    }
  }

  /** The same the other way: a sweep waits within --lockWaitSeconds for a judge of the namespace it writes. */
  @Test
  void aSweepWaitsForTheJudgeOfItsNamespaceWithinLockWaitSeconds(@TempDir Path tmp) throws Exception {
    java.util.function.IntFunction<SweepOptions> options = wait -> jobBench(tmp, "--lockWaitSeconds=" + wait);
    Sweep.Plan plan = Sweep.plan(options.apply(1), java.time.Instant.EPOCH);
    Path ns = tmp.resolve("runs").resolve(plan.config().summaryNamespace().toString());
    Process judge = lockedBy(ns, "judge");
    try {
      UsageError e = assertThrows(UsageError.class, () -> WriterLocks.forSweep(plan, options.apply(1)));
      assertTrue(e.getMessage().contains("is being judged by a judge") && e.getMessage().endsWith("(or pass"
          + " --lockWaitSeconds=N to wait)"), e.getMessage());
      Thread ends = endsInASecond(judge);
      try (WriterLocks locks = WriterLocks.forSweep(plan, options.apply(60))) {
        assertTrue(Files.exists(tmp.resolve("runs").resolve(WriterLock.FILE)));
      }
      ends.join();
    } finally {
      judge.destroy();
    }
  }

  /** A lock that a full disk kept from being written is refused as a full disk: the file, and what to do. */
  @Test
  void aLockAFullDiskKeptFromBeingWrittenSaysSo() {
    java.nio.file.FileSystemException full = new java.nio.file.FileSystemException("/r/.h2beam.lock", null,
        "No space left on device");
    assertTrue(WriterLocks.lockFailure(full).equals("cannot take the writer lock: could not write /r/.h2beam.lock (No"
        + " space left on device): free space and re-run the same command; finished work is kept and resumed"),
        WriterLocks.lockFailure(full));
    assertTrue(WriterLocks.lockFailure(new java.io.IOException("Permission denied"))
        .equals("cannot take the writer lock: Permission denied"));
  }

  @Test
  void aSweepOfBothModesNamesEach(@TempDir Path runs) throws Exception {
    Process other = lockedBy(runs, "sweep of demo-oc-agg2 demo-oc-seq2");
    try {
      assertThrows(UsageError.class, () -> WriterLocks.refuseIfSwept(runs.resolve("demo-oc-agg2")));
      assertThrows(UsageError.class, () -> WriterLocks.refuseIfSwept(runs.resolve("demo-oc-seq2")));
      assertDoesNotThrow(() -> WriterLocks.refuseIfSwept(runs.resolve("demo-oc-agg1")));
    } finally {
      other.destroy();
    }
  }
}
