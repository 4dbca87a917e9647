package dev.h2beam.adapters.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dogAD F3 with {@code --isolation=namespaces}: an improver session of the real Codex CLI (which runs with full
 * access) reads the answer key, lists the runs root and reads another mode's library by their absolute paths, and
 * finds nothing but its own folders; its reply is read as usual.
 */
class AgentChannelIsolationTest {
  @TempDir Path tmp;

  @Test
  void anIsolatedSessionSeesItsOwnFolderAndNothingElseOfTheRun() throws Exception {
    AgentBinaries.require("codex");
    Path bench = tmp.resolve("bench");
    Files.createDirectories(bench.resolve("tasks/d/t/grading"));
    Files.writeString(bench.resolve("tasks/d/t/grading/expected.txt"), "Total: 56.75\n");
    Path runs = tmp.resolve("runs");
    Files.createDirectories(runs.resolve("_executions/ns-agg1/d/t/agg1"));
    Files.writeString(runs.resolve("_executions/ns-agg1/d/t/agg1/trajectory.md"), "the agg1 candidate\n");
    Path library = tmp.resolve("library");
    Files.createDirectories(library.resolve("seq/d"));
    Files.writeString(library.resolve("seq/d/EXPERIENCE.md"), "a lesson of the other mode\n");
    Path cwd = Files.createDirectories(runs.resolve(".tmp/h2beam-prop-1"));
    Map<String, String> settings = Map.of("isolation", "namespaces", "benchRoot", bench.toString(), "runsRoot",
        runs.toString(), "libraryRoot", library.toString());
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      String look = "{ cat " + bench + "/tasks/d/t/grading/expected.txt; ls -A " + runs + "; ls -A " + runs
          + "/.tmp; cat " + library + "/seq/d/EXPERIENCE.md; } > output/answer.md 2>&1; echo end >> output/answer.md";
      AgentModel.serve(server, c -> c.toolResults().isEmpty() ? new AgentModel.Turn.Command(look)
          : new AgentModel.Turn.Say("done"));
      ResolvedRole role = RunConfig.parse("endpoints:\n  m: {base_url: \"" + server.baseUrl() + "\", api_key_env: K}\nroles:\n  improver: {endpoint: m, model: x}\n", "t.yaml").role("improver")
          .orElseThrow();
      Optional<String> why = Isolation.unavailable();
      if (why.isPresent()) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> AgentChannel.Provider.isolation(settings));
        assertTrue(e.getMessage().contains("cannot isolate a program: " + why.get()), e.getMessage());
        return;
      }
      // as the provider opens it, with a key of the test's own
      ProposerChannel channel = new AgentChannel(Agent.CODEX, Agent.CODEX.binary(Map.of(), System.getenv()), role,
          Map.of("K", "key-value-123", "PATH", System.getenv("PATH")), AgentChannel.Provider.isolation(settings));
      SessionResult r = channel.run(cwd, "Look around.", "", "inv1", Duration.ofSeconds(120));
      String text = r.text();
      assertEquals("", r.error(), text);
      assertFalse(text.contains("56.75"), text);
      assertFalse(text.contains("lesson"), text);
      assertTrue(text.contains("No such file or directory"), text);
      // the runs root holds only the way down to the session's folder and its state folder beside it
      assertTrue(text.contains("\n.tmp\nh2beam-agent-state-"), text);
      assertTrue(text.contains("\nh2beam-prop-1\ncat: " + library), text);
      assertFalse(text.contains("_executions"), text);
      assertTrue(Files.isRegularFile(cwd.resolve("output/answer.md")), "its output is the host's");
    }
  }
}
