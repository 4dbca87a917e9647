package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.at;
import static dev.h2beam.demo.DemoRuns.demo;
import static dev.h2beam.demo.DemoRuns.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.report.ReportCommand;
import dev.h2beam.transforms.proposer.Journal;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gated mode (Reef's way) on the demo: beside the other two on both runners with the same files, at the same
 * budget; a policy that rejects everything leaves the base as the final and feeds every rejection to the next
 * proposal; {@code pareto} with an episode that could not run; a kill -9 mid-round resumed without spending twice.
 */
class GatedModeTest {
  static final String THREE = "--modes=parallel,sequential,gated";

  @Test
  void threeModesOnBothRunnersWriteTheSameFilesAtTheSameBudget(@TempDir Path direct, @TempDir Path flink)
      throws Exception {
    assertEquals(0, demo(direct, THREE));
    List<String> onFlink = new ArrayList<>(Arrays.asList(FlinkDemoTest.FLINK));
    onFlink.add(THREE);
    assertEquals(0, demo(flink, onFlink.toArray(new String[0])));
    FlinkDemoTest.assertSameFiles(direct, flink);
    for (String task : List.of("ledger-1", "ledger-2")) {
      Map<String, Object> s = summary(direct, 2, task);
      for (String mode : List.of("agg", "seq", "gat")) {
        Map<String, Object> ledger = at(s, "modes", mode, "ledger");
        assertEquals(8, ledger.get("R"), mode + " " + ledger);
        assertEquals(6, ledger.get("P"), mode + " " + ledger);
      }
      Map<String, Object> gate = at(s, "modes", "gat", "gate");
      assertEquals("g1", gate.get("final_harness"), gate.toString());
      assertEquals("improver", gate.get("method"));
      assertEquals(List.of("base1", "base2", "g1", "r2", "r3", "r4", "r5", "r6"),
          at(s, "modes", "gat", "ledger").get("rollouts"));
      assertEquals(Boolean.TRUE, at(s, "selections", "gat").get("ok"));
    }
    String judged = Files.readString(direct.resolve("runs/demo-oc-agg2/judged.json"));
    assertTrue(judged.contains("\"mode\": \"gat\""), judged);
    // the gate's settings are part of the run identity: another policy is another experiment
    String id = Files.readString(direct.resolve("runs/demo-oc-agg2/config.json"));
    assertTrue(id.contains("\"policy\": \"score_comparison\""), id);
    assertEquals("DirectRunner", Json.readTree(id).at("/timing/runner").asText(), id);
    assertEquals("FlinkRunner", Json.readTree(Files.readString(flink.resolve("runs/demo-oc-agg2/config.json")))
        .at("/timing/runner").asText());
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
        () -> demo(direct, THREE, "--policy=always"));
    assertTrue(e.getMessage().contains("records a different run identity (gate:"), e.getMessage());
  }

  /**
   * A mode added to a finished namespace re-runs its tasks, which replays the modes already done from the caches:
   * their timing files keep the time of the run that did the work, or the vector's mode wall time would be a replay's.
   */
  @Test
  void aModeAddedLaterKeepsTheTimingOfTheModesItReplays(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path timing = out.resolve("runs/_audit/demo-oc-agg1/timing");
    Map<String, String> before = new java.util.TreeMap<>();
    for (String mode : List.of("agg", "seq")) {
      for (String task : List.of("ledger-1", "ledger-2")) {
        before.put(mode + "/" + task, Files.readString(timing.resolve(mode).resolve(task + ".json")));
      }
    }
    Thread.sleep(20); // a rewritten file would hold other instants

    assertEquals(0, demo(out, "--k=1", THREE));

    for (Map.Entry<String, String> e : before.entrySet()) {
      assertEquals(e.getValue(), Files.readString(timing.resolve(e.getKey() + ".json")), e.getKey() + " replayed");
    }
    for (String task : List.of("ledger-1", "ledger-2")) {
      assertTrue(Files.isRegularFile(timing.resolve("gat").resolve(task + ".json")), "the new mode's time");
    }
  }

  /**
   * A gated mode an older h2beam ran in the namespace read checks nobody recorded: the resume that records their
   * digests now marks them unverified, so the report does not take today's checks as that work's.
   */
  @Test
  void checksRecordedAfterAnOlderGatedRunAreMarkedUnverified(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1", THREE));
    Path config = out.resolve("runs/demo-oc-agg1/config.json");
    Map<String, Object> id = Json.readMap(config);
    @SuppressWarnings("unchecked")
    Map<String, Object> digests = (Map<String, Object>) id.get("input_digests");
    assertTrue(digests.containsKey("checks"), digests.toString());
    Object checks = digests.remove("checks"); // as an h2beam before the checks' digest left it
    Files.writeString(config, Json.pretty(id) + "\n");

    assertEquals(0, demo(out, "--k=1", THREE));

    Map<String, Object> now = Json.readMap(config);
    assertEquals(checks, ((Map<?, ?>) now.get("input_digests")).get("checks"));
    assertEquals(List.of("input_digests.checks"), now.get("unverified"));
  }

  @Test
  void aPolicyThatRejectsEverythingKeepsTheBaseAndEveryRejectionReachesTheNextProposal(@TempDir Path out)
      throws Exception {
    assertEquals(0, demo(out, "--modes=gated", "--policy=never"));
    for (String task : List.of("ledger-1", "ledger-2")) {
      Map<String, Object> s = summary(out, 2, task);
      Map<String, Object> gate = at(s, "modes", "gat", "gate");
      assertEquals("base", gate.get("final_harness"), gate.toString());
      assertEquals(0, gate.get("selected"));
      assertEquals(6, gate.get("rejected"));
      Map<String, Object> ledger = at(s, "modes", "gat", "ledger");
      assertEquals(8, ledger.get("R"));
      assertEquals(6, ledger.get("P"));
      Map<String, Object> sel = at(s, "selections", "gat");
      assertEquals(Boolean.TRUE, sel.get("ok"), sel.toString());
      assertEquals(Boolean.TRUE, sel.get("chosen_is_base"), sel.toString());
      assertEquals(Boolean.TRUE, sel.get("chosen_tree_is_base"), sel.toString());
      assertTrue(String.valueOf(sel.get("chosen_label")).startsWith("base"), sel.toString());
      @SuppressWarnings("unchecked")
      Map<String, Object> first = (Map<String, Object>) ((List<Object>) gate.get("steps")).get(0);
      Map<String, Object> decision = at(first, "decision");
      assertEquals("never", decision.get("policy"));
      assertEquals("test-1", decision.get("policy_version"));
      assertEquals(List.of(List.of(1.0, 0.0), List.of(1.0, 0.0)), decision.get("pairs"));
    }
    // the second step's prompt carries the first step's refused mutation and the verdict's reason, fenced
    Path audit = out.resolve("runs/_audit/demo-oc-agg2");
    List<Path> step1 = missions(audit, "g1.a1.");
    List<Path> step2 = missions(audit, "g2.a1.");
    assertEquals(2, step2.size(), "one per task");
    for (Path m : step1) assertFalse(Files.readString(m).contains("refused mutations of step"), m.toString());
    for (Path m : step2) {
      String text = Files.readString(m);
      assertTrue(text.contains("<<<BEGIN UNTRUSTED refused mutations of step 1"), text);
      assertTrue(text.contains("update scripts/summarize.sh"), text);
      assertTrue(text.contains("this policy rejects every candidate"), text);
    }
  }

  @Test
  void twoRunsRootsGatedModesAreComparedAsTwoMethodsOnTheFilesTheirSweepsWrote(@TempDir Path dir) throws Exception {
    Path kept = dir.resolve("kept");
    Path never = dir.resolve("never");
    assertEquals(0, demo(kept, "--modes=gated", "--k=1"));
    assertEquals(0, demo(never, "--modes=gated", "--k=1", "--policy=never"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = new ReportCommand().run(new String[] {"--namespaces=" + kept.resolve("runs/demo-oc-agg1"),
        "--versus=" + never.resolve("runs/demo-oc-agg1"), "--modes=gated", "--output=" + dir.resolve("report")},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    assertTrue(text.contains("\nMethods at k=1: gated[improver, score_comparison] vs gated[improver, never]"), text);
    for (String m : List.of("M1", "M2", "M3", "M4", "M5")) {
      assertTrue(Pattern.compile("(?m)^  " + m + " .*: holds$").matcher(text).find(), m + " in " + text);
    }
    // a gate that kept the fixed script beats one that kept the broken base, on both tasks of the one seed
    assertTrue(text.contains("  score: mean paired difference +50.00 pt (gated[improver, score_comparison] -"
        + " gated[improver, never]) | 1 replicate, 2 task pairs"), text);
    assertTrue(text.contains("inconclusive: 1 replicate; paired-difference/v1 needs at least 3"), text);
  }

  @Test
  void paretoRejectsACandidateWhoseEpisodeCouldNotRun(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--modes=gated", "--k=1", "--method=test-break-then-fix", "--policy=pareto"));
    Map<String, Object> s = summary(out, 1, "ledger-1");
    Map<String, Object> gate = at(s, "modes", "gat", "gate");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> steps = (List<Map<String, Object>>) gate.get("steps");
    Map<String, Object> broken = at(steps.get(0), "decision");
    assertEquals("reject", broken.get("outcome"));
    assertEquals("Pareto failed: a pair regressed", broken.get("reason"));
    assertEquals(List.of(Arrays.asList(null, 0.0)), broken.get("pairs"), "the dead episode has no score");
    Map<String, Object> fixed = at(steps.get(1), "decision");
    assertEquals("select", fixed.get("outcome"));
    assertEquals(List.of(List.of(1.0, 0.0)), fixed.get("pairs"));
    assertEquals("none", steps.get(2).get("proposal"));
    assertEquals("r3", steps.get(2).get("rollout"));
    assertEquals("g2", gate.get("final_harness"));
    Map<String, Object> ledger = at(s, "modes", "gat", "ledger");
    assertEquals(4, ledger.get("R"));
    assertEquals(3, ledger.get("P"));
    assertEquals(List.of("base1", "g1", "g2", "r3"), ledger.get("rollouts"));
  }

  @Test
  void aProposalHoldingAKeyIsRefusedAndTheKeyReachesNoFileAndNoLaterProposal(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--modes=gated", "--k=1", "--method=test-leaky-key"));
    Map<String, Object> gate = at(summary(out, 1, "ledger-1"), "modes", "gat", "gate");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> steps = (List<Map<String, Object>>) gate.get("steps");
    assertEquals("refused", steps.get(0).get("proposal"));
    assertEquals("r1", steps.get(0).get("rollout"), "the step's rollout re-rolled the current harness");
    String reason = String.valueOf(at(steps.get(0), "decision").get("reason"));
    assertTrue(reason.contains("guardrails.md"), reason);
    assertTrue(String.valueOf(steps.get(1).get("notes")).startsWith("saw: (text withheld: it held a credential"),
        steps.get(1).toString());
    assertEquals("base", gate.get("final_harness"));
    try (Stream<Path> s = Files.walk(out)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        assertFalse(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(LeakyKeyMethod.KEY),
            f.toString());
      }
    }
  }

  @Test
  void aSweepKilledMidRoundResumesWithoutSpendingAnythingTwice(@TempDir Path killed, @TempDir Path clean)
      throws Exception {
    List<String> args = List.of("--domains=1", "--tasksPerDomain=2", "--k=1", "--modes=gated",
        "--executorLatencyMs=250", "--sessionLatencyMs=250", "--sessionRetryWaitSeconds=0", "--progress=off");
    Process p = benchProcess(killed, args, killed.resolve("kill.log"));
    // the clean run to compare with, in its own JVM and folder beside the one to be killed: both mostly wait out
    // their latencies, so running them at once costs little more than one
    Process cleanRun = benchProcess(clean, args, clean.resolve("clean.log"));
    Path sessions = null;
    try {
      // wait until the first task's second step has its proposal: the round is under way
      for (int i = 0; i < 2400 && p.isAlive(); i++) {
        sessions = journal(killed, "sessions.jsonl");
        if (sessions != null && Journal.lines(sessions).stream().anyMatch(l -> l.contains("\"g2.a1\""))) break;
        Thread.sleep(25);
      }
      assertTrue(p.isAlive(), "the sweep was still running when it was killed: " + Files.readString(
          killed.resolve("kill.log")));
      // the sweep's JVM first: killed after its children, it could journal a rollout their death failed, which the
      // resume runs again (a failed record is no completed run's); its children are found before, and follow it
      List<ProcessHandle> all = new ArrayList<>(List.of(p.toHandle()));
      all.addAll(p.descendants().toList());
      for (ProcessHandle h : all) h.destroyForcibly();
      p.waitFor();
      int sessionsBefore = Journal.lines(sessions).size();
      assertTrue(sessionsBefore < 2 * 4, "killed before the sweep ended: " + sessionsBefore + " sessions");

      bench(killed, args);
      assertTrue(cleanRun.waitFor(10, java.util.concurrent.TimeUnit.MINUTES), "the clean run ran past 10 minutes");
      assertEquals(0, cleanRun.exitValue(), Files.readString(clean.resolve("clean.log")));
    } finally {
      p.destroyForcibly();
      cleanRun.descendants().forEach(ProcessHandle::destroyForcibly);
      cleanRun.destroyForcibly();
    }
    Path executions = journal(killed, "executions.jsonl");
    assertEquals(Journal.lines(journal(clean, "executions.jsonl")).size(), Journal.lines(executions).size());
    assertEquals(Journal.lines(journal(clean, "sessions.jsonl")).size(), Journal.lines(sessions).size());
    Set<String> runIds = new HashSet<>();
    for (String line : Journal.lines(executions)) {
      assertTrue(runIds.add((String) Json.readMap(line).get("run_id")), "ran twice: " + line);
    }
    Set<String> keys = new HashSet<>();
    for (String line : Journal.lines(sessions)) {
      Map<String, Object> m = Json.readMap(line);
      assertTrue(keys.add(m.get("label") + "/" + m.get("key")), "session ran twice: " + line);
    }
    // the same files: the killed writer's lock, which the resume moved aside as stale, went with the resume's own
    assertEquals(FlinkDemoTest.files(clean), FlinkDemoTest.files(killed));
  }

  /** Starts the bench in a JVM of its own (the launcher's options), its output in {@code log}. */
  private static Process benchProcess(Path out, List<String> args, Path log) throws Exception {
    List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.h2beam.pipelines.Main", "bench",
        "--output=" + out));
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  private static void bench(Path out, List<String> args) throws Exception {
    List<String> all = new ArrayList<>(args);
    all.add("--output=" + out);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit = new BenchCommand().run(all.toArray(new String[0]), new PrintStream(printed, true,
        StandardCharsets.UTF_8));
    assertEquals(0, exit, printed.toString(StandardCharsets.UTF_8));
  }

  /** The run's journal of this name (its writers' parts read together), or null before its audit folder exists. */
  private static Path journal(Path out, String name) throws Exception {
    Path audit = out.resolve("runs/_audit");
    if (!Files.isDirectory(audit)) return null;
    try (Stream<Path> s = Files.list(audit)) {
      return s.filter(Files::isDirectory).map(d -> d.resolve(name)).findFirst().orElse(null);
    }
  }

  private static List<Path> missions(Path audit, String prefix) throws Exception {
    try (Stream<Path> s = Files.list(audit)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix)
          && p.getFileName().toString().endsWith(".mission.md")).sorted().toList();
    }
  }
}
