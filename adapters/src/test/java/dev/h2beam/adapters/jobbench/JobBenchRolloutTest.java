package dev.h2beam.adapters.jobbench;

import static dev.h2beam.adapters.jobbench.JobBenchFixture.LEDGER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RolloutFailed;
import dev.h2beam.adapters.model.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JobBench rollouts with the {@code command} executor (a real shell command as the agent) in harness2's store
 * layout: work products under {@code model_output/<label>}, marker and trajectory under {@code model_traj/<label>};
 * reuse while harness and work products are unchanged, a fresh rollout otherwise, and no marker for a rollout that
 * failed or left nothing.
 */
class JobBenchRolloutTest {
  static final String RUN = "jb-oc-agg2/accountants/task1/base1";
  static final String LABEL = "jb-oc-agg2__accountants__task1__base1";

  @TempDir Path tmp;

  Path store() {
    return tmp.resolve("runs/_executions");
  }

  JobBench bench(String script) throws Exception {
    Path root = tmp.resolve("job-bench-eval");
    if (!Files.isDirectory(root)) JobBenchFixture.write(root);
    return JobBench.open(root, Map.of("executions", store().toString(),
        "executor", JobBenchFixture.commandExecutor(script)), RunConfig.empty(),
        Map.of("PATH", System.getenv("PATH")));
  }

  /**
   * {@code --isolation=namespaces}: the agent works from its workspace as before, and sees nothing of the checkout
   * (the rubrics) nor of the store but its own folder.
   */
  @Test
  void anIsolatedRolloutSeesNeitherTheCheckoutNorOtherRollouts() throws Exception {
    Path root = tmp.resolve("job-bench-eval");
    JobBenchFixture.write(root);
    Files.createDirectories(store().resolve("accountants/task1/model_traj/other"));
    java.util.Map<String, String> settings = Map.of("executions", store().toString(), "isolation", "namespaces",
        "executor", JobBenchFixture.commandExecutor(JobBenchFixture.AGENT + "; ls -A " + root + " > {output}/seen.txt;"
            + " ls -A " + store().resolve("accountants/task1/model_traj") + " >> {output}/seen.txt"));
    java.util.Optional<String> why = dev.h2beam.adapters.exec.Isolation.unavailable();
    if (why.isPresent()) {
      var e = assertThrows(dev.h2beam.adapters.bench.BenchmarkInvalid.class,
          () -> JobBench.open(root, settings, RunConfig.empty(), Map.of("PATH", System.getenv("PATH"))));
      assertTrue(e.problems().toString().contains("cannot isolate a program: " + why.get()), e.problems().toString());
      return;
    }
    JobBench b = JobBench.open(root, settings, RunConfig.empty(), Map.of("PATH", System.getenv("PATH")));
    Rollout r = b.execute(LEDGER, null, RUN);
    assertEquals(JobBenchFixture.LEDGER_INSTRUCTIONS, Files.readString(r.runDir().resolve("received.md")));
    // nothing of the checkout; of the store, the way down to its own folder
    assertEquals(LABEL + "\n", Files.readString(r.runDir().resolve("seen.txt")));
  }

  @Test
  void aRolloutLeavesItsWorkProductsAndMarkerInTheStoreLayout() throws Exception {
    JobBench b = bench(JobBenchFixture.AGENT + "; echo ran >> " + tmp.resolve("ran.log"));
    Rollout r = b.execute(LEDGER, null, RUN);
    Path out = store().resolve("accountants/task1/model_output").resolve(LABEL);
    Path traj = store().resolve("accountants/task1/model_traj").resolve(LABEL);
    assertEquals(out, r.runDir());
    assertFalse(r.reused());
    assertTrue(b.delivered(out));
    assertEquals(JobBenchFixture.LEDGER_INSTRUCTIONS, Files.readString(out.resolve("received.md")));
    assertEquals(List.of("TASK_INSTRUCTIONS.txt", "ledger.csv"),
        Files.readAllLines(out.resolve("inputs.txt")), "the task folder is the agent's source");
    JsonNode mark = Runmark.readMark(traj);
    assertEquals("base", mark.path("harness").asText());
    assertEquals(RUN, mark.path("run_id").asText());
    assertTrue(mark.path("deliverables").has("tables/total.csv"), mark.toString());
    assertTrue(mark.path("executor").asText().startsWith("command:"));
    assertTrue(b.trajectory(out, 50_000).contains("[ACTION] shell:"));
    assertEquals(List.of("inputs.txt", "received.md", "tables/total.csv"),
        List.copyOf(b.deliverableFiles(out).keySet()));
    String text = b.deliverableText(out);
    assertTrue(text.startsWith("=== FILE: inputs.txt ===\n"), text);
    assertTrue(text.contains("=== FILE: tables/total.csv ===\ntotal,7\n"), text);
    assertFalse(Files.exists(tmp.resolve("job-bench-eval/runs")), "nothing is written into the checkout");
  }

  /**
   * A key a JobBench agent got hold of (here from a file; a real one could read h2beam's environment) leaves neither
   * its work products nor its trajectory holding it, plain or base64-encoded, and the marker records the scrubbed
   * products.
   */
  @Test
  void aKeyTheAgentWroteIsTakenOutOfItsWorkProductsAndTrajectory() throws Exception {
    String key = "sk-jobbench-leak-0123456789XYZ";
    Path found = tmp.resolve("found.txt");
    Files.writeString(found, key);
    List<dev.h2beam.adapters.config.EnvKeys.Held> was =
        dev.h2beam.adapters.config.EnvKeys.use(Map.of("H2B_JB_API_KEY", key));
    java.io.PrintStream err = System.err;
    try {
      System.setErr(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
      JobBench b = bench(JobBenchFixture.AGENT + "; cat " + found + " > {output}/leak.txt; base64 < " + found
          + " >> {output}/leak.txt; cat " + found);
      Rollout r = b.execute(LEDGER, null, RUN);
      Path traj = store().resolve("accountants/task1/model_traj").resolve(LABEL);
      String encoded = java.util.Base64.getEncoder()
          .encodeToString(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      for (Path dir : List.of(r.runDir(), traj)) {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
          for (Path f : files.filter(Files::isRegularFile).toList()) {
            String text = Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1);
            assertFalse(text.contains(key) || text.contains(encoded), f.toString());
          }
        }
      }
      assertEquals("[redacted key][redacted key]\n", Files.readString(r.runDir().resolve("leak.txt")));
      assertTrue(b.artifactsIntact(r.runDir()), "the marker records the scrubbed work products");
    } finally {
      System.setErr(err);
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
  }

  @Test
  void aFinishedRolloutIsReusedWithItsRecordedSpend() throws Exception {
    JobBench b = bench(JobBenchFixture.AGENT + "; echo ran >> " + tmp.resolve("ran.log"));
    Rollout first = b.execute(LEDGER, null, RUN);
    Rollout again = b.execute(LEDGER, null, RUN);
    assertTrue(again.reused());
    assertEquals(first.wallS(), again.wallS());
    assertEquals(first.costUsd(), again.costUsd());
    assertEquals(first.costKnown(), again.costKnown());
    assertEquals(first.tokens(), again.tokens());
    assertTrue(b.artifactsIntact(again.runDir()));
    assertEquals(1, Files.readAllLines(tmp.resolve("ran.log")).size(), "the agent ran once");
  }

  @Test
  void aChangedWorkProductOrHarnessIsRolledAgainAndItsJudgeDetailsGo() throws Exception {
    JobBench b = bench(JobBenchFixture.AGENT);
    Rollout first = b.execute(LEDGER, null, RUN);
    Path details = JobBenchLayout.judgeDir(store(), LEDGER, LABEL).resolve("judge.json");
    Files.createDirectories(details.getParent());
    Files.writeString(details, "{}");
    Files.writeString(first.runDir().resolve("extra.md"), "added after the rollout\n");
    assertFalse(b.artifactsIntact(first.runDir()));
    Rollout second = b.execute(LEDGER, null, RUN);
    assertFalse(second.reused());
    assertFalse(Files.exists(second.runDir().resolve("extra.md")));
    assertFalse(Files.exists(details), "details of the replaced rollout are wiped");
    Path edited = tmp.resolve("edited");
    Files.createDirectories(edited);
    Files.writeString(edited.resolve("systemprompt.md"), "Work carefully.\n");
    assertFalse(b.execute(LEDGER, edited, RUN).reused());
    assertTrue(b.execute(LEDGER, edited, RUN).reused());
  }

  @Test
  void aRolloutWithoutOutputIsLeftUnmarkedAndRolledAgainOnResume() throws Exception {
    JobBench silent = bench("echo thinking...");
    IOException e = assertThrows(IOException.class, () -> silent.execute(LEDGER, null, RUN));
    assertTrue(e.getMessage().contains("left no file"), e.getMessage());
    Path traj = JobBenchLayout.trajectory(store(), LEDGER, LABEL);
    assertFalse(Files.exists(traj.resolve(Runmark.MARKER)));
    assertFalse(silent.delivered(JobBenchLayout.output(store(), LEDGER, LABEL)));
    Rollout resumed = bench(JobBenchFixture.AGENT).execute(LEDGER, null, RUN);
    assertFalse(resumed.reused());
    assertTrue(Files.exists(traj.resolve(Runmark.MARKER)));
  }

  @Test
  void aFailedRolloutIsLeftUnmarkedWithItsCause() throws Exception {
    JobBench b = bench("echo partial > {output}/draft.md; echo 'the agent broke' >&2; exit 3");
    IOException e = assertThrows(IOException.class, () -> b.execute(LEDGER, null, RUN));
    assertTrue(e.getMessage().contains("exit") && e.getMessage().contains("the agent broke"), e.getMessage());
    assertFalse(Files.exists(JobBenchLayout.trajectory(store(), LEDGER, LABEL).resolve(Runmark.MARKER)));
    // given no endpoint, what the agent spent is out of sight: its tokens are not known
    assertEquals(Tokens.UNKNOWN, assertInstanceOf(RolloutFailed.class, e).tokens());
  }

  /** A failed rollout carries the tokens its executor counted: through its relay, which saw no call, none. */
  @Test
  void aFailedRolloutCarriesTheTokensItsRelayCounted() throws Exception {
    Path root = tmp.resolve("job-bench-eval");
    JobBenchFixture.write(root);
    RunConfig config = RunConfig.parse("endpoints:\n  local: {base_url: \"" + ScriptedModelServer.unusedBaseUrl()
        + "\", max_attempts: 1, price_per_mtok: {input: 1.0, output: 2.0}}\nroles:\n"
        + "  executor: {endpoint: local, model: m}\n", "test.yaml");
    for (String script : List.of("echo 'the agent broke' >&2; exit 3", "echo thinking...")) {
      JobBench b = JobBench.open(root, Map.of("executions", store().toString(),
          "executor", JobBenchFixture.commandExecutor(script)), config, Map.of("PATH", System.getenv("PATH")));
      RolloutFailed f = assertThrows(RolloutFailed.class, () -> b.execute(LEDGER, null, RUN));
      assertEquals(Tokens.NONE, f.tokens(), f.getMessage());
      assertTrue(f.costKnown(), f.getMessage());
    }
  }

  @Test
  void runIdsBecomeOneFolderName() throws Exception {
    JobBench b = bench(JobBenchFixture.AGENT);
    assertThrows(IllegalArgumentException.class, () -> b.execute(LEDGER, null, ".."));
    Rollout r = b.execute(LEDGER, null, "../../elsewhere");
    assertEquals("..__..__elsewhere", r.runDir().getFileName().toString());
    assertTrue(r.runDir().startsWith(store().resolve("accountants/task1/model_output")));
    assertThrows(IllegalArgumentException.class, () -> b.execute("accountants/notes", null, RUN));
  }
}
