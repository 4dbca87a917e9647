package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.EndpointProxy;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.adapters.llm.ScriptedModelServer.Fault;
import dev.h2beam.adapters.model.Tokens;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command executor's agent calls its model through the run's own relay: a real agent (a Python script making
 * real HTTP calls) against a real local model server. Its calls hold the endpoint's limits, are recorded in the run
 * folder, and price the rollout; a call whose cost the server did not report leaves the rollout's cost unknown.
 */
class CommandExecutorRelayTest {
  /** A small agent: one chat completion per line of task.md, the answers written to the deliverable. */
  private static final String AGENT = String.join("\n",
      "import json, os, sys, urllib.request",
      "base = os.environ['OPENAI_BASE_URL']",
      "answers = []",
      "for line in open('task.md').read().splitlines():",
      "    body = json.dumps({'model': os.environ['H2BEAM_MODEL'],",
      "        'messages': [{'role': 'user', 'content': line}]}).encode()",
      "    req = urllib.request.Request(base + '/chat/completions', data=body, headers={",
      "        'Content-Type': 'application/json', 'Authorization': 'Bearer ' + os.environ['ENDPOINT_KEY']})",
      "    try:",
      "        with urllib.request.urlopen(req, timeout=30) as r:",
      "            answers.append(json.load(r)['choices'][0]['message']['content'])",
      "    except Exception as e:",
      "        print('call failed:', e, file=sys.stderr)",
      "        sys.exit(3)",
      "open(os.path.join(os.environ['H2BEAM_OUTPUT'], 'answer.md'), 'w').write('\\n'.join(answers) + '\\n')",
      "");

  @TempDir Path tmp;
  private ScriptedModelServer server;
  private Path harness;
  private Path agent;

  @BeforeEach
  void setUp() throws Exception {
    assumeTrue(ProcessRunner.onPath(System.getenv("PATH"), "python3") != null, "the agent here is a python3 script");
    server = ScriptedModelServer.start(request -> "echo " + request.at("/messages/0/content").asText().strip());
    harness = Files.createDirectories(tmp.resolve("harness"));
    Files.writeString(harness.resolve("AGENTS.md"), "Answer each line.\n");
    agent = tmp.resolve("agent.py");
    Files.writeString(agent, AGENT);
  }

  @AfterEach
  void tearDown() {
    if (server != null) server.close();
  }

  private Executor open(int maxConcurrency) throws Exception {
    return open(maxConcurrency, 1.0, 2.0);
  }

  private Executor open(int maxConcurrency, double inputPrice, double outputPrice) throws Exception {
    Endpoint ep = new Endpoint("local", server.baseUrl(), "ENDPOINT_KEY", maxConcurrency, 60, 1, inputPrice,
        outputPrice);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("LANG", "C.UTF-8");
    env.put("ENDPOINT_KEY", "key-value");
    return ExecutorProvider.named("command").open(Map.of("command", "python3 " + agent), Optional.of(
        new ResolvedRole("executor", ep, "tiny-model", null, null)), env);
  }

  private ExecResult run(Executor e, String name, String instruction) throws Exception {
    Path runDir = Files.createDirectories(tmp.resolve("runs").resolve(name));
    return e.run(new ExecRequest("t/" + name, instruction, null, harness, runDir, "answer.md",
        Duration.ofSeconds(60)));
  }

  private static List<JsonNode> calls(Path runDir) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String l : Files.readAllLines(runDir.resolve(EndpointProxy.CALL_LOG))) out.add(Json.readTree(l));
    return out;
  }

  @Test
  void theAgentsCallsGoThroughTheRelayAndPriceTheRollout() throws Exception {
    ExecResult r = run(open(2), "a", "first line\nsecond");
    assertTrue(r.ok(), r.error());
    assertEquals("echo first line\necho second\n", Files.readString(r.runDir().resolve("output/answer.md")));

    // the server saw both calls, with the agent's own key, sent by the relay rather than straight from the agent
    assertEquals(2, server.requests().size());
    assertTrue(server.requests().stream().allMatch(ScriptedModelServer.Request::authorized));
    List<JsonNode> calls = calls(r.runDir());
    assertEquals(2, calls.size());
    long in = 0;
    long out = 0;
    for (JsonNode c : calls) {
      assertEquals(200, c.path("status").asInt(), c.toString());
      assertEquals(ScriptedModelServer.CHAT_PATH, c.path("path").asText());
      in += c.path("input_tokens").asLong();
      out += c.path("output_tokens").asLong();
      assertEquals(c.path("tokens").asLong(), c.path("input_tokens").asLong() + c.path("output_tokens").asLong());
    }
    // what the server reported: ⌈characters / 4⌉ of the message and of the answer
    assertEquals(3 + 2, in);
    assertEquals(4 + 3, out);
    assertEquals(in, r.inputTokens());
    assertEquals(out, r.outputTokens());
    assertEquals((in * 1.0 + out * 2.0) / 1_000_000.0, r.costUsd(), 1e-12);
    assertTrue(r.costKnown());
    assertEquals(new Tokens(in, out, true), r.tokens());
    // no file of the run holds the key: the relay passes the agent's header on and records none of it
    try (Stream<Path> files = Files.walk(r.runDir())) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertFalse(Files.readString(f, StandardCharsets.ISO_8859_1).contains("key-value"), f.toString());
      }
    }
  }

  @Test
  void aReplyWithoutItsTokensLeavesTheCostUnknownNotZero() throws Exception {
    server.next(Fault.noUsage());
    ExecResult r = run(open(2), "b", "only line\nsecond");
    assertTrue(r.ok(), r.error());
    assertFalse(r.costKnown(), "a success that reported no tokens may have been billed");
    List<JsonNode> calls = calls(r.runDir());
    assertTrue(calls.get(0).path("input_tokens").isNull());
    // the second call's counts are kept as the part counted, never dropped and never taken for the whole
    long in = calls.get(1).path("input_tokens").asLong();
    long out = calls.get(1).path("output_tokens").asLong();
    assertTrue(in > 0 && out > 0, calls.toString());
    assertEquals((in * 1.0 + out * 2.0) / 1_000_000.0, r.costUsd(), 1e-12, "the known part of the cost");
    assertEquals(new Tokens(in, out, false), r.tokens(), "the tokens are the part counted, not all of them");
    assertFalse(r.tokensKnown());
  }

  /**
   * At a free endpoint an uncounted call cost a known $0, but what it spent in tokens is not known: the two marks
   * part there, and the rollout's tokens are the part counted.
   */
  @Test
  void atAFreeEndpointAnUncountedCallLeavesTheCostKnownAndTheTokensPartial() throws Exception {
    server.next(Fault.noUsage());
    ExecResult r = run(open(2, 0, 0), "free", "only line\nsecond");
    assertTrue(r.ok(), r.error());
    assertTrue(r.costKnown(), "free: $0 whatever was reported");
    assertEquals(0.0, r.costUsd());
    JsonNode counted = calls(r.runDir()).get(1);
    assertEquals(new Tokens(counted.path("input_tokens").asLong(), counted.path("output_tokens").asLong(), false),
        r.tokens());
    assertFalse(r.tokensKnown());

    // all counted at the same free endpoint: known, both
    ExecResult whole = run(open(2, 0, 0), "free2", "a line");
    assertTrue(whole.costKnown() && whole.tokensKnown(), whole.toString());
    assertTrue(whole.tokens().known() && whole.tokens().total() > 0, whole.toString());
  }

  @Test
  void aFailedAgentStillReportsWhatItsCallsCost() throws Exception {
    server.next(Fault.status(400, null));
    ExecResult r = run(open(2), "c", "one\ntwo");
    assertFalse(r.ok());
    assertEquals("exit", r.errorClass());
    assertTrue(r.error().contains("call failed"), r.error());
    // an error status is not billed: the cost is known, and nothing
    assertTrue(r.costKnown());
    assertEquals(0.0, r.costUsd());
    assertEquals(400, calls(r.runDir()).get(0).path("status").asInt());
    // and so are its tokens: every call priced, none reported any, 0 and 0 (not a count missing)
    assertEquals(0L, r.inputTokens());
    assertEquals(0L, r.outputTokens());
    assertEquals(Tokens.NONE, r.tokens());
  }

  @Test
  void rolloutsAtOnceHoldTheEndpointsConcurrencyLimit() throws Exception {
    server.latency(Duration.ofMillis(400));
    Executor e = open(1);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<ExecResult>> runs = new ArrayList<>();
      for (String name : List.of("p1", "p2", "p3")) runs.add(pool.submit(() -> run(e, name, "hello " + name)));
      List<Instant[]> held = new ArrayList<>();
      for (Future<ExecResult> f : runs) {
        ExecResult r = f.get();
        assertTrue(r.ok(), r.error());
        JsonNode c = calls(r.runDir()).get(0);
        held.add(new Instant[] {Instant.parse(c.path("sent").asText()), Instant.parse(c.path("done").asText())});
      }
      assertEquals(1, server.maxInFlight(), "max_concurrency 1: never two calls at the model");
      // and the records agree: no two calls held the endpoint's one slot at once
      held.sort((a, b) -> a[0].compareTo(b[0]));
      for (int i = 1; i < held.size(); i++) {
        assertFalse(held.get(i)[0].isBefore(held.get(i - 1)[1]), "overlapping slots: " + held.get(i - 1)[1] + " > "
            + held.get(i)[0]);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theAgentIsToldTheRelaysAddressNotTheEndpoints() throws Exception {
    Endpoint ep = new Endpoint("local", server.baseUrl(), "ENDPOINT_KEY", 1, 60, 1, 0, 0);
    Executor e = ExecutorProvider.named("command").open(Map.of("command", "echo $OPENAI_BASE_URL > {output}/url"),
        Optional.of(new ResolvedRole("executor", ep, "tiny-model", null, null)),
        Map.of("PATH", System.getenv("PATH"), "ENDPOINT_KEY", "key-value"));
    ExecResult r = run(e, "d", "x");
    assertTrue(r.ok(), r.error());
    String url = Files.readString(r.runDir().resolve("output/url")).strip();
    assertTrue(url.matches("http://127\\.0\\.0\\.1:[0-9]+/v1"), url);
    assertNotEquals(server.baseUrl(), url);
    // no call made: known, and nothing, its tokens too (0 and 0, not counts missing)
    assertTrue(r.costKnown());
    assertEquals(0L, r.inputTokens());
    assertEquals(0L, r.outputTokens());
    assertEquals(Tokens.NONE, r.tokens());
    assertFalse(Files.exists(r.runDir().resolve(EndpointProxy.CALL_LOG)));
  }
}
