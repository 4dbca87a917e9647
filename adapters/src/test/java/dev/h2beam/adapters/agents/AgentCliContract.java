package dev.h2beam.adapters.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.agents.AgentModel.Brain;
import dev.h2beam.adapters.agents.AgentModel.Turn;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.files.FilesHolding;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every agent CLI launcher must do, tested with the real CLI against the scripted model on a real loopback
 * server: the harness in the workspace reaches the model and changes the deliverable; each run keeps its state and
 * its key to itself; a dead server ends in the timeout with nothing left running; an HTTP error ends the run with an
 * error event. One subclass per CLI.
 */
abstract class AgentCliContract {
  static final String KEY_VAR = "H2BEAM_TEST_AGENT_KEY";
  static final String SECRET = "sk-h2beam-fake-3f9c2a7e1b5d";
  static final String SENTENCE = "Always cite the source file in the answer.";
  static final String PROMPT = "Write the answer to output/answer.md";
  static final String CITED = "# Answer\n\nThe answer is 42 (source: data.txt).\n";
  static final String PLAIN = "# Answer\n\nThe answer is 42.\n";
  /** Far above a run on a loaded machine (OpenCode alone takes 25-50 s on two busy cores); only a hang reaches it. */
  static final Duration RUN = Duration.ofSeconds(300);

  /** Writes the answer the harness asks for (citing its source when the instructions say so), then reports. */
  static final Brain ANSWERING = c -> c.toolResults().isEmpty()
      ? new Turn.WriteFile("output/answer.md", c.instructions().contains(SENTENCE) ? CITED : PLAIN)
      : new Turn.Say("Done: I wrote output/answer.md.");

  @TempDir Path dir;
  ScriptedModelServer server;

  /** {@link AgentTools#OPENCODE} or {@link AgentTools#CODEX}. */
  abstract String agent();

  abstract AgentRun run(AgentInvocation inv) throws IOException, InterruptedException;

  /** The path the CLI's turns are posted to. */
  abstract String modelPath();

  /**
   * How long the dead-server test lets the CLI run before the timeout kills it: long enough for the CLI to have
   * started (its processes seen) before the kill. OpenCode's start-up alone takes seconds.
   */
  Duration downTimeout() {
    return Duration.ofSeconds(8);
  }

  /** What one CLI's successful run must also show (no warnings its settings are meant to silence). */
  void checkCleanRun(AgentRun run) throws IOException {}

  @AfterEach
  void stopServer() {
    if (server != null) server.close();
  }

  void serve(Brain brain) throws IOException {
    server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("not a streaming request"));
    AgentModel.serve(server, brain);
  }

  static ResolvedRole role(String baseUrl) {
    return new ResolvedRole("executor", new Endpoint("scripted", baseUrl, KEY_VAR, 1, 60, 1, 0, 0),
        "scripted-model", null, null);
  }

  /** An invocation with its work folder {@code dir/name/work} (created) and state folder {@code dir/name/state}. */
  AgentInvocation invocation(String name, String baseUrl, Duration timeout) throws IOException {
    Path work = Files.createDirectories(dir.resolve(name).resolve("work"));
    return new AgentInvocation(AgentBinaries.require(agent()), work, dir.resolve(name).resolve("state"),
        role(baseUrl), PROMPT, timeout, Map.of("PATH", System.getenv("PATH"), KEY_VAR, SECRET), List.of());
  }

  /** The requests of the CLI's turns among {@code requests} (not OpenCode's title requests, which have no tools). */
  List<ScriptedModelServer.Request> turns(List<ScriptedModelServer.Request> requests) {
    return requests.stream().filter(r -> r.path().equals(modelPath()) && !r.body().path("tools").isEmpty()).toList();
  }

  static void assertSucceeded(AgentRun run) {
    assertTrue(run.succeeded(), () -> "exit " + run.process().exit() + ", timed out " + run.timedOut()
        + "\nstderr: " + run.process().stderrTail(2000) + "\nstdout: " + run.process().stdoutTail(2000));
  }

  @Test
  void theHarnessInTheWorkspaceReachesTheModelAndDecidesTheDeliverable() throws Exception {
    serve(ANSWERING);
    AgentInvocation with = invocation("with-harness", server.baseUrl(), RUN);
    Files.writeString(with.workDir().resolve("AGENTS.md"), "# How to answer\n\n" + SENTENCE + "\n");
    AgentRun a = run(with);
    int split = server.requests().size();
    AgentInvocation without = invocation("without-harness", server.baseUrl(), RUN);
    AgentRun b = run(without);

    assertSucceeded(a);
    assertSucceeded(b);
    checkCleanRun(a);
    assertEquals(CITED, Files.readString(with.workDir().resolve("output/answer.md")));
    assertEquals(PLAIN, Files.readString(without.workDir().resolve("output/answer.md")));
    List<ScriptedModelServer.Request> first = turns(server.requests().subList(0, split));
    List<ScriptedModelServer.Request> second = turns(server.requests().subList(split, server.requests().size()));
    assertFalse(first.isEmpty());
    assertTrue(first.stream().allMatch(r -> r.rawBody().contains(SENTENCE)), "the AGENTS.md text reached the model");
    assertTrue(second.stream().noneMatch(r -> r.rawBody().contains(SENTENCE)));
    for (ScriptedModelServer.Request r : first) {
      assertEquals(PROMPT, prompt(r.body()), "the prompt reaches the model as it was given");
    }
  }

  /** The task as the scripted model read it from one request. */
  private String prompt(JsonNode body) {
    return modelPath().equals(AgentModel.RESPONSES_PATH) ? AgentModel.fromResponses(body).prompt()
        : AgentModel.fromChat(body).prompt();
  }

  @Test
  void eachRunKeepsItsStateAndItsKeyToItself() throws Exception {
    // First the agent shows where its shell's home and temp folders are, then writes, then reports.
    serve(c -> switch (c.toolResults().size()) {
      case 0 -> new Turn.Command("printf 'HOME=%s TMPDIR=%s\\n' \"$HOME\" \"$TMPDIR\"");
      case 1 -> new Turn.WriteFile("output/answer.md", PLAIN);
      default -> new Turn.Say("Done.");
    });
    Map<Path, FileTime> realHome = userFolders();
    for (String name : List.of("one", "two")) {
      AgentInvocation inv = invocation(name, server.baseUrl(), RUN);
      int from = server.requests().size();
      AgentRun run;
      Map<Long, List<String>> processes;
      try (ProcessWatch watch = ProcessWatch.start("HOME", inv.stateDir().resolve("home").toString())) {
        run = run(inv);
        processes = watch.seen();
        assertEquals(List.of(), watch.alive(), "nothing of the run is left running");
      }
      assertSucceeded(run);
      assertEquals(PLAIN, Files.readString(inv.workDir().resolve("output/answer.md")));
      List<ScriptedModelServer.Request> turns = turns(server.requests().subList(from, server.requests().size()));
      String shown = "HOME=" + inv.stateDir().resolve("home") + " TMPDIR=" + inv.stateDir().resolve("tmp");
      assertTrue(turns.stream().anyMatch(r -> r.rawBody().contains(shown)),
          "the agent's shell ran with the run's own HOME and TMPDIR: " + shown);
      assertTrue(turns.stream().allMatch(r -> ("Bearer " + SECRET).equals(r.authorization())),
          "the key reached the server from the environment");
      assertFalse(processes.isEmpty(), "the watch saw the CLI's processes");
      processes.forEach((pid, argv) -> assertTrue(argv.stream().noneMatch(a -> a.contains(SECRET)),
          "the key is in the arguments of " + argv));
      assertEquals(List.of(), FilesHolding.containing(inv.workDir(), SECRET));
      assertEquals(List.of(), FilesHolding.containing(inv.stateDir(), SECRET));
    }
    assertEquals(realHome, userFolders(), "nothing was written to the user's own CLI folders");
  }

  /** The CLI folders of the real home with their modification times (absent ones left out). */
  private static Map<Path, FileTime> userFolders() throws IOException {
    Path home = Path.of(System.getProperty("user.home"));
    Map<Path, FileTime> out = new TreeMap<>();
    for (String p : List.of(".config/opencode", ".local/share/opencode", ".local/state/opencode", ".cache/opencode",
        ".opencode", ".codex")) {
      Path f = home.resolve(p);
      if (Files.exists(f)) out.put(f, Files.getLastModifiedTime(f));
    }
    return out;
  }

  @Test
  void aServerThatIsDownEndsInTheTimeoutWithNothingLeftRunning() throws Exception {
    int port;
    try (ScriptedModelServer gone = ScriptedModelServer.start(ScriptedModelServer.Brain.saying(""))) {
      port = gone.port();
    }
    Duration timeout = downTimeout();
    AgentInvocation inv = invocation("down", "http://127.0.0.1:" + port + "/v1", timeout);
    try (ProcessWatch watch = ProcessWatch.start("HOME", inv.stateDir().resolve("home").toString())) {
      AgentRun run = run(inv);
      assertTrue(run.timedOut());
      assertNull(run.process().exit());
      assertTrue(run.process().wallS() >= timeout.toSeconds() && run.process().wallS() < timeout.toSeconds() + 15,
          "ended by the timeout: " + run.process().wallS() + " s");
      assertFalse(watch.seen().isEmpty(), "the watch saw the CLI's processes");
      assertEquals(List.of(), watch.alive(), "the whole process group is gone");
    }
  }

  @Test
  void anHttpErrorEndsTheRunWithAnErrorEvent() throws Exception {
    serve(c -> new Turn.Fail(400, "scripted bad request"));
    AgentRun run = run(invocation("error", server.baseUrl(), RUN));
    assertEquals(1, run.process().exit(), () -> "stderr: " + run.process().stderrTail(2000));
    List<String> types = new ArrayList<>();
    for (String line : Files.readAllLines(run.stdoutJsonl())) {
      if (line.startsWith("{")) types.add(Json.MAPPER.readTree(line).path("type").asText());
    }
    assertTrue(types.contains("error"), "an error event in " + types);
    assertTrue(Files.readString(run.stdoutJsonl()).contains("scripted bad request"));
  }

  @Test
  void aStateFolderInUseOrAMissingKeyIsRefusedBeforeAnythingRuns() throws Exception {
    AgentInvocation used = invocation("used", "http://127.0.0.1:9/v1", RUN);
    Files.createDirectories(used.stateDir());
    Files.writeString(used.stateDir().resolve("left-over"), "x");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(used));
    assertTrue(e.getMessage().contains("not empty"), e.getMessage());

    AgentInvocation fresh = invocation("no-key", "http://127.0.0.1:9/v1", RUN);
    AgentInvocation noKey = new AgentInvocation(fresh.binary(), fresh.workDir(), fresh.stateDir(), fresh.role(),
        fresh.prompt(), fresh.timeout(), Map.of("PATH", System.getenv("PATH")), List.of());
    e = assertThrows(IllegalArgumentException.class, () -> run(noKey));
    assertTrue(e.getMessage().contains("export " + KEY_VAR), e.getMessage());
  }
}
