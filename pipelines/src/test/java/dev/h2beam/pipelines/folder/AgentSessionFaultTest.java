package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.agents.AgentModel;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.proposer.Proposer;
import dev.h2beam.transforms.proposer.ProposerError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An improver session on a real agent CLI whose model endpoint refuses every call with HTTP 400: the CLI reports the
 * refusal as an error event, the session is tried again (the proposer's two attempts), and the call fails with the
 * server's reason, as the CLI's error event renders it, in the exception, the audit meta and the sessions journal.
 * The retry is the proposer's, the same for every agent: Codex (a run of about 1 s) is given two attempts, OpenCode
 * (a run of several seconds) one, which still checks its error event and the records of a failed session.
 */
class AgentSessionFaultTest {
  static final String REASON = "scripted bad request";

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"opencode", "codex"})
  void anHttp400IsRetriedThenFailsTheSessionWithTheServersReason(String agent) throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying(""))) {
      AgentModel.serve(server, c -> new AgentModel.Turn.Fail(400, REASON));
      ResolvedRole role = new ResolvedRole("improver", new Endpoint("local", server.baseUrl(),
          FolderSweepTest.KEY_VAR, 1, 60, 1, 1.0, 2.0), "imp", null, null);
      ChannelSpec spec = new ChannelSpec(agent, "imp", "high", 20, 60);
      Path evidence = tmp.resolve("evidence");
      Files.createDirectories(evidence.resolve("harness"));
      Files.writeString(evidence.resolve("harness/AGENTS.md"), "Sum the amounts.\n");
      Path audit = tmp.resolve("audit");
      int tries = agent.equals("opencode") ? 1 : 2;
      Proposer proposer = new Proposer(ChannelProvider.forKind(agent).open(spec, role, Map.of()), spec, audit,
          tries, new Semaphore(1), Duration.ZERO);

      ProposerError e = assertThrows(ProposerError.class, () -> proposer.call("Improve the harness.", evidence,
          "improver", "", "context/harness"));

      // the CLI's error event, rendered as its [ERROR] line, is the reason; OpenCode's names the status
      String reason = agent.equals("opencode") ? REASON + " | statusCode=400" : REASON;
      assertTrue(e.getMessage().startsWith("[improver] " + agent + "/imp: ") && e.getMessage().contains(reason),
          e.getMessage());
      assertEquals(tries, e.attempts());
      // each attempt was a fresh CLI run whose model turn reached the server and was refused
      String route = agent.equals("opencode") ? ScriptedModelServer.CHAT_PATH : AgentModel.RESPONSES_PATH;
      List<ScriptedModelServer.Request> turns = server.requests().stream()
          .filter(r -> r.path().equals(route) && r.body().path("tools").size() > 0).toList();
      assertTrue(turns.size() >= tries, "one refused turn per attempt at least: " + turns.size());

      JsonNode meta;
      try (Stream<Path> s = Files.list(audit)) {
        meta = Json.readTree(s.filter(p -> p.toString().endsWith(".meta.json")).findFirst().orElseThrow());
      }
      assertFalse(meta.path("ok").asBoolean(true), meta.toString());
      assertEquals(tries, meta.path("attempts").asInt(), meta.toString());
      assertTrue(meta.path("error").asText().contains(reason), meta.toString());
      // the relay recorded every call of every attempt with the status it relayed: the refused turns are there
      JsonNode calls = meta.path("model_calls");
      long refused = 0;
      Set<Integer> attempts = new TreeSet<>();
      for (JsonNode c : calls) {
        attempts.add(c.path("attempt").asInt());
        if (c.path("status").asInt() == 400 && c.path("path").asText().endsWith(route)) refused++;
      }
      assertEquals(tries == 1 ? Set.of(1) : Set.of(1, 2), attempts, calls.toString());
      assertEquals(turns.size(), refused, calls.toString());
      List<String> journal = Journal.lines(audit.resolve("sessions.jsonl"));
      assertEquals(1, journal.size(), journal.toString());
      JsonNode line = Json.readTree(journal.get(0));
      assertFalse(line.path("ok").asBoolean(true), line.toString());
      assertEquals(tries, line.path("attempts").asInt(), line.toString());
      assertTrue(line.path("error").asText().contains(reason), line.toString());
    }
  }
}
