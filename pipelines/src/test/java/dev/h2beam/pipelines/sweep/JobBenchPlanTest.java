package dev.h2beam.pipelines.sweep;

import static dev.h2beam.adapters.jobbench.JobBenchFixture.LAWYER;
import static dev.h2beam.adapters.jobbench.JobBenchFixture.LEDGER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.Benchmarks;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.jobbench.JobBenchFixture;
import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JobBench sweep is planned from the command line: {@code --benchSettings} reaches the benchmark (executor, split
 * file), the stream follows the split and the sorted occupations, everything is written under the runs root, and
 * the base harness passes the checks every proposal meets.
 */
class JobBenchPlanTest {
  @TempDir Path tmp;

  Sweep.Plan plan(Path root, String... more) throws Exception {
    Path cfg = tmp.resolve("c.yaml");
    Files.writeString(cfg, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\nroles:\n"
        + "  improver: {endpoint: m, model: e}\n  selector: {endpoint: m, model: e}\n"
        + "  reflector: {endpoint: m, model: e}\n");
    List<String> args = new java.util.ArrayList<>(List.of("--bench=jobbench", "--benchRoot=" + root,
        "--runsRoot=" + tmp.resolve("runs"), "--config=" + cfg, "--k=2"));
    args.addAll(List.of(more));
    SweepOptions o = PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).as(SweepOptions.class);
    return Sweep.plan(o, Instant.EPOCH);
  }

  static String settings(Object value) {
    return "--benchSettings=" + Json.canonical(value);
  }

  @Test
  void benchSettingsReachTheBenchmarkAndTheStreamFollowsTheSplit() throws Exception {
    Path root = JobBenchFixture.write(tmp.resolve("job-bench-eval"));
    Sweep.Plan p = plan(root, "--split=train", settings(Map.of("splitFile", "splits/jb.json",
        "executor", Map.of("kind", "command", "command", JobBenchFixture.AGENT))));
    assertEquals(Map.of("Lawyers", List.of(LAWYER), "accountants", List.of(LEDGER)), p.stream());
    assertEquals(List.of("Lawyers", "accountants"), List.copyOf(p.stream().keySet()));
    assertEquals("jb", p.config().summaryNamespace().benchmark());
    assertTrue(p.bench().executorIdentity().startsWith("command:cp "), p.bench().executorIdentity());
    assertTrue(p.bench().baseHarness().startsWith(tmp.resolve("runs/_executions")));
    assertFalse(Files.exists(root.resolve("runs")), "nothing is written into the checkout");
  }

  /**
   * A job restarted after a lost worker skips, as done, a task this command finished before the restart, and its
   * record says "skipped": the client's line for it said "skipped" though the command ran it (dogAC F7). Only a task
   * done before the command started is skipped; the other's line is its summary's, as the DirectRunner prints it.
   */
  @Test
  void aTaskTheCommandRanBeforeARestartIsShownAsItsSummarySaysNotSkipped() throws Exception {
    Path root = JobBenchFixture.write(tmp.resolve("job-bench-eval"));
    Sweep.Plan p = plan(root, "--split=train", settings(Map.of("splitFile", "splits/jb.json",
        "executor", Map.of("kind", "command", "command", JobBenchFixture.AGENT))));
    for (String task : List.of(LAWYER, LEDGER)) {
      Files.createDirectories(p.config().summaryPath(task).getParent());
      Files.writeString(p.config().summaryPath(task), "{\"status\": \"partial\", \"errors\": [\"agg: boom\"]}");
    }
    Files.createDirectories(p.recordPath().getParent());
    Files.writeString(p.recordPath(), "{\"seed\": 0, \"domains\": [{\"domain\": \"Lawyers\", \"done\": 1,"
        + " \"failed\": 0, \"tasks\": [{\"task\": \"" + LAWYER + "\", \"status\": \"skipped\","
        + " \"library_entries_before\": {}}]},"
        + " {\"domain\": \"accountants\", \"done\": 1, \"failed\": 0, \"tasks\": [{\"task\": \"" + LEDGER + "\","
        + " \"status\": \"skipped\", \"library_entries_before\": {}}]}]}");
    Map<String, Object> record = Sweep.ranBeforeRestart(p, java.util.Set.of(LEDGER));
    assertEquals(record, Json.readMap(p.recordPath()), "the record file says what the command did");
    List<String> lines = Sweep.taskLines(p, record);
    assertTrue(lines.get(0).matches("  \\[Lawyers] 1/1 partial +" + LAWYER + "  :: agg: boom"), lines.get(0));
    assertTrue(lines.get(1).matches("  \\[accountants] 1/1 skipped +" + LEDGER), lines.get(1));
    String text = Files.readString(p.recordPath());
    assertTrue(text.contains("\"done\": 0,\n      \"failed\": 1,") && text.contains("\"task\": \"" + LAWYER
        + "\",\n          \"status\": \"partial\",\n          \"error\": \"agg: boom\",\n"
        + "          \"library_entries_before\": {}"), text);
  }

  /**
   * A task counts as done before the command when its summary is there or every mode's part of it: a job whose
   * JobManager was lost ends before its finishing steps merge the parts, and the re-run skips those tasks (they
   * showed as "done before a restart" in a run that had no restart of its own).
   */
  @Test
  void aTaskIsDoneBeforeTheCommandWithItsSummaryOrEveryModesPart() throws Exception {
    Path root = JobBenchFixture.write(tmp.resolve("job-bench-eval"));
    Sweep.Plan p = plan(root, "--split=train", settings(Map.of("splitFile", "splits/jb.json",
        "executor", Map.of("kind", "command", "command", JobBenchFixture.AGENT))));
    Path lawyer = p.config().summaryPath(LAWYER);
    Files.createDirectories(lawyer.getParent());
    for (String mode : p.config().modes()) {
      assertEquals(java.util.Set.of(), Sweep.summarized(p), "a part of each mode is needed");
      Files.writeString(dev.h2beam.transforms.summary.SummaryFile.part(lawyer, mode), "{}");
    }
    assertEquals(java.util.Set.of(LAWYER), Sweep.summarized(p));
    Files.createDirectories(p.config().summaryPath(LEDGER).getParent());
    Files.writeString(p.config().summaryPath(LEDGER), "{}");
    assertEquals(java.util.Set.of(LAWYER, LEDGER), Sweep.summarized(p));
  }

  @Test
  void settingsOwnedByAFlagOrNotAnObjectAreRefused() throws Exception {
    Path root = JobBenchFixture.write(tmp.resolve("job-bench-eval"));
    UsageError split = assertThrows(UsageError.class, () -> plan(root, settings(Map.of("split", "train"))));
    assertTrue(split.getMessage().contains("split is set by --split"), split.getMessage());
    UsageError list = assertThrows(UsageError.class, () -> plan(root, "--benchSettings=[1]"));
    assertTrue(list.getMessage().contains("--benchSettings: must be a JSON object"), list.getMessage());
    UsageError unknown = assertThrows(UsageError.class, () -> plan(root, settings(Map.of("splitfile", "x"))));
    assertTrue(unknown.getMessage().contains("--benchSettings: splitfile is not a setting of --bench=jobbench; known:"
        + " [baseHarness, executor, splitFile, timeoutSeconds]"), unknown.getMessage());
  }

  @Test
  void theBaseHarnessPassesTheChecksEveryProposalMeets() throws Exception {
    Path root = JobBenchFixture.write(tmp.resolve("job-bench-eval"));
    for (String substrate : List.of("oc", "cx")) {
      Benchmark b = Benchmarks.named("jobbench").open(root, Map.of("substrate", substrate,
          "executions", tmp.resolve("e").toString(), "executor", JobBenchFixture.commandExecutor("true")),
          RunConfig.empty());
      assertEquals(List.of(), BaseHarness.problems(b), substrate);
    }
  }
}
