package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.assertStatuses;
import static dev.h2beam.demo.DemoRuns.demo;
import static dev.h2beam.demo.DemoRuns.demoJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resume with nothing to do is replayed by the client without a pipeline, and writes and prints what a resumed
 * pipeline writes and prints; a sweep with one task left to do still runs the pipeline.
 */
class ClientReplayTest {

  @Test
  void aCompleteSweepIsReplayedOnTheClientWritingAndPrintingWhatAResumedPipelineDoes(@TempDir Path out)
      throws Exception {
    assertEquals(0, demo(out, "--k=1"));

    Sweep.Plan byPipeline = plan(out);
    assertTrue(Sweep.complete(byPipeline));
    String pipelineLines = printed(() -> Sweep.run(byPipeline, options(out), false));
    Map<String, String> pipelineFiles = files(out);

    Sweep.Plan onClient = plan(out);
    assertTrue(Sweep.complete(onClient));
    String clientLines = printed(() -> Sweep.run(onClient, options(out)));
    Map<String, String> clientFiles = files(out);

    assertEquals(pipelineFiles, clientFiles);
    assertEquals(pipelineLines, clientLines);
    assertTrue(clientLines.contains("counters: modes_replayed=4 tasks_done=2 tasks_resumed=2"), clientLines);
    assertTrue(Files.isRegularFile(out.resolve("runs/_audit/demo-oc-agg1/chains/agg.accounting.json")));
  }

  @Test
  void aSweepWithOneTaskLeftToDoRunsThePipeline(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path summary = out.resolve("runs/demo-oc-agg1/ledger-2/summary.json");
    Files.delete(summary);

    assertFalse(Sweep.complete(plan(out)));
    assertEquals(0, demo(out, "--k=1"));

    assertStatuses(demoJson(out), "skipped", "ok");
    assertEquals("ok", SummaryFile.read(summary).get("status"));
  }

  @Test
  void aModePartWaitingToBeMergedIsNotComplete(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path summary = out.resolve("runs/demo-oc-agg1/ledger-1/summary.json");
    Files.copy(summary, SummaryFile.part(summary, "seq"));

    assertFalse(Sweep.complete(plan(out)), "a part is merged by the pipeline's first step, not by the client");
  }

  private static DemoOptions options(Path out) {
    String[] args = DemoCommand.withDefaults(new String[] {"--output=" + out, "--k=1", "--sessionRetryWaitSeconds=0"});
    DemoOptions o = OptionArgs.parse("demo", args, DemoOptions.class);
    DemoCommand.rootsUnder(o, "demo");
    return o;
  }

  private static Sweep.Plan plan(Path out) {
    return Sweep.plan(options(out), Instant.now());
  }

  interface Run {
    void run() throws Exception;
  }

  /** What {@code run} printed, without the lines that name the run's own record. */
  private static String printed(Run run) throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      run.run();
    } finally {
      System.setOut(saved);
    }
    List<String> lines = new ArrayList<>(bytes.toString(StandardCharsets.UTF_8).lines().toList());
    lines.sort(null); // chains print their tasks' lines in the runner's order
    return String.join("\n", lines);
  }

  /**
   * Every file below {@code out} with its content, the newest sweep record in place of every record (each run adds
   * one, named by its time), and what differs per run left out: the times, the process and thread that ran a chain,
   * the runs root's fresh token and the writer lock.
   */
  private static Map<String, String> files(Path out) throws Exception {
    Map<String, String> m = new TreeMap<>();
    String newestRecord = null;
    for (String rel : PathOrder.files(out)) {
      Path p = out.resolve(rel);
      // the workers' progress boards are a live view a pipeline's workers write; a replay has no workers
      if (rel.endsWith(".h2beam.lock") || rel.equals("runs/.h2beam/root-token") || rel.contains("/progress/")) continue;
      if (rel.startsWith("runs/_sweeps/")) {
        newestRecord = newestRecord == null || order(rel).compareTo(order(newestRecord)) > 0 ? rel : newestRecord;
        continue;
      }
      m.put(rel, rel.contains("/chains/") ? masked(p, "pid", "jvm", "thread", "started_at", "ended_at")
          : Files.readString(p, StandardCharsets.ISO_8859_1));
    }
    m.put("newest sweep record", masked(out.resolve(newestRecord), "started_at", "finished_at"));
    return m;
  }

  /**
   * A sweep record's place in time: its stamp, then the number a record of the same second was given. By name alone
   * {@code x-20261207T052200Z-1.json} sorts before {@code x-20261207T052200Z.json}, which it follows: a test whose
   * runs fell in one second compared an older record (it failed so in the test command once).
   */
  private static String order(String rel) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("-(\\d{8}T\\d{6}Z)(?:-(\\d+))?\\.json$")
        .matcher(rel);
    assertTrue(m.find(), rel);
    long same = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
    return m.group(1) + String.format(java.util.Locale.ROOT, "%09d", same);
  }

  private static String masked(Path json, String... keys) throws Exception {
    Map<String, Object> m = new LinkedHashMap<>(Json.readMap(json));
    for (String k : keys) {
      assertTrue(m.containsKey(k), json + " has no " + k);
      m.put(k, "(per run)");
    }
    return Json.pretty(m);
  }
}
