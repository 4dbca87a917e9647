package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.report.ReportOptions;
import dev.h2beam.pipelines.sweep.Sweep;
import java.net.ServerSocket;
import java.time.Duration;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

/** An unreachable {@code --flinkMaster} is refused in one line that names the flag, the address and what to do. */
class FlinkMasterTest {

  /** A loopback port nothing listens on: bound, then closed. */
  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static PipelineOptions flink(String master) {
    return PipelineOptionsFactory.fromArgs("--runner=FlinkRunner", "--flinkMaster=" + master).create();
  }

  @Test
  void aClosedPortIsRefusedInOneLineNamingTheFlagTheAddressAndWhatToDo() throws Exception {
    int port = closedPort();
    long t0 = System.nanoTime();
    UsageError e = assertThrows(UsageError.class,
        () -> FlinkMaster.requireUsable(flink("127.0.0.1:" + port), Duration.ofSeconds(2)));
    assertTrue(System.nanoTime() - t0 < 3_000_000_000L, "refused within its timeout");
    String m = e.getMessage();
    assertTrue(m.startsWith("--flinkMaster=127.0.0.1:" + port + ": no Flink cluster answers: nothing answers at"
        + " 127.0.0.1:" + port), m);
    assertTrue(m.contains("Start the cluster or correct the address") && m.contains("--flinkMaster=[local]"), m);
    assertEquals(1, m.lines().count());
  }

  @Test
  void everyCommandChecksItWhenItParsesItsOptions() throws Exception {
    int port = closedPort();
    UsageError e = assertThrows(UsageError.class, () -> OptionArgs.parse("report", new String[] {
        "--runner=FlinkRunner", "--flinkMaster=127.0.0.1:" + port, "--namespaces=/nowhere/demo-oc-agg2"},
        ReportOptions.class));
    assertTrue(e.getMessage().startsWith("--flinkMaster=127.0.0.1:" + port + ": no Flink cluster answers"),
        e.getMessage());
  }

  @Test
  void anUnknownHostIsNamed() {
    UsageError e = assertThrows(UsageError.class,
        () -> FlinkMaster.requireUsable(flink("no-such-host.invalid:8081"), Duration.ofSeconds(2)));
    assertTrue(e.getMessage().contains("the host no-such-host.invalid is unknown"), e.getMessage());
  }

  @Test
  void anAddressWithoutAPortUsesFlinksRestPortAndANonNumberIsRefused() {
    assertEquals(8081, FlinkMaster.address("flink-jm").getPort());
    assertEquals(9000, FlinkMaster.address("http://flink-jm:9000/").getPort());
    UsageError e = assertThrows(UsageError.class, () -> FlinkMaster.address("flink-jm:http"));
    assertTrue(e.getMessage().startsWith("--flinkMaster=flink-jm:http is not an address"), e.getMessage());
  }

  /** The REST address the shape is asked at and a job's lock names: the same for every spelling of one master. */
  @Test
  void theRestEndpointOfEverySpellingOfAMaster() {
    assertEquals("http://flink-jm:8081", FlinkMaster.rest("flink-jm"));
    assertEquals("http://flink-jm:9000", FlinkMaster.rest("http://flink-jm:9000/"));
    assertEquals("https://flink-jm:443", FlinkMaster.rest("https://flink-jm:443"));
    assertEquals("http://[0:0:0:0:0:0:0:1]:8081", FlinkMaster.rest("[::1]:8081"));
  }

  @Test
  void embeddedMastersAndOtherRunnersNeedNoConnection() {
    FlinkMaster.requireUsable(flink("[local]"), Duration.ofMillis(1));
    FlinkMaster.requireUsable(flink("[auto]"), Duration.ofMillis(1));
    FlinkMaster.requireUsable(PipelineOptionsFactory.fromArgs("--flinkMaster=127.0.0.1:1").create(),
        Duration.ofMillis(1));
  }

  /**
   * Flink's collection executor is refused by every command before anything runs: it finished a demo sweep with one
   * task of two and no failure. Before, the sweep took it for a remote address and said it was not one.
   */
  @Test
  void theCollectionExecutorIsRefusedByEveryCommandNamingWhatToUseInstead() {
    UsageError e = assertThrows(UsageError.class, () -> OptionArgs.parse("report", new String[] {
        "--runner=FlinkRunner", "--flinkMaster=[collection]", "--namespaces=/nowhere/demo-oc-agg2"},
        ReportOptions.class));
    assertTrue(e.getMessage().startsWith("--flinkMaster=[collection] runs Flink's collection executor"),
        e.getMessage());
    assertTrue(e.getMessage().contains("--flinkMaster=[local]"), e.getMessage());
    // the DirectRunner ignores a Flink option it does not use
    FlinkMaster.requireUsable(PipelineOptionsFactory.fromArgs("--flinkMaster=[collection]").create(),
        Duration.ofMillis(1));
  }

  /** A detached job would leave every command reading what its job has not written yet: refused, naming nohup. */
  @Test
  void aDetachedSubmissionIsRefusedBeforeAnythingRuns() {
    UsageError e = assertThrows(UsageError.class, () -> OptionArgs.parse("report", new String[] {
        "--runner=FlinkRunner", "--flinkMaster=[local]", "--attachedMode=false",
        "--namespaces=/nowhere/demo-oc-agg2"}, ReportOptions.class));
    assertTrue(e.getMessage().startsWith("--attachedMode=false submits the job detached"), e.getMessage());
    assertTrue(e.getMessage().contains("nohup"), e.getMessage());
    FlinkMaster.requireUsable(flink("[local]"), Duration.ofMillis(1)); // attached, Beam's default
  }

  /** Where the sweep may take folders relative, and where the staged jars are checked, is one decision. */
  @Test
  void theSweepRunsLocallyExactlyWhereNoRemoteMasterIsNamed() {
    PipelineOptions direct = PipelineOptionsFactory.fromArgs("--flinkMaster=127.0.0.1:1").create();
    for (PipelineOptions o : new PipelineOptions[] {direct, flink("[local]"), flink("[auto]")}) {
      assertTrue(Sweep.runsLocally(o), o.toString());
      assertEquals(null, FlinkMaster.remote(o), o.toString());
    }
    // Beam compares the names unstripped: " [local]" goes to a host of that name, so it is remote here too
    for (String master : new String[] {"127.0.0.1:8081", "flink-jm", " [local]"}) {
      assertFalse(Sweep.runsLocally(flink(master)), master);
      assertEquals(master, FlinkMaster.remote(flink(master)));
    }
  }
}
