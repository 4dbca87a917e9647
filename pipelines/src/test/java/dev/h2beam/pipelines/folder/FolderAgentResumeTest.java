package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.agents.AgentModel;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.transforms.proposer.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 in the middle of a sweep whose rollouts and sessions are real Codex runs: the sweep process and every agent
 * it started die at once, as on a crashed machine; repeating the command finishes the sweep, and no rollout or
 * session that had completed runs again (each run id and each session key is in the journals once).
 */
class FolderAgentResumeTest {

  @Test
  void aSweepKilledMidRolloutResumesWithoutRunningAnythingTwice(@TempDir Path tmp) throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(new SignedSumsModel())) {
      AgentModel.serve(server, new SignedSumsAgent());
      Path runs = tmp.resolve("runs");
      Path config = tmp.resolve("config.yaml");
      Files.writeString(config, "endpoints:\n  local: {base_url: \"" + server.baseUrl() + "\", api_key_env: \""
          + FolderSweepTest.KEY_VAR + "\", timeout_seconds: 300, max_attempts: 2}\nroles:\n"
          + "  executor: {endpoint: local, model: e}\n  improver: {endpoint: local, model: i}\n"
          + "  selector: {endpoint: local, model: s}\n  reflector: {endpoint: local, model: s}\n");
      List<String> args = List.of("--bench=folder", "--benchRoot=" + FolderSweepTest.EXAMPLE, "--config=" + config,
          "--runsRoot=" + runs, "--k=2", "--modes=parallel", "--onlyDomains=ledgers", "--executor=codex",
          "--channel=codex", "--substrate=cx", "--maxTasks=1", "--sessionRetryWaitSeconds=0");
      // the JVM options ./h2beam starts every command with (client compiler alone, serial collector)
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UseDynamicNumberOfCompilerThreads",
          "-cp", System.getProperty("java.class.path"), "dev.h2beam.pipelines.Main", "sweep"));
      cmd.addAll(args);
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("crash.log").toFile())
          .start();
      Path executions = runs.resolve("_audit/signed_sums-cx-agg2/executions.jsonl");
      Path sessions = runs.resolve("_audit/signed_sums-cx-agg2/sessions.jsonl");
      // wait until some rollouts and a session have completed, then kill everything at once
      for (int i = 0; i < 2400 && p.isAlive()
          && (Journal.lines(executions).size() < 3 || Journal.lines(sessions).isEmpty()); i++) {
        Thread.sleep(50);
      }
      assertTrue(p.isAlive(), "the sweep was still running when it was killed: " + Files.readString(tmp.resolve(
          "crash.log")));
      // the sweep's JVM first: killed after its children, it could journal a rollout their death failed, which the
      // resume runs again (a failed record is no completed run's); its children are found before, and follow it
      List<ProcessHandle> all = new ArrayList<>(List.of(p.toHandle()));
      all.addAll(p.descendants().toList());
      for (ProcessHandle h : all) h.destroyForcibly();
      p.waitFor();
      int before = Journal.lines(executions).size();

      // the same command again (sweepAt adds the benchmark, roots, k, modes and retry wait)
      Map<String, Object> record = FolderSweepTest.sweepAt(runs, config, 2, "parallel",
          args.subList(6, 11).toArray(new String[0]));
      assertEquals(1, Sweep.doneFailed(record)[0], record.toString());
      assertTrue(Journal.lines(executions).size() > before, "the resume ran what was left");
      Set<String> runIds = new HashSet<>();
      for (String line : Journal.lines(executions)) {
        assertTrue(runIds.add((String) Json.readMap(line).get("run_id")), "ran twice: " + line);
      }
      Set<String> keys = new HashSet<>();
      for (String line : Journal.lines(sessions)) {
        Map<String, Object> m = Json.readMap(line);
        assertTrue(keys.add(m.get("label") + "/" + m.get("key")), "session ran twice: " + line);
      }
    }
  }
}
