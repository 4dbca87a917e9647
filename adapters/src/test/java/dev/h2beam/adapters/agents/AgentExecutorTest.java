package dev.h2beam.adapters.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.files.FilesHolding;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.folder.FolderBenchmark;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.llm.EndpointLimits;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.adapters.model.Rollout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rollouts of a folder benchmark by the real Codex CLI, and their faults: the model server down (the rollout times
 * out, is left unmarked, and the next request re-rolls it once the server is back), a CLI that crashes, a CLI that
 * writes nothing. Each failure keeps its cause.
 */
class AgentExecutorTest {
  @TempDir Path tmp;

  Path bench(int timeoutSeconds) throws IOException {
    return bench(timeoutSeconds, Agent.CODEX);
  }

  Path bench(int timeoutSeconds, Agent agent) throws IOException {
    Path root = tmp.resolve("bench");
    // the OpenCode surface is the default base harness; Codex's has its own folder
    Path base = root.resolve(agent == Agent.CODEX ? "base-cx" : "base");
    Files.createDirectories(base);
    Files.writeString(base.resolve(agent == Agent.CODEX ? "AGENTS.md" : "systemprompt.md"),
        "Answer with the word hello.\n");
    Files.createDirectories(root.resolve("tasks/d/t"));
    Files.writeString(root.resolve("tasks/d/t/task.md"), "Greet.\n");
    Files.writeString(root.resolve("bench.json"), "{\"name\": \"b\", \"executor\": {\"kind\": \"" + agent.name
        + "\"},"
        + " \"grader\": {\"kind\": \"expected\"}, \"prompts\": {\"work\": \"greetings\"},"
        + " \"limits\": {\"timeout_seconds\": " + timeoutSeconds + "}}");
    return root;
  }

  FolderBenchmark open(Path root, String baseUrl, Map<String, String> settings) {
    return open(root, "{base_url: \"" + baseUrl + "\", api_key_env: K}", Agent.CODEX, settings);
  }

  FolderBenchmark open(Path root, String endpoint, Agent agent, Map<String, String> settings) {
    RunConfig rc = RunConfig.parse("endpoints:\n  m: " + endpoint + "\n"
        + "roles:\n  executor: {endpoint: m, model: x}\n", "t.yaml");
    Map<String, String> env = Map.of("K", "key-value-123", "PATH", System.getenv("PATH"));
    java.util.HashMap<String, String> s = new java.util.HashMap<>(settings);
    s.put("substrate", agent.substrate);
    return FolderBenchmark.open(root, tmp.resolve("exec"), "all", rc, env, s);
  }

  static AgentModel.Brain writer() {
    return c -> c.toolResults().isEmpty() ? new AgentModel.Turn.WriteFile("output/answer.md", "hello\n")
        : new AgentModel.Turn.Say("done");
  }

  @Test
  void aDeadServerTimesOutUnmarkedAndTheRolloutIsRedoneWhenItIsBack() throws Exception {
    AgentBinaries.require("codex");
    // a whole Codex run takes about 1.2 s: 3 s are past its start-up, so the timeout kills a CLI that was running
    Path root = bench(3);
    FolderBenchmark dead = open(root, ScriptedModelServer.unusedBaseUrl(), Map.of());
    IOException e = assertThrows(IOException.class, () -> dead.execute("d/t", null, "ns/d__t/base1"));
    assertTrue(e.getMessage().contains("timeout") && e.getMessage().contains("killed"), e.getMessage());
    // what its calls through the relay got: no connection, so the question whether the server is up
    assertTrue(e.getMessage().contains(": no connection x") && e.getMessage().contains("is the model server at ")
        || e.getMessage().endsWith("; it made no model call"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("exec/ns/d__t/base1").resolve(Runmark.MARKER)));
    // the timeout killed a CLI that had started: its first event is in the run's copy of its output
    String events = Files.readString(tmp.resolve("exec/ns/d__t/base1/events.jsonl"));
    assertTrue(events.contains("\"thread.started\""), events);
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      AgentModel.serve(server, writer());
      FolderBenchmark live = open(root, server.baseUrl(), Map.of());
      Rollout r = live.execute("d/t", null, "ns/d__t/base1");
      assertFalse(r.reused());
      assertEquals("hello\n", live.deliverableText(r.runDir()));
      assertTrue(live.execute("d/t", null, "ns/d__t/base1").reused());
    }
  }

  /**
   * A CLI's process group is recorded in its run folder while it runs ({@code running.json}) and removed after, as a
   * command executor's is, so that a run again in the folder kills a CLI a killed h2beam left running there
   * ({@code GroupRecord}; the benchmark calls it before it clears the folder, {@code OrphanedRolloutTest}).
   */
  @Test
  void theCliIsRecordedInItsRunFolderWhileItRuns() throws Exception {
    AgentBinaries.require("codex");
    Path root = bench(3);
    FolderBenchmark dead = open(root, ScriptedModelServer.unusedBaseUrl(), Map.of());
    Path record = tmp.resolve("exec/ns/d__t/base1/running.json");
    java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicBoolean over = new java.util.concurrent.atomic.AtomicBoolean();
    Thread watch = new Thread(() -> {
      // the record is written twice: first with the group's token before the CLI starts, then with its pid
      while (!over.get() && (seen.get() == null || !seen.get().contains("\"pid\""))) {
        try {
          if (Files.isRegularFile(record)) seen.set(Files.readString(record));
          Thread.sleep(5);
        } catch (IOException | InterruptedException e) {
          // renamed into place or removed between the look and the read: look again
        }
      }
    });
    watch.start();
    try {
      assertThrows(IOException.class, () -> dead.execute("d/t", null, "ns/d__t/base1"));
    } finally {
      over.set(true);
      watch.join();
    }
    assertTrue(seen.get() != null && seen.get().contains("\"pid\"") && seen.get().contains("\"start_ticks\""),
        "the running CLI was recorded: " + seen.get());
    assertFalse(Files.exists(record), "and the record removed once its group was gone");
  }

  /**
   * An agent that prints its key variable into its deliverable (a prompt-injected agent would) prints the relay's
   * token: the key reaches the endpoint on every call, and nowhere else, neither the run folder nor a request body.
   */
  @Test
  void anAgentThatPrintsItsKeyVariablePrintsOnlyItsRelaysToken() throws Exception {
    AgentBinaries.require("codex");
    Path root = bench(60);
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      AgentModel.serve(server, c -> c.toolResults().isEmpty()
          ? new AgentModel.Turn.Command("printf 'key=%s\\n' \"$K\" > output/answer.md")
          : new AgentModel.Turn.Say("done"));
      FolderBenchmark b = open(root, server.baseUrl(), Map.of());
      Rollout r = b.execute("d/t", null, "ns/d__t/base1");
      String answer = b.deliverableText(r.runDir());
      assertTrue(answer.startsWith("key=h2beam-relay-"), answer);
      assertFalse(server.requests().isEmpty());
      for (ScriptedModelServer.Request call : server.requests()) {
        assertEquals("Bearer key-value-123", call.authorization(), "the relay put the key on the call");
        assertFalse(call.rawBody().contains("key-value-123"), "the key in a request body");
      }
      assertEquals(List.of(), FilesHolding.containing(tmp.resolve("exec"), "key-value-123"));
    }
  }

  /**
   * The real CLI run isolated ({@code --isolation=namespaces}): the model has it read the task's answer key by its
   * absolute path and list the rollouts' folder (through a script of its harness); it finds neither the key nor
   * another rollout, and its deliverable reaches the host. Codex runs with full access, so only the operating system
   * stops it here.
   */
  @ParameterizedTest
  @EnumSource(Agent.class)
  void anIsolatedAgentCannotReadTheAnswerKeyNorOtherRollouts(Agent agent) throws Exception {
    AgentBinaries.require(agent.name);
    Path root = bench(60, agent);
    Files.createDirectories(root.resolve("tasks/d/t/grading"));
    Files.writeString(root.resolve("tasks/d/t/grading/expected.txt"), "Total: 56.75\n");
    Files.createDirectories(tmp.resolve("exec/other/d__t/base1"));
    Files.writeString(tmp.resolve("exec/other/d__t/base1/secret.txt"), "another rollout\n");
    // a script of the harness, as an improver could write one: OpenCode's permissions would refuse these paths on
    // its own command line, not inside a script it runs
    Path scripts = Files.createDirectories(root.resolve(agent == Agent.CODEX ? "base-cx" : "base").resolve("scripts"));
    Files.writeString(scripts.resolve("look.sh"), "{ cat " + root + "/tasks/d/t/grading/expected.txt; ls -A "
        + tmp.resolve("exec") + "; } > output/answer.md 2>&1; echo end >> output/answer.md\n");
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      AgentModel.serve(server, c -> c.toolResults().isEmpty() ? new AgentModel.Turn.Command("sh scripts/look.sh")
          : new AgentModel.Turn.Say("done"));
      java.util.Optional<String> why = dev.h2beam.adapters.exec.Isolation.unavailable();
      if (why.isPresent()) {
        var e = assertThrows(dev.h2beam.adapters.bench.BenchmarkInvalid.class,
            () -> open(root, "{base_url: \"" + server.baseUrl() + "\", api_key_env: K}", agent,
                Map.of("isolation", "namespaces")));
        assertTrue(e.problems().toString().contains("cannot isolate a program: " + why.get()), e.problems().toString());
        return;
      }
      FolderBenchmark b = open(root, "{base_url: \"" + server.baseUrl() + "\", api_key_env: K}", agent,
          Map.of("isolation", "namespaces"));
      Rollout r = b.execute("d/t", null, "ns/d__t/base1");
      String answer = b.deliverableText(r.runDir());
      assertFalse(answer.contains("56.75"), answer);
      assertTrue(answer.contains("No such file or directory"), answer);
      assertFalse(answer.contains("other"), "the other rollout's folder is out of sight: " + answer);
      assertTrue(answer.strip().endsWith("ns\nend"), answer);
      assertFalse(server.requests().isEmpty());
    }
  }

  /**
   * Two rollouts at once through the real CLI, on an endpoint with room for one call: the model server never sees two
   * calls at once, each CLI call's reported tokens are charged to the endpoint's token window, and every slot is
   * back at the end. The model holds a first call until a second comes, so where the relay lets two through they
   * overlap: the same Codex pair on an endpoint with room for two does, and with the slot taken out of the relay
   * both CLIs' calls did at width one.
   */
  @ParameterizedTest
  @EnumSource(Agent.class)
  void concurrentRolloutsHoldTheEndpointsMaxConcurrencyAndChargeTheirTokens(Agent agent) throws Exception {
    AgentBinaries.require(agent.name);
    Path root = bench(60, agent);
    // OpenCode's start-up is seconds: its runs are checked at one width, Codex's at both
    for (int width : agent == Agent.CODEX ? new int[] {1, 2} : new int[] {1}) {
      try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
        java.util.function.LongSupplier reported = AgentModel.serve(server, writer());
        server.latency(java.time.Duration.ofMillis(400));
        // the model holds the first call until a second arrives (at most 20 s where the endpoint has room for both,
        // 3 s where it has room for one), so two calls are in flight at once wherever the relay lets them, however
        // far apart the CLIs start
        String path = agent == Agent.CODEX ? AgentModel.RESPONSES_PATH : ScriptedModelServer.CHAT_PATH;
        ScriptedModelServer.Route model = server.routeOf(path);
        java.util.concurrent.CountDownLatch both = new java.util.concurrent.CountDownLatch(2);
        server.route(path, call -> {
          both.countDown();
          both.await(width == 2 ? 20 : 3, java.util.concurrent.TimeUnit.SECONDS);
          model.handle(call);
        });
        FolderBenchmark b = open(root, "{base_url: \"" + server.baseUrl() + "\", api_key_env: K, max_concurrency: "
            + width + ", tokens_per_minute: 10000000}", agent, Map.of());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
          List<java.util.concurrent.Future<Rollout>> runs = List.of(
              pool.submit(() -> b.execute("d/t", null, "w" + width + "/d__t/base1")),
              pool.submit(() -> b.execute("d/t", null, "w" + width + "/d__t/base2")));
          for (var f : runs) assertEquals("hello\n", b.deliverableText(f.get().runDir()));
        } finally {
          pool.shutdownNow();
        }
        assertEquals(width, server.maxInFlight(), agent.name + " calls in flight at once with max_concurrency "
            + width + " (" + server.requests().size() + " calls)");
        Endpoint e = RunConfig.parse("endpoints:\n  m: {base_url: \"" + server.baseUrl() + "\", api_key_env: K,"
            + " max_concurrency: " + width + ", tokens_per_minute: 10000000}\nroles:\n  executor: {endpoint: m,"
            + " model: x}\n", "t.yaml").role("executor").orElseThrow().endpoint();
        assertEquals(width, EndpointLimits.freeSlots(e));
        // the same from the runs' own files: the relay's record of each call
        List<Map<String, Object>> calls = new java.util.ArrayList<>();
        for (String run : List.of("base1", "base2")) {
          Path log = tmp.resolve("exec/w" + width + "/d__t/" + run).resolve(dev.h2beam.adapters.llm.EndpointProxy.CALL_LOG);
          for (String line : Files.readAllLines(log)) calls.add(dev.h2beam.adapters.files.Json.readMap(line));
        }
        assertEquals(server.requests().size(), calls.size(), "every call recorded: " + calls);
        long sentAtOnce = 0;
        for (Map<String, Object> a : calls) {
          long at = 0;
          for (Map<String, Object> other : calls) {
            if (Instant.parse((String) other.get("sent")).compareTo(Instant.parse((String) a.get("sent"))) <= 0
                && Instant.parse((String) other.get("done")).isAfter(Instant.parse((String) a.get("sent")))) {
              at++;
            }
          }
          sentAtOnce = Math.max(sentAtOnce, at);
          assertEquals(200, ((Number) a.get("status")).intValue(), a.toString());
        }
        assertEquals(width, sentAtOnce, "calls holding a slot at once, from the files");
        assertEquals(reported.getAsLong(), calls.stream().mapToLong(c -> ((Number) c.get("tokens")).longValue()).sum());
        assertTrue(calls.stream().allMatch(c -> ((Number) c.get("waited_s")).doubleValue() >= 0
            && ((Number) c.get("held_s")).doubleValue() > 0), calls.toString());
        assertTrue(reported.getAsLong() > 0);
        assertEquals(reported.getAsLong(), EndpointLimits.tokensCharged(e), "the tokens the streams reported, all"
            + " charged");
      }
    }
  }

  /**
   * A stand-in binary that answers --version and {@code debug} (the model catalogue) as the real pinned Codex does,
   * and does {@code body} instead of {@code exec}.
   */
  Path fakeCodex(String body) throws IOException {
    Path real = AgentBinaries.require("codex");
    Path bin = tmp.resolve("codex-fake");
    Files.writeString(bin, "#!/bin/sh\ncase \"$1\" in --version|debug) exec '" + real + "' \"$@\";; esac\n" + body
        + "\n");
    Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
    return bin;
  }

  @Test
  void aCliThatCrashesFailsTheRolloutWithItsCause() throws Exception {
    Path root = bench(30);
    FolderBenchmark b = open(root, "http://127.0.0.1:9/v1", Map.of("codexBin",
        fakeCodex("echo 'thread main panicked: boom' >&2; kill -SEGV $$").toString()));
    IOException e = assertThrows(IOException.class, () -> b.execute("d/t", null, "ns/d__t/base1"));
    assertTrue(e.getMessage().contains("exit") && e.getMessage().contains("boom"), e.getMessage());
  }

  @Test
  void aCliThatWritesNothingLeavesTheRolloutUnmarked() throws Exception {
    Path root = bench(30);
    FolderBenchmark b = open(root, "http://127.0.0.1:9/v1", Map.of("codexBin", fakeCodex("exit 0").toString()));
    IOException e = assertThrows(IOException.class, () -> b.execute("d/t", null, "ns/d__t/base1"));
    assertTrue(e.getMessage().contains("produced no output/answer.md"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("exec/ns/d__t/base1").resolve(Runmark.MARKER)));
  }
}
