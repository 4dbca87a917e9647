package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.agents.AgentModel;
import dev.h2beam.adapters.files.FilesHolding;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.sweep.Sweep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example run by the real agent CLIs, offline against a scripted model on loopback: every rollout is an
 * OpenCode (or Codex) run that reads the task's CSV and writes its answer with the CLI's own tools, and every
 * improver, selector and reflector session is an agent run that reads MISSION.md and the evidence and edits the
 * harness in place. The improved harness makes the agent keep the sign of each amount, so the finals pass where the
 * base rollouts fail; the judge and the report run on the results. The CLIs are installed by the build (they are
 * required: a missing binary fails these tests).
 */
class FolderAgentSweepTest {
  static ScriptedModelServer server;

  @BeforeAll
  static void start() throws Exception {
    server = ScriptedModelServer.start(new SignedSumsModel());
    AgentModel.serve(server, new SignedSumsAgent());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Path config(Path dir) throws Exception {
    Path f = dir.resolve("config.yaml");
    Files.writeString(f, "endpoints:\n  local: {base_url: \"" + server.baseUrl() + "\", api_key_env: \""
        + FolderSweepTest.KEY_VAR + "\", max_concurrency: 4, timeout_seconds: 300, max_attempts: 2,"
        + " price_per_mtok: {input: 1.0, output: 2.0}}\n"
        + "roles:\n  executor: {endpoint: local, model: \"exec-model\"}\n  improver: {endpoint: local, model: \"imp\"}\n"
        + "  selector: {endpoint: local, model: \"sel\"}\n  reflector: {endpoint: local, model: \"sel\"}\n");
    return f;
  }

  /** Sweeps the ledgers domain (its first {@code tasks} tasks) at k in the given modes, then judges and reports. */
  void sweepJudgeAndCheck(Path tmp, String agent, String substrate, int k, int tasks, String modes, String... extra)
      throws Exception {
    Path runs = tmp.resolve("runs");
    int nModes = modes.split(",").length;
    List<String> args = new java.util.ArrayList<>(List.of("--onlyDomains=ledgers", "--maxTasks=" + tasks,
        "--executor=" + agent, "--channel=" + agent, "--substrate=" + substrate));
    args.addAll(List.of(extra));
    Map<String, Object> record = FolderSweepTest.sweepAt(runs, config(tmp), k, modes, args.toArray(new String[0]));
    assertEquals(tasks, Sweep.doneFailed(record)[0], record.toString());
    Path ns = runs.resolve("signed_sums-" + substrate + "-agg" + k);
    JsonNode id = Json.readTree(ns.resolve("config.json"));
    assertTrue(id.path("executor").asText().contains(agent + ":" + server.baseUrl()), id.toString());
    assertTrue(id.path("improver").asText().startsWith(agent + ":"), id.toString());

    // the agents edited the harness through their own tools: the adopted harness keeps the sign
    JsonNode summary = Json.readTree(ns.resolve("ledgers__april/summary.json"));
    assertTrue(summary.at("/modes/agg/ledger/rollout_usd").asDouble() > 0, summary.toString());
    String judged = FolderSweepTest.judge(ns);
    assertTrue(judged.contains(nModes * tasks + " graded"), judged);
    int passed = 0;
    for (JsonNode r : Json.readTree(ns.resolve("judged.json"))) passed += r.path("n_passed").asInt();
    assertEquals(nModes * tasks, passed, Files.readString(ns.resolve("judged.json")));
    FolderSweepTest.judge(ns, "--bases=true");
    assertTrue(Files.readString(ns.resolve("base_judged.json")).contains("\"n_passed\": 0"));
    String report = FolderSweepTest.report(ns);
    for (String mode : modes.split(",")) assertTrue(report.contains(mode), report);

    // the rollouts ran in their own workspaces, rendered in the shared grammar
    try (Stream<Path> s = Files.walk(runs.resolve("_executions"))) {
      Path trajectory = s.filter(p -> p.getFileName().toString().equals("trajectory.md")).findFirst().orElseThrow();
      assertTrue(Files.readString(trajectory).contains("[ACTION]"), Files.readString(trajectory));
    }
    // each session's model calls, as its relay saw them, are in its audit entry (its own folder was scratch); the
    // tokens the relay read from the replies are the ones the CLI itself reported
    int sessions = FolderSweepTest.sessionCallsAddUp(runs);
    assertTrue(sessions >= 3 * k, "sessions audited: " + sessions);
    // each rollout's calls, in its run folder, add up to the tokens the CLI reported for it
    assertTrue(FolderSweepTest.rolloutCallsAddUp(runs) >= tasks * 4 * k, "rollouts with their calls");
    String secret = System.getenv(FolderSweepTest.KEY_VAR);
    assertEquals(List.of(), FilesHolding.containing(tmp, secret));
  }

  /**
   * k = 2, the parallel mode, on one task: every role an agent plays (executor, INV and DOM improver, composition,
   * a selector choosing between two finals, reflector) in 16 OpenCode runs. OpenCode costs about 10 CPU-seconds per
   * run, almost all start-up (BENCHMARKS.md), and the whole test command must stay within its time on two cores;
   * both modes at once were 30 runs and 3 to 4 minutes. Codex below runs both modes on the same channel code.
   */
  @Test
  void openCodeRunsTheExampleAndImprovesIt(@TempDir Path tmp) throws Exception {
    sweepJudgeAndCheck(tmp, "opencode", "oc", 2, 1, "parallel");
  }

  /**
   * Both modes, both tasks of the domain: the second task's improvers read the first one's lesson. Every rollout and
   * session isolated ({@code --isolation=namespaces}) where this machine can, so the whole isolated path runs.
   */
  @Test
  void codexRunsTheExampleAndImprovesIt(@TempDir Path tmp) throws Exception {
    boolean isolated = dev.h2beam.adapters.exec.Isolation.unavailable().isEmpty();
    sweepJudgeAndCheck(tmp, "codex", "cx", 2, 2, "parallel,sequential",
        isolated ? new String[] {"--isolation=namespaces"} : new String[0]);
    JsonNode id = Json.readTree(tmp.resolve("runs/signed_sums-cx-agg2/config.json"));
    assertEquals(isolated ? "namespaces" : "", id.path("isolation").asText(), id.toString());
  }
}
