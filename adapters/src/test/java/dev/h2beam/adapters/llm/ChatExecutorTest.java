package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.exec.ExecRequest;
import dev.h2beam.adapters.exec.ExecResult;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer.Fault;
import dev.h2beam.adapters.model.Tokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chat executor's rollout against a real local model server: what it writes in the run folder. */
class ChatExecutorTest {
  private ScriptedModelServer server;
  @TempDir Path tmp;

  @BeforeEach
  void start() throws Exception {
    // the answer depends on what was sent: the task's instruction, echoed
    server = ScriptedModelServer.start(request -> "answer to: " + request.at("/messages/1/content").asText().strip()
        .lines().findFirst().orElse(""));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private ChatExecutor executor(int attempts) {
    Endpoint e = new Endpoint("local", server.baseUrl(), "", 2, 60, attempts, 1.0, 2.0);
    ResolvedRole role = new ResolvedRole("executor", e, "exec-model", 0.0, 64);
    return new ChatExecutor(role, new ChatClient(e, Map.of(), Duration.ofMillis(1), d -> { }, Duration.ofSeconds(10)));
  }

  private ExecRequest request(String run) throws Exception {
    Path harness = Files.createDirectories(tmp.resolve("harness"));
    Files.writeString(harness.resolve("AGENTS.md"), "Keep the sign of every amount.\n");
    Path runDir = Files.createDirectories(tmp.resolve(run));
    return new ExecRequest("t1", "Sum the ledger.", null, harness, runDir, "answer.txt", Duration.ofSeconds(30));
  }

  private static List<JsonNode> calls(Path runDir) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String l : Files.readAllLines(runDir.resolve(EndpointProxy.CALL_LOG))) out.add(Json.readTree(l));
    return out;
  }

  @Test
  void anAnsweredRolloutRecordsItsCallWithTheTokensItWasCharged() throws Exception {
    Instant before = Instant.now();
    ExecResult r = executor(3).run(request("run"));
    assertTrue(r.ok(), r.error());
    assertEquals("answer to: Sum the ledger.", Files.readString(r.runDir().resolve("output/answer.txt")));
    List<JsonNode> calls = calls(r.runDir());
    assertEquals(1, calls.size(), calls.toString());
    JsonNode c = calls.get(0);
    assertEquals(200, c.path("status").asInt(), c.toString());
    assertEquals("POST", c.path("method").asText());
    assertEquals(ScriptedModelServer.CHAT_PATH, c.path("path").asText());
    assertTrue(c.path("dropped").isNull(), c.toString());
    assertEquals(r.inputTokens() + r.outputTokens(), c.path("tokens").asLong(), c.toString());
    Instant sent = Instant.parse(c.path("sent").asText());
    assertFalse(sent.isBefore(before), c.toString());
    assertFalse(Instant.parse(c.path("done").asText()).isBefore(sent), c.toString());
  }

  @Test
  void everyAttemptIsRecordedAndOnlyTheAnsweredOneHasTokens() throws Exception {
    server.next(Fault.serverError(), Fault.status(503, null));
    ExecResult r = executor(3).run(request("run"));
    assertTrue(r.ok(), r.error());
    List<JsonNode> calls = calls(r.runDir());
    assertEquals(List.of(500, 503, 200), calls.stream().map(c -> c.path("status").asInt()).toList(), calls.toString());
    assertTrue(calls.get(0).path("tokens").isNull() && calls.get(1).path("tokens").isNull(), calls.toString());
    assertEquals(r.inputTokens() + r.outputTokens(), calls.get(2).path("tokens").asLong());
    assertEquals(3, server.requests().size(), "as many records as the model saw calls");
  }

  /**
   * At a free endpoint an attempt sent and left unanswered cost a known $0, but the tokens it may have spent are not
   * known: the rollout's tokens are the answered attempt's, marked as the part counted.
   */
  @Test
  void atAFreeEndpointAnUnansweredAttemptLeavesTheCostKnownAndTheTokensPartial() throws Exception {
    server.next(Fault.drop());
    Endpoint e = new Endpoint("local", server.baseUrl(), "", 2, 60, 3, 0, 0);
    ChatExecutor executor = new ChatExecutor(new ResolvedRole("executor", e, "exec-model", 0.0, 64),
        new ChatClient(e, Map.of(), Duration.ofMillis(1), d -> { }, Duration.ofSeconds(10)));
    ExecResult r = executor.run(request("run"));
    assertTrue(r.ok(), r.error());
    assertTrue(r.costKnown(), "free: $0 whatever was counted");
    List<JsonNode> calls = calls(r.runDir());
    assertEquals(2, calls.size(), calls.toString());
    JsonNode answered = calls.get(1);
    assertEquals(new Tokens(answered.path("input_tokens").asLong(), answered.path("output_tokens").asLong(), false),
        r.tokens(), calls.toString());

    ExecResult whole = executor.run(request("run2"));
    assertTrue(whole.ok() && whole.costKnown() && whole.tokens().known(), whole.toString());
  }

  @Test
  void aRolloutRefusedBeforeAnyCallHasNoCallLog() throws Exception {
    Endpoint e = new Endpoint("local", server.baseUrl(), "H2BEAM_CHAT_EXECUTOR_TEST_UNSET_KEY", 2, 60, 3, 1.0, 2.0);
    ChatExecutor executor = new ChatExecutor(new ResolvedRole("executor", e, "exec-model", 0.0, 64),
        new ChatClient(e, Map.of(), Duration.ofMillis(1), d -> { }, Duration.ofSeconds(10)));
    ExecResult r = executor.run(request("run"));
    assertEquals("model", r.errorClass());
    assertTrue(r.error().contains("H2BEAM_CHAT_EXECUTOR_TEST_UNSET_KEY"), r.error());
    assertTrue(server.requests().isEmpty(), "the model was never called");
    assertFalse(Files.exists(r.runDir().resolve(EndpointProxy.CALL_LOG)), "no call, no call log");
    assertEquals(Tokens.NONE, r.tokens(), "no call, no tokens");
  }

  @Test
  void aRefusedRolloutKeepsItsCallsAndNoDeliverable() throws Exception {
    server.next(Fault.status(404, null));
    ExecResult r = executor(3).run(request("run"));
    assertEquals("model", r.errorClass());
    // a refusal is not billed: what its one call reported, none, is all it spent
    assertEquals(0L, r.inputTokens());
    assertEquals(Tokens.NONE, r.tokens());
    assertFalse(Files.exists(r.runDir().resolve("output/answer.txt")));
    List<JsonNode> calls = calls(r.runDir());
    assertEquals(1, calls.size(), calls.toString());
    assertEquals(404, calls.get(0).path("status").asInt());
    assertTrue(calls.get(0).path("tokens").isNull(), calls.toString());
    assertTrue(Files.readString(r.runDir().resolve("trajectory.md")).contains("[ERROR]"));
  }
}
