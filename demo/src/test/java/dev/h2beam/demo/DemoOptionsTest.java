package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad options stop before anything runs, naming the flag and the fix. */
class DemoOptionsTest {

  @Test
  void kBelowOneIsRefusedBeforeAnythingRuns(@TempDir Path out) {
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out.resolve("d"), "--k=0"));
    assertTrue(e.getMessage().contains("--k must be at least 1"), e.getMessage());
    assertFalse(Files.exists(out.resolve("d/runs")), "nothing ran");
  }

  @Test
  void anUnknownModeNamesTheFlag(@TempDir Path out) {
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--modes=wide"));
    assertTrue(e.getMessage().startsWith("--modes: 'wide' is not a mode"), e.getMessage());
  }

  @Test
  void anUnwritableOutputNamesTheFlag(@TempDir Path out) throws Exception {
    Path file = Files.writeString(out.resolve("a-file"), "x");
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(file.resolve("inside")));
    assertTrue(e.getMessage().startsWith("--output=") && e.getMessage().contains("cannot be written"), e.getMessage());
    // the flag the user gave, not the sweep's --benchRoot that the demo sets from it
    UsageError itself = assertThrows(UsageError.class, () -> DemoRuns.demo(file));
    assertTrue(itself.getMessage().startsWith("--output=" + file + " cannot be written"), itself.getMessage());
  }

  /** The demo keeps its benchmark in --output: a --benchRoot would be ignored, so it is refused, saying so. */
  @Test
  void aBenchRootIsRefusedNamingOutputInstead(@TempDir Path out) {
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out.resolve("d"),
        "--benchRoot=" + out.resolve("elsewhere"), "--dryRun=true"));
    assertTrue(e.getMessage().startsWith("--benchRoot: h2beam demo keeps its benchmark in --output"), e.getMessage());
    assertFalse(Files.exists(out.resolve("d")) || Files.exists(out.resolve("elsewhere")));
  }

  /**
   * The demo's namespaces go under --output, and its judge and report name them in --namespaces: an output whose
   * path holds what --namespaces reads as glob syntax or as its list separator is refused before anything is written
   * (unless --runsRoot puts the namespaces elsewhere).
   */
  @Test
  void anOutputWhoseNamespacesCouldNotBeNamedIsRefusedBeforeAnythingIsWritten(@TempDir Path out) throws Exception {
    Path output = out.resolve("demo,v2");
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(output));
    assertEquals("--output=" + output + " holds ',', which ./h2beam judge and report read in --namespaces as the"
        + " separator between folders: the namespaces written under it could never be judged or reported; give"
        + " --output a folder whose path has none of '*', '[', ']', '{', '}', ',' (or --runsRoot such a folder)",
        e.getMessage());
    assertFalse(Files.exists(output), "nothing written");
    UsageError bench = assertThrows(UsageError.class, () -> new BenchCommand().run(new String[] {
        "--output=" + out.resolve("bench[1]")}));
    assertTrue(bench.getMessage().startsWith("--output=" + out.resolve("bench[1]") + " holds '['"), bench.getMessage());
    assertEquals(0, DemoRuns.demo(output, "--runsRoot=" + out.resolve("runs"), "--dryRun=true"));
  }

  @Test
  void anUnknownChannelNamesTheKnownKinds(@TempDir Path out) {
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--channel=telepathy"));
    assertTrue(e.getMessage().contains("--channel") && e.getMessage().contains("scripted-ledger"), e.getMessage());
  }

  @Test
  void aBadInjectionIsRefused(@TempDir Path out) {
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--inject=explode"));
    assertTrue(e.getMessage().contains("--inject"), e.getMessage());
  }

  /** dogF #7: an injection that names a task or mode the run does not have would never fire: refused, naming it. */
  @Test
  void anInjectionOutsideTheRunIsRefusedNamingWhatIsMissing(@TempDir Path out) {
    UsageError task = assertThrows(UsageError.class, () -> DemoRuns.demo(out,
        "--inject=ledger-duplicate@ledger-9/parallel"));
    assertTrue(task.getMessage().startsWith("--inject entry 'ledger-duplicate@ledger-9/parallel' names task 'ledger-9',"
        + " which this run does not have; its tasks: [ledger-1, ledger-2]"), task.getMessage());
    UsageError mode = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--modes=parallel",
        "--inject=ledger-duplicate@ledger-1/gated"));
    assertEquals("--inject entry 'ledger-duplicate@ledger-1/gated' names mode gated, which this run does not run; add"
        + " it to --modes", mode.getMessage());
  }

  @Test
  void aBaseHarnessHoldingAGraderVerdictIsRefusedBeforeAnythingRuns(@TempDir Path out) throws Exception {
    DemoBenchmark.setUp(out);
    Files.writeString(out.resolve("base/LongTermMEMORY.md"), "last time: {\"pass_rate\": 1}\n");
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out));
    assertTrue(e.getMessage().contains("grader verdict marker"), e.getMessage());
    assertFalse(Files.exists(out.resolve("executions")), "nothing ran");
  }

  @Test
  void aSeedShufflesTheStreamAndNamesTheNamespace(@TempDir Path out) throws Exception {
    org.junit.jupiter.api.Assertions.assertEquals(0, DemoRuns.demo(out, "--k=1", "--seed=7"));
    assertTrue(Files.isRegularFile(out.resolve("runs/demo-oc-agg1-s7/ledger-1/summary.json")));
    assertTrue(Files.isDirectory(out.resolve("runs/demo-oc-seq1-s7/ledger-2")));
    assertTrue(Files.isDirectory(out.resolve("library/k1-s7/agg/accounting")));
  }

  /**
   * harness2's --seed is a Python int of any size: 2**70 + 5 names the namespace, is recorded in config.json and
   * summary.json digit for digit, resumes with the same seed, and a config.json recording a seed a double could not
   * tell from it (2**70 + 6) is refused as any other identity change.
   */
  @Test
  void aSeedWiderThanALongRunsResumesAndIsRecordedExactly(@TempDir Path out) throws Exception {
    String big = "1180591620717411303429";
    assertEquals(0, DemoRuns.demo(out, "--k=1", "--seed=" + big));
    Path ns = out.resolve("runs/demo-oc-agg1-s" + big);
    Path config = ns.resolve("config.json");
    assertTrue(Files.readString(config).contains("\"seed\": " + big + ","), Files.readString(config));
    assertTrue(Files.readString(ns.resolve("ledger-1/summary.json")).contains("\"seed\": " + big + ","));
    assertTrue(Files.isDirectory(out.resolve("library/k1-s" + big + "/agg/accounting")));
    assertEquals(0, DemoRuns.demo(out, "--k=1", "--seed=" + big));
    Files.writeString(config, Files.readString(config).replace("\"seed\": " + big, "\"seed\": 1180591620717411303430"));
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--k=1", "--seed=" + big));
    assertTrue(e.getMessage().startsWith(config + " records a different run identity (seed: 1180591620717411303430"
        + " now " + big + "); use a new --output (with h2beam sweep, a new --benchRoot and --runsRoot)"),
        e.getMessage());
    assertFalse(e.getMessage().contains("has finished yet"), e.getMessage());
    // a namespace none of whose tasks finished loses nothing elsewhere, and the refusal says so (dogAK F6)
    try (java.util.stream.Stream<Path> tasks = Files.list(ns)) {
      for (Path t : tasks.filter(Files::isDirectory).toList()) {
        try (java.util.stream.Stream<Path> files = Files.list(t)) {
          for (Path f : files.filter(x -> x.getFileName().toString().startsWith("summary")).toList()) Files.delete(f);
        }
      }
    }
    e = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--k=1", "--seed=" + big));
    assertTrue(e.getMessage().contains("and --runsRoot) (no task of demo-oc-agg1-s" + big + " has finished yet, so"
        + " nothing of it is lost)"), e.getMessage());
  }

  @Test
  void aDifferentImproverInTheSameRunsDirIsRefused(@TempDir Path out) throws Exception {
    org.junit.jupiter.api.Assertions.assertEquals(0, DemoRuns.demo(out, "--k=1"));
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--k=1", "--channel=scripted-faults"));
    assertTrue(e.getMessage().contains("config.json records a different run identity (improver")
        && e.getMessage().contains("use a new --output"), e.getMessage());
  }

  /**
   * The demo writes its ledgers only where absent and keeps a user's edit: a finished demo whose ledger was then
   * edited is not resumed as if it were the same benchmark (its tasks would be skipped with the old totals).
   */
  @Test
  void anEditedLedgerAfterAFinishedDemoIsRefusedNamingItsTask(@TempDir Path out) throws Exception {
    assertEquals(0, DemoRuns.demo(out, "--k=1"));
    Path ledger = out.resolve("sources/ledger-2/ledger.csv");
    Files.writeString(ledger, Files.readString(ledger) + "5.00\n");
    UsageError e = assertThrows(UsageError.class, () -> DemoRuns.demo(out, "--k=1"));
    assertTrue(e.getMessage().contains("config.json records a different run identity (input_digests)")
        && e.getMessage().contains("task ledger-2 (its instruction, or a file under " + out.resolve("sources/ledger-2"))
        && e.getMessage().contains("use a new --output"), e.getMessage());
  }

  /** The judge's command the sweep prints names the sweep's modes when the judge's default would not fit them. */
  @Test
  void theNextCommandCarriesTheModesTheJudgeWouldNotAssume(@org.junit.jupiter.api.io.TempDir java.nio.file.Path d) {
    String root = "--benchRoot=" + d.resolve("b");
    String both = dev.h2beam.pipelines.sweep.SweepCommand.judgeCommand(dev.h2beam.pipelines.sweep.Sweep.plan(sweepOptions("--bench=demo", root, "--modes=both"), java.time.Instant.EPOCH));
    assertTrue(both.startsWith("./h2beam judge --namespaces=" + d.resolve("b/runs/demo-oc-agg1")), both);
    assertTrue(!both.contains("--modes"), both);
    String parallel = dev.h2beam.pipelines.sweep.SweepCommand.judgeCommand(dev.h2beam.pipelines.sweep.Sweep.plan(sweepOptions("--bench=demo", root), java.time.Instant.EPOCH));
    assertTrue(parallel.endsWith(" --modes=parallel"), parallel);
  }

  /** The judge's command carries the sweep's --config (a rubric judge needs its roles), and none without one. */
  @Test
  void theNextCommandCarriesTheSweepsConfig(@org.junit.jupiter.api.io.TempDir java.nio.file.Path d) {
    var plan = dev.h2beam.pipelines.sweep.Sweep.plan(sweepOptions("--bench=demo", "--benchRoot=" + d.resolve("b"),
        "--modes=both"), java.time.Instant.EPOCH);
    String with = dev.h2beam.pipelines.sweep.SweepCommand.judgeCommand(plan, "conf/run.yaml");
    // absolute, as the namespace is, so that the line pastes from any folder (dogAK F8)
    assertTrue(with.endsWith(" --config=" + Path.of("conf/run.yaml").toAbsolutePath()), with);
    assertTrue(!dev.h2beam.pipelines.sweep.SweepCommand.judgeCommand(plan, null).contains("--config"));
  }

  /**
   * The end of a sweep counts the improver stages that fell back in the summaries of the tasks it ran (the user saw
   * "4 tasks ok" when every session had failed); tasks skipped as done before are not read.
   */
  @Test
  void theStagesThatFellBackAreCountedFromTheTasksRunNow(@org.junit.jupiter.api.io.TempDir java.nio.file.Path d)
      throws Exception {
    var plan = stagesPlan(d);
    java.nio.file.Path a = summary(d, "dom__a", "{\"modes\": {\"agg\": {\"stages\": [{\"fell_back\": true},"
        + " {\"fell_back\": false}, {\"fell_back\": true}]}, \"seq\": {\"stages\": [{\"fell_back\": false}]}}}");
    summary(d, "dom__b", "{\"modes\": {\"agg\": {\"stages\": [{\"fell_back\": true}]}}}");
    java.util.Map<String, Object> record = record("dom/a", "ok", "dom/b", "skipped", "dom/c", "ok");
    var st = dev.h2beam.pipelines.sweep.SweepCommand.stages(plan, record);
    org.junit.jupiter.api.Assertions.assertEquals(
        new dev.h2beam.pipelines.sweep.SweepCommand.Stages(4, 2, 0, "", 1, a), st, "b skipped, c has no summary");
  }

  /**
   * A resume that ran no task reads the tasks it found done: a run whose every stage fell back says so, and exits 3,
   * however often it is resumed (it exited 0 and pointed at the judge).
   */
  @Test
  void aResumeThatRanNothingCountsTheStagesOfTheTasksItFoundDone(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path d) throws Exception {
    var plan = stagesPlan(d);
    java.nio.file.Path a = summary(d, "dom__a", "{\"modes\": {\"agg\": {\"stages\": [{\"fell_back\": true},"
        + " {\"fell_back\": true}]}}}");
    summary(d, "dom__b", "{\"modes\": {\"agg\": {\"stages\": [{\"fell_back\": true}]}}}");
    java.util.Map<String, Object> record = record("dom/a", "skipped", "dom/b", "skipped");
    var st = dev.h2beam.pipelines.sweep.SweepCommand.stages(plan, record);
    org.junit.jupiter.api.Assertions.assertEquals(new dev.h2beam.pipelines.sweep.SweepCommand.Stages(3, 3, 0, "", 2,
        a, 0, 0, "", true), st);
    org.junit.jupiter.api.Assertions.assertEquals(3, dev.h2beam.pipelines.sweep.SweepCommand.exitCode(0, st));
    String all = String.join("\n", st.lines());
    assertTrue(all.startsWith("stages: 3 of 3 improver stages of the 2 task(s) resumed (as the run that did them left"
        + " them) fell back"), all);
    assertTrue(all.contains("warning: every improver stage fell back"), all);
  }

  /** A sweep record of one domain whose tasks have these statuses: task, status, task, status, ... */
  private static java.util.Map<String, Object> record(String... taskAndStatus) {
    java.util.List<Object> tasks = new java.util.ArrayList<>();
    for (int i = 0; i < taskAndStatus.length; i += 2) {
      tasks.add(java.util.Map.of("task", taskAndStatus[i], "status", taskAndStatus[i + 1]));
    }
    return java.util.Map.of("domains", java.util.List.of(java.util.Map.of("tasks", tasks)));
  }

  /** A demo sweep's plan under {@code d}, whose summaries {@link #summary} writes. */
  private static dev.h2beam.pipelines.sweep.Sweep.Plan stagesPlan(java.nio.file.Path d) {
    return dev.h2beam.pipelines.sweep.Sweep.plan(sweepOptions("--bench=demo", "--benchRoot=" + d.resolve("b"),
        "--modes=both"), java.time.Instant.EPOCH);
  }

  /** Writes a task's summary.json in that plan's namespace and returns its path. */
  private static java.nio.file.Path summary(java.nio.file.Path d, String slug, String json) throws java.io.IOException {
    java.nio.file.Path dir = java.nio.file.Files.createDirectories(d.resolve("b/runs/demo-oc-agg1").resolve(slug));
    return java.nio.file.Files.writeString(dir.resolve("summary.json"), json);
  }

  /**
   * dogA #5: when every stage fell back because its edits were refused (the endpoint answered every call), the end
   * says so with the first refusal, and points at the improver role in --config only for sessions that failed.
   */
  @Test
  void refusedEditsAreToldApartFromFailedSessions(@org.junit.jupiter.api.io.TempDir java.nio.file.Path d)
      throws Exception {
    var plan = stagesPlan(d);
    java.nio.file.Path a = summary(d, "dom__a", "{\"modes\": {\"agg\": {\"stages\": [{\"fell_back\": true, \"refused\":"
        + " true, \"error\": \"files outside the editable surface: [.env]\"}, {\"fell_back\": true, \"refused\":"
        + " true, \"error\": \"guardrails.md does not parse\"}]}}}");
    java.util.Map<String, Object> record = record("dom/a", "ok");
    var st = dev.h2beam.pipelines.sweep.SweepCommand.stages(plan, record);
    org.junit.jupiter.api.Assertions.assertEquals(new dev.h2beam.pipelines.sweep.SweepCommand.Stages(2, 2, 2,
        "files outside the editable surface: [.env]", 1, a), st);
    String all = String.join("\n", st.lines());
    assertTrue(all.contains("refused: 2 stage(s)' edits were refused: files outside the editable surface: [.env]"),
        all);
    assertTrue(all.contains("warning: every improver stage fell back, so no harness was improved: the improver"
        + " answered, and its edits were refused"), all);
    assertTrue(!all.contains("--config"), "a refused edit is no matter of the endpoint: " + all);

    String failed = String.join("\n", new dev.h2beam.pipelines.sweep.SweepCommand.Stages(3, 3, 0, "", 1, a).lines());
    assertTrue(failed.contains("(their sessions failed;"), failed);
    assertTrue(failed.contains("check the improver role in --config"), failed);
    assertTrue(!failed.contains("refused"), failed);
    String mixed = String.join("\n", new dev.h2beam.pipelines.sweep.SweepCommand.Stages(3, 3, 1, "why", 1, a)
        .lines());
    assertTrue(mixed.contains("(2 because their sessions failed, 1 because their edits were refused;"), mixed);
    assertTrue(mixed.contains("check the improver role in --config"), mixed);
    assertTrue(mixed.contains("the other 1 stage(s)' edits were refused"), mixed);
    org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(),
        new dev.h2beam.pipelines.sweep.SweepCommand.Stages(3, 0, 0, "", 1, null).lines());
  }

  /**
   * dogF #4: a gated method that failed in every step (it threw, returned null) looked like a cautious one: "0 failed"
   * and nothing said. The end counts the gated steps whose method failed, with the first error and its task.
   */
  @Test
  void theGatedStepsWhoseMethodFailedAreCounted(@org.junit.jupiter.api.io.TempDir java.nio.file.Path d)
      throws Exception {
    var plan = stagesPlan(d);
    summary(d, "dom__a", "{\"modes\": {\"gat\": {\"stages\": [], \"gate\": {\"steps\": [{\"method_errors\":"
        + " [\"propose(g1) failed: IllegalStateException: boom\"]}, {\"method_errors\": [\"propose(g2) returned"
        + " null\"]}, {}]}}}}");
    java.util.Map<String, Object> record = record("dom/a", "ok");
    var st = dev.h2beam.pipelines.sweep.SweepCommand.stages(plan, record);
    org.junit.jupiter.api.Assertions.assertEquals(3, st.gatedSteps());
    org.junit.jupiter.api.Assertions.assertEquals(2, st.methodFailed());
    String all = String.join("\n", st.lines());
    assertTrue(all.startsWith("methods: in 2 of 3 gated steps of the 1 task(s) run now the --method failed"), all);
    assertTrue(all.endsWith("e.g. dom/a: propose(g1) failed: IllegalStateException: boom"), all);
    String every = String.join("\n", new dev.h2beam.pipelines.sweep.SweepCommand.Stages(0, 0, 0, "", 1, null, 3, 3,
        "dom/a: propose(g1) returned null").lines());
    assertTrue(every.contains("warning: the gated method failed in every step"), every);
    var sc = new dev.h2beam.pipelines.sweep.SweepCommand.Stages(0, 0, 0, "", 1, null, 3, 3, "x");
    org.junit.jupiter.api.Assertions.assertEquals(3, dev.h2beam.pipelines.sweep.SweepCommand.exitCode(0, sc));
    org.junit.jupiter.api.Assertions.assertEquals(2, dev.h2beam.pipelines.sweep.SweepCommand.exitCode(1, sc));
    org.junit.jupiter.api.Assertions.assertEquals(0, dev.h2beam.pipelines.sweep.SweepCommand.exitCode(0,
        new dev.h2beam.pipelines.sweep.SweepCommand.Stages(3, 2, 0, "", 1, null, 3, 2, "x")));
    org.junit.jupiter.api.Assertions.assertEquals(0, dev.h2beam.pipelines.sweep.SweepCommand.exitCode(0,
        new dev.h2beam.pipelines.sweep.SweepCommand.Stages(0, 0, 0, "", 0, null)), "a resume ran no stage");
  }

  /**
   * A sweep refused by another's lock prints the refusal alone: its opening line ("sweep ...: N task(s)") came first,
   * as if it had started, and only then the lock's error.
   */
  @Test
  void aSweepRefusedByAnothersLockPrintsNoOpeningLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path d)
      throws Exception {
    java.nio.file.Path runs = java.nio.file.Files.createDirectories(d.resolve("b/runs"));
    Process other = new ProcessBuilder("sleep", "60").start();
    java.io.PrintStream was = System.out;
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try {
      java.nio.file.Files.writeString(runs.resolve(dev.h2beam.adapters.files.WriterLock.FILE), "{\"what\": \"sweep of"
          + " demo-oc-agg1\", \"host\": \"" + dev.h2beam.adapters.files.WriterLock.host() + "\", \"pid\": "
          + other.pid() + ", \"started_at\": \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
      System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
      UsageError e = assertThrows(UsageError.class, () -> new dev.h2beam.pipelines.sweep.SweepCommand().run(
          new String[] {"--bench=demo", "--benchRoot=" + d.resolve("b"), "--k=1", "--lockWaitSeconds=0"}));
      assertTrue(e.getMessage().contains("pid " + other.pid()), e.getMessage());
    } finally {
      System.setOut(was);
      other.destroyForcibly().waitFor();
    }
    org.junit.jupiter.api.Assertions.assertEquals("", out.toString(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static dev.h2beam.pipelines.sweep.SweepOptions sweepOptions(String... args) {
    return org.apache.beam.sdk.options.PipelineOptionsFactory.fromArgs(args)
        .as(dev.h2beam.pipelines.sweep.SweepOptions.class);
  }

  @Test
  void aDryRunPrintsTheStreamAndRunsNothing(@TempDir Path out) throws Exception {
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    java.io.PrintStream old = System.out;
    System.setOut(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      org.junit.jupiter.api.Assertions.assertEquals(0, new dev.h2beam.pipelines.sweep.SweepCommand().run(new String[] {
          "--bench=demo", "--benchRoot=" + out, "--k=2", "--modes=parallel,sequential", "--dryRun=true"}));
    } finally {
      System.setOut(old);
    }
    String text = buf.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(text.contains("#   namespace[parallel]: demo-oc-agg2") && text.contains("accounting"), text);
    assertTrue(text.contains("# 2 tasks over 1 domain ("), text);
    assertFalse(Files.exists(out.resolve("executions")), "nothing ran");
    assertFalse(Files.exists(out.resolve("runs/demo-oc-agg2/config.json")), "no identity written");
  }

  /**
   * The demo prints its tasks' lines in stream order (they finish in no set order), and, since it reports right after
   * judging, no "next: report" line; its resume prints the same lines from the client's replay.
   */
  @Test
  void theDemoPrintsItsTasksInStreamOrderAndNoNextStepItTakesItself(@TempDir Path out) throws Exception {
    java.util.Set<Path> records = new java.util.HashSet<>(); // the sweep records written so far
    for (String status : List.of("ok     ", "skipped")) { // fresh, then resumed
      String text = dryRun("--output=" + out.resolve("d"), "--k=1", "--sessionRetryWaitSeconds=0");
      int first = text.indexOf("  [accounting] 1/2 " + status + "      ledger-1\n");
      int second = text.indexOf("  [accounting] 2/2 " + status + "      ledger-2\n");
      assertTrue(first >= 0 && second > first, text);
      assertTrue(text.contains("HTML report: "), text);
      assertFalse(text.contains("next:   ./h2beam report"), text);
      // the same lines as a client shows them from the record when the writer ran on a remote worker
      // this run's record: the one not there before (two runs in one second are told apart by a suffix)
      Path record;
      try (java.util.stream.Stream<Path> all = Files.list(out.resolve("d/runs/_sweeps"))) {
        record = all.filter(r -> !records.contains(r)).findFirst().orElseThrow();
      }
      records.add(record);
      List<String> fromRecord = dev.h2beam.pipelines.sweep.Sweep.taskLines(dev.h2beam.pipelines.sweep.Sweep.plan(
          sweepOptions("--bench=demo", "--benchRoot=" + out.resolve("d"), "--k=1"), java.time.Instant.EPOCH),
          dev.h2beam.adapters.files.Json.readMap(record));
      assertEquals(List.of("  [accounting] 1/2 " + status + "      ledger-1", "  [accounting] 2/2 " + status
          + "      ledger-2"), fromRecord);
    }
  }

  /** What {@code h2beam demo args} printed to stdout, with its exit code. */
  static String dryRun(String... args) throws Exception {
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    java.io.PrintStream old = System.out;
    System.setOut(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      org.junit.jupiter.api.Assertions.assertEquals(0, new DemoCommand().run(args));
    } finally {
      System.setOut(old);
    }
    return buf.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void aDryRunPrintsTheBudgetItWouldSpendAndWritesNothing(@TempDir Path out) throws Exception {
    Path d = out.resolve("d");
    String text = dryRun("--output=" + d, "--k=2", "--dryRun=true");
    assertTrue(text.contains("# budget per task and mode: R = 4k = 8 rollouts (2 base rollout(s) shared by the"
        + " modes), P = 3k = 6 improver sessions, 1 selector session and at most 1 reflector session\n"
        + "# this stream, 2 task(s) x 2 mode(s): the budget ledgers' totals R = 32, P = 24\n"
        + "# overall at most: 28 rollouts executed, 32 sessions (24 improver, 4 selector, up to 4 reflector); tasks"
        + " resumed from an earlier run spend nothing\n"
        + "# cost: $0 (no model endpoint: the benchmark's own scripted sessions)\n"), text);
    assertFalse(Files.exists(d), "a dry run writes nothing, not even base/ and sources/ or an empty folder");
  }

  /** The gated mode keeps its last checkpoint: the budget counts no selector session for it (dogAK F5). */
  @Test
  void aDryRunCountsNoSelectorSessionForTheGatedMode(@TempDir Path out) throws Exception {
    String text = dryRun("--output=" + out.resolve("d"), "--k=2", "--dryRun=true",
        "--modes=parallel,sequential,gated");
    assertTrue(text.contains("P = 3k = 6 improver sessions, 1 selector session (none in the gated mode) and at most 1"
        + " reflector session\n# this stream, 2 task(s) x 3 mode(s)"), text);
    assertTrue(text.contains("# overall at most: 40 rollouts executed, 46 sessions (36 improver, 4 selector, up to 6"
        + " reflector)"), text);
    text = dryRun("--output=" + out.resolve("g"), "--k=2", "--dryRun=true", "--modes=gated");
    assertTrue(text.contains("improver sessions, no selector session (the gated mode selects none) and at most 1"),
        text);
    assertTrue(text.contains("16 rollouts executed, 14 sessions (12 improver, 0 selector, up to 2 reflector)"), text);
  }

  /** With --retryFailedSessions the budget no longer says that every resumed task is free (dogAF #6). */
  @Test
  void aDryRunWithRetryFailedSessionsSaysWhatItWouldRunAgain(@TempDir Path out) throws Exception {
    Path d = out.resolve("d");
    String text = dryRun("--output=" + d, "--k=2", "--dryRun=true", "--retryFailedSessions");
    assertTrue(text.contains("tasks resumed from an earlier run spend nothing, but those --retryFailedSessions runs"
        + " again (named below) spend what their failed sessions, and what depends on them, cost anew\n"), text);
    assertTrue(text.contains("# --retryFailedSessions: no finished task records an improver or reflector session"
        + " that failed; nothing to run again\n"), text);
    assertFalse(Files.exists(d));
  }

  @Test
  void aRefusedOptionWritesNothing(@TempDir Path out) {
    Path d = out.resolve("d");
    UsageError domains = assertThrows(UsageError.class, () -> DemoRuns.demo(d, "--onlyDomains=nope"));
    assertTrue(domains.getMessage().contains("--onlyDomains names unknown domain(s) [nope]"), domains.getMessage());
    // with --dryRun a k that slipped through would only print, never run 17-fold budgets
    UsageError k = assertThrows(UsageError.class, () -> DemoRuns.demo(d, "--k=17", "--dryRun=true"));
    assertEquals("--k=17 is above the largest k, 16: each task and mode would spend R = 4k = 68 rollouts and P = 3k"
        + " = 51 improver sessions; use --k=1..16", k.getMessage());
    // dogAG A2: the demo's rollouts are its own script; an --executor it would drop is refused, naming it
    UsageError executor = assertThrows(UsageError.class, () -> DemoRuns.demo(d, "--executor=codex"));
    assertTrue(executor.getMessage().startsWith("--executor=codex: --bench=demo takes no executor"),
        executor.getMessage());
    assertFalse(Files.exists(d), "nothing written: not base/, sources/, runs/ or library/");
  }

  @Test
  void anEmptyOutputIsRefusedAndNothingIsWrittenInTheCurrentFolder() {
    UsageError e = assertThrows(UsageError.class, () -> new DemoCommand().run(new String[] {"--output=",
        "--dryRun=true"}));
    assertTrue(e.getMessage().startsWith("--output= is empty, which would mean the current folder"), e.getMessage());
    assertFalse(Files.exists(Path.of("base")) || Files.exists(Path.of("sources")), "nothing written here");
  }
}
