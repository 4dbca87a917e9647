package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's options are checked before anything runs. */
class SweepPlanTest {

  static SweepOptions options(String... args) {
    return PipelineOptionsFactory.fromArgs(args).as(SweepOptions.class);
  }

  @Test
  void anUnknownBenchmarkNamesTheFlag() {
    UsageError e = assertThrows(UsageError.class, () -> Sweep.plan(options("--bench=nope"), Instant.EPOCH));
    assertTrue(e.getMessage().startsWith("--bench=nope is not a known benchmark"), e.getMessage());
  }

  @Test
  void aMissingBenchmarkIsRequired() {
    UsageError e = assertThrows(UsageError.class, () -> Sweep.plan(options(), Instant.EPOCH));
    assertTrue(e.getMessage().startsWith("--bench is required"), e.getMessage());
  }

  @Test
  void aRelativeFolderIsRefusedWhenWorkersRunElsewhere() {
    PipelineOptions cluster = options("--runner=FlinkRunner", "--flinkMaster=jobmanager:8081");
    UsageError e = assertThrows(UsageError.class,
        () -> Sweep.requireAbsoluteOnCluster(cluster, "--runsRoot", "runs/x"));
    assertTrue(e.getMessage().contains("--runsRoot=runs/x is relative") && e.getMessage().contains("every worker"),
        e.getMessage());
    assertDoesNotThrow(() -> Sweep.requireAbsoluteOnCluster(cluster, "--runsRoot", "/shared/runs"));
  }

  @Test
  void aRelativeFolderIsFineWhenTheRunnerRunsInThisProcess() {
    assertDoesNotThrow(() -> Sweep.requireAbsoluteOnCluster(options(), "--runsRoot", "runs/x"));
    assertDoesNotThrow(() -> Sweep.requireAbsoluteOnCluster(
        options("--runner=FlinkRunner", "--flinkMaster=[local]"), "--runsRoot", "runs/x"));
  }

  /** On the DirectRunner the chains at once default to what the limits keep busy, at least 64; a count is taken. */
  @Test
  void chainsAtOnceFollowTheLimitsUnlessGiven() {
    assertEquals(64, Sweep.chainsAtOnce(options()));
    assertEquals(64, Sweep.chainsAtOnce(options("--sessionLimit=16", "--rolloutLimit=16")));
    assertEquals(256, Sweep.chainsAtOnce(options("--sessionLimit=64", "--rolloutLimit=64")));
    assertEquals(3, Sweep.chainsAtOnce(options("--chainsAtOnce=3", "--sessionLimit=64")));
    UsageError e = assertThrows(UsageError.class,
        () -> Sweep.plan(options("--bench=folder", "--chainsAtOnce=-2"), Instant.EPOCH));
    assertTrue(e.getMessage().startsWith("--chainsAtOnce must be at least 1, or 0"), e.getMessage());
  }

  @Test
  void modesAreNormalisedToTheFixedOrder() {
    assertTrue(dev.h2beam.pipelines.Flags.modes("sequential,parallel,seq").equals(java.util.List.of("agg", "seq")));
    assertThrows(UsageError.class, () -> dev.h2beam.pipelines.Flags.modes(""));
    // "both", as every command's help says: harness2's two modes, with anything else named
    assertEquals(java.util.List.of("agg", "seq"), dev.h2beam.pipelines.Flags.modes("both"));
    assertEquals(java.util.List.of("agg", "seq", "gat"), dev.h2beam.pipelines.Flags.modes("gated,both,seq"));
    UsageError e = assertThrows(UsageError.class, () -> dev.h2beam.pipelines.Flags.modes("all"));
    assertTrue(e.getMessage().contains("both (parallel and sequential)"), e.getMessage());
  }

  /** A benchmark folder the user owns has no default: runs/folder was never theirs. */
  @Test
  void aFolderBenchmarkNeedsItsFolderGiven() {
    UsageError e = assertThrows(UsageError.class,
        () -> Sweep.plan(options("--bench=folder"), Instant.EPOCH));
    assertTrue(e.getMessage().startsWith("--benchRoot is required for --bench=folder"), e.getMessage());
  }

  /**
   * A default folder that cannot be written is called the flag's default, not named as if the user had given it
   * (dogAB 8: "--libraryRoot=... cannot be written" for a user who gave no --libraryRoot); a given one keeps its name.
   */
  @Test
  void aDefaultFolderThatCannotBeWrittenIsCalledTheDefault(@TempDir Path tmp) throws Exception {
    Path runs = Files.createDirectories(tmp.resolve("runs"));
    Files.writeString(runs.resolve("_library"), "a file where the default library goes");
    String bench = "--benchRoot=" + Path.of("../examples/folder-bench").toAbsolutePath().normalize();
    UsageError byDefault = assertThrows(UsageError.class, () -> Sweep.plan(options("--bench=folder", bench,
        "--runsRoot=" + runs), Instant.EPOCH));
    assertTrue(byDefault.getMessage().startsWith(runs.resolve("_library") + "/k1-oc,"), byDefault.getMessage());
    assertTrue(byDefault.getMessage().contains(", the default of --libraryRoot (not given), cannot be written ("
        + runs.resolve("_library") + " is a file, not a folder); give --libraryRoot a folder you can write to"),
        byDefault.getMessage());
    UsageError given = assertThrows(UsageError.class, () -> Sweep.plan(options("--bench=folder", bench,
        "--runsRoot=" + runs, "--libraryRoot=" + runs.resolve("_library/mine")), Instant.EPOCH));
    assertTrue(given.getMessage().startsWith("--libraryRoot=" + runs.resolve("_library/mine") + " cannot be written"
        + " (" + runs.resolve("_library") + " is a file, not a folder); choose a folder"), given.getMessage());
  }

  @Test
  void aClusterRunNeedsItsRootsGiven() {
    UsageError e = assertThrows(UsageError.class, () -> Sweep.plan(options("--bench=folder", "--runner=FlinkRunner",
        "--flinkMaster=127.0.0.1:9"), Instant.EPOCH));
    assertTrue(e.getMessage().startsWith("--benchRoot is required with a runner whose workers run in other"
        + " processes"), e.getMessage());
  }

  @Test
  void anUnreachableFlinkMasterIsNamedWithWhatToDo() {
    UsageError e = assertThrows(UsageError.class, () -> FlinkCluster.overview("127.0.0.1:9"));
    assertTrue(e.getMessage().startsWith("--flinkMaster=127.0.0.1:9 does not reach a Flink JobManager: no answer from"
        + " http://127.0.0.1:9/overview") && e.getMessage().contains("scripts/flink-cluster.sh start"),
        e.getMessage());
  }
}
