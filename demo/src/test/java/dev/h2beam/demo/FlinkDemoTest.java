package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.proposer.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same pipelines on an embedded Flink cluster (parallelism 2): the same files as on the DirectRunner, and a
 * crashed element retried by Flink's restart strategy spends no rollout or session twice.
 */
public class FlinkDemoTest {
  static final String[] FLINK = {"--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2"};

  @Test
  void theDemoOnEmbeddedFlinkWritesTheSameFilesAsTheDirectRunner(@TempDir Path flink) throws Exception {
    assertEquals(0, DemoRuns.demo(flink, FLINK));
    assertSameFiles(DemoRuns.cleanDemo(), flink);
  }

  @Test
  void aCrashedElementIsRetriedByFlinkAndSpendsNothingTwice(@TempDir Path crashed, @TempDir Path conf)
      throws Exception {
    // Flink batch jobs take their restart strategy from the Flink configuration, not from Beam's retry option
    Files.writeString(conf.resolve("flink-conf.yaml"), "restart-strategy.type: fixed-delay\n"
        + "restart-strategy.fixed-delay.attempts: 2\nrestart-strategy.fixed-delay.delay: 0 s\n");
    assertEquals(0, DemoRuns.demo(crashed, "--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2",
        "--flinkConfDir=" + conf, "--inject=crash-once@ledger-1/agg"));
    assertTrue(Files.exists(crashed.resolve("runs/_faults/crash-once@ledger-1@agg")), "the crash happened");
    assertNothingRanTwice(crashed, 2);
    assertSameFiles(DemoRuns.cleanDemo(), crashed);
  }

  @Test
  void aCrashedDirectRunResumesWhenTheCommandIsRepeated(@TempDir Path crashed) throws Exception {
    // the crashing run is a real process, so that the crash ends everything it had running, as it would for a user
    List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.h2beam.pipelines.Main", "demo",
        "--output=" + crashed, "--inject=crash-once@ledger-2/seq"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(crashed.resolve("crash.log").toFile())
        .start();
    assertTrue(p.waitFor() != 0, "the first run crashed");
    assertTrue(Files.readString(crashed.resolve("crash.log")).contains("InjectedCrash"));
    assertEquals(0, DemoRuns.demo(crashed, "--inject=crash-once@ledger-2/seq"));
    assertNothingRanTwice(crashed, 2);
    assertSameFiles(DemoRuns.cleanDemo(), crashed);
  }

  /** Every run id executed once, every session key called once, and as many as a clean run at this k. */
  static void assertNothingRanTwice(Path out, int k) throws Exception {
    Path audit = out.resolve("runs/_audit/demo-oc-agg" + k);
    List<String> executions = Journal.lines(audit.resolve("executions.jsonl"));
    List<String> sessions = Journal.lines(audit.resolve("sessions.jsonl"));
    assertEquals(2 * 7 * k, executions.size(), "executions");
    assertEquals(2 * 2 * (3 * k + 2), sessions.size(), "sessions");
    Set<String> runIds = new HashSet<>();
    for (String line : executions) assertTrue(runIds.add((String) Json.readMap(line).get("run_id")), line);
    Set<String> keys = new HashSet<>();
    for (String line : sessions) {
      Map<String, Object> m = Json.readMap(line);
      assertTrue(keys.add(m.get("label") + "/" + m.get("key")), line);
    }
  }

  /**
   * summary.json, selection.json, judged.json and library files are equal once the output root is normalised (and a
   * library's record of its runs root's random identity).
   */
  public static void assertSameFiles(Path a, Path b) throws Exception {
    TreeMap<String, String> left = files(a);
    TreeMap<String, String> right = files(b);
    assertTrue(left.size() > 10, "compared " + left.keySet());
    assertEquals(left.keySet(), right.keySet());
    for (String rel : left.keySet()) assertEquals(left.get(rel), right.get(rel), rel);
  }

  static TreeMap<String, String> files(Path root) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = root.relativize(p).toString();
        String name = p.getFileName().toString();
        if (List.of("summary.json", "selection.json", "judged.json").contains(name)
            || rel.startsWith("library/") || name.startsWith("report")) {
          // a library's record of its runs root names that root's identity, made at random once per runs root (as
          // runs/.h2beam/runs-root-id is): the record is compared, its identity is not a result
          String text = Files.readString(p).replace(root.toString(), "<root>")
              .replaceAll("\"runs_root_id\": \"[^\"]*\"", "\"runs_root_id\": \"<id>\"");
          out.put(rel, text);
        }
      }
    }
    return out;
  }
}
