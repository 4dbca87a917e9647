package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.h2beam.pipelines.UsageError;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's limits are divided among the workers its Flink cluster reports: each of W TaskManagers keeps a W-th of
 * {@code --sessionLimit} and {@code --rolloutLimit}, rounded down, so the job never has more in flight than asked; a
 * limit below W would leave a worker no share, and is refused before anything runs, naming the flag and the fix.
 */
class ClusterLimitsTest {
  @TempDir Path tmp;
  private HttpServer jobManager;

  /** A JobManager's REST endpoint that reports two TaskManagers of two slots. */
  @BeforeEach
  void twoWorkers() throws Exception {
    jobManager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    jobManager.createContext("/overview", x -> {
      byte[] body = "{\"taskmanagers\":2,\"slots-total\":4}".getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    jobManager.start();
  }

  @AfterEach
  void stop() {
    jobManager.stop(0);
  }

  Sweep.Plan plan(String... limits) throws Exception {
    Path config = tmp.resolve("c.yaml");
    Files.writeString(config, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\", max_concurrency: 8}\nroles:\n"
        + "  improver: {endpoint: m, model: e}\n  selector: {endpoint: m, model: e}\n"
        + "  reflector: {endpoint: m, model: e}\n  executor: {endpoint: m, model: e}\n");
    String[] args = new String[limits.length + 6];
    args[0] = "--bench=folder";
    args[1] = "--benchRoot=" + Path.of("../examples/folder-bench").toAbsolutePath().normalize();
    args[2] = "--runsRoot=" + tmp.resolve("runs");
    args[3] = "--runner=FlinkRunner";
    args[4] = "--flinkMaster=127.0.0.1:" + jobManager.getAddress().getPort();
    args[5] = "--config=" + config;
    System.arraycopy(limits, 0, args, 6, limits.length);
    return Sweep.plan(SweepPlanTest.options(args), Instant.EPOCH);
  }

  @Test
  void eachWorkerKeepsItsShareOfTheJobsLimits() throws Exception {
    Sweep.Plan p = plan("--sessionLimit=5", "--rolloutLimit=2");
    assertEquals(2, p.config().workers());
    assertEquals(2, p.config().workerSessionLimit(), "5 over 2 rounds down: never more than asked");
    assertEquals(1, p.config().workerRolloutLimit());
    assertEquals(4, p.config().workerRunConfig().role("improver").orElseThrow().endpoint().maxConcurrency(),
        "and each endpoint's max_concurrency");
  }

  @Test
  void aLimitBelowTheWorkerCountIsRefusedNamingTheFlag() {
    for (String flag : new String[] {"--sessionLimit", "--rolloutLimit"}) {
      UsageError e = assertThrows(UsageError.class, () -> plan(flag + "=1"));
      assertTrue(e.getMessage().startsWith(flag + "=1 is fewer than the job's 2 workers")
          && e.getMessage().contains("raise it to 2 or more"), e.getMessage());
    }
  }

  /** A parallelism above the cluster's slots sat with nothing deployed, for minutes, saying nothing (dogAC F5). */
  @Test
  void aParallelismAboveTheClustersSlotsIsRefusedNamingBoth() {
    UsageError e = assertThrows(UsageError.class, () -> plan("--parallelism=8"));
    assertTrue(e.getMessage().startsWith("--parallelism=8 asks for more slots than the Flink cluster")
        && e.getMessage().contains("(4 on 2 TaskManager(s))") && e.getMessage().contains("--parallelism=4 or less"),
        e.getMessage());
  }
}
