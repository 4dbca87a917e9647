package dev.h2beam.adapters.jobbench;

import static dev.h2beam.adapters.bench.Problems.assertProblem;
import static dev.h2beam.adapters.jobbench.JobBenchFixture.LAWYER;
import static dev.h2beam.adapters.jobbench.JobBenchFixture.LEDGER;
import static dev.h2beam.adapters.jobbench.JobBenchFixture.PAYROLL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkInvalid;
import dev.h2beam.adapters.bench.Benchmarks;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.model.BenchPrompts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tasks, splits, prompts and settings of JobBench on a checkout written by the test. */
class JobBenchTest {
  static final RunConfig CONFIG = RunConfig.parse("endpoints:\n  local: {base_url: \"http://127.0.0.1:9/v1\"}\n"
      + "roles:\n  executor: {endpoint: local, model: m}\n", "test.yaml");

  @TempDir Path tmp;

  Path checkout() throws Exception {
    return JobBenchFixture.write(tmp.resolve("job-bench-eval"));
  }

  JobBench open(Path root, String... keysAndValues) throws Exception {
    Map<String, String> settings = new HashMap<>();
    settings.put("executions", tmp.resolve("runs/_executions").toString());
    for (int i = 0; i < keysAndValues.length; i += 2) settings.put(keysAndValues[i], keysAndValues[i + 1]);
    return JobBench.open(root, settings, CONFIG, Map.of());
  }

  List<String> problems(Path root, String... keysAndValues) {
    return assertThrows(BenchmarkInvalid.class, () -> open(root, keysAndValues)).problems();
  }

  @Test
  void everyInstructionFileIsATaskNamedByOccupationAndTaskInCodePointOrder() throws Exception {
    JobBench b = open(checkout());
    assertEquals(List.of(LAWYER, LEDGER, PAYROLL), b.tasks(), "not the notes folder, not the hidden one");
    assertEquals("accountants", b.domainOf(PAYROLL));
    assertEquals("Lawyers", b.domainOf(LAWYER));
    assertEquals(List.of("Lawyers", "accountants"), b.referenceDomainOrder().orElseThrow());
    assertThrows(IllegalArgumentException.class, () -> b.domainOf("accountants/notes"));
    assertThrows(IllegalArgumentException.class, () -> b.taskPrompt("../x"));
  }

  @Test
  void theTaskIsItsInstructionVerbatimAndItsFilesAreTheTaskFolder() throws Exception {
    Path root = checkout();
    JobBench b = open(root);
    assertEquals("Draft a memo on the lease clause in lease.txt — cite the clause (§ 4) exactly.\n",
        b.taskPrompt(LAWYER));
    assertEquals(JobBenchLayout.taskFolder(root, LEDGER), b.taskFiles(LEDGER).orElseThrow());
    assertTrue(Files.isRegularFile(b.taskFiles(LEDGER).orElseThrow().resolve("ledger.csv")));
    Files.write(JobBenchLayout.taskFolder(root, PAYROLL).resolve(JobBenchLayout.INSTRUCTIONS),
        new byte[] {'o', 'k', (byte) 0xff, '\n'});
    assertEquals("ok\uFFFD\n", b.taskPrompt(PAYROLL), "malformed UTF-8 is read leniently");
  }

  @Test
  void theSpecIsHarness2sJobBenchCell() throws Exception {
    JobBench b = open(checkout());
    assertEquals("jb", b.spec().name());
    assertEquals("workspace_agents_md", b.spec().installMode());
    assertEquals("profession", b.spec().domainWord());
    assertEquals(List.of("RUBRICS.json", "eval_result/**", "expected/**", "reference/**"), b.spec().leakGlobs());
    assertTrue(b.spec().allowSubagents());
    assertEquals("codex_root", open(checkout2(), "substrate", "cx").spec().installMode());
  }

  Path checkout2() throws Exception {
    return JobBenchFixture.write(tmp.resolve("second"));
  }

  @Test
  void theProviderIsFoundByNameAndKeepsTheCheckoutReadOnly() throws Exception {
    assertTrue(Benchmarks.names().contains("jobbench"));
    assertFalse(Benchmarks.named("jobbench").writesRoot());
  }

  @Test
  void aSplitFileSelectsTrainOrTestAndAllIsBothSides() throws Exception {
    Path root = checkout();
    assertEquals(List.of(LAWYER, LEDGER), open(root, "splitFile", "splits/jb.json", "split", "train").tasks());
    assertEquals(List.of(PAYROLL), open(root, "splitFile", "splits/jb.json", "split", "test").tasks());
    Files.writeString(root.resolve("splits/small.json"),
        "{\"benchmark\": \"jb\", \"train\": [\"" + PAYROLL + "\"], \"test\": [\"" + LAWYER + "\"]}");
    assertEquals(List.of(LAWYER, PAYROLL), open(root, "splitFile", "splits/small.json").tasks());
    assertEquals(List.of(LAWYER, LEDGER, PAYROLL), open(root).tasks(), "without a file, all is every task");
  }

  @Test
  void trainOrTestWithoutASplitFileIsRefused() throws Exception {
    assertProblem(problems(checkout(), "split", "train"), "--split=train", "splitFile");
    assertProblem(problems(checkout2(), "split", "validation"), "--split=validation", "all, train or test");
  }

  @Test
  void aBadSplitFileIsRefusedWithEveryProblemNamedByTheFile() throws Exception {
    Path root = checkout();
    Path file = root.resolve("splits/bad.json");
    Files.writeString(file, "{\"benchmark\": \"lab\", \"trian\": [], \"train\": [\"" + LEDGER + "\", \"nope/x\", \""
        + LEDGER + "\"], \"test\": [\"" + LEDGER + "\", 3]}");
    List<String> p = problems(root, "splitFile", "splits/bad.json", "split", "train");
    String at = file.toString();
    assertProblem(p, at, "benchmark", "\"jb\"");
    assertProblem(p, at, "trian", "unknown key");
    assertProblem(p, at, "nope/x", "not a task");
    assertProblem(p, at, LEDGER, "listed twice");
    assertProblem(p, at, LEDGER, "both train and test");
    assertProblem(p, at, "test", "3", "not a task id");
    assertProblem(problems(root, "splitFile", "splits/none.json"), "none.json", "not a file");
  }

  @Test
  void aFolderThatIsNotACheckoutIsRefusedSayingWhatOneHolds() throws Exception {
    Files.createDirectories(tmp.resolve("empty"));
    assertProblem(problems(tmp.resolve("empty")), "dataset/main", "missing", "job-bench-eval");
  }

  /**
   * dogR: the sweep passes --opencodeBin, --codexBin and --toolsDir as settings, and JobBench refused them as unknown,
   * so a JobBench sweep could not run the user's own agent binary. They reach an agent executor, which checks the
   * binary and names its flag.
   */
  @Test
  void theAgentBinaryFlagsReachAnAgentExecutor() throws Exception {
    Path root = checkout();
    List<String> p = problems(root, "executor", "opencode", "opencodeBin", "/nonexistent/opencode", "toolsDir",
        tmp.resolve("tools").toString());
    assertTrue(p.stream().noneMatch(x -> x.contains("unknown for jobbench")), p.toString());
    assertProblem(p, "--opencodeBin=/nonexistent/opencode does not exist");
  }

  @Test
  void unknownSettingsAndExecutorsAreRefusedByName() throws Exception {
    Path root = checkout();
    List<String> p = problems(root, "splitfile", "x.json", "timeoutSeconds", "soon", "executor",
        "{\"kind\": \"command\", \"command\": \"true\", \"shell\": \"bash\"}");
    assertProblem(p, "splitfile", "unknown", "splitFile");
    assertProblem(p, "timeoutSeconds", "soon");
    assertProblem(p, "executor", "shell", "unknown for kind command");
    assertProblem(problems(root, "executor", "telepathy"), "executor", "telepathy", "not known");
    assertProblem(problems(root, "executor", "chat", "substrate", "zz"), "--substrate=zz");
    List<String> noRole = assertThrows(BenchmarkInvalid.class,
        () -> JobBench.open(root, Map.of("executions", tmp.resolve("e").toString()), RunConfig.empty(), Map.of()))
        .problems();
    assertProblem(noRole, "executor", "roles.executor");
  }

  @Test
  void everyTaskSharesTheProfileAndGetsItsOccupationsLens() throws Exception {
    JobBench b = open(checkout());
    BenchPrompts lawyer = b.promptsFor(LAWYER);
    assertEquals("tts", lawyer.promptPack());
    assertEquals("value_only", lawyer.selectionConformance());
    assertEquals("occupational domain", lawyer.domainWord());
    assertEquals("work product", lawyer.deliverableWord());
    assertTrue(lawyer.selectionLead().startsWith("COVERAGE FIRST."));
    assertFalse(lawyer.invLevers().isBlank() || lawyer.domLevers().isBlank() || lawyer.yardstick().isBlank()
        || lawyer.selectionChecks().isBlank());
    assertEquals(JobBenchPrompts.LENSES.get("lawyers"), lawyer.domainGuidance(), "'Lawyers' is normalised");
    assertEquals(JobBenchPrompts.LENSES.get("accountants"), b.promptsFor(LEDGER).domainGuidance());
    assertEquals(JobBenchPrompts.PROFILE.work(), b.promptsFor(LEDGER).work());
    assertEquals(JobBenchPrompts.LENSES.get("software_developers"),
        JobBenchPrompts.lens("Software Developers, Applications"));
    assertEquals(JobBenchPrompts.GENERIC_LENS, JobBenchPrompts.lens("umpires_referees_and_other_sports_officials"));
    assertNotEquals(JobBenchPrompts.GENERIC_LENS, JobBenchPrompts.lens("Registered Nurses"));
  }

  @Test
  void thePromptsDescribeTheWorkNeverItsMeasurement() {
    List<String> texts = new java.util.ArrayList<>(List.of(JobBenchPrompts.WORK, JobBenchPrompts.INV_LEVERS,
        JobBenchPrompts.DOM_LEVERS, JobBenchPrompts.YARDSTICK, JobBenchPrompts.SELECTION_CHECKS,
        JobBenchPrompts.SELECTION_LEAD, JobBenchPrompts.GENERIC_LENS));
    texts.addAll(JobBenchPrompts.LENSES.values());
    for (String text : texts) {
      for (String word : List.of("benchmark", "evaluation", "grader", "rubric", "score")) {
        assertFalse(text.toLowerCase(Locale.ROOT).contains(word), word + " in: " + text);
      }
    }
    for (String occupation : JobBenchPrompts.LENSES.keySet()) JobBenchPrompts.forOccupation(occupation);
    BenchPrompts p = JobBenchPrompts.PROFILE;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BenchPrompts(p.work(),
        p.domainWord(), p.invLevers(), p.domLevers(), p.yardstick(), p.deliverableWord(),
        "Aim for the top rubric band.", p.selectionChecks(), p.selectionLead(), "value_only", "tts"));
    assertTrue(e.getMessage().contains("domain_guidance") && e.getMessage().contains("rubric"), e.getMessage());
  }

  @Test
  void theBaseHarnessIsWrittenOnceUnderTheExecutionsNotIntoTheCheckout() throws Exception {
    Path root = checkout();
    Benchmark oc = open(root);
    Path base = oc.baseHarness();
    assertTrue(base.startsWith(tmp.resolve("runs/_executions/.base")), base.toString());
    assertTrue(Files.readString(base.resolve("systemprompt.md")).contains("output folder"));
    assertEquals(base, open(root).baseHarness(), "opened again, the same folder");
    assertTrue(Files.isRegularFile(open(root, "substrate", "cx").baseHarness().resolve("AGENTS.md")));
    assertFalse(Files.exists(root.resolve("runs")), "nothing is written into the checkout");
    Files.writeString(base.resolve("guardrails.md"), "edited\n");
    assertProblem(problems(root), "guardrails.md", "not h2beam's JobBench base harness", "baseHarness");
    Path own = tmp.resolve("mine");
    Files.createDirectories(own);
    Files.writeString(own.resolve("systemprompt.md"), "Mine.\n");
    assertEquals(own, open(root, "baseHarness", own.toString()).baseHarness());
  }
}
