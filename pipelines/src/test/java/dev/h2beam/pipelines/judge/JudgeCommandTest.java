package dev.h2beam.pipelines.judge;

import static dev.h2beam.pipelines.judge.Namespaces.score;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.pipelines.UsageError;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The judge pipeline end to end on the DirectRunner, over namespaces in the Python harness2's layout. */
class JudgeCommandTest {
  @TempDir Path root;
  Path runs;
  final ByteArrayOutputStream console = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() {
    runs = root.resolve("runs");
    ScriptedGraderProvider.CALLS.set(0);
  }

  int judge(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    if (all.stream().noneMatch(a -> a.startsWith("--grader="))) all.add("--grader=scripted");
    JudgeOptions o = PipelineOptionsFactory.fromArgs(all.toArray(new String[0])).as(JudgeOptions.class);
    return JudgeCommand.run(o, new PrintStream(console, true, StandardCharsets.UTF_8));
  }

  String out() {
    return console.toString(StandardCharsets.UTF_8);
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> rows(Path ns) throws Exception {
    return (List<Map<String, Object>>) (List<?>) Json.MAPPER.readValue(
        Files.readString(ns.resolve("judged.json")), List.class);
  }

  /** harness2's judged.json keys in its order (spec §2.12): its judge and report build rows with Scored(**row). */
  static final List<String> HARNESS2_KEYS = List.of("task_id", "mode", "k", "label", "run_id", "chosen_is_base",
      "n_passed", "n_criteria", "all_pass", "raw", "error", "frac", "graded");

  /** A row's absence reason, from its raw (null when graded); the row holds harness2's keys and no other. */
  @SuppressWarnings("unchecked")
  static Object absence(Map<String, Object> row) {
    assertEquals(HARNESS2_KEYS, List.copyOf(row.keySet()), row.toString());
    return ((Map<String, Object>) row.get("raw")).get("absence");
  }

  static Map<String, Object> row(Path ns, String task, String mode) throws Exception {
    for (Map<String, Object> r : rows(ns)) {
      if (r.get("task_id").equals(task) && r.get("mode").equals(mode)) return r;
    }
    throw new AssertionError("no row " + task + "/" + mode);
  }

  /**
   * dogAL F5: a failed re-judge of the bases keeps their earlier grades, as judged.json keeps its rows, and says so;
   * a base this run did not judge stays in the file.
   */
  @Test
  @SuppressWarnings("unchecked")
  void aFailedReJudgeOfTheBasesKeepsTheirEarlierGrades() throws Exception {
    Path ns = oneBase(score(1, 2));
    Path baseDir = root.resolve("executions/demo-oc-agg1/t1/base1");
    assertEquals(0, judge("--namespaces=" + ns, "--bases=true"));
    Path bases = ns.resolve("base_judged.json");
    String first = Files.readString(bases);
    List<Map<String, Object>> rows = Json.MAPPER.readValue(first, List.class);
    assertTrue(rows.get(0).get("score") != null, first);
    // another base, judged by no run here, is kept too
    rows = new ArrayList<>(rows);
    rows.add(0, Map.of("task", "t0", "label", "base1", "run_id", "demo-oc-agg1/t0/base1", "score",
        Map.of("n_passed", 1)));
    Files.writeString(bases, Json.pretty(rows, 1));
    com.fasterxml.jackson.databind.JsonNode withOther = Json.readTree(bases);

    Files.writeString(baseDir.resolve("grade.txt"), "throw");
    console.reset();
    judge("--namespaces=" + ns, "--bases=true");
    assertEquals(withOther, Json.readTree(bases), "the graded row kept, the other base too");
    assertTrue(out().contains("t1 base k=1 (base1): judge-failed: IllegalStateException: grader exploded on t1"
        + " [base_judged.json keeps the earlier graded row of this same run"), out());
  }

  /**
   * dogAL F2: a summary whose k is on its selections only (the shape allows it) and whose sequential mode failed
   * before selecting: the mode-failed row takes a selection's k, not 0, so the judge and the report read the file it
   * wrote.
   */
  @Test
  @SuppressWarnings("unchecked")
  void aModeFailedRowTakesItsKFromTheSelectionsWhenTheSummaryHasNone() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", Namespaces.score(1, 1)), List.of("agg"));
    Map<String, Object> s = Json.readMap(ns.resolve("t1/summary.json"));
    s.remove("k");
    s.put("modes", Map.of("seq", Map.of("ok", false, "error", "boom")));
    Files.writeString(ns.resolve("t1/summary.json"), Json.pretty(s));
    judge("--namespaces=" + ns);
    JudgedFile.check(ns.resolve("judged.json"));
    List<Map<String, Object>> rows = Json.MAPPER.readValue(Files.readString(ns.resolve("judged.json")), List.class);
    assertEquals(List.of(1, 1), rows.stream().map(r -> r.get("k")).toList(), rows.toString());
    judge("--namespaces=" + ns); // read back, not skipped as a file of the wrong shape
    assertFalse(out().contains("wrong shape"), out());
  }

  @Test
  void noMoreCallsOfAGraderRunAtOnceThanItsConcurrencyWhateverTheShardsAndEveryRowIsGraded() throws Exception {
    Map<String, String> grades = new java.util.TreeMap<>();
    for (int t = 0; t < 12; t++) grades.put("t" + t, "sleep 40\n" + score(1, 1));
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, grades);
    ScriptedGraderProvider.MOST_IN_FLIGHT.set(0);
    // four shards on four threads, two workers each: eight workers for two permits
    assertEquals(0, judge("--namespaces=" + ns, "--graderConcurrency=2", "--judgeShards=4", "--targetParallelism=4"),
        out());
    assertEquals(24, rows(ns).stream().filter(r -> Boolean.TRUE.equals(r.get("graded"))).count());
    int most = ScriptedGraderProvider.MOST_IN_FLIGHT.get();
    assertTrue(most >= 1 && most <= 2, "calls at once: " + most);
  }

  /**
   * The grading step reads each summary once and hands each row's spend (the mode's ledger, its selection's cost
   * and chosen run dir), with what it saw of the chosen run (its marker, or a run dir that is gone), to the namespace's
   * writer; the metric vector it writes is the one that reading every summary and looking at every run again gives.
   * A selection whose task_id names another folder (legacy) is left to the writer, which reads that folder's
   * summary. Mode timings are found in their folder's listing.
   */
  @Test
  @SuppressWarnings("unchecked")
  void theMetricVectorTakesEachRowsSpendFromTheSummaryItWasGradedFrom() throws Exception {
    Path ns = Namespaces.python(runs, "bench-oc-agg2-s7", 2, Map.of("t1", score(1, 2), "t2", score(2, 2)));
    Map<String, Object> t1 = Json.readMap(ns.resolve("t1/summary.json"));
    t1.put("modes", Map.of(
        "agg", Map.of("ledger", Map.of("rollout_usd", 0.04, "session_usd", 0.06, "session_attempts", 7, "P", 6)),
        "seq", Map.of("ledger", Map.of("rollout_usd", 0.2, "session_usd", 0.3))));
    // t1's sequential selector and reflector cost $0.125; its parallel ones cost more than is known
    Map<String, Object> t1Selections = (Map<String, Object>) t1.get("selections");
    ((Map<String, Object>) t1Selections.get("seq")).put("usd", 0.125);
    ((Map<String, Object>) t1Selections.get("agg")).put("usd_known", false);
    Files.writeString(ns.resolve("t1/summary.json"), Json.pretty(t1));
    Map<String, Object> t2 = Json.readMap(ns.resolve("t2/summary.json"));
    ((Map<String, Object>) ((Map<String, Object>) t2.get("selections")).get("seq")).put("task_id", "elsewhere");
    Files.writeString(ns.resolve("t2/summary.json"), Json.pretty(t2));
    // t1/agg's run has a marker with tokens and its wall time; t2/agg's run dir is gone; t1/seq has a mode timing
    Path t1agg = Path.of(Json.readTree(ns.resolve("t1/summary.json")).at("/selections/agg/chosen_run_dir").asText());
    Runmark.markComplete(t1agg, "bench-oc-agg2-s7/t1/agg1", "base", 1.0,
        Map.of("input_tokens", 120, "output_tokens", 30, "cached_tokens", 7, "wall_s", 2.5));
    Path t2agg = Path.of(Json.readTree(ns.resolve("t2/summary.json")).at("/selections/agg/chosen_run_dir").asText());
    for (String f : List.of("answer.txt", "grade.txt")) Files.delete(t2agg.resolve(f));
    Files.delete(t2agg);
    Path timing = dev.h2beam.transforms.sweep.ModeTiming.file(runs,
        dev.h2beam.adapters.model.Namespace.parse(ns.getFileName().toString()).orElseThrow(), "seq", "t1");
    Files.createDirectories(timing.getParent());
    Files.writeString(timing, "{\"task_id\": \"t1\", \"wall_s\": 3.25}");

    List<String> spendOf = new ArrayList<>();
    String text = Files.readString(ns.resolve("t2/summary.json"));
    List<SelectionItem> items = Summaries.selections(ns.toString(), "scripted", text, List.of("agg", "seq"));
    JudgePipeline.spendOf(ns.resolve("t2/summary.json").toString(), Summaries.read(text), items).keySet()
        .forEach(key -> spendOf.add(key.replace('\u0000', '/')));
    assertEquals(List.of("t2/agg/2"), spendOf, "the legacy selection is left to the writer");

    assertEquals(2, judge("--namespaces=" + ns), "a run that is gone is a row the judge could not grade: " + out());
    byte[] written = Files.readAllBytes(ns.resolve(MetricVector.FILE));
    JsonNode m = Json.readTree(ns.resolve(MetricVector.FILE));
    Map<String, JsonNode> byRow = new java.util.TreeMap<>();
    for (JsonNode r : m.path("rows")) byRow.put(r.path("task_id").asText() + "/" + r.path("mode").asText(), r);
    assertEquals(List.of("elsewhere/seq", "t1/agg", "t1/seq", "t2/agg"), List.copyOf(byRow.keySet()));
    assertEquals(0.04, byRow.get("t1/agg").at("/values/executor_cost").asDouble());
    assertEquals(1.0, byRow.get("t1/agg").at("/values/retries").asDouble());
    assertEquals(0.625, byRow.get("t1/seq").at("/values/cost").asDouble(), 1e-12, "0.2 + 0.3 + the selection's 0.125");
    assertEquals(0.125, byRow.get("t1/seq").at("/values/selection_cost").asDouble(), 1e-12);
    assertEquals("spend-unaccounted", byRow.get("t1/agg").at("/absent/selection_cost").asText());
    assertEquals("spend-unaccounted", byRow.get("t1/agg").at("/absent/cost").asText(), "not the known part");
    assertEquals(0.0, byRow.get("t2/agg").at("/values/selection_cost").asDouble(), "a recorded $0, as written");
    assertEquals("spend-unaccounted", byRow.get("t2/agg").at("/absent/cost").asText());
    assertEquals("run-missing", byRow.get("t2/agg").at("/absent/score").asText());
    assertEquals("not-recorded", byRow.get("t2/agg").at("/absent/input_tokens").asText());
    assertEquals(150.0, byRow.get("t1/agg").at("/values/total_tokens").asDouble());
    assertEquals(7.0, byRow.get("t1/agg").at("/values/cached_tokens").asDouble());
    assertEquals(2.5, byRow.get("t1/agg").at("/values/chosen_wall_s").asDouble());
    assertEquals("not-recorded", byRow.get("t1/seq").at("/absent/input_tokens").asText(), "no marker");
    assertEquals(3.25, byRow.get("t1/seq").at("/values/mode_wall_s").asDouble());
    assertEquals("not-recorded", byRow.get("t1/agg").at("/absent/mode_wall_s").asText());
    assertEquals("selection-failed", byRow.get("elsewhere/seq").at("/absent/input_tokens").asText(),
        "no summary in the folder its task names");

    Files.delete(ns.resolve(MetricVector.FILE));
    MetricVector.write(ns, JudgedFile.read(ns.resolve(JudgedFile.FILE), ns.toString()), false);
    assertEquals(new String(Files.readAllBytes(ns.resolve(MetricVector.FILE)), StandardCharsets.UTF_8),
        new String(written, StandardCharsets.UTF_8), "the same vector as reading every summary again");
  }

  /**
   * The command line's options are read without Beam's registry where they are plain, while the registry is built
   * beside the plan: the judge then runs as with parsed options, and a misspelt flag is refused as before.
   */
  @Test
  void theCommandLineJudgesWithItsOptionsReadBesideBeamsRegistry() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(0, 1)));
    String[] args = {"--namespaces=" + ns, "--grader=scripted", "--judgeShards=2"};
    assertTrue(java.lang.reflect.Proxy.isProxyClass(
        dev.h2beam.pipelines.OptionArgs.parseLazily("judge", args, JudgeOptions.class).getClass()),
        "a plain judge command line is read lazily");
    assertEquals(0, new JudgeCommand().run(args));
    assertEquals(true, row(ns, "t1", "agg").get("graded"));
    assertEquals(false, row(ns, "t2", "seq").get("all_pass"));
    assertEquals(4, rows(ns).size());
    UsageError e = assertThrows(UsageError.class,
        () -> new JudgeCommand().run(new String[] {"--namespaces=" + ns, "--gradr=scripted"}));
    assertTrue(e.getMessage().contains("--gradr"), e.getMessage());
  }

  /**
   * A grader a judge job opened lives as long as the job's workers in this JVM: it is closed when the job ends, and
   * the next job opens its own (its rubrics or config may have changed), so a long-lived worker process keeps none.
   */
  @Test
  void eachJudgeJobOpensItsGraderOnceAndClosesItWhenItEnds() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(0, 1)));
    ScriptedGraderProvider.OPENS.set(0);
    ScriptedGraderProvider.CLOSES.set(0);
    // each job: once by the command, for the grader's identity, and once for the workers of both shards
    assertEquals(0, judge("--namespaces=" + ns, "--judgeShards=2", "--targetParallelism=2"), out());
    assertEquals(2, ScriptedGraderProvider.OPENS.get(), "opened once for the job's shards");
    assertEquals(2, ScriptedGraderProvider.CLOSES.get(), "closed when the job ended");
    assertEquals(0, judge("--namespaces=" + ns, "--judgeShards=2", "--targetParallelism=2"), out());
    assertEquals(4, ScriptedGraderProvider.OPENS.get(), "the next job opens its own");
    assertEquals(4, ScriptedGraderProvider.CLOSES.get());
  }

  /**
   * A judge killed while writing leaves a temp file beside judged.json or metrics.json; the next judge of the
   * namespace, holding its lock, removes those, and leaves the temps of files it does not write (a sweep's).
   */
  @Test
  void theTempFilesAKilledJudgeLeftAreRemovedByTheNextAndNoOtherWritersAre() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path judged = Files.writeString(ns.resolve(".judged.json.4242.1.tmp"), "[{\"task_id\": \"t1\"");
    Path metrics = Files.writeString(ns.resolve(".metrics.json.4242.2.tmp"), "{");
    Path sweeps = Files.writeString(ns.resolve(".config.json.4242.3.tmp"), "{");
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, judge("--namespaces=" + ns), out());
    } finally {
      System.setErr(saved);
    }
    assertFalse(Files.exists(judged));
    assertFalse(Files.exists(metrics));
    assertTrue(Files.exists(sweeps), "a sweep's temp is the sweep's to remove");
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("removed 2 half-written file(s) an interrupted judge"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(2, rows(ns).size());
  }

  @Test
  void aPythonLayoutNamespaceIsJudgedSortedAndCounted() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg2", 2, Map.of("ledger-2", score(1, 2), "ledger-1", score(2, 2)));
    assertEquals(0, judge("--namespaces=" + ns));
    List<Map<String, Object>> rows = rows(ns);
    assertEquals(List.of("ledger-1", "ledger-1", "ledger-2", "ledger-2"),
        rows.stream().map(r -> r.get("task_id")).toList());
    assertEquals(List.of("agg", "seq", "agg", "seq"), rows.stream().map(r -> r.get("mode")).toList());
    Map<String, Object> r = row(ns, "ledger-2", "agg");
    assertEquals(0.5, r.get("frac"));
    assertEquals(false, r.get("all_pass"));
    assertEquals(true, r.get("graded"));
    assertNull(absence(r));
    assertTrue(out().contains("demo-oc-agg2: judged.json: 4 row(s), 4 graded, 0 ungraded (judge failure or no pick"
        + " — NOT zeros)"), out());
    assertEquals("scripted:v1", Json.readMap(ns.resolve("config.json")).get("judge"), "identity recorded");
  }

  @Test
  void aJudgeThatDisagreesWithItselfIsRepeatedIntoOneRowThatKeepsItsSpread() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of(
        "t1", "cycle\n" + score(2, 2) + "\n" + score(1, 2) + "\n" + score(0, 2),
        "t2", "cycle\n" + score(1, 1) + "\nthrow\n" + score(1, 1)));
    assertEquals(0, judge("--namespaces=" + ns, "--judgeRepeats=3"), out());
    assertEquals(12, ScriptedGraderProvider.CALLS.get(), "3 repeats of 4 rows (agg and seq of two tasks)");
    Map<String, Object> r = row(ns, "t1", "agg");
    assertEquals(0.5, r.get("frac"));
    assertEquals(false, r.get("all_pass"), "one repeat of three passed");
    @SuppressWarnings("unchecked")
    Map<String, Object> raw = (Map<String, Object>) r.get("raw");
    assertEquals(List.of(1.0, 0.5, 0.0), raw.get("repeat_scores"));
    assertEquals(0.5, (Double) raw.get("repeat_sd"), 1e-12);
    assertEquals(3, raw.get("repeats_graded"));
    Map<String, Object> t2 = row(ns, "t2", "agg");
    assertEquals(1.0, t2.get("frac"));
    assertEquals(true, t2.get("all_pass"));
    @SuppressWarnings("unchecked")
    Map<String, Object> raw2 = (Map<String, Object>) t2.get("raw");
    assertEquals(2, raw2.get("repeats_graded"));
    assertTrue(String.valueOf(t2.get("error")).startsWith("1 of 3 repeats failed"), t2.toString());
    assertEquals(1, rows(ns).stream().filter(x -> x.get("task_id").equals("t1") && x.get("mode").equals("agg"))
        .count(), "the repeats are one row");
    assertTrue(org.junit.jupiter.api.Assertions.assertThrows(dev.h2beam.pipelines.UsageError.class,
        () -> judge("--namespaces=" + ns, "--judgeRepeats=0")).getMessage().contains("--judgeRepeats=0"));
  }

  @Test
  void aThrowingGraderGivesAnUngradedRowNeverAZero() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", "throw"));
    assertEquals(2, judge("--namespaces=" + ns));
    Map<String, Object> r = row(ns, "t1", "agg");
    assertNull(r.get("n_passed"));
    assertNull(r.get("frac"));
    assertEquals(false, r.get("graded"));
    assertEquals("judge-failed", absence(r));
    assertTrue(((String) r.get("error")).startsWith("IllegalStateException: grader exploded"), (String) r.get("error"));
  }

  @Test
  void aGraderThatReturnsNothingIsJudgeFailed() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", "empty"));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals("judge returned nothing", row(ns, "t1", "seq").get("error"));
    assertEquals("judge-failed", absence(row(ns, "t1", "seq")));
  }

  @Test
  void aHangingGraderTimesOutAndTheJudgeStopsWaiting() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", "hang"));
    assertEquals(2, judge("--namespaces=" + ns, "--graderTimeoutSeconds=1"));
    assertEquals("judge-timeout", absence(row(ns, "t1", "agg")));
    assertEquals("judge timed out after 1s", row(ns, "t1", "agg").get("error"));
  }

  @Test
  void aMalformedScoreIsJudgeFailed() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", "{\"n_passed\": \"lots\", \"n_criteria\": 0}"));
    assertEquals(2, judge("--namespaces=" + ns));
    Map<String, Object> r = row(ns, "t1", "agg");
    assertEquals("judge-failed", absence(r));
    assertNull(r.get("n_passed"));
  }

  @Test
  void theCommandGraderRunsARealProcessAndEachFailureIsAnAbsence() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("ok", "x", "exit", "x", "quiet", "x", "junk", "x",
        "slow", "x"));
    String cmd = "case \"$H2BEAM_TASK\" in ok) echo '{\"n_passed\": 1, \"n_criteria\": 1}';; exit) echo boom >&2;"
        + " exit 3;; quiet) ;; junk) echo 'not json';; slow) sleep 30;; esac";
    assertEquals(2, judge("--namespaces=" + ns, "--grader=command", "--graderCommand=" + cmd,
        "--graderTimeoutSeconds=2"));
    assertEquals(true, row(ns, "ok", "agg").get("graded"));
    assertEquals("IOException: grader command exited 3: boom", row(ns, "exit", "agg").get("error"));
    assertEquals("judge returned nothing", row(ns, "quiet", "agg").get("error"));
    assertTrue(((String) row(ns, "junk", "agg").get("error")).contains("malformed output"));
    assertTrue(List.of("judge-timeout", "judge-failed").contains(absence(row(ns, "slow", "agg"))));
    for (String t : List.of("exit", "quiet", "junk", "slow")) assertNull(row(ns, t, "agg").get("n_passed"), t);
  }

  /**
   * A grader command written with a held key's value was recorded as the namespace's judge in config.json, readable
   * by every user of the machine (dogAB 1): refused before anything is graded or written, naming the variable.
   */
  @Test
  void aGraderCommandHoldingAHeldKeyIsRefusedNamingItsVariable() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", "x"));
    String key = "sk-dogab-7Q9xK2mLp4Rt8Vw3Yz6Bn1Hc5Jd0FgX";
    String configBefore = Files.exists(ns.resolve("config.json")) ? Files.readString(ns.resolve("config.json")) : null;
    List<dev.h2beam.adapters.config.EnvKeys.Held> was = dev.h2beam.adapters.config.EnvKeys.use(
        Map.of("LAB_API_KEY", key));
    try {
      Exception e = assertThrows(Exception.class, () -> judge("--namespaces=" + ns, "--grader=command",
          "--graderCommand=echo '{\"n_passed\": 1, \"n_criteria\": 1}' # " + key));
      String said = e.getMessage() + out();
      assertTrue(said.contains("holds the value of $LAB_API_KEY") && !said.contains("7Q9xK2mL"), said);
    } finally {
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
    assertFalse(Files.exists(ns.resolve("judged.json")), "nothing graded");
    String configAfter = Files.exists(ns.resolve("config.json")) ? Files.readString(ns.resolve("config.json")) : null;
    assertEquals(configBefore, configAfter, "config.json as it was");
  }

  @Test
  void aFailedSelectionIsNeverSentToTheGrader() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg2", 2, Map.of("t1", score(1, 1)));
    Path summary = ns.resolve("t1/summary.json");
    Map<String, Object> s = Json.readMap(summary);
    @SuppressWarnings("unchecked")
    Map<String, Object> sels = (Map<String, Object>) s.get("selections");
    for (String mode : List.of("agg", "seq")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> sel = (Map<String, Object>) sels.get(mode);
      sel.put("ok", false);
    }
    Files.writeString(summary, Json.pretty(s));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(0, ScriptedGraderProvider.CALLS.get(), "the grader was never called");
    Map<String, Object> r = row(ns, "t1", "agg");
    assertEquals(false, r.get("graded"));
    assertNull(r.get("n_passed"));
    assertEquals("selection-failed", absence(r));
    assertTrue(((String) r.get("error")).startsWith("selection did not complete successfully"));
  }

  @Test
  void aChangedDeliverableIsNotGraded() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path runDir = root.resolve("executions/demo-oc-agg1/t1/agg1");
    Runmark.markComplete(runDir, "demo-oc-agg1/t1/agg1", "base", 0.0,
        Map.of("deliverables", Map.of("answer.txt", Runmark.fileDigest(runDir.resolve("answer.txt")))));
    Files.writeString(runDir.resolve("answer.txt"), "Total: 1000000.00\n");
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals("evidence-changed", absence(row(ns, "t1", "agg")));
    assertEquals(true, row(ns, "t1", "seq").get("graded"), "a run dir without a marker is graded as it is");
  }

  @Test
  void anIntactH2beamNamespaceIsGraded() throws Exception {
    Path ns = Namespaces.h2beam(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    assertEquals(0, judge("--namespaces=" + ns), out());
    assertEquals(true, row(ns, "t1", "agg").get("graded"));
    assertEquals(true, row(ns, "t1", "seq").get("graded"));
  }

  @Test
  void aChosenRunWhoseMarkerWasDeletedAndAnswerChangedIsEvidenceChanged() throws Exception {
    Path ns = Namespaces.h2beam(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path runDir = root.resolve("executions/demo-oc-agg1/t1/agg1");
    Files.delete(runDir.resolve(".adapt_complete"));
    Files.writeString(runDir.resolve("answer.txt"), "Total: 1000000.00\n");
    assertEquals(2, judge("--namespaces=" + ns));
    Map<String, Object> r = row(ns, "t1", "agg");
    assertEquals("evidence-changed", absence(r));
    assertEquals("its completion marker " + runDir.resolve(".adapt_complete") + " is gone: h2beam marks every rollout"
        + " it completes, so the run dir was changed after its rollout", r.get("error"));
    assertEquals(true, row(ns, "t1", "seq").get("graded"));
  }

  /** A marker that is there but cannot be read as one (not JSON, or a folder) is unreadable, not gone. */
  @Test
  void aChosenRunWhoseMarkerIsNotJsonOrAFolderIsEvidenceChangedAsUnreadable() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path agg = root.resolve("executions/demo-oc-agg1/t1/agg1");
    Path seq = root.resolve("executions/demo-oc-agg1/t1/c1");
    Files.writeString(agg.resolve(".adapt_complete"), "{\"version\": 1");
    Files.createDirectories(seq.resolve(".adapt_complete"));
    assertEquals(2, judge("--namespaces=" + ns));
    for (Path runDir : List.of(agg, seq)) {
      Map<String, Object> r = row(ns, "t1", runDir.equals(agg) ? "agg" : "seq");
      assertEquals("evidence-changed", absence(r));
      assertEquals("its completion marker " + runDir.resolve(".adapt_complete") + " is unreadable", r.get("error"));
    }
  }

  @Test
  void aChangedChosenHarnessIsEvidenceChanged() throws Exception {
    Path ns = Namespaces.h2beam(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path harness = runs.resolve("demo-oc-seq1/t1/harnesses/c1");
    Files.writeString(harness.resolve("systemprompt.md"), "Sum only the credits.\n");
    assertEquals(2, judge("--namespaces=" + ns));
    Map<String, Object> r = row(ns, "t1", "seq");
    assertEquals("evidence-changed", absence(r));
    assertTrue(((String) r.get("error")).startsWith("the chosen harness " + harness + " changed after its rollout"),
        (String) r.get("error"));
    assertEquals(true, row(ns, "t1", "agg").get("graded"));
    Files.walk(harness).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals("the chosen harness " + harness + " is gone", row(ns, "t1", "seq").get("error"));
  }

  @Test
  void aMarkerOfAnotherRunOrHarnessIsEvidenceChanged() throws Exception {
    Path ns = Namespaces.h2beam(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path agg = root.resolve("executions/demo-oc-agg1/t1/agg1");
    Runmark.markComplete(agg, "demo-oc-agg1/t1/inv1", Runmark.readMark(agg).path("harness").asText(), 0.0,
        Map.of("deliverables", Map.of("answer.txt", Runmark.fileDigest(agg.resolve("answer.txt")))));
    Path summary = ns.resolve("t1/summary.json");
    Files.writeString(summary, Files.readString(summary).replaceFirst("\"harness_fingerprint\": \"[0-9a-f]+\"\\s*}\\s*}",
        "\"harness_fingerprint\": \"0000000000000000\"}}"));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(agg.resolve(".adapt_complete") + " records run demo-oc-agg1/t1/inv1, not the chosen run"
        + " demo-oc-agg1/t1/agg1", row(ns, "t1", "agg").get("error"));
    assertTrue(((String) row(ns, "t1", "seq").get("error")).startsWith("summary.json records harness fingerprint"
        + " 0000000000000000 for c1, but "), (String) row(ns, "t1", "seq").get("error"));
  }

  @Test
  void aFileAddedToARecordedDeliverableFolderIsEvidenceChanged() throws Exception {
    Path ns = Namespaces.h2beam(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path agg = root.resolve("executions/demo-oc-agg1/t1/agg1");
    Files.createDirectories(agg.resolve("output"));
    Files.writeString(agg.resolve("output/answer.md"), "85.15\n");
    Runmark.markComplete(agg, "demo-oc-agg1/t1/agg1", Runmark.readMark(agg).path("harness").asText(), 0.0,
        Map.of("deliverables", Map.of("output/answer.md", Runmark.fileDigest(agg.resolve("output/answer.md")))));
    assertEquals(0, judge("--namespaces=" + ns), "as recorded: graded");
    Files.writeString(agg.resolve("output/notes.md"), "the grader reads this too\n");
    Files.delete(ns.resolve("judged.json"));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals("output/notes.md was added to " + agg + " after its rollout (it is not among the deliverables"
        + " .adapt_complete records)", row(ns, "t1", "agg").get("error"));
  }

  @Test
  void aMissingRunDirIsRunMissing() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.walk(root.resolve("executions/demo-oc-agg1/t1/c1")).sorted(java.util.Comparator.reverseOrder())
        .forEach(p -> p.toFile().delete());
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals("run-missing", absence(row(ns, "t1", "seq")));
  }

  @Test
  void anUnreadableSummaryIsNamedAndTheRestIsJudged() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(1, 1)));
    Files.writeString(ns.resolve("t2/summary.json"), "{ broken");
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(2, rows(ns).size());
    assertTrue(out().contains("1 unreadable summary file(s)") && out().contains("t2/summary.json"), out());
    // where it stopped and the fix, none of Jackson's quote of the text (dogAG B6)
    assertTrue(out().contains("t2/summary.json: not valid JSON: ") && out().contains("(line 1, column ")
        && out().contains("; restore it, or run the same sweep again, which moves it aside and runs its task again"),
        out());
    assertFalse(out().contains("[Source"), out());
  }

  @Test
  void aTaskFolderThatCannotBeLookedIntoIsNamedUnreadableNotSkipped() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(1, 1)));
    // a folder that cannot be resolved stands for one this user may not search (root may search any)
    Path aside = Files.move(ns.resolve("t2"), root.resolve("t2-aside"));
    Files.createSymbolicLink(ns.resolve("t2"), ns.resolve("t2"));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(2, rows(ns).size(), "t1's rows");
    assertTrue(out().contains("1 unreadable summary file(s)"), out());
    assertTrue(out().contains(ns.resolve("t2/summary.json") + ": cannot be read ("), out());
    assertTrue(out().contains("exit 2: 1 unreadable summary file(s)"), out());
    assertTrue(Files.isDirectory(aside));
  }

  @Test
  void aRowKeptForATaskWhoseSummaryIsNowUnreadableIsNamed() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(1, 1)));
    assertEquals(0, judge("--namespaces=" + ns));
    Files.move(ns.resolve("t2"), root.resolve("t2-aside"));
    Files.createSymbolicLink(ns.resolve("t2"), ns.resolve("t2"));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(4, rows(ns).size(), "t2's earlier rows are kept");
    assertTrue(out().contains("demo-oc-agg1: judged.json keeps 2 row(s) an earlier judge wrote for those tasks, not"
        + " judged again now: t2 agg k=1, t2 seq k=1"), out());
  }

  @Test
  void aTaskConfigListsWithNoSummaryIsNamedAndFailsTheJudge() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.writeString(ns.resolve("config.json"), "{\"tasks\": [[\"d\", \"t1\"], [\"d\", \"t2\"], [\"d\", \"d/t3\"]]}");
    assertEquals(2, judge("--namespaces=" + ns));
    assertTrue(out().contains("demo-oc-agg1: 2 task(s) config.json lists have no summary.json, so no row (did their"
        + " sweep stop before them? run the same sweep command again): d/t3, t2"), out());
    assertTrue(out().contains("2 listed task(s) with no summary.json"), out());
  }

  @Test
  void aSummaryThisUserMayNotReadIsNamedWithTheReasonAndTheFix() {
    String f = "/r/ns/t1/summary.json";
    String denied = JudgePipeline.cannotRead(f, new java.io.FileNotFoundException(f + " (Permission denied)"));
    assertTrue(denied.startsWith("cannot be read (Permission denied): this user may not read it"), denied);
    assertEquals(denied, JudgePipeline.cannotRead(f, new java.nio.file.AccessDeniedException(f)));
    assertEquals("cannot be read (Input/output error)",
        JudgePipeline.cannotRead(f, new java.io.IOException(f + " (Input/output error)")));
  }

  @Test
  void aSummaryThatIsNotUtf8IsCountedUnreadableNamingTheFile() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(1, 1)));
    Path summary = ns.resolve("t2/summary.json");
    String text = Files.readString(summary).replace("\"task_id\": \"t2\"", "\"task_id\": \"t2\u00e9\"");
    Files.write(summary, text.getBytes(StandardCharsets.ISO_8859_1));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(2, rows(ns).size(), "only t1's rows: t2's summary is not read with a replaced character");
    assertTrue(out().contains("1 unreadable summary file(s)") && out().contains(summary + " is not UTF-8 text"),
        out());
  }

  @Test
  void aSummaryOfTheWrongShapeIsCountedUnreadableNamingTheFileAndField() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(1, 1),
        "t3", score(1, 1)));
    Files.writeString(ns.resolve("t2/summary.json"), "{}");
    Path t3 = ns.resolve("t3/summary.json");
    Files.writeString(t3, Files.readString(t3).replaceFirst("\"ok\": true", "\"ok\": \"yes\""));
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(2, rows(ns).size(), "t1's two rows");
    assertTrue(out().contains("2 unreadable summary file(s)"), out());
    assertTrue(out().contains(ns.resolve("t2/summary.json") + ": task_id is missing"), out());
    assertTrue(out().contains(t3 + ": selections.agg.ok must be true or false, found \"yes\" (a string)"), out());
  }

  @Test
  void anUnreadableJudgedFileStopsOnlyThatNamespaceAndIsLeftUntouched() throws Exception {
    Path bad = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path good = Namespaces.python(runs, "demo-oc-agg2", 2, Map.of("t1", score(1, 1)));
    Files.writeString(bad.resolve("judged.json"), "[{oops");
    assertEquals(2, judge("--namespaces=" + runs.resolve("demo-oc-agg*")));
    assertEquals("[{oops", Files.readString(bad.resolve("judged.json")));
    assertTrue(out().contains("move it aside"), out());
    assertEquals(2, rows(good).size());
  }

  @Test
  void aJudgedFileWithARowOfTheWrongShapeIsLeftUntouchedNamingTheField() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    String old = "[{\"task_id\": \"t0\", \"mode\": \"agg\", \"k\": 1, \"n_passed\": \"3\", \"n_criteria\": 4}]";
    Files.writeString(ns.resolve("judged.json"), old);
    assertThrows(UsageError.class, () -> judge("--namespaces=" + ns), "its only namespace is skipped");
    assertEquals(old, Files.readString(ns.resolve("judged.json")), "not rewritten with t0's score dropped");
    assertTrue(out().contains("row 0 of judged.json: n_passed must be a number or null, found \"3\" (a string)"),
        out());
  }

  @Test
  void aDifferentJudgeIsRefusedBeforeAnythingRunsWhileTheNamespaceHoldsItsGrades() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.writeString(ns.resolve("config.json"), "{\"judge\": \"someone-else\"}");
    Files.writeString(ns.resolve("judged.json"), "[]");
    UsageError e = assertThrows(UsageError.class, () -> judge("--namespaces=" + ns));
    assertTrue(e.getMessage().contains(ns + " holds grades (judged.json) of the judge 'someone-else' its config.json"
        + " records, not of 'scripted:v1'. To grade with the new judge, move those grades aside"), e.getMessage());
    assertEquals("[]", Files.readString(ns.resolve("judged.json")));
  }

  @Test
  void aRecordedJudgeWithoutGradesDoesNotBindAndIsReplaced() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.writeString(ns.resolve("config.json"), "{\"judge\": \"someone-else\"}");
    assertEquals(0, judge("--namespaces=" + ns), out());
    assertEquals("scripted:v1", Json.readMap(ns.resolve("config.json")).get("judge"));
  }

  /** config.json as a harness2 CLI sweep writes it when it starts (spec §3.6), the judge model included. */
  static String harness2Config() {
    return "{\n  \"method_version\": 2,\n  \"executor\": \"vertex_ai/glm-5\",\n  \"improver\":"
        + " \"vertex_ai/gemini-3.5-flash\",\n  \"judge\": \"vertex_ai/gemini-3.5-pro\",\n  \"project\": \"p\",\n"
        + "  \"location\": \"global\",\n  \"judge_endpoint\": \"\",\n  \"endpoint\": \"\",\n  \"split\": \"all\",\n"
        + "  \"tasks\": [[\"accounting\", \"t1\"]],\n  \"max_tasks\": null,\n  \"domains\": [],\n  \"seed\": null\n}\n";
  }

  @Test
  void aNeverJudgedHarness2SweepIsJudgedAndItsConfigLeftByteForByte() throws Exception {
    Path ns = Namespaces.python(runs, "jb-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.writeString(ns.resolve("config.json"), harness2Config());
    assertEquals(0, judge("--namespaces=" + ns), out());
    assertEquals(2, rows(ns).size());
    assertEquals(harness2Config(), Files.readString(ns.resolve("config.json")), "harness2 compares it whole");
    assertEquals("scripted:v1", Json.readMap(ns.resolve(JudgeIdentity.FILE)).get("judge"));
    // h2beam's own record binds its judged.json from now on: the same judge again, another refused
    assertEquals(0, judge("--namespaces=" + ns), out());
    UsageError e = assertThrows(UsageError.class, () -> judge("--namespaces=" + ns, "--grader=noop"));
    assertTrue(e.getMessage().contains("of the judge 'scripted:v1' its " + JudgeIdentity.FILE + " records, not of"
        + " 'noop'"), e.getMessage());
    assertEquals(harness2Config(), Files.readString(ns.resolve("config.json")));
  }

  @Test
  void aHarness2NamespaceItsOwnJudgeGradedIsRefusedNamingTheJudgeItWasRecordedFor() throws Exception {
    Path ns = Namespaces.python(runs, "jb-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.writeString(ns.resolve("config.json"), harness2Config());
    Files.writeString(ns.resolve("judged.json"), "[]");
    UsageError e = assertThrows(UsageError.class, () -> judge("--namespaces=" + ns));
    assertTrue(e.getMessage().contains("holds grades (judged.json) of the judge 'vertex_ai/gemini-3.5-pro' its"
        + " config.json (harness2's, written as its sweep started) records, not of 'scripted:v1'"), e.getMessage());
    assertFalse(e.getMessage().contains("judged by"), e.getMessage());
    assertFalse(Files.exists(ns.resolve(JudgeIdentity.FILE)));
    assertEquals(harness2Config(), Files.readString(ns.resolve("config.json")));
  }

  @Test
  void gradesAStoppedJudgeKeptBindTheNamespaceToItsJudge() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.writeString(ns.resolve("config.json"), "{\"judge\": \"someone-else\"}");
    Files.createDirectories(ns.resolve(KeptGrades.DIR)).resolve("a.json").toFile().createNewFile();
    UsageError e = assertThrows(UsageError.class, () -> judge("--namespaces=" + ns));
    assertTrue(e.getMessage().contains("holds grades (" + KeptGrades.DIR + "/)"), e.getMessage());
  }

  @Test
  void aBatchOverSeveralNamespacesJudgesEachIntoItsOwnFile() throws Exception {
    for (int k = 1; k <= 3; k++) Namespaces.python(runs, "demo-oc-agg" + k, k, Map.of("a", score(1, 1), "b", score(0, 1)));
    assertEquals(0, judge("--namespaces=" + runs.resolve("demo-oc-agg*")));
    for (int k = 1; k <= 3; k++) {
      List<Map<String, Object>> rows = rows(runs.resolve("demo-oc-agg" + k));
      assertEquals(4, rows.size());
      int want = k;
      assertTrue(rows.stream().allMatch(r -> ((Number) r.get("k")).intValue() == want), rows.toString());
    }
    assertEquals(3, out().lines().filter(l -> l.contains("judged.json: 4 row(s)")).count(), out());
  }

  @Test
  void namespacesKeptTogetherInShardsAreJudgedAsWhenEverySummaryIsPlacedOnItsOwn() throws Exception {
    for (int k = 1; k <= 3; k++) Namespaces.python(runs, "demo-oc-agg" + k, k, Map.of("a", score(1, 1), "b", score(0, 1)));
    assertEquals(0, judge("--namespaces=" + runs.resolve("demo-oc-agg*"), "--judgeShards=16"));
    Map<Integer, String> bySummary = new java.util.TreeMap<>();
    for (int k = 1; k <= 3; k++) bySummary.put(k, Files.readString(runs.resolve("demo-oc-agg" + k + "/judged.json")));
    String printedBySummary = out();
    console.reset();
    for (int k = 1; k <= 3; k++) Files.delete(runs.resolve("demo-oc-agg" + k + "/judged.json"));

    // three namespaces, two shards: each namespace is graded whole in one shard
    assertEquals(0, judge("--namespaces=" + runs.resolve("demo-oc-agg*"), "--judgeShards=2"));

    for (int k = 1; k <= 3; k++) {
      assertEquals(bySummary.get(k), Files.readString(runs.resolve("demo-oc-agg" + k + "/judged.json")));
    }
    assertEquals(printedBySummary, out());
  }

  @Test
  void aFailedReJudgeNeverErasesAGradedRow() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    assertEquals(0, judge("--namespaces=" + ns));
    Files.writeString(root.resolve("executions/demo-oc-agg1/t1/agg1/grade.txt"), "throw");
    assertEquals(2, judge("--namespaces=" + ns));
    assertEquals(true, row(ns, "t1", "agg").get("graded"), "the earlier score stands");
  }

  @Test
  void aFailedReJudgeShowsWhatFailedAndWhyTheOldRowWasKept() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(1, 1)));
    assertEquals(0, judge("--namespaces=" + ns));
    Files.writeString(root.resolve("executions/demo-oc-agg1/t1/agg1/grade.txt"), "throw");
    Files.writeString(root.resolve("executions/demo-oc-agg1/t2/c1/grade.txt"), "empty");
    console.reset();
    assertEquals(2, judge("--namespaces=" + ns));
    assertTrue(out().contains("demo-oc-agg1: judged.json: 4 row(s), 4 graded, 0 ungraded"), out());
    assertTrue(out().contains("demo-oc-agg1: this run: 4 row(s) judged, 2 graded, 2 not graded:\n"
        + "  t1 agg k=1 (agg1): judge-failed: IllegalStateException: grader exploded on t1 [judged.json keeps the"
        + " earlier graded row of this same run: a failed re-judge never erases a score; fix the cause and judge"
        + " again]\n"
        + "  t2 seq k=1 (c1): judge-failed: judge returned nothing [judged.json keeps"), out());
    assertTrue(out().endsWith("exit 2: 2 row(s) of this run not graded (see above)\n"), out());
  }

  /** A namespace of one task whose summary records one base rollout, graded {@code grade} by the scripted grader. */
  Path oneBase(String grade) throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Map<String, Object> s = Json.readMap(ns.resolve("t1/summary.json"));
    Path baseDir = root.resolve("executions/demo-oc-agg1/t1/base1");
    Files.createDirectories(baseDir);
    Files.writeString(baseDir.resolve("grade.txt"), grade);
    s.put("base", List.of(Map.of("label", "base1", "run_id", "demo-oc-agg1/t1/base1", "run_dir", baseDir.toString())));
    Files.writeString(ns.resolve("t1/summary.json"), Json.pretty(s));
    return ns;
  }

  @Test
  void basesAreJudgedIntoBaseJudgedJson() throws Exception {
    Path ns = oneBase(score(0, 1));
    assertEquals(0, judge("--namespaces=" + ns, "--bases=true"));
    String text = Files.readString(ns.resolve("base_judged.json"));
    assertTrue(text.startsWith("[\n {\n  \"task\": \"t1\",\n  \"label\": \"base1\""), text);
  }

  @Test
  void aFolderThatIsNotANamespaceOrHasNoSummaryIsRefusedAndNothingIsWritten() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    UsageError parent = assertThrows(UsageError.class, () -> judge("--namespaces=" + runs));
    assertTrue(parent.getMessage().startsWith("--namespaces: " + runs + " is not a namespace folder"),
        parent.getMessage());
    assertTrue(parent.getMessage().contains("it holds namespaces (a runs root): name one, or a glob of them such as '"
        + runs + "/*'"), parent.getMessage());
    // a task's folder: its namespace is named, as the report names it (dogAG B1)
    UsageError task = assertThrows(UsageError.class, () -> judge("--namespaces=" + ns.resolve("t1")));
    assertTrue(task.getMessage().contains("it is a folder inside the namespace " + ns + ": name that, --namespaces="
        + ns), task.getMessage());
    Path empty = Files.createDirectories(runs.resolve("demo-oc-agg2"));
    UsageError none = assertThrows(UsageError.class, () -> judge("--namespaces=" + empty));
    assertEquals("--namespaces: " + empty + " holds no <task>/summary.json, so there is nothing to judge there (is"
        + " this the wrong runs folder?); nothing was written", none.getMessage());
    assertTrue(!Files.exists(runs.resolve("config.json")) && !Files.exists(empty.resolve("config.json")));
    // a sweep stopped before a task's end leaves its finished modes' parts, and no summary.json yet
    Files.createDirectories(empty.resolve("t1"));
    Files.writeString(empty.resolve("t1/summary.agg.json"), "{}\n");
    UsageError parted = assertThrows(UsageError.class, () -> judge("--namespaces=" + empty));
    assertTrue(parted.getMessage().contains("holds no <task>/summary.json, so there is nothing to judge there yet: 1"
        + " task folder(s) hold the parts one is merged from (summary.<mode>.json, each a mode that finished)"),
        parted.getMessage());
    assertTrue(parted.getMessage().contains("run the same sweep command again"), parted.getMessage());
    // dogU: beside a judgeable namespace (a cron job's glob over a runs tree), it is skipped and said, not the end
    assertEquals(2, judge("--namespaces=" + empty + "," + ns));
    assertTrue(Files.isRegularFile(ns.resolve("judged.json")));
    Files.delete(ns.resolve("judged.json"));
    // a live sweep of it is named, as the judge's refusal of a namespace being swept says
    Process sweep = new ProcessBuilder("sleep", "60").start();
    try {
      Files.writeString(runs.resolve(dev.h2beam.adapters.files.WriterLock.FILE), "{\"what\": \"sweep of"
          + " demo-oc-agg2\", \"host\": \"" + dev.h2beam.adapters.files.WriterLock.host() + "\", \"pid\": "
          + sweep.pid() + ", \"started_at\": \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
      UsageError swept = assertThrows(UsageError.class, () -> judge("--namespaces=" + empty));
      assertTrue(swept.getMessage().contains("demo-oc-agg2 is being swept by a sweep of demo-oc-agg2"),
          swept.getMessage());
    } finally {
      sweep.destroy();
      sweep.waitFor();
      Files.delete(runs.resolve(dev.h2beam.adapters.files.WriterLock.FILE));
    }
    Files.createDirectories(runs.resolve("demo-oc-seq1"));
    assertEquals(0, judge("--namespaces=" + runs.resolve("demo-oc-seq1")), "a sequential namespace stands for its"
        + " parallel sibling");
    assertTrue(Files.isRegularFile(ns.resolve("judged.json")));
    assertTrue(!Files.exists(runs.resolve("demo-oc-seq1/config.json")));
  }

  @Test
  void summariesThatRecordOnlyOtherModesNameThemAndTheFlag() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1), "t2", score(1, 1)),
        List.of("gat"));
    assertEquals(2, judge("--namespaces=" + ns));
    assertTrue(out().startsWith("demo-oc-agg1: nothing to judge in modes parallel,sequential: its 2 summary.json"
        + " file(s) record selections for gated only; pass --modes=gated\n"), out());
    assertFalse(out().contains("did every task fail"), out());
    assertFalse(Files.exists(ns.resolve("judged.json")));
  }

  @Test
  void summariesWithoutAnySelectionAskWhetherEveryTaskFailed() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)), List.of());
    assertEquals(2, judge("--namespaces=" + ns));
    assertTrue(out().startsWith("demo-oc-agg1: nothing to judge: its 1 summary.json file(s) record no selection"
        + " (did every task fail before selection? see their errors)\n"), out());
  }

  @Test
  void aSuccessfulJudgePrintsTheReportToRunNext() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    assertEquals(0, judge("--namespaces=" + ns));
    assertTrue(out().endsWith("\nnext:   ./h2beam report --namespaces=" + ns + "\n"), out());
  }

  /**
   * dogAG A3: judged with a mode no namespace ran, the judge said nothing of it and suggested a report with it, whose
   * comparisons then "held" for the missing mode. It is named, and the report to run next leaves it out.
   */
  @Test
  void aModeNoNamespaceRanIsNamedAndLeftOutOfTheReportToRunNext() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    assertEquals(0, judge("--namespaces=" + ns, "--modes=both,gated"));
    assertTrue(out().endsWith("\nnote:   no namespace judged here records a gated run; left out of the report"
        + " below\nnext:   ./h2beam report --namespaces=" + ns + "\n"), out());
  }

  /** The report to run next runs where the judge ran: the runner's options it was given are repeated (dogAC F9). */
  @Test
  void theReportToRunNextRepeatsTheRunnerTheJudgeWasGiven() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    PrintStream was = System.out;
    System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
    try {
      assertEquals(0, new JudgeCommand().run(new String[] {"--namespaces=" + ns, "--grader=scripted",
          "--runner=DirectRunner"}));
    } finally {
      System.setOut(was);
    }
    assertTrue(out().endsWith("\nnext:   ./h2beam report --namespaces=" + ns + " --runner=DirectRunner\n"), out());
  }

  /**
   * Re-judging many namespaces suggests the report over a quoted glob that names exactly them, one per benchmark and
   * substrate; where the only such glob would name another folder too, the namespaces are listed.
   */
  @Test
  void manyNamespacesJudgedSuggestAGlobThatNamesExactlyThem() throws Exception {
    List<Path> bench = new ArrayList<>();
    for (int s = 0; s < 5; s++) bench.add(Namespaces.python(runs, "bench-oc-agg1-s" + s, 1, Map.of("t1", score(1, 1))));
    List<Path> demo = new ArrayList<>();
    for (String n : List.of("demo-oc-agg1", "demo-oc-agg2", "demo-oc-agg3", "demo-oc-agg4")) {
      demo.add(Namespaces.python(runs, n, 1, Map.of("t1", score(1, 1))));
    }
    assertEquals(0, judge("--namespaces=" + runs + "/*"), out());
    List<String> next = out().lines().filter(l -> l.startsWith("next:")).toList();
    assertEquals(List.of("next:   ./h2beam report --namespaces='" + runs + "/bench-oc-agg1-s*'",
        "next:   ./h2beam report --namespaces='" + runs + "/demo-oc-agg*'"), next);

    // a glob over bench-oc-agg1-s* would also name s4, which is not judged this time: they are listed
    console.reset();
    assertEquals(0, judge("--namespaces=" + bench.subList(0, 4).stream().map(Path::toString)
        .collect(java.util.stream.Collectors.joining(","))), out());
    assertEquals(List.of("next:   ./h2beam report --namespaces=" + bench.subList(0, 4).stream().map(Path::toString)
        .collect(java.util.stream.Collectors.joining(","))), out().lines().filter(l -> l.startsWith("next:")).toList());
    assertEquals(null, JudgeCommand.glob(List.of(bench.get(0).toString(), runs.resolve("a,b").toString())));
    assertEquals(runs + "/demo-oc-agg*", JudgeCommand.glob(demo.stream().map(Path::toString).toList()));
  }

  /** dogAG A7: an unseeded run and a seeded one judged together are suggested two reports, not one. */
  @Test
  void seededAndUnseededNamespacesAreSuggestedReportsApart() throws Exception {
    Path plain = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path seeded = Namespaces.python(runs, "demo-oc-agg1-s1", 1, Map.of("t1", score(1, 1)));
    assertEquals(0, judge("--namespaces=" + plain + "," + seeded), out());
    assertEquals(List.of("next:   ./h2beam report --namespaces=" + plain,
        "next:   ./h2beam report --namespaces=" + seeded), out().lines().filter(l -> l.startsWith("next:")).toList());
  }

  /** dogAG A7: two seed sets of one cell whose task sets differ are suggested a report each. */
  @Test
  void seedSetsOfOtherTasksAreSuggestedAReportEach() throws Exception {
    List<String> one = new ArrayList<>();
    List<String> two = new ArrayList<>();
    for (int s = 1; s <= 4; s++) {
      // seeds 1 and 3 ran task t1, 2 and 4 task t2 (two runs' seeds in one runs root)
      String task = s % 2 == 1 ? "t1" : "t2";
      Path ns = Namespaces.python(runs, "demo-oc-agg1-s" + s, 1, Map.of(task, score(1, 1)));
      Files.writeString(ns.resolve("config.json"), "{\"method_version\": 2, \"split\": \"all\", \"seed\": " + s
          + ", \"tasks\": [\"" + task + "\"]}\n");
      (s % 2 == 1 ? one : two).add(ns.toString());
    }
    assertEquals(0, judge("--namespaces=" + runs + "/demo-oc-agg1-s*"), out());
    assertEquals(List.of("next:   ./h2beam report --namespaces=" + String.join(",", one),
        "next:   ./h2beam report --namespaces=" + String.join(",", two)),
        out().lines().filter(l -> l.startsWith("next:")).toList());
  }

  /** Two runs roots' gated namespaces of the same names judged together: their methods' report is suggested too. */
  @Test
  void twoRunsRootsGatedNamespacesOfTheSameNamesAreSuggestedTheMethodsReport() throws Exception {
    Path a = Files.createDirectories(runs.resolve("a").resolve("runs"));
    Path b = Files.createDirectories(runs.resolve("b").resolve("runs"));
    for (Path root : List.of(a, b)) {
      for (int s = 1; s <= 2; s++) {
        Namespaces.python(root, "demo-oc-agg1-s" + s, 1, Map.of("t1", score(1, 1)), List.of("agg", "gat"));
      }
    }
    String mine = a.resolve("demo-oc-agg1-s1") + "," + a.resolve("demo-oc-agg1-s2");
    String theirs = b.resolve("demo-oc-agg1-s1") + "," + b.resolve("demo-oc-agg1-s2");
    String both = "--namespaces=" + a + "/demo-oc-agg1-s*," + b + "/demo-oc-agg1-s*";
    assertEquals(0, judge(both, "--modes=gated"), out());
    assertEquals(List.of("next:   ./h2beam report --namespaces=" + mine + " --modes=gated",
        "next:   ./h2beam report --namespaces=" + theirs + " --modes=gated",
        "next:   ./h2beam report --namespaces=" + mine + " --versus=" + theirs + " --modes=gated   # the two runs"
            + " roots' gated methods, paired (README: report --versus)"),
        out().lines().filter(l -> l.startsWith("next:")).toList());

    // a blind mode alone: no method to compare
    console.reset();
    assertEquals(0, judge(both, "--modes=parallel"), out());
    assertFalse(out().contains("--versus"), out());

    // a third root, with a seed more, and a fourth whose namespaces ran no gated mode: the first root is compared with
    // each that has gated rows, over the seeds both have (dogAI F3, F5)
    Path c = Files.createDirectories(runs.resolve("c").resolve("runs"));
    Path d = Files.createDirectories(runs.resolve("d").resolve("runs"));
    for (int s = 1; s <= 3; s++) {
      Namespaces.python(c, "demo-oc-agg1-s" + s, 1, Map.of("t1", score(1, 1)), List.of("agg", "gat"));
    }
    for (int s = 1; s <= 2; s++) Namespaces.python(d, "demo-oc-agg1-s" + s, 1, Map.of("t1", score(1, 1)));
    console.reset();
    assertEquals(0, judge(both + "," + c + "/demo-oc-agg1-s*," + d + "/demo-oc-agg1-s*", "--modes=parallel,gated"),
        out());
    String pairs = " --modes=parallel,gated   # the two runs roots' gated methods, paired (README: report --versus)";
    assertEquals(List.of("next:   ./h2beam report --namespaces=" + mine + " --versus=" + theirs + pairs,
        "next:   ./h2beam report --namespaces=" + mine + " --versus=" + c.resolve("demo-oc-agg1-s1") + ","
            + c.resolve("demo-oc-agg1-s2") + pairs + "; no partner, left out: demo-oc-agg1-s3"),
        out().lines().filter(l -> l.contains("--versus")).toList());
    // and the root without gated rows is not asked for them
    assertTrue(out().contains("\nnext:   ./h2beam report --namespaces=" + d.resolve("demo-oc-agg1-s1") + ","
        + d.resolve("demo-oc-agg1-s2") + " --modes=parallel\n"), out());
    assertTrue(out().contains("\nnext:   ./h2beam report --namespaces=" + mine + " --modes=parallel,gated\n"), out());
  }

  @Test
  void theReportToRunNextKeepsTheJudgesModes() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)), List.of("gat"));
    assertEquals(0, judge("--namespaces=" + ns, "--modes=gated"), out());
    assertTrue(out().endsWith("\nnext:   ./h2beam report --namespaces=" + ns + " --modes=gated\n"), out());
  }

  @Test
  void aGlobOverARunsFolderSkipsItsUnderscoreFoldersButANamedOneIsStillChecked() throws Exception {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.createDirectories(runs.resolve("demo-oc-seq1"));
    for (String d : List.of("_audit", "_sweeps", "_report")) Files.createDirectories(runs.resolve(d));
    assertEquals(0, judge("--namespaces=" + runs + "/*"), out());
    assertTrue(Files.isRegularFile(ns.resolve("judged.json")));
    UsageError named = assertThrows(UsageError.class, () -> judge("--namespaces=" + runs.resolve("_audit")));
    assertTrue(named.getMessage().startsWith("--namespaces: " + runs.resolve("_audit") + " is not a namespace"
        + " folder"), named.getMessage());
  }

  /**
   * A glob may stand in any part of the path, as the report's may (the judge refused runs roots matched by a glob,
   * which the report took); a hidden folder is matched only when asked for.
   */
  @Test
  void aGlobMayStandInAnyPartOfThePathAsTheReportsMay() throws Exception {
    Path a = Namespaces.python(runs.resolve("rootA"), "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Path b = Namespaces.python(runs.resolve("rootB"), "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    Files.createDirectories(runs.resolve(".rootC/demo-oc-agg1"));
    assertEquals(0, judge("--namespaces=" + runs + "/root*/demo-oc-agg*"), out());
    assertTrue(Files.isRegularFile(a.resolve("judged.json")) && Files.isRegularFile(b.resolve("judged.json")));
    // one namespace name in two runs roots: each line names its root, and each root gets its own report
    assertEquals(List.of(a + ": judged.json: 2 row(s), 2 graded, 0 ungraded (judge failure or no pick \u2014 NOT"
        + " zeros)", b + ": judged.json: 2 row(s), 2 graded, 0 ungraded (judge failure or no pick \u2014 NOT zeros)"),
        out().lines().filter(l -> l.contains("judged.json:")).toList());
    assertEquals(List.of("next:   ./h2beam report --namespaces=" + a, "next:   ./h2beam report --namespaces=" + b),
        out().lines().filter(l -> l.startsWith("next:")).toList());
    assertEquals(List.of(a, b), JudgeCommand.expand(runs + "/*root*/demo-oc-agg1"), "no hidden folder unasked");
    assertEquals(List.of(runs.resolve(".rootC/demo-oc-agg1")), JudgeCommand.expand(runs + "/.root*/demo-oc-agg1"));
  }

  /** Runs {@code body} with {@code path} immutable ({@code chattr +i}); skipped where chattr cannot do that. */
  static void immutable(Path path, org.junit.jupiter.api.function.Executable body) throws Throwable {
    Process p = new ProcessBuilder("chattr", "+i", path.toString()).redirectErrorStream(true).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "chattr +i is not available here");
    try {
      body.execute();
    } finally {
      new ProcessBuilder("chattr", "-i", path.toString()).start().waitFor();
    }
  }

  @Test
  void anUnwritableNamespaceIsRefusedWithThePermissionFixNotMoveItAside() throws Throwable {
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", score(1, 1)));
    immutable(ns, () -> {
      UsageError e = assertThrows(UsageError.class, () -> judge("--namespaces=" + ns));
      assertTrue(e.getMessage().startsWith("--namespaces: cannot write " + ns.resolve("judged.json") + " ("),
          e.getMessage());
      assertTrue(e.getMessage().contains("needs write permission on " + ns + " ") && !e.getMessage().contains("aside"),
          e.getMessage());
    });
    assertEquals(0, judge("--namespaces=" + ns));
    Files.writeString(root.resolve("executions/demo-oc-agg1/t1/agg1/grade.txt"), score(0, 1));
    console.reset();
    immutable(ns.resolve("judged.json"), () -> {
      assertEquals(2, judge("--namespaces=" + ns));
      assertTrue(out().contains("demo-oc-agg1: cannot write " + ns.resolve("judged.json")), out());
      assertTrue(!out().contains("aside"), out());
    });
  }

  @Test
  void aBenchmarkWithoutAGraderOfItsOwnNamesWhereTheFallbackCameFromNotAFlag() throws Exception {
    Path ns = Namespaces.python(runs, "dogf_sums-oc-agg1", 1, Map.of("t1", score(1, 1)));
    JudgeOptions o = PipelineOptionsFactory.fromArgs("--namespaces=" + ns).as(JudgeOptions.class);
    UsageError e = assertThrows(UsageError.class, () -> JudgeCommand.run(o, new PrintStream(console)));
    assertTrue(e.getMessage().startsWith("dogf_sums-oc-agg1: no --grader was given, and the grader the judge falls"
        + " back to, 'dogf_sums' (the benchmark its name records, which has no grader of its own), is not a known"
        + " grader; known: ["), e.getMessage());
    assertTrue(e.getMessage().endsWith("Pass --grader=NAME (e.g. --grader=command --graderCommand='<command printing a"
        + " score JSON>'), or --benchRoot=<its folder benchmark> to use the grader its bench.json declares"),
        e.getMessage());
    assertFalse(e.getMessage().contains("--grader=dogf_sums"), e.getMessage());
  }

  @Test
  void badOptionsNameTheFlag() {
    assertTrue(assertThrows(UsageError.class, () -> judge("--namespaces=" + root.resolve("nope")))
        .getMessage().contains("--namespaces"));
    assertTrue(assertThrows(UsageError.class, () -> judge("--namespaces=" + root, "--modes=wide"))
        .getMessage().contains("--modes"));
    assertTrue(assertThrows(UsageError.class, () -> judge("--namespaces=" + root, "--grader=nobody"))
        .getMessage().contains("--grader=nobody"));
  }
}
