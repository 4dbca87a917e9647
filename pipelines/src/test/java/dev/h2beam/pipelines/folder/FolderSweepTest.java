package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.FilesHolding;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.llm.EndpointProxy;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.judge.JudgeCommand;
import dev.h2beam.pipelines.judge.JudgeOptions;
import dev.h2beam.pipelines.report.ReportCommand;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepCommand;
import dev.h2beam.pipelines.sweep.SweepOptions;
import dev.h2beam.transforms.evidence.FileTrees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example end to end over real HTTP: every executor rollout and every improver, selector, reflector and
 * judge session goes to a scripted OpenAI-compatible model on loopback, which answers according to what it is sent.
 * The base harness adds magnitudes, so its answers are wrong; the improvers tell it to keep the sign; the judge and
 * the report see the improvement. The same files come out of the DirectRunner and embedded Flink, and the secret key
 * the endpoint needs never reaches a file.
 */
class FolderSweepTest {
  static final Path EXAMPLE = Paths.get("..", "examples", "folder-bench").toAbsolutePath().normalize();
  /** Set for the test JVM by the pom (surefire environmentVariables); an endpoint of the test config names it. */
  static final String KEY_VAR = "H2BEAM_TEST_KEY";

  static ScriptedModelServer server;
  static SignedSumsModel model;

  @BeforeAll
  static void start() throws Exception {
    model = new SignedSumsModel();
    server = ScriptedModelServer.start(model);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Path config(Path dir) throws Exception {
    return config(dir, server.baseUrl());
  }

  /** A configuration whose every role is served by the scripted server at {@code baseUrl}. */
  static Path config(Path dir, String baseUrl) throws Exception {
    return config(dir, baseUrl, "");
  }

  /** The grant that lets the rubric judge of {@link #config} send the example's rubrics to its model. */
  static final String RUBRIC_GRANT = "grants:\n  - {benchmark: signed_sums, endpoint: local, model: \"judge-model\","
      + " references: \"grading/rubric.json\"}\n";

  /** The same with {@code extra} (e.g. a {@code grants:} section, or more endpoints) appended to the file. */
  static Path config(Path dir, String baseUrl, String extra) throws Exception {
    Path f = dir.resolve("config.yaml");
    Files.writeString(f, "endpoints:\n  local: {base_url: \"" + baseUrl + "\", api_key_env: \"" + KEY_VAR
        + "\", max_concurrency: 4, timeout_seconds: 30, max_attempts: 3,"
        + " price_per_mtok: {input: 1.0, output: 2.0}}\n"
        + "roles:\n"
        + "  executor: {endpoint: local, model: \"exec-model\", temperature: 0.0, max_tokens: 64}\n"
        + "  improver: {endpoint: local, model: \"improve-model\"}\n"
        + "  selector: {endpoint: local, model: \"select-model\"}\n"
        + "  reflector: {endpoint: local, model: \"select-model\"}\n"
        + "  judge: {endpoint: local, model: \"judge-model\"}\n" + extra);
    return f;
  }

  /**
   * Checks every session's audit entry under {@code runs}: its {@code model_calls} (one attempt each, no retries in
   * these sweeps) were all sent and answered whole, and their tokens add up to the usage the session reported.
   * Returns the number of sessions.
   */
  static int sessionCallsAddUp(Path runs) throws Exception {
    int sessions = 0;
    try (java.util.stream.Stream<Path> s = Files.walk(runs.resolve("_audit"))) {
      for (Path meta : s.filter(p -> p.getFileName().toString().endsWith(".meta.json")).toList()) {
        JsonNode m = Json.readTree(meta);
        JsonNode calls = m.path("model_calls");
        assertTrue(calls.isArray() && calls.size() > 0, meta + ": " + m);
        long tokens = 0;
        for (JsonNode c : calls) {
          assertEquals(200, c.path("status").asInt(), meta + ": " + c);
          assertTrue(c.path("dropped").isNull(), "every reply read whole: " + meta + ": " + c);
          assertTrue(!c.path("sent").isNull() && c.path("held_s").asDouble() >= 0, meta + ": " + c);
          assertEquals(1, c.path("attempt").asInt(), meta + ": " + c);
          tokens += c.path("tokens").asLong();
        }
        JsonNode u = m.path("usage");
        assertEquals(u.path("prompt_tokens").asLong() + u.path("completion_tokens").asLong(), tokens, meta + ": " + m);
        if (m.path("channel").asText().equals("openai")) {
          // what the model was shown, whole: the system message, then the mission with the evidence in its fences
          String name = meta.getFileName().toString();
          Path prompt = meta.resolveSibling(name.substring(0, name.length() - ".meta.json".length()) + ".prompt.json");
          JsonNode messages = Json.readTree(prompt).path("messages");
          assertEquals("system", messages.path(0).path("role").asText(), prompt.toString());
          String user = messages.path(1).path("content").asText();
          String mission = Files.readString(meta.resolveSibling(prompt.getFileName().toString()
              .replace(".prompt.json", ".mission.md")));
          assertTrue(user.startsWith(mission) && user.contains("<<<BEGIN FILE "), prompt + ": " + user);
        }
        sessions++;
      }
    }
    return sessions;
  }

  /**
   * Checks every completed rollout's call log under {@code runs}: at least one call, every call sent and answered
   * whole (no faults in these sweeps), and the tokens the replies reported add up to the input and output tokens the
   * rollout was charged (its completion mark). Returns the number of rollouts.
   */
  static int rolloutCallsAddUp(Path runs) throws Exception {
    int rollouts = 0;
    try (java.util.stream.Stream<Path> s = Files.walk(runs.resolve("_executions"))) {
      for (Path mark : s.filter(p -> p.getFileName().toString().equals(Runmark.MARKER)).toList()) {
        JsonNode m = Json.readTree(mark);
        Path log = mark.resolveSibling(EndpointProxy.CALL_LOG);
        assertTrue(Files.isRegularFile(log), "no call log beside " + mark);
        List<String> lines = Files.readAllLines(log);
        assertFalse(lines.isEmpty(), log.toString());
        long tokens = 0;
        for (String l : lines) {
          JsonNode c = Json.readTree(l);
          assertEquals(200, c.path("status").asInt(), log + ": " + c);
          assertTrue(c.path("dropped").isNull() && !c.path("sent").isNull(), log + ": " + c);
          tokens += c.path("tokens").asLong();
        }
        assertEquals(m.path("input_tokens").asLong() + m.path("output_tokens").asLong(), tokens, log + ": " + m);
        rollouts++;
      }
    }
    return rollouts;
  }

  static Map<String, Object> sweep(Path runs, Path config, String... extra) throws Exception {
    return sweepAt(runs, config, 2, "parallel,sequential", extra);
  }

  static Map<String, Object> sweepAt(Path runs, Path config, int k, String modes, String... extra) throws Exception {
    return sweepIn(EXAMPLE, runs, config, k, modes, extra);
  }

  /** The same over the folder benchmark at {@code benchRoot}. */
  static Map<String, Object> sweepIn(Path benchRoot, Path runs, Path config, int k, String modes, String... extra)
      throws Exception {
    SweepOptions o = optionsIn(benchRoot, runs, config, k, modes, extra);
    return Sweep.run(Sweep.plan(o, Instant.parse("2026-01-01T00:00:00Z")), o);
  }

  /** The options of {@link #sweepIn}. */
  static SweepOptions optionsIn(Path benchRoot, Path runs, Path config, int k, String modes, String... extra) {
    List<String> args = new ArrayList<>(List.of("--bench=folder", "--benchRoot=" + benchRoot, "--config=" + config,
        "--runsRoot=" + runs, "--k=" + k, "--modes=" + modes, "--sessionRetryWaitSeconds=0"));
    args.addAll(List.of(extra));
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(SweepOptions.class);
  }

  static String judge(Path ns, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--namespaces=" + ns));
    args.addAll(List.of(extra));
    JudgeOptions o = PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(JudgeOptions.class);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = JudgeCommand.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    return text;
  }

  static String report(Path ns) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = new ReportCommand().run(new String[] {"--namespaces=" + ns},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    return text;
  }

  @Test
  void theExampleImprovesOverHttpAndTheJudgeAndReportSeeIt(@TempDir Path tmp) throws Exception {
    Path runs = tmp.resolve("runs");
    Map<String, Object> record = sweep(runs, config(tmp));
    assertEquals(4, Sweep.doneFailed(record)[0], record.toString());
    assertEquals(0, Sweep.doneFailed(record)[1], record.toString());
    Path ns = runs.resolve("signed_sums-oc-agg2");

    // every request carried the key, from the named environment variable
    assertFalse(server.requests().isEmpty());
    assertTrue(server.requests().stream().allMatch(ScriptedModelServer.Request::authorized));

    // executor spend is real now: the ledger records the rollouts' cost
    JsonNode summary = Json.readTree(ns.resolve("ledgers__march/summary.json"));
    assertTrue(summary.at("/modes/agg/ledger/rollout_usd").asDouble() > 0, summary.toString());
    assertTrue(summary.at("/modes/agg/ledger/session_usd").asDouble() > 0, summary.toString());
    assertEquals(8, summary.at("/modes/seq/ledger/R").asInt());
    assertEquals(6, summary.at("/modes/seq/ledger/P").asInt());

    // each session's audit entry holds its HTTP calls: sent, answered, and the tokens its usage adds up to
    int sessions = sessionCallsAddUp(runs);
    assertTrue(sessions >= 12, "sessions audited: " + sessions);
    // and each rollout's run folder its own, as an agent CLI's relay records them
    // (4 tasks, k = 2: k shared bases, then 3k rollouts in each mode)
    assertEquals(4 * 7 * 2, rolloutCallsAddUp(runs), "rollouts with their calls");
    try (Stream<Path> files = Files.walk(runs.resolve("_audit"))) {
      assertEquals(sessions, files.filter(p -> p.toString().endsWith(".prompt.json")).count(),
          "every openai session's prompt is kept whole beside its mission");
    }

    // the run identity names the models of every role
    JsonNode id = Json.readTree(ns.resolve("config.json"));
    assertEquals(server.baseUrl() + "#exec-model", id.at("/roles/executor").asText());
    assertEquals("openai:" + server.baseUrl() + "#improve-model|selector:" + server.baseUrl() + "#select-model|reflector:"
        + server.baseUrl() + "#select-model", id.path("improver").asText());

    // the base harness adds magnitudes (wrong); every final keeps the sign (right)
    String judged = judge(ns);
    assertTrue(judged.contains("8 graded"), judged);
    JsonNode rows = Json.readTree(ns.resolve("judged.json"));
    int passed = 0;
    for (JsonNode r : rows) passed += r.path("n_passed").asInt();
    assertEquals(8, passed, rows.toString());
    String bases = judge(ns, "--bases=true");
    assertTrue(bases.contains("0 graded") || Files.readString(ns.resolve("base_judged.json")).contains("\"n_passed\": 0"),
        bases);
    String text = report(ns);
    assertTrue(text.contains("parallel") && text.contains("sequential"), text);

    // no key value reached any file under the run folders
    String secret = System.getenv(KEY_VAR);
    assertTrue(secret != null && secret.length() > 8, "the pom sets " + KEY_VAR);
    assertEquals(List.of(), FilesHolding.containing(tmp, secret));
  }

  @Test
  void anotherRunsRootsLibraryIsRefusedBeforeAnythingRunsEvenUnderTheSameNamespaceNames(@TempDir Path tmp)
      throws Exception {
    Path first = tmp.resolve("a");
    Path cfg = config(tmp);
    sweepAt(first, cfg, 1, "parallel");
    Path library = first.resolve("_library/k1-oc");
    Path claim = library.resolve(".h2beam/runs-root.json");
    byte[] lessons = Files.readAllBytes(library.resolve("agg/ledgers/harnesses/ledgers__april/EXPERIENCE.md"));

    // the same benchmark, k, seed and modes from another runs root: the entries' namespaces match, the runs root not
    Path second = tmp.resolve("b");
    UsageError e = assertThrows(UsageError.class,
        () -> sweepAt(second, cfg, 1, "parallel", "--libraryRoot=" + library));
    assertTrue(e.getMessage().startsWith("--libraryRoot=" + library + " is the library of the runs root " + first
        + " (" + claim + "), not of this sweep's runs root " + second), e.getMessage());
    assertTrue(e.getMessage().contains("sweep with --runsRoot=" + first), e.getMessage());
    assertFalse(Files.exists(second), "refused before anything ran, its runs root made and removed again");
    assertEquals(first.toString(), Json.readMap(claim).get("runs_root"));
    assertTrue(Sweep.dryRunNotes(Sweep.plan(optionsIn(EXAMPLE, second, cfg, 1, "parallel",
        "--libraryRoot=" + library), Instant.parse("2026-01-01T00:00:00Z"))).contains("the sweep would be refused: "
        + e.getMessage()));

    // the first runs root resumes as before
    sweepAt(first, cfg, 1, "parallel");
    assertEquals(new String(lessons), Files.readString(library.resolve("agg/ledgers/harnesses/ledgers__april/"
        + "EXPERIENCE.md")));
  }

  /**
   * dogAK F1: the key a task's source holds would reach the executor's and the improver's prompts and the run folders
   * in clear: the sweep refuses it before anything runs, naming the file and line, never the key.
   */
  @Test
  void aKeyInATasksSourceIsRefusedBeforeAnythingRuns(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    FileTrees.copy(EXAMPLE, bench);
    String secret = System.getenv(KEY_VAR);
    Path creds = bench.resolve("tasks/ledgers/march/source/creds.txt");
    Files.createDirectories(creds.getParent());
    Files.writeString(creds, "note: api token " + secret + "\n");
    Path runs = tmp.resolve("runs");
    int requests = server.requests().size();
    UsageError e = assertThrows(UsageError.class, () -> sweepIn(bench, runs, config(tmp), 1, "parallel"));
    assertTrue(e.getMessage().startsWith("the tasks of --bench=folder cannot be used:\n  " + creds + " line 1 ("),
        e.getMessage());
    assertFalse(e.getMessage().contains(secret), e.getMessage());
    assertEquals(requests, server.requests().size(), "no model was called");
    assertFalse(Files.exists(runs), "refused before anything ran, its runs root made and removed again");
  }

  /**
   * dogAK F2: an answer key edited after a namespace was judged is another instrument: re-judging it is refused (one
   * judged.json never mixes two keys), and with the grades moved aside the new key's identity is recorded.
   */
  @Test
  void anEditedAnswerKeyIsAnotherJudge(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    FileTrees.copy(EXAMPLE, bench);
    Path runs = tmp.resolve("runs");
    sweepIn(bench, runs, config(tmp), 1, "parallel");
    Path ns = runs.resolve("signed_sums-oc-agg1");
    judge(ns);
    String first = Json.readTree(ns.resolve("config.json")).path("judge").asText();
    assertTrue(first.matches("expected:(exact|normalized):[0-9a-f]{16}"), first);
    judge(ns); // the same keys: the same judge, nothing refused
    // a task added to the benchmark since is none of this namespace's: the same judge of it (dogAM F3)
    Path may = Files.createDirectories(bench.resolve("tasks/ledgers/may/grading"));
    Files.writeString(may.resolveSibling("task.md"), "Total May.\n");
    Files.writeString(may.resolve("expected.txt"), "Total: 1.00\n");
    judge(ns);
    assertEquals(first, Json.readTree(ns.resolve("config.json")).path("judge").asText());

    Path key = bench.resolve("tasks/ledgers/march/grading/expected.txt");
    Files.writeString(key, Files.readString(key) + "edited\n");
    byte[] grades = Files.readAllBytes(ns.resolve("judged.json"));
    UsageError e = assertThrows(UsageError.class, () -> judge(ns));
    assertTrue(e.getMessage().contains("judging with a different judge is refused") && e.getMessage().contains(first),
        e.getMessage());
    assertEquals(new String(grades), Files.readString(ns.resolve("judged.json")), "nothing was written");

    Files.move(ns.resolve("judged.json"), tmp.resolve("judged.old.json"));
    judge(ns);
    String second = Json.readTree(ns.resolve("config.json")).path("judge").asText();
    assertNotEquals(first, second);
    assertEquals(first.substring(0, first.lastIndexOf(':')), second.substring(0, second.lastIndexOf(':')));
  }

  @Test
  void theJudgeTheSweepPrintsRunsTheCommandGraderItsBenchJsonDeclares(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    FileTrees.copy(EXAMPLE, bench);
    Path grade = Files.writeString(tmp.resolve("grade.sh"), "echo '{\"n_passed\": 1, \"n_criteria\": 1}'\n");
    Path benchJson = bench.resolve("bench.json");
    Files.writeString(benchJson, Files.readString(benchJson).replace("\"grader\": {\"kind\": \"expected\"}",
        "\"grader\": {\"kind\": \"command\", \"command\": \"sh " + grade + "\"}"));
    Path runs = tmp.resolve("runs");
    Path config = config(tmp);
    SweepOptions o = PipelineOptionsFactory.fromArgs("--bench=folder", "--benchRoot=" + bench, "--config=" + config,
        "--runsRoot=" + runs, "--k=1", "--modes=parallel", "--sessionRetryWaitSeconds=0").as(SweepOptions.class);
    Sweep.Plan plan = Sweep.plan(o, Instant.parse("2026-01-01T00:00:00Z"));
    Sweep.run(plan, o);
    String printed = SweepCommand.judgeCommand(plan, config.toString());
    assertTrue(printed.startsWith("./h2beam judge "), printed);
    assertFalse(printed.contains("--grader"), printed);
    // the printed line, as the user pastes it: no --graderCommand, the bench.json's command runs
    JudgeOptions j = PipelineOptionsFactory.fromArgs(printed.substring("./h2beam judge ".length()).split(" "))
        .as(JudgeOptions.class);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, JudgeCommand.run(j, new PrintStream(out, true, StandardCharsets.UTF_8)), out.toString());
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("4 graded"), out.toString(StandardCharsets.UTF_8));
    assertEquals("command:sh " + grade, Json.readTree(runs.resolve("signed_sums-oc-agg1/config.json")).path("judge")
        .asText());
  }

  @Test
  void theRubricJudgeGradesWithTheJudgeRole(@TempDir Path tmp) throws Exception {
    Path runs = tmp.resolve("runs");
    Path config = config(tmp, server.baseUrl(), RUBRIC_GRANT);
    sweepAt(runs, config, 1, "parallel");
    Path ns = runs.resolve("signed_sums-oc-agg1");
    // a judge endpoint whose key variable is unset: refused before any grade, nothing sent, nothing written
    Path keyless = tmp.resolve("keyless.yaml");
    Files.writeString(keyless, Files.readString(config).replace("  judge: {endpoint: local,", "  judge: {endpoint: j,")
        .replace("roles:\n", "  j: {base_url: \"" + server.baseUrl() + "\", api_key_env: H2BEAM_NO_JUDGE_KEY}\nroles:\n")
        .replace("endpoint: local, model: \"judge-model\"", "endpoint: j, model: \"judge-model\""));
    int sent = server.requests().size();
    UsageError refused = assertThrows(UsageError.class, () -> judge(ns, "--grader=rubric", "--config=" + keyless));
    assertTrue(refused.getMessage().contains("environment variable H2BEAM_NO_JUDGE_KEY (api_key_env of endpoint j)"
        + " is not set on host "), refused.getMessage());
    assertEquals(sent, server.requests().size(), "nothing was sent");
    assertFalse(Files.exists(ns.resolve("judged.json")), "nothing was written");
    String out = judge(ns, "--grader=rubric", "--config=" + config);
    assertTrue(out.contains("4 graded"), out);
    JsonNode rows = Json.readTree(ns.resolve("judged.json"));
    double spent = 0;
    for (JsonNode r : rows) {
      assertEquals(3.0, r.path("n_criteria").asDouble(), r.toString());
      assertEquals(3.0, r.path("n_passed").asDouble(), r.toString());
      assertTrue(r.at("/raw/criteria").isArray(), r.toString());
      spent += r.at("/raw/judge_cost_usd").asDouble();
    }
    // what the judge model cost this run, the rows' own costs summed
    assertTrue(spent > 0, rows.toString());
    assertTrue(out.contains(String.format(java.util.Locale.ROOT, "signed_sums-oc-agg1: the judge model this run:"
        + " $%.4f for 4 row(s)%n", spent)), out);
    assertTrue(Json.readTree(ns.resolve("config.json")).path("judge").asText().startsWith("rubric:"));
  }

  @Test
  void embeddedFlinkWritesTheSameFilesAsTheDirectRunner(@TempDir Path tmp) throws Exception {
    Path direct = tmp.resolve("direct");
    Path flink = tmp.resolve("flink");
    Path config = config(tmp);
    sweep(direct, config);
    sweep(flink, config, "--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2");
    judge(direct.resolve("signed_sums-oc-agg2"));
    judge(flink.resolve("signed_sums-oc-agg2"), "--runner=FlinkRunner", "--flinkMaster=[local]",
        "--parallelism=2");
    assertEquals(List.of(), server.failures(), "the model answered every request");
    assertTrue(sameFiles(direct, flink).size() >= 10);
  }

  /**
   * Asserts that two runs wrote the same summaries, selections, judged rows and libraries, and returns the first's.
   * Whether a cost, or a count of tokens, is all known depends on the transport (a call sent, unanswered and retried
   * may have been billed), not on the runner: the marks of costs and tokens not known are compared apart, and any a
   * run has must be explained by such a call.
   */
  static TreeMap<String, String> sameFiles(Path direct, Path flink) throws Exception {
    TreeMap<String, String> a = files(direct);
    TreeMap<String, String> b = files(flink);
    assertEquals(a.keySet(), b.keySet());
    for (String rel : a.keySet()) assertEquals(withoutCostMarks(a.get(rel)), withoutCostMarks(b.get(rel)), rel);
    for (Path root : List.of(direct, flink)) unknownCostsExplained(root);
    return a;
  }

  /**
   * A file's text without the marks of costs and tokens not known (usd_known, cost_unknown, cost_known,
   * tokens_unknown, tokens_known).
   */
  static String withoutCostMarks(String text) throws Exception {
    if (!text.startsWith("{") && !text.startsWith("[")) return text;
    JsonNode tree = Json.MAPPER.readTree(text);
    strip(tree);
    return Json.pretty(tree);
  }

  private static void strip(JsonNode n) {
    if (n instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
      o.remove(List.of("usd_known", "cost_unknown", "cost_known", "tokens_unknown", "tokens_known"));
    }
    for (JsonNode child : n) strip(child);
  }

  /**
   * Every cost the sweep under {@code root} marks as not known has a call behind it that was sent and got no usable
   * answer (no status, or a success without its token counts), in a session's audit entry or a rollout's call log.
   */
  static void unknownCostsExplained(Path root) throws Exception {
    boolean marked = false;
    List<JsonNode> unanswered = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        if (name.equals("summary.json")) {
          String text = Files.readString(p);
          marked |= text.contains("\"usd_known\"") || text.contains("\"cost_unknown\"")
              || text.contains("\"tokens_unknown\"") || text.contains("\"tokens_known\"");
        } else if (name.endsWith(".meta.json")) {
          for (JsonNode c : Json.readTree(p).path("model_calls")) if (unanswered(c)) unanswered.add(c);
        } else if (name.equals(EndpointProxy.CALL_LOG)) {
          for (String l : Files.readAllLines(p)) if (unanswered(Json.readTree(l))) unanswered.add(Json.readTree(l));
        }
      }
    }
    assertTrue(!marked || !unanswered.isEmpty(), "a cost or count marked not known under " + root + " with every call"
        + " answered");
  }

  private static boolean unanswered(JsonNode call) {
    return !call.path("sent").isNull() && (call.path("status").isNull() || (call.path("status").asInt() / 100 == 2
        && (call.path("input_tokens").isNull() || call.path("output_tokens").isNull())));
  }

  static TreeMap<String, String> files(Path root) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = root.relativize(p).toString();
        String name = p.getFileName().toString();
        if (List.of("summary.json", "selection.json", "judged.json", "EXPERIENCE.md").contains(name)) {
          out.put(rel, Files.readString(p).replace(root.toString(), "<root>"));
        }
      }
    }
    return out;
  }
}
