package dev.h2beam.pipelines.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code h2beam check}: every problem as a FAIL line with its fix, Ready only when all holds. */
class CheckCommandTest {
  static final Path EXAMPLE = Paths.get("..", "examples", "folder-bench").toAbsolutePath().normalize();
  static final Map<String, String> ENV = Map.of("CHECK_KEY", "a-check-secret-value");

  @TempDir Path tmp;

  Path config(String baseUrl) throws Exception {
    Path f = tmp.resolve("c.yaml");
    Files.writeString(f, "endpoints:\n  m: {base_url: \"" + baseUrl + "\", api_key_env: CHECK_KEY, max_attempts: 1,"
        + " timeout_seconds: 5}\nroles:\n  executor: {endpoint: m, model: e}\n  improver: {endpoint: m, model: i}\n"
        + "  selector: {endpoint: m, model: s}\n  reflector: {endpoint: m, model: s}\n");
    return f;
  }

  String check(Map<String, String> env, int expectedExit, String... args) {
    CheckOptions o = PipelineOptionsFactory.fromArgs(args).as(CheckOptions.class);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = CheckCommand.run(o, env, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, code, text);
    return text;
  }

  @Test
  void theExampleIsReadyWhenEveryModelAnswers() throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("OK"))) {
      String out = check(ENV, 0, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config(server.baseUrl()));
      assertTrue(out.startsWith("Ready: signed_sums/oc; 4 tasks."), out);
      // one ping per distinct endpoint and model: e, i, s
      assertEquals(3, server.requests().size());
      assertFalse(out.contains(ENV.get("CHECK_KEY")));
      // each with its role's max_tokens, none here (dogZ #3: a fixed 16 failed reasoning models the sweep runs)
      for (var r : server.requests()) assertFalse(r.body().has("max_tokens"), r.body().toString());
    }
  }

  /**
   * {@code --isolation=namespaces} checked as the sweep would take it, on this machine (which can, or says why not);
   * a benchmark that runs no outside agent is refused in the demo module ({@code IsolationRefusedTest}).
   */
  @Test
  void theSweepsIsolationIsCheckedOnThisMachine() throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("OK"))) {
      java.util.Optional<String> why = dev.h2beam.adapters.exec.Isolation.unavailable();
      String out = check(ENV, why.isEmpty() ? 0 : 1, "--bench=folder", "--benchRoot=" + EXAMPLE,
          "--config=" + config(server.baseUrl()), "--isolation=namespaces");
      assertTrue(why.isEmpty() ? out.contains("This machine isolates rollouts (--isolation=namespaces)")
          : out.contains("FAIL: --isolation=namespaces: this machine cannot isolate a program: " + why.get()), out);
    }
  }

  @Test
  void anUnsetKeyVariableIsNamedAndItsValueNeverPrinted() throws Exception {
    String out = check(Map.of(), 1, "--bench=folder", "--benchRoot=" + EXAMPLE,
        "--config=" + config("http://127.0.0.1:9/v1"));
    assertTrue(out.contains("FAIL: environment variable CHECK_KEY (the key of endpoint m) is not set; export it"),
        out);
    assertTrue(out.contains("Setup incomplete: 1 issue(s)."), out);
    assertFalse(out.contains("Real agents"), out);
    // an export without a value is said to be one (dogAK F11)
    out = check(Map.of("CHECK_KEY", ""), 1, "--bench=folder", "--benchRoot=" + EXAMPLE,
        "--config=" + config("http://127.0.0.1:9/v1"));
    assertTrue(out.contains("FAIL: environment variable CHECK_KEY (the key of endpoint m) is set but empty;"),
        out);
  }

  @Test
  void anEndpointThatDoesNotAnswerAndAMissingRoleAreEachAFailure() throws Exception {
    Path f = tmp.resolve("c.yaml");
    Files.writeString(f, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\", max_attempts: 1,"
        + " timeout_seconds: 5}\nroles:\n  executor: {endpoint: m, model: e}\n  improver: {endpoint: m, model: i}\n"
        + "  selector: {endpoint: m, model: s}\n");
    String out = check(Map.of(), 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + f);
    assertTrue(out.contains("FAIL: roles.reflector is not configured"), out);
    assertTrue(out.contains("FAIL: roles.executor: endpoint m (http://127.0.0.1:9/v1, model e) did not answer"), out);
  }

  /**
   * check sends one request per model whatever max_attempts says (a preflight that waits out the sweep's retries on a
   * server that is down only delays the answer), so its advice is the server's, not max_attempts'.
   */
  @Test
  void anEndpointThatDoesNotAnswerIsTriedOnceAndTheMessageSaysSo() throws Exception {
    Path f = tmp.resolve("c.yaml");
    Files.writeString(f, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\", max_attempts: 8,"
        + " timeout_seconds: 5}\nroles:\n  executor: {endpoint: m, model: e}\n  improver: {endpoint: m, model: e}\n"
        + "  selector: {endpoint: m, model: e}\n  reflector: {endpoint: m, model: e}\n");
    String out = check(Map.of(), 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + f);
    assertTrue(out.contains("FAIL: roles.executor: endpoint m (http://127.0.0.1:9/v1, model e) did not answer check's"
        + " one request: connection failed"), out);
    assertTrue(out.contains("check that the server is up and serves this model (check tries once; a sweep retries"
        + " each call up to the endpoint's max_attempts, 8)"), out);
    assertFalse(out.contains("raise max_attempts"), out);
  }

  /** A --config that does not read is the one failure named for it: not each role it would have configured too. */
  @Test
  void aConfigThatDoesNotReadIsNotAlsoEveryMissingRole() throws Exception {
    Path f = tmp.resolve("c.yaml");
    Files.writeString(f, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\nroles:\n  improver: {endpoint: m,"
        + " modle: i}\n");
    String out = check(Map.of(), 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + f, "--ping=false");
    assertTrue(out.contains("FAIL: --config=" + f + ": "), out);
    assertFalse(out.contains("is not configured") || out.contains("roles.executor"), out);
  }

  @Test
  void withoutPingNoRequestIsSent() throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("OK"))) {
      String out = check(ENV, 0, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config(server.baseUrl()),
          "--ping=false");
      assertTrue(out.contains("Model access was not exercised"), out);
      assertEquals(0, server.requests().size());
    }
  }

  /**
   * A one-task folder benchmark in {@code b/}: its base's system prompt is {@code systemPrompt}, its bench.json ends
   * with {@code more} (further keys, each with a leading comma), and it has no grading file.
   */
  private Path oneTaskBench(String systemPrompt, String more) throws Exception {
    Path root = tmp.resolve("b");
    Files.createDirectories(root.resolve("base"));
    Files.writeString(root.resolve("base/systemprompt.md"), systemPrompt);
    Files.createDirectories(root.resolve("tasks/d/t"));
    Files.writeString(root.resolve("tasks/d/t/task.md"), "Do it.\n");
    Files.writeString(root.resolve("bench.json"), "{\"name\": \"b\", \"executor\": {\"kind\": \"chat\"},"
        + " \"grader\": {\"kind\": \"expected\"}, \"prompts\": {\"work\": \"totals\"}" + more + "}");
    return root;
  }

  @Test
  void benchmarkProblemsAndAMissingGradingFileAreListed() throws Exception {
    Path root = oneTaskBench("You total ledgers.\n", "");
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false");
    assertTrue(out.contains("grading/expected.txt: missing"), out);
    assertTrue(out.contains("roles.reflector") || out.contains("Setup incomplete: 1 issue(s)."), out);
    // an empty one grades every output 0 against no answer (dogAK F3)
    Files.createDirectories(root.resolve("tasks/d/t/grading"));
    Files.writeString(root.resolve("tasks/d/t/grading/expected.txt"), "\n");
    out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false");
    assertTrue(out.contains("grading/expected.txt: empty (white space only); write the answer"), out);
  }

  @Test
  void aTaskProblemDoesNotHideTheBaseHarnessesProblems() throws Exception {
    Path root = oneTaskBench("You total ledgers.\napi_key = \"Zq8vR2mT5xW9kLp3\"\n",
        ", \"limits\": {\"max_source_bytes\": 100}");
    Files.createDirectories(root.resolve("base/notes"));
    Files.writeString(root.resolve("base/notes/todo.txt"), "off the surface\n");
    Files.createSymbolicLink(root.resolve("base/guardrails.md"), root.resolve("base/systemprompt.md"));
    Files.createDirectories(root.resolve("tasks/d/t/source"));
    Files.writeString(root.resolve("tasks/d/t/source/big.csv"), "x".repeat(200));
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false");
    assertTrue(out.contains("big.csv: 200 bytes, over limits.max_source_bytes"), out);
    assertTrue(out.contains("systemprompt.md line 2, field api_key"), "the credential too: " + out);
    assertTrue(out.contains("notes/todo.txt: not on the opencode surface"), out);
    assertEquals(1, out.lines().filter(l -> l.contains("base/guardrails.md: ")).count(), "the link named once: " + out);
  }

  @Test
  void aMissingAgentCliIsReportedWithTheCommandThatInstallsIt() throws Exception {
    Path empty = tmp.resolve("no-tools");
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--executor=codex", "--substrate=cx", "--channel=opencode", "--toolsDir=" + empty);
    assertTrue(out.contains("FAIL: --channel=opencode: opencode is not installed") && out.contains("npm"), out);
    assertTrue(out.contains("--executor=codex: codex is not installed"), out);
    // pointed at the section on agents, not only at the benchmark's (dogAK F12)
    assertTrue(out.contains("Setup incomplete: 2 issue(s). For OpenCode and Codex, see the README's \"Real agents:"
        + " OpenCode and Codex\". See the README's folder benchmark and configuration sections."), out);
  }

  /** --opencodeBin / --codexBin are checked as the sweep checks them: the flag that names a missing binary is named. */
  @Test
  void theUsersOwnAgentBinaryIsCheckedAndItsFlagNamed() throws Exception {
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + EXAMPLE,
        "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--executor=opencode", "--opencodeBin=/nonexistent/opencode", "--channel=codex",
        "--substrate=oc", "--codexBin=/nonexistent/codex");
    assertTrue(out.contains("--executor=opencode: --opencodeBin=/nonexistent/opencode does not exist; correct the"
        + " path, or drop --opencodeBin"), out);
    assertTrue(out.contains("FAIL: --channel=codex: --codexBin=/nonexistent/codex does not exist"), out);
    // as in the sweep, a binary has one source: the flag, not --benchSettings too
    out = check(ENV, 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--benchSettings={\"opencodeBin\": \"/x\"}");
    assertTrue(out.contains("FAIL: --benchSettings: opencodeBin is set by --opencodeBin, not here"), out);
  }

  /** The closing pointer names the README section of the benchmark checked, not always the folder benchmark's. */
  @Test
  void theClosingLineNamesTheSectionOfTheBenchmarkInUse() throws Exception {
    String out = check(ENV, 1, "--bench=jobbench", "--benchRoot=" + tmp, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false");
    assertTrue(out.endsWith("issue(s). See the README's JobBench and configuration sections.\n"), out);
    out = check(ENV, 1, "--bench=folder", "--benchRoot=" + tmp, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false");
    assertTrue(out.endsWith("issue(s). See the README's folder benchmark and configuration sections.\n"), out);
  }

  /**
   * --benchSettings keys a benchmark does not read are refused naming the flag, the key and the known keys, as the
   * synthetic benchmark's are; and an executor object given to the folder benchmark, whose executor is bench.json's,
   * names --benchSettings' executor (not --executor, which the user never gave) and bench.json.
   */
  @Test
  void benchSettingsTheBenchmarkDoesNotReadAreRefusedNamingTheFlag() throws Exception {
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + EXAMPLE,
        "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--benchSettings={\"bogus\": 1}");
    assertTrue(out.contains("FAIL: --benchSettings: bogus is not a setting of --bench=folder; known:"
        + " [executions, executor]"), out);
    out = check(ENV, 1, "--bench=jobbench", "--benchRoot=" + tmp, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--benchSettings={\"bogus\": 1}");
    assertTrue(out.contains("FAIL: --benchSettings: bogus is not a setting of --bench=jobbench; known:"
        + " [baseHarness, executions, executor, splitFile, timeoutSeconds]"), out);
    out = check(ENV, 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--benchSettings={\"executor\": {\"kind\": \"command\", \"command\": \"false\"}}");
    assertTrue(out.contains("FAIL: --benchSettings' executor {\"command\":\"false\",\"kind\":\"command\"}: the"
        + " folder benchmark takes its executor from " + EXAMPLE.resolve("bench.json")), out);
    assertFalse(out.contains("--executor="), out);
    // JobBench names its settings as they were given too: a flag with its value, or --benchSettings' key
    out = check(ENV, 1, "--bench=jobbench", "--benchRoot=" + tmp, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--benchSettings={\"executor\": \"telepathy\", \"timeoutSeconds\": \"soon\"}");
    assertTrue(out.contains("FAIL: --benchSettings' executor: kind 'telepathy' is not known; known: [chat,"), out);
    assertTrue(out.contains("FAIL: --benchSettings' timeoutSeconds: 'soon' must be a whole number"), out);
    assertFalse(out.contains("--executor=") || out.contains("setting executor"), out);
    out = check(ENV, 1, "--bench=jobbench", "--benchRoot=" + tmp, "--config=" + config("http://127.0.0.1:9/v1"),
        "--ping=false", "--executor=telepathy");
    assertTrue(out.contains("FAIL: --executor=telepathy: kind 'telepathy' is not known"), out);
  }

  /** A copy of the example benchmark graded by the rubric judge. */
  Path rubricBench() throws Exception {
    return exampleGradedBy("{\"kind\": \"rubric\"}");
  }

  /** A copy of the example whose bench.json declares {@code grader} instead of its expected grader. */
  Path exampleGradedBy(String grader) throws Exception {
    Path root = Files.createTempDirectory(tmp, "graded-bench");
    try (var files = Files.walk(EXAMPLE)) {
      for (Path p : files.toList()) {
        Path to = root.resolve(EXAMPLE.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(to);
        else Files.copy(p, to);
      }
    }
    Path bench = root.resolve("bench.json");
    Files.writeString(bench, Files.readString(bench).replace("\"grader\": {\"kind\": \"expected\"}",
        "\"grader\": " + grader));
    return root;
  }

  /** The judge would refuse a command grader without a command; check refuses it first, in the judge's words. */
  @Test
  void aCommandGraderWithoutACommandIsRefusedNamingTheFileTheFieldAndBothFixes() throws Exception {
    for (String grader : List.of("{\"kind\": \"command\"}", "{\"kind\": \"command\", \"command\": \" \"}")) {
      Path root = exampleGradedBy(grader);
      String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config("http://127.0.0.1:9/v1"),
          "--ping=false");
      assertTrue(out.contains("FAIL: " + root.resolve("bench.json").toAbsolutePath() + ": grader.command: the command"
          + " grader has no command: declare it there as \"grader\": {\"kind\": \"command\", \"command\": \"...\"}, or"
          + " give h2beam judge --graderCommand='<command printing a score JSON>'"), grader + ": " + out);
      assertTrue(out.contains("Setup incomplete: 1 issue(s)."), out);
    }
    Path declared = exampleGradedBy("{\"kind\": \"command\", \"command\": \"echo '{}'\"}");
    String out = check(ENV, 0, "--bench=folder", "--benchRoot=" + declared,
        "--config=" + config("http://127.0.0.1:9/v1"), "--ping=false");
    assertTrue(out.startsWith("Ready: signed_sums/oc; 4 tasks."), out);
  }

  Path judgeConfig(String extra) throws Exception {
    Path f = config("http://127.0.0.1:9/v1");
    Files.writeString(f, Files.readString(f) + "  judge: {endpoint: m, model: j}\n" + extra);
    return f;
  }

  @Test
  void aRubricJudgeWithoutAGrantIsRefusedAsTheJudgeWouldRefuseIt() throws Exception {
    Path config = judgeConfig("");
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + rubricBench(), "--config=" + config,
        "--ping=false");
    assertTrue(out.contains("FAIL: h2beam judge --grader=rubric would refuse to grade this benchmark: signed_sums: the"
        + " judge of benchmark signed_sums sends grading/rubric.json to endpoint m (model j), and --config=" + config
        + " grants no reference egress for signed_sums"), out);
    assertTrue(out.contains("add this entry to its grants: list: {benchmark: \"signed_sums\", endpoint: \"m\","
        + " model: \"j\", references: \"grading/rubric.json\"}"), out);
    assertTrue(out.contains("Setup incomplete: 1 issue(s)."), out);
  }

  @Test
  void aRubricJudgeWithItsGrantIsReady() throws Exception {
    Path config = judgeConfig("grants:\n  - {benchmark: signed_sums, endpoint: m, model: j,"
        + " references: \"grading/rubric.json\"}\n");
    String out = check(ENV, 0, "--bench=folder", "--benchRoot=" + rubricBench(), "--config=" + config,
        "--ping=false");
    assertTrue(out.startsWith("Ready: signed_sums/oc; 4 tasks."), out);
  }

  @Test
  void aGrantForAGraderThatSendsNothingIsRefusedAsTheJudgeWouldRefuseIt() throws Exception {
    Path config = judgeConfig("grants:\n  - {benchmark: signed_sums, endpoint: m, model: j,"
        + " references: \"grading/rubric.json\"}\n");
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config, "--ping=false");
    assertTrue(out.contains("would refuse to grade this benchmark: --config=" + config + ": grants[0] (benchmark"
        + " signed_sums) grants reference egress, but its judge here (--grader=expected) sends no reference"), out);
  }

  /**
   * dogAG A6: the README's grant for judging the example with the rubric judge failed check (which asked for the
   * bench.json grader's needs), and check had no way to be told the grader. --grader is that way.
   */
  @Test
  void theGraderTheJudgeWillBeGivenIsTheOneChecked() throws Exception {
    Path config = judgeConfig("grants:\n  - {benchmark: signed_sums, endpoint: m, model: j,"
        + " references: \"grading/rubric.json\"}\n");
    String out = check(ENV, 0, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config, "--ping=false",
        "--grader=rubric");
    assertTrue(out.startsWith("Ready: signed_sums/oc; 4 tasks."), out);
    out = check(ENV, 1, "--bench=folder", "--benchRoot=" + EXAMPLE, "--config=" + config, "--ping=false",
        "--grader=rubrik");
    assertTrue(out.contains("--grader=rubrik is not a known grader; known: ["), out);
  }

  @Test
  void aRubricThatDoesNotParseIsNamedByItsFile() throws Exception {
    Path root = rubricBench();
    Path rubric = root.resolve("tasks/ledgers/april/grading/rubric.json");
    Files.writeString(rubric, "{\"criteria\": [");
    Path config = judgeConfig("grants:\n  - {benchmark: signed_sums, endpoint: m, model: j,"
        + " references: \"grading/rubric.json\"}\n");
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config, "--ping=false");
    assertTrue(out.contains("FAIL: " + rubric + ": not valid JSON: "), out);
    assertTrue(out.contains("(line 1, column ") && !out.contains("[Source"), "where, and none of its text: " + out);
    assertTrue(out.contains("Setup incomplete: 1 issue(s)."), out);
  }

  @Test
  void aRubricWithoutCriteriaIsRefusedWithTheJudgesMessage() throws Exception {
    Path root = rubricBench();
    Path rubric = root.resolve("tasks/ledgers/april/grading/rubric.json");
    Files.writeString(rubric, "{\"criteria\": []}");
    String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + judgeConfig(""), "--ping=false");
    assertTrue(out.contains("FAIL: " + rubric + ": must be {\"criteria\": [{\"id\": ..."), out);
  }

  /**
   * dogAK F1: a key in what a task gives the executor and the method (its task.md, sources and checks) fails the
   * check, each named by file and line and never shown: the held key's value and provider-shaped keys alike.
   */
  @Test
  void aKeyInATasksInstructionSourcesOrChecksIsAFailureThatNeverShowsTheKey() throws Exception {
    String key = "tally-local-key-12345678";
    String provider = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8t";
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("TALLY_API_KEY", key));
    try {
      Path root = oneTaskBench("You total ledgers.\n", "");
      Path task = root.resolve("tasks/d/t");
      Files.writeString(task.resolve("task.md"), "Do it.\nUse " + key + " if asked.\n");
      Files.createDirectories(task.resolve("source/conf"));
      Files.writeString(task.resolve("source/conf/creds.txt"), "note: api token " + key + "\n");
      Files.writeString(task.resolve("source/.env"), "# settings\nOPENAI_API_KEY=" + provider + "\n");
      Files.writeString(task.resolve("source/data.csv"), "a,b\n1,2\n");
      Files.createDirectories(task.resolve("checks"));
      Files.writeString(task.resolve("checks/check.sh"), "#!/bin/sh\necho ok\n");
      String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config("http://127.0.0.1:9/v1"),
          "--ping=false");
      assertTrue(out.contains(task.resolve("task.md") + " line 2 ("), out);
      assertTrue(out.contains(task.resolve("source/conf/creds.txt") + " line 1 ("), out);
      assertTrue(out.contains(task.resolve("source/.env") + " line 2 (sk-…)"), out);
      assertTrue(out.contains("holds what looks like a literal credential; a task's instruction, sources and checks"
          + " (they reach the executor and the method's prompts) must never carry credentials: rotate the key"), out);
      assertFalse(out.contains("data.csv") || out.contains("check.sh"), out);
      assertFalse(out.contains(key) || out.contains(provider), out);

      Files.writeString(task.resolve("checks/check.sh"), "#!/bin/sh\ncurl -H 'Authorization: " + key + "'\n");
      out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config("http://127.0.0.1:9/v1"),
          "--ping=false");
      assertTrue(out.contains(task.resolve("checks/check.sh") + " line 2 ("), out);
    } finally {
      EnvKeys.restore(was);
    }
  }

  /** dogE D3: a key in a base harness file's name, on the surface and off it, fails the check, shown redacted. */
  @Test
  void aKeyInABaseHarnessFileNameIsAFailureThatNeverShowsTheKey() throws Exception {
    String key = "sk-canary-E9x7";
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("CANARY_API_KEY", key));
    try {
      Path root = oneTaskBench("You total ledgers.\n", "");
      Files.createDirectories(root.resolve("base/skills/ok/scripts"));
      Files.writeString(root.resolve("base/skills/ok/scripts/" + key), "hi\n");
      Files.createDirectories(root.resolve("base/skills/" + key));
      Files.writeString(root.resolve("base/skills/" + key + "/SKILL.md"), "---\ndescription: x\n---\n");
      String out = check(ENV, 1, "--bench=folder", "--benchRoot=" + root, "--config=" + config("http://127.0.0.1:9/v1"),
          "--ping=false");
      assertTrue(out.contains("skills/ok/scripts/[redacted key] holds what looks like a credential in its name (the"
          + " value of $CANARY_API_KEY)"), out);
      assertTrue(out.contains("skills/[redacted key]/SKILL.md holds what looks like a credential in its name"), out);
      assertTrue(out.contains("skills/[redacted key]/SKILL.md: not on the opencode surface"), out);
      assertFalse(out.contains(key), out);
    } finally {
      EnvKeys.restore(was);
    }
  }
}
