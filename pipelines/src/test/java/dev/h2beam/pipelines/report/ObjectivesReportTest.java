package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.judge.MetricVector;
import dev.h2beam.pipelines.report.Fixtures.ModeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The report over the metric vector (seed 001): each objective its own paired-difference verdict, the relation over
 * the vector (a trade-off is recognised, never collapsed), absences named with their reason and never zero, time
 * compared only under one declared timing environment, the judge's spread apart from the execution se, per-task
 * metric values only in the restricted file, and a malformed --objectives refused.
 */
class ObjectivesReportTest {
  static final String OBJECTIVES = "--objectives=score:max:5,cost:min:0.02,total_tokens:min:500";

  /** What one task of one mode in one seed recorded: a value per metric, or an absence per metric. */
  interface Vector extends BiFunction<Integer, String[], Map<String, Object>> {}

  /**
   * Three seeds at k=2, tasks ledger-1 and ledger-2, parallel and sequential on budget, one declared identity.
   * Parallel passes both tasks (2/2), sequential half (1/2); each row's metrics come from {@code vector} (seed,
   * {task, mode}); a seed whose vector is null writes no metrics.json.
   */
  static void cell(Path runs, Vector vector, Map<Integer, Object> timing) throws Exception {
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      Fixtures.judged(ns, List.of(
          Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2), Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2),
          Fixtures.graded("ledger-2", "agg", 2, "agg2", 2, 2), Fixtures.graded("ledger-2", "seq", 2, "c2", 1, 2)));
      List<Map<String, Object>> rows = new ArrayList<>();
      for (String task : List.of("ledger-1", "ledger-2")) {
        Fixtures.summary(ns, task, 2, 0.5, 0.25, List.of(), 0.0, List.of(
            ModeRun.onBudget("agg", 2, List.of("agg1", "agg2"), "agg1"),
            ModeRun.onBudget("seq", 2, List.of("c1", "c2"), "c1")));
        for (String mode : List.of("agg", "seq")) {
          Map<String, Object> row = vector.apply(seed, new String[] {task, mode});
          if (row != null) rows.add(row);
        }
      }
      if (!rows.isEmpty()) Fixtures.metrics(ns, rows);
      if (timing.containsKey(seed)) {
        Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed, timing.get(seed));
      } else Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
      Fixtures.namespace(runs, "demo-oc-seq2-s" + seed);
    }
  }

  /**
   * Parallel costs more (0.50 + 0.01·seed per task against 0.10) and spends about as many tokens (1000 + seed
   * against 1000); the chosen rollout's wall time is 30 s against 10 s.
   */
  static Map<String, Object> tradeOff(int seed, String[] taskMode) {
    boolean agg = taskMode[1].equals("agg");
    Map<String, Double> v = new LinkedHashMap<>();
    v.put("cost", agg ? 0.5 + 0.01 * seed : 0.1);
    v.put("total_tokens", agg ? 1000.0 + seed : 1000.0);
    v.put("chosen_wall_s", agg ? 30.0 : 10.0);
    return Fixtures.metricRow(taskMode[0], taskMode[1], 2, v, Map.of());
  }

  /** Reports the cell with {@code flags} and returns the objectives section of parallel versus sequential. */
  static String section(Path runs, String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of("--namespaces=" + runs + "/demo-oc-agg2-s*"));
    args.addAll(List.of(flags));
    Fixtures.Run run = Fixtures.report(args.toArray(String[]::new));
    assertEquals(0, run.exit(), run.err());
    return objectivesSection(run.out());
  }

  static String objectivesSection(String text) {
    Matcher m = Pattern.compile("(?m)^Objectives at k=2: parallel vs sequential[\\s\\S]*?^  relation over"
        + " objectives: .*$").matcher(text);
    assertTrue(m.find(), text);
    return m.group();
  }

  @Test
  void aModeThatScoresHigherAndCostsMoreIsATradeOffNotOneScore(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    String section = objectivesSection(run.out());
    assertTrue(section.contains("  score (max, min effect 5 pt): mean paired difference +50.00 pt (parallel -"
        + " sequential) | 3 replicates, 6 task pairs | se 0.00 pt | threshold 5.00 pt = max(minEffect 5.00, 2*se"
        + " 0.00) | favors-parallel"), section);
    // parallel - sequential per seed: +0.41, +0.42, +0.43 usd; se 0.0058, threshold max(0.02, 0.0115)
    assertTrue(section.contains("  cost (min, min effect 0.02 usd): mean paired difference +0.4200 usd (parallel -"
        + " sequential) | 3 replicates, 6 task pairs | se 0.0058 usd | threshold 0.0200 usd = max(minEffect 0.0200,"
        + " 2*se 0.0115) | favors-sequential"), section);
    assertTrue(section.contains("  total_tokens (min, min effect 500 tokens): mean paired difference +2.00 tokens"
        + " (parallel - sequential) | 3 replicates, 6 task pairs | se 0.58 tokens | threshold 500.00 tokens"
        + " = max(minEffect 500.00, 2*se 1.15) | inconclusive: |+2.00| does not exceed the threshold"), section);
    assertTrue(section.endsWith("  relation over objectives: trade-off (score favors-parallel; cost"
        + " favors-sequential) | claim: exploratory"), section);
    // the score and pass comparison above is unchanged: it knows nothing of cost
    assertTrue(run.out().contains("  relation: favors-parallel | claim: exploratory"), run.out());
    assertFalse(run.out().contains("has no readable metrics.json"), run.out());
  }

  /**
   * One rule for every objective: a task whose score is absent (an ungraded row: run-missing) leaves its replicate
   * without a score, as an absent cost would, where score dropped that task pair, kept the seed and named nothing,
   * while cost compared every pair; the replicate section says the replicate is partial.
   */
  @Test
  void anUngradedTaskLeavesItsReplicateWithoutAScoreAsAnAbsentCostWould(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    Map<String, Object> missing = Fixtures.ungraded("ledger-2", "seq", 2);
    missing.put("absence", "run-missing");
    Fixtures.judged(runs.resolve("demo-oc-agg2-s2"), List.of(
        Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2), Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2),
        Fixtures.graded("ledger-2", "agg", 2, "agg2", 2, 2), missing));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    String section = objectivesSection(run.out());
    assertTrue(section.contains("  score (max, min effect 5 pt): no mean paired difference (it would leave out the"
        + " replicates without a run value) | 2 replicates, 4 task pairs | inconclusive: no run value in 1 of 3"
        + " replicates (a metric absent on any task has no run value; zero never stands in)\n    absent: seed 2"
        + " (demo-oc-agg2-s2) sequential ledger-2: run-missing\n"), section);
    assertTrue(section.contains("  cost (min, min effect 0.02 usd): mean paired difference +0.4200 usd"), section);
    // the comparison's score and pass follow the same rule
    assertTrue(run.out().contains("  score: no mean paired difference (it would leave out the replicates without a"
        + " run value) | 2 replicates, 4 task pairs | inconclusive: no run value in 1 of 3 replicates"), run.out());
    assertTrue(run.out().contains("  sequential k=2 seed=2 (demo-oc-agg2-s2): n=  1 | ungraded 1 | score withheld |"
        + " pass withheld | partial: over 1 of 2 tasks\n"), run.out());
    assertTrue(run.out().contains("    1 of them partial (seed 2): scored over their graded tasks only"), run.out());
  }

  @Test
  void theDefaultObjectivesAreScoreAtMinEffectCostAndTheModesTokens(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    String section = section(runs, "--minEffect=7.5");
    // the objectives' heads (the fixture records no mode_tokens: its absences are listed under it)
    List<String> heads = section.lines().filter(l -> l.startsWith("  ") && !l.startsWith("   ")
        && !l.startsWith("  relation")).map(l -> l.substring(2, l.indexOf(':'))).toList();
    assertEquals(List.of("score (max, min effect 7.5 pt)", "cost (min, min effect 0.01 usd)",
        "mode_tokens (min, min effect 1000 tokens)"), heads);
  }

  static List<String> reasons() {
    return MetricVector.REASONS;
  }

  @ParameterizedTest
  @MethodSource("reasons")
  void anAbsenceOfEachReasonReachesTheReportAndLeavesTheObjectiveWithoutARunValue(String reason,
      @TempDir Path runs) throws Exception {
    cell(runs, (seed, tm) -> {
      Map<String, Object> row = tradeOff(seed, tm);
      if (seed == 2 && tm[0].equals("ledger-2") && tm[1].equals("seq")) {
        @SuppressWarnings("unchecked")
        Map<String, Object> values = (Map<String, Object>) row.get("values");
        values.remove("cost");
        @SuppressWarnings("unchecked")
        Map<String, Object> absent = (Map<String, Object>) row.get("absent");
        absent.put("cost", reason);
      }
      return row;
    }, Map.of());
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    String section = objectivesSection(run.out());
    // a metric that does not apply to one side cannot be compared; any other absence leaves it undecided
    String verdict = reason.equals("not-applicable") ? "not-comparable" : "inconclusive";
    assertTrue(section.contains("  cost (min, min effect 0.02 usd): no mean paired difference (it would leave out"
        + " the replicates without a run value) | 2 replicates, 4 task pairs | " + verdict + ": no run value in 1"
        + " of 3 replicates (a metric absent on any task has no run value; zero never stands in)\n"
        + "    absent: seed 2 (demo-oc-agg2-s2) sequential ledger-2: " + reason + "\n"),
        section);
    // score alone favours parallel; an unknown cost could go either way, so no claim is made beside it
    assertTrue(section.endsWith(reason.equals("not-applicable")
        ? "  relation over objectives: favors-parallel (decided by score) | claim: exploratory"
        : "  relation over objectives: inconclusive (score favors-parallel, but cost has no run value in some"
        + " replicate: not known, it could go either way) | claim: exploratory"), section);
  }

  /**
   * A mode whose selection failed on every task has no score anywhere, and its failed sessions spent few tokens:
   * it is not favoured for that. The score is not known, so the tokens alone make no claim.
   */
  @Test
  void aModeWithoutAnyScoreIsNotFavouredForWhatItsFailuresDidNotSpend(@TempDir Path runs) throws Exception {
    cell(runs, (seed, tm) -> Fixtures.metricRow(tm[0], tm[1], 2, Map.of("cost", 0.1, "total_tokens",
        tm[1].equals("agg") ? 100.0 + seed : 5000.0), Map.of()), Map.of());
    for (int seed = 1; seed <= 3; seed++) {
      Fixtures.judged(runs.resolve("demo-oc-agg2-s" + seed), List.of(Fixtures.ungraded("ledger-1", "agg", 2),
          Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2), Fixtures.ungraded("ledger-2", "agg", 2),
          Fixtures.graded("ledger-2", "seq", 2, "c2", 1, 2)));
    }
    String section = section(runs, "--objectives=score:max:5,total_tokens:min:500");
    assertTrue(section.contains("| favors-parallel\n"), section);
    assertTrue(section.endsWith("  relation over objectives: inconclusive (total_tokens favors-parallel, but score"
        + " has no run value in some replicate: not known, it could go either way) | claim: exploratory"), section);
  }

  @Test
  void aNamespaceWithoutMetricsIsSaidOnceAndItsMetricsAreAbsentNotZero(@TempDir Path runs) throws Exception {
    cell(runs, (seed, tm) -> seed == 3 ? null : tradeOff(seed, tm), Map.of());
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    assertEquals(1, run.out().split("has no readable metrics.json", -1).length - 1, run.out());
    assertTrue(run.out().contains("Metric vector: demo-oc-agg2-s3 has no readable metrics.json; every metric but"
        + " score and pass is absent there (not-recorded)"), run.out());
    String section = objectivesSection(run.out());
    assertTrue(section.contains("no run value in 1 of 3 replicates"), section);
    assertTrue(section.contains("    absent: seed 3 (demo-oc-agg2-s3): no readable metrics.json (not-recorded)"),
        section);
  }

  @Test
  void aMetricsFileOfAnotherSchemaIsAFailureRecordAndNothingOfItIsUsed(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    Path bad = runs.resolve("demo-oc-agg2-s2/metrics.json");
    Files.writeString(bad, Files.readString(bad).replace(MetricVector.SCHEMA, "h2beam-metrics/v0"));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("not a h2beam-metrics/v2 file (schema \"h2beam-metrics/v0\")"), run.out());
    assertTrue(objectivesSection(run.out()).contains("    absent: seed 2 (demo-oc-agg2-s2): no readable metrics.json"
        + " (not-recorded)"), run.out());
  }

  /**
   * A metrics.json the judge wrote before selection_cost (schema v1): its cost left the selection out, so it is not
   * compared with the whole spend of the other seeds (absent, older-judge); its other metrics are used as written.
   */
  @Test
  void aVersionOneMetricsFileHasItsCostAbsentAndTheRestUsed(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    Path old = runs.resolve("demo-oc-agg2-s2/metrics.json");
    Files.writeString(old, Files.readString(old).replace(MetricVector.SCHEMA, MetricVector.SCHEMA_V1));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    assertFalse(run.out().contains("has no readable metrics.json"), run.out());
    String section = objectivesSection(run.out());
    assertTrue(section.contains("  cost (min, min effect 0.02 usd): "), section);
    assertTrue(section.contains("no run value in 1 of 3 replicates"), section);
    // an older judge's file, which re-judging rewrites: said so, with the command
    assertTrue(section.contains("    absent: seed 2 (demo-oc-agg2-s2) parallel ledger-1, ledger-2: older-judge (its"
        + " metrics.json was written by an older judge, which did not record cost; re-run ./h2beam judge"
        + " --namespaces=" + runs.resolve("demo-oc-agg2-s2") + " to rewrite it)\n"), section);
    String tokens = section.substring(section.indexOf("  total_tokens ("));
    assertTrue(tokens.contains("3 replicates"), tokens);
  }

  /**
   * What each mode's models spent in tokens ({@code mode_tokens}, and its input and output apart) are objectives as
   * any other metric, in tokens, taken from the metrics.json the judge writes of the summaries' ledgers and
   * selections. A seed's file written before them (v2, its rows not naming them) has them absent, older-judge.
   */
  @Test
  @SuppressWarnings("unchecked")
  void aModesTokensAreObjectivesFromTheVectorItsSummariesGive(@TempDir Path runs) throws Exception {
    cell(runs, (seed, tm) -> null, Map.of());
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = runs.resolve("demo-oc-agg2-s" + seed);
      for (String task : List.of("ledger-1", "ledger-2")) {
        Path file = ns.resolve(task).resolve("summary.json");
        Map<String, Object> s = dev.h2beam.adapters.files.Json.readMap(file);
        for (String mode : List.of("agg", "seq")) {
          // parallel: 4000 + 100·seed in and 900 out; sequential 1500 and 400; each selection 50 and 50
          boolean agg = mode.equals("agg");
          Map<String, Object> m = (Map<String, Object>) ((Map<String, Object>) s.get("modes")).get(mode);
          ((Map<String, Object>) m.get("ledger")).put("tokens", Map.of("input", agg ? 4000 + 100 * seed : 1500,
              "output", agg ? 900 : 400));
          ((Map<String, Object>) ((Map<String, Object>) s.get("selections")).get(mode)).put("tokens",
              Map.of("input", 50, "output", 50));
        }
        Files.writeString(file, dev.h2beam.adapters.files.Json.pretty(s));
      }
      MetricVector.write(ns, dev.h2beam.pipelines.judge.JudgedFile.read(
          ns.resolve(dev.h2beam.pipelines.judge.JudgedFile.FILE), ns.toString()), false);
    }
    String flag = "--objectives=mode_tokens:min:1000,mode_input_tokens:min:1000,mode_output_tokens:min:100";
    String section = section(runs, flag);
    // parallel - sequential per seed: 3100, 3200, 3300 tokens in all (2600, 2700, 2800 in; 500 out); se 57.74
    assertTrue(section.contains("  mode_tokens (min, min effect 1000 tokens): mean paired difference +3200.00 tokens"
        + " (parallel - sequential) | 3 replicates, 6 task pairs | se 57.74 tokens | threshold 1000.00 tokens"
        + " = max(minEffect 1000.00, 2*se 115.47) | favors-sequential"), section);
    assertTrue(section.contains("  mode_input_tokens (min, min effect 1000 tokens): mean paired difference +2700.00"
        + " tokens (parallel - sequential) | 3 replicates, 6 task pairs | se 57.74 tokens | threshold 1000.00 tokens"
        + " = max(minEffect 1000.00, 2*se 115.47) | favors-sequential"), section);
    assertTrue(section.contains("  mode_output_tokens (min, min effect 100 tokens): mean paired difference +500.00"
        + " tokens (parallel - sequential) | 3 replicates, 6 task pairs | se 0.00 tokens | threshold 100.00 tokens"
        + " = max(minEffect 100.00, 2*se 0.00) | favors-sequential"), section);
    assertTrue(section.endsWith("  relation over objectives: favors-sequential (decided by mode_tokens,"
        + " mode_input_tokens, mode_output_tokens) | claim: exploratory"), section);

    // seed 2's file as the judge wrote it before it counted tokens: the same schema, without their names
    Path old = runs.resolve("demo-oc-agg2-s2").resolve(MetricVector.FILE);
    Map<String, Object> file = dev.h2beam.adapters.files.Json.readMap(old);
    for (Object row : (List<Object>) file.get("rows")) {
      for (String part : List.of("values", "absent")) {
        ((Map<String, Object>) ((Map<String, Object>) row).get(part)).keySet().removeIf(n -> n.startsWith("mode_")
            && n.endsWith("tokens"));
      }
    }
    Files.writeString(old, dev.h2beam.adapters.files.Json.pretty(file));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", flag);
    assertEquals(0, run.exit(), run.err());
    assertFalse(run.out().contains("has no readable metrics.json"), run.out());
    String older = objectivesSection(run.out());
    String tokens = older.substring(older.indexOf("  mode_tokens ("), older.indexOf("  mode_input_tokens ("));
    assertTrue(tokens.contains("| inconclusive: no run value in 1 of 3 replicates"), tokens);
    assertTrue(tokens.contains("    absent: seed 2 (demo-oc-agg2-s2) parallel ledger-1, ledger-2: older-judge (its"
        + " metrics.json was written by an older judge, which did not record mode_tokens; re-run ./h2beam judge"
        + " --namespaces=" + runs.resolve("demo-oc-agg2-s2") + " to rewrite it)\n"), tokens);
    assertFalse(tokens.contains("+3200.00"), "no mean over the replicates that have one: " + tokens);
  }

  @Test
  void aMetricThatDoesNotApplyIsNotComparable(@TempDir Path runs) throws Exception {
    cell(runs, (seed, tm) -> Fixtures.metricRow(tm[0], tm[1], 2, Map.of("cost", 0.1),
        Map.of("quality", "not-applicable")), Map.of());
    String section = section(runs, "--objectives=quality:max:5");
    assertTrue(section.contains("  quality (max, min effect 5 pt): no paired difference | 0 replicates, 0 task pairs"
        + " | not-comparable: no run value in 3 of 3 replicates"), section);
    assertTrue(section.endsWith("relation over objectives: not-comparable | claim: exploratory"), section);
  }

  @Test
  void timeIsComparedUnderOneDeclaredTimingEnvironment(@TempDir Path runs) throws Exception {
    Map<String, Object> env = Fixtures.timing("n2-standard-2");
    cell(runs, ObjectivesReportTest::tradeOff, Map.of(1, env, 2, env, 3, env));
    String section = section(runs, "--objectives=chosen_wall_s:min:5");
    assertTrue(section.contains("  chosen_wall_s (min, min effect 5 seconds): mean paired difference +20.00 seconds"
        + " (parallel - sequential) | 3 replicates, 6 task pairs"), section);
    assertTrue(section.endsWith("relation over objectives: favors-sequential (decided by chosen_wall_s) | claim:"
        + " exploratory"), section);
  }

  @Test
  void timeIsNotComparableAcrossDifferentDeclaredEnvironments(@TempDir Path runs) throws Exception {
    Map<String, Object> env = Fixtures.timing("n2-standard-2");
    cell(runs, ObjectivesReportTest::tradeOff, Map.of(1, env, 2, env, 3, Fixtures.timing("laptop")));
    String section = section(runs, "--objectives=chosen_wall_s:min:5,mode_wall_s:min:5,cost:min:0.02");
    for (String metric : List.of("chosen_wall_s", "mode_wall_s")) {
      Matcher m = Pattern.compile("(?m)^  " + metric + " .*$").matcher(section);
      assertTrue(m.find(), section);
      assertTrue(m.group().contains("| not-comparable: time is compared only under one declared timing environment:"
          + " timing environments differ: "), m.group());
      assertTrue(m.group().contains("\"machine\":\"laptop\"") && m.group().contains("(demo-oc-agg2-s3)"), m.group());
    }
    // the other objectives still decide: cost favours sequential
    assertTrue(section.endsWith("relation over objectives: favors-sequential (decided by cost) | claim:"
        + " exploratory"), section);
  }

  @Test
  void timeIsNotComparableWhenUndeclaredOrMixed(@TempDir Path runs) throws Exception {
    Map<String, Object> env = Fixtures.timing("n2-standard-2");
    Map<String, Object> mixed = Map.of("mixed", true, "environments", List.of(env, Fixtures.timing("laptop")));
    cell(runs, ObjectivesReportTest::tradeOff, Map.of(1, env, 2, mixed));
    String section = section(runs, "--objectives=chosen_wall_s:min:5");
    assertTrue(section.contains("not-comparable: time is compared only under one declared timing environment:"
        + " demo-oc-agg2-s2 was resumed in different timing environments (timing is mixed); demo-oc-agg2-s3 declares"
        + " no timing environment (config.json has no timing)"), section);
    assertTrue(section.endsWith("relation over objectives: not-comparable | claim: exploratory"), section);
  }

  @Test
  void theJudgesSpreadIsPrintedApartFromTheExecutionStandardError(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = runs.resolve("demo-oc-agg2-s" + seed);
      List<Map<String, Object>> rows = new ArrayList<>();
      for (String[] r : new String[][] {{"ledger-1", "agg", "agg1"}, {"ledger-1", "seq", "c1"},
          {"ledger-2", "agg", "agg2"}, {"ledger-2", "seq", "c2"}}) {
        // a scripted judge that disagrees with itself: parallel's repeats spread 0.1 (10 pt), sequential's 0.02 * seed
        Map<String, Object> row = r[1].equals("agg") ? Fixtures.graded(r[0], "agg", 2, r[2], 2, 2)
            : Fixtures.graded(r[0], "seq", 2, r[2], 1, 2);
        @SuppressWarnings("unchecked")
        Map<String, Object> raw = (Map<String, Object>) row.get("raw");
        raw.put("repeats", 3);
        raw.put("repeats_graded", 3);
        raw.put("repeat_sd", r[1].equals("agg") ? 0.1 : 0.02 * seed);
        rows.add(row);
      }
      Fixtures.judged(ns, rows);
    }
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*");
    assertTrue(run.out().contains("Judge spread (--judgeRepeats: mean over rows of the sd of each row's repeated"
        + " grades), apart from the execution standard error across replicates\n"
        + "  parallel k=2: judge spread 10.00 pt over 6 of 6 graded rows | execution se 0.00 pt across 3 replicates\n"
        + "  sequential k=2: judge spread 4.00 pt over 6 of 6 graded rows | execution se 0.00 pt across 3"
        + " replicates\n"), run.out());
    String restricted = Files.readString(runs.resolve("_report/report-restricted.json"));
    assertTrue(restricted.contains("\"judge_repeat_sd\": 0.06"), restricted);
  }

  /**
   * dogAL F4: one task's rows in three seeds give a spread over three rows, and it is that task's figure: withheld
   * under aggregate disclosure as its score is, released with --disclosure=per-task.
   */
  @Test
  void aJudgeSpreadOverASingleTaskIsWithheldUnderAggregateDisclosure(@TempDir Path runs) throws Exception {
    Map<NamespaceRef, List<Scored>> rows = new java.util.LinkedHashMap<>();
    for (int seed = 1; seed <= 3; seed++) {
      Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      rows.put(Fixtures.ref(runs, "demo-oc-agg2-s" + seed), List.of(new Scored("ledger-1", "agg", 2, "agg1", "",
          false, 1.0, 2.0, false, "", "", "", 0.1 * seed)));
    }
    List<Replicates.Cell> cells = Replicates.summarise(rows);
    assertEquals(List.of("", "Judge spread (--judgeRepeats: mean over rows of the sd of each row's repeated grades),"
        + " apart from the execution standard error across replicates", "  parallel k=2: judge spread withheld (3 rows"
        + " of a single task) | execution se withheld (3 of 3 replicates are single tasks)"),
        JudgeSpread.lines(rows, cells, true));
    assertTrue(JudgeSpread.lines(rows, cells, false).get(2).startsWith("  parallel k=2: judge spread 20.00 pt over 3"
        + " of 3 graded rows"));
  }

  @Test
  void aRunJudgedOnceHasNoJudgeSpreadSection(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*");
    assertFalse(run.out().contains("Judge spread"), run.out());
  }

  @Test
  void perTaskMetricValuesGoOnlyToTheRestrictedFile(@TempDir Path runs) throws Exception {
    cell(runs, (seed, tm) -> {
      Map<String, Object> row = tradeOff(seed, tm);
      @SuppressWarnings("unchecked")
      Map<String, Object> values = (Map<String, Object>) row.get("values");
      if (seed == 1 && tm[0].equals("ledger-1") && tm[1].equals("agg")) {
        values.put("input_tokens", 987654.0);
        values.put("cost", 0.777);
      }
      return row;
    }, Map.of());
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    Path out = runs.resolve("_report");
    for (String name : List.of("report.txt", "report.html", "report.json")) {
      String text = Files.readString(out.resolve(name));
      assertFalse(text.contains("987654"), name);
      assertFalse(text.contains("0.777"), name + " gives a task's cost away");
    }
    assertTrue(run.out().contains("  Per-task metric values (metrics.json) and each row's judge repeats are"
        + " withheld too; they are in report-restricted.json."), run.out());
    String restricted = Files.readString(out.resolve("report-restricted.json"));
    assertTrue(restricted.contains("\"per_task_metrics\""), restricted);
    assertTrue(restricted.contains("\"input_tokens\": 987654.0"), restricted);
    assertTrue(restricted.contains("\"cost\": 0.777"), restricted);
  }

  @Test
  void aReplicateOfOneTaskWithholdsEveryObjectivesMeanUnderAggregate(@TempDir Path runs) throws Exception {
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      Fixtures.judged(ns, List.of(Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2),
          Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2)));
      Fixtures.summary(ns, "ledger-1", 2, 0.5, 0.25, List.of(), 0.0, List.of(
          ModeRun.onBudget("agg", 2, List.of("agg1", "agg2"), "agg1"),
          ModeRun.onBudget("seq", 2, List.of("c1", "c2"), "c1")));
      Fixtures.metrics(ns, List.of(tradeOff(seed, new String[] {"ledger-1", "agg"}),
          tradeOff(seed, new String[] {"ledger-1", "seq"})));
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
    }
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    String section = objectivesSection(run.out());
    assertTrue(section.contains("  cost (min, min effect 0.02 usd): mean paired difference withheld (a replicate has"
        + " a single task pair) | 3 replicates, 3 task pairs | favors-sequential"), section);
    assertFalse(run.out().contains("0.41"), run.out());
    String html = Files.readString(runs.resolve("_report/report.html"));
    assertTrue(html.contains(">withheld</text>"), html);
    Fixtures.Run released = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES,
        "--disclosure=per-task");
    assertTrue(released.out().contains("Per-task metric vector (metrics.json; released by --disclosure=per-task)"),
        released.out());
    assertTrue(released.out().contains("  parallel k=2 seed=1 ledger-1: cost 0.51 | total_tokens 1001 | "),
        released.out());
    // wall times measure the machine at that moment: they stay in metrics.json, so the report files of the same
    // inputs are the same files
    assertFalse(released.out().contains("chosen_wall_s 30"), released.out());
  }

  /**
   * dogQ #1: a replicate with one graded task withheld every replicate figure of its cell from report.txt, while the
   * page still drew the other replicates' run values (and printed one as an axis label), from which, with the pooled
   * line, the single task's score follows. The page withholds that cell in every panel, as the text does.
   */
  @Test
  void aReplicateOfOneGradedTaskWithholdsItsCellsValuesFromThePageToo(@TempDir Path runs) throws Exception {
    cell(runs, ObjectivesReportTest::tradeOff, Map.of());
    Map<String, Object> failed = Fixtures.ungraded("ledger-2", "agg", 2);
    failed.put("absence", "judge-failed");
    Fixtures.judged(runs.resolve("demo-oc-agg2-s1"), List.of(
        Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2), Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2),
        failed, Fixtures.graded("ledger-2", "seq", 2, "c2", 1, 2)));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("  parallel k=2: 3 replicates with a graded task | mean withheld"), run.out());
    String html = Files.readString(runs.resolve("_report/report.html"));
    String agg = HtmlReport.COLOURS.get("agg");
    for (String panel : List.of("aria-label=\"score per mode\"", "aria-label=\"cost per mode\"",
        "aria-label=\"cost versus score, parallel\"")) {
      String svg = html.substring(html.indexOf(panel));
      svg = svg.substring(0, svg.indexOf("</svg>"));
      assertFalse(svg.contains("fill=\"" + agg + "\""), panel + ": " + svg);
    }
    String score = html.substring(html.indexOf("aria-label=\"score per mode\""));
    assertTrue(score.substring(0, score.indexOf("</svg>")).contains(">withheld</text>"), score);
    // its cost-versus-score plot says why it is empty: withheld, not replicates without both figures (dogAA
    // finding 5); sequential's, drawn, says nothing of the kind
    String plot = html.substring(html.indexOf("aria-label=\"cost versus score, parallel\""));
    plot = plot.substring(0, plot.indexOf("</svg>"));
    assertTrue(plot.contains(">withheld under aggregate disclosure</text>"), plot);
    assertTrue(plot.contains(">k=2: scores withheld under aggregate disclosure</text>"), plot);
    assertFalse(plot.contains("no replicate has both"), plot);
    String seqPlot = html.substring(html.indexOf("aria-label=\"cost versus score, sequential\""));
    assertFalse(seqPlot.substring(0, seqPlot.indexOf("</svg>")).contains("withheld"), seqPlot);
    // sequential, with two graded tasks in every replicate, is drawn
    assertTrue(score.substring(0, score.indexOf("</svg>")).contains("fill=\"" + HtmlReport.COLOURS.get("seq")
        + "\""), score);
  }

  @Test
  void theHtmlShowsASmallMultiplePerObjectiveAndCostVersusScorePerMode(@TempDir Path runs) throws Exception {
    cell(runs, (seed, tm) -> seed == 3 && tm[1].equals("seq") ? Fixtures.metricRow(tm[0], tm[1], 2, Map.of(),
        Map.of("cost", "spend-unaccounted")) : tradeOff(seed, tm), Map.of());
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*", OBJECTIVES);
    assertEquals(0, run.exit(), run.err());
    String html = Files.readString(runs.resolve("_report/report.html"));
    for (String metric : List.of("score", "cost", "total_tokens")) {
      assertTrue(html.contains("aria-label=\"" + metric + " per mode\""), metric);
    }
    assertTrue(html.contains("aria-label=\"cost versus score, parallel\""), html);
    assertTrue(html.contains("aria-label=\"cost versus score, sequential\""), html);
    // sequential's seed-3 cost is absent: named, not drawn; two of its three replicates have both figures
    assertTrue(html.contains(">1 absent</text>"), html);
    String seq = html.substring(html.indexOf("aria-label=\"cost versus score, sequential\""));
    seq = seq.substring(0, seq.indexOf("</svg>"));
    assertEquals(2, seq.split("<circle ", -1).length - 1, seq);
  }

  @Test
  void aMalformedObjectivesFlagIsRefusedNamingTheFlagAndTheEntry(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-agg2");
    for (String[] bad : new String[][] {{"speed:max:1", "unknown metric 'speed'"},
        {"cost:down:0.1", "the direction must be max (higher is better) or min (lower is better), got 'down'"},
        {"cost:min:-1", "the minimum effect must be a number >= 0 in usd, got '-1'"},
        {"cost:min:lots", "the minimum effect must be a number >= 0 in usd, got 'lots'"},
        {"cost:min", "write it as metric:direction:minEffect"},
        {"cost:min:1,cost:min:2", "cost is named twice"}}) {
      UsageError e = assertThrows(UsageError.class, () -> ReportPlan.settings("demo-oc-agg2", "parallel", null,
          null, "aggregate", 5, bad[0], null, runs), bad[0]);
      String entry = bad[0].contains(",") ? "cost:min:2" : bad[0];
      assertTrue(e.getMessage().startsWith("--objectives entry '" + entry + "' is refused: "), e.getMessage());
      assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
    }
    UsageError none = assertThrows(UsageError.class, () -> ReportPlan.settings("demo-oc-agg2", "parallel", null,
        null, "aggregate", 5, " , ", null, runs));
    assertTrue(none.getMessage().startsWith("--objectives named no objective"), none.getMessage());
  }
}
