package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Comparability C1–C4 and paired-difference/v1 (seed document 001): every relation, every failed condition. */
class ComparisonTest {
  static final Path RUNS = Path.of("/runs");
  static final RunIdentity ID = new RunIdentity("c", "demo/oc", "opencode:m", "judge-1", null);
  static final ModePair AGG_SEQ = new ModePair("agg", "seq");

  /** One replicate: per task, the parallel and sequential passed counts out of 4 (pass when 4). */
  static Comparison.Replica replica(String ns, RunIdentity id, int[] parallel, int[] sequential) {
    List<Scored> p = new ArrayList<>();
    List<Scored> s = new ArrayList<>();
    for (int i = 0; i < parallel.length; i++) {
      p.add(scored("t" + i, "agg", 2, "agg1", parallel[i], 4, parallel[i] == 4));
    }
    for (int i = 0; i < sequential.length; i++) {
      s.add(scored("t" + i, "seq", 2, "c1", sequential[i], 4, sequential[i] == 4));
    }
    return new Comparison.Replica(Fixtures.ref(RUNS, ns), p, s, id, List.of());
  }

  static Comparison.Replica replica(String ns, int[] parallel, int[] sequential) {
    return replica(ns, ID, parallel, sequential);
  }

  static int[] t(int... v) {
    return v;
  }

  static Comparison.Result compare(Comparison.Replica... r) {
    return Comparison.compare(2, AGG_SEQ, List.of(r), 5.0);
  }

  static String failures(Comparison.Result c, String id) {
    return String.join("; ", c.conditions().stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow()
        .failures());
  }

  /**
   * C5 on tasks where a mode never got to select: a task whose every base rollout failed (no mode ran) and one on
   * which the parallel mode failed (no ledger) are named as not checked, each an absence of the run, not a budget
   * the design broke; a ledger off budget beside them still fails the pair (dogQ, dogT).
   */
  @Test
  void equalBudgetNamesTasksWhereAModeNeverSelectedAsNotCheckedAndStillFailsAnOffBudgetLedger() {
    TaskSummary.Budget on = TaskSummary.Budget.at(2);
    TaskSummary.ModeSpend ran = new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, on);
    TaskSummary ok = new TaskSummary("/s/t0", "t0", java.util.Map.of("agg", ran, "seq", ran),
        java.util.Map.of("agg", List.of("agg1", "agg2"), "seq", List.of("c1", "c2")));
    TaskSummary dead = new TaskSummary("/s/t1", "t1", java.util.Map.of(), java.util.Map.of(),
        new TaskSummary.DeadBases(0.0, 0));
    TaskSummary failed = new TaskSummary("/s/t2", "t2", java.util.Map.of("agg",
        new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null), "seq", ran), java.util.Map.of("seq", List.of("c1", "c2")));
    List<Scored> p = List.of(scored("t0", "agg", 2, "agg1", 4, 4, true), Fixtures.absent("t1", "agg", 2,
        "base-failed"), Fixtures.absent("t2", "agg", 2, "mode-failed"));
    List<Scored> s = List.of(scored("t0", "seq", 2, "c1", 4, 4, true), Fixtures.absent("t1", "seq", 2,
        "base-failed"), scored("t2", "seq", 2, "c1", 4, 4, true));
    List<String> unchecked = new ArrayList<>();
    List<String> fails = Comparison.equalBudget(2, AGG_SEQ, List.of(new Comparison.Replica(Fixtures.ref(RUNS,
        "demo-oc-agg2-s1"), p, s, ID, List.of(ok, dead, failed))), unchecked);
    assertEquals(List.of(), fails);
    assertEquals(List.of("1 task pair whose every base rollout failed, so neither mode ran (base-failed: an absence,"
        + " so that replicate has no run value)", "1 task pair on which a mode failed before selecting (mode-failed:"
        + " an absence, so that replicate has no run value)"), unchecked);

    TaskSummary off = new TaskSummary("/s/t0", "t0", java.util.Map.of("agg", ran, "seq",
        new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, new TaskSummary.Budget(9, 6))),
        java.util.Map.of("agg", List.of("agg1", "agg2"), "seq", List.of("c1", "c2")));
    assertEquals(1, Comparison.equalBudget(2, AGG_SEQ, List.of(new Comparison.Replica(Fixtures.ref(RUNS,
        "demo-oc-agg2-s1"), p, s, ID, List.of(off, dead, failed))), new ArrayList<>()).size());
  }

  @Test
  void parallelIsFavouredWithThreeReplicatesWhenTheMeanDifferenceClearsTheThreshold() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4, 4), t(2, 2)),
        replica("demo-oc-agg2-s2", t(4, 3), t(2, 2)), replica("demo-oc-agg2-s3", t(4, 4), t(3, 2)));
    assertEquals("favors-parallel", c.metrics().get(0).verdict());
    assertEquals("favors-parallel", c.relation());
    assertEquals(6, c.pairs().size());
  }

  @Test
  void sequentialIsFavouredWhenItsScoresAreHigher() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(1, 2), t(4, 4)),
        replica("demo-oc-agg2-s2", t(2, 2), t(4, 4)), replica("demo-oc-agg2-s3", t(1, 1), t(4, 4)));
    assertEquals("favors-sequential", c.relation());
  }

  @Test
  void fewerThanThreeReplicatesAreInconclusiveWhateverTheEffect() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4, 4), t(0, 0)),
        replica("demo-oc-agg2-s2", t(4, 4), t(0, 0)));
    assertEquals("inconclusive", c.relation());
    assertEquals("2 replicates; paired-difference/v1 needs at least 3", c.metrics().get(0).why());
  }

  @Test
  void aDifferenceNotAboveMinEffectIsInconclusive() {
    // +12.5 pt in every replicate (se 0), no pass difference: minEffect 12.5 is not exceeded, 12 is
    List<Comparison.Replica> same = List.of(replica("demo-oc-agg2-s1", t(3, 2), t(2, 2)),
        replica("demo-oc-agg2-s2", t(3, 2), t(2, 2)), replica("demo-oc-agg2-s3", t(3, 2), t(2, 2)));
    Comparison.Result c = Comparison.compare(2, AGG_SEQ, same, 12.5);
    assertEquals(12.5, c.metrics().get(0).meanDiff());
    assertEquals("inconclusive", c.relation());
    assertEquals("favors-parallel", Comparison.compare(2, AGG_SEQ, same, 12.0).relation());
  }

  @Test
  void aDifferenceWithinTwoStandardErrorsIsInconclusive() {
    // replicate means +50, -25, +50: mean +25 > minEffect 5, but se = 25, so 2·se = 50 is not cleared
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4), t(2)), replica("demo-oc-agg2-s2", t(2), t(3)),
        replica("demo-oc-agg2-s3", t(4), t(2)));
    Comparison.Metric score = c.metrics().get(0);
    assertEquals(25.0, score.meanDiff());
    assertEquals(25.0, score.se(), 1e-9);
    assertEquals(50.0, score.threshold(), 1e-9);
    assertEquals("inconclusive", score.verdict());
  }

  @Test
  void metricsThatDisagreeAreATradeOff() {
    // parallel: 3/4 on every task (better partial credit, never passes); sequential alternates 4/4 and 0/4 (passes
    // half the time): score favours parallel (+25 pt), pass favours sequential (-50 pt)
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(3, 3), t(4, 0)),
        replica("demo-oc-agg2-s2", t(3, 3), t(4, 0)), replica("demo-oc-agg2-s3", t(3, 3), t(4, 0)));
    assertEquals("favors-parallel", c.metrics().get(0).verdict());
    assertEquals("favors-sequential", c.metrics().get(1).verdict());
    assertEquals("trade-off", c.relation());
  }

  @Test
  void differentTaskSetsAreNotComparable() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4, 4, 4), t(2, 2)));
    assertEquals("not-comparable", c.relation());
    assertEquals("seed 1 (demo-oc-agg2-s1): tasks only in parallel: t2; only in sequential: none", failures(c, "C1"));
    assertTrue(c.pairs().isEmpty());
  }

  @Test
  void aLargeTaskSetIsNamedByItsFirstTenAndCounted() {
    // parallel ran 40 tasks, sequential 2: the 38 only in parallel are t10..t19, t2, t20.. in order
    int[] forty = new int[40];
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", forty, t(0, 0)));
    assertEquals("seed 1 (demo-oc-agg2-s1): tasks only in parallel: t10, t11, t12, t13, t14, t15, t16, t17, t18, t19"
        + " and 28 more (38 tasks; the per-task rows name each); only in sequential: none", failures(c, "C1"));
  }

  @Test
  void aListOfUpToTwelveTasksNamesEach() {
    List<String> tasks = new ArrayList<>();
    for (int i = 10; i < 22; i++) tasks.add("t" + i);
    assertEquals(String.join(", ", tasks), Comparison.list(tasks));
    tasks.add("t22");
    assertEquals("t10, t11, t12, t13, t14, t15, t16, t17, t18, t19 and 3 more (13 tasks; the per-task rows name"
        + " each)", Comparison.list(tasks));
    assertEquals("none", Comparison.list(List.of()));
  }

  @Test
  void aSeedThatRanOnlyOneModeIsAnUnpairedDesignAndNotComparable() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4), t(2)), replica("demo-oc-agg2-s2", t(4), t()));
    assertEquals("not-comparable", c.relation());
    assertEquals("seed 2 has a parallel replicate (demo-oc-agg2-s2) but no sequential one; an unpaired design is"
        + " refused: run the sequential mode for seed 2, or leave the seed out of --namespaces", failures(c, "C2"));
  }

  /**
   * Seed 2's replicate judged in parallel only, whose one summary records both modes with the given finals, beside a
   * seed 1 judged in both.
   */
  private static Comparison.Result judgedOnce(java.util.Map<String, List<String>> finals) {
    TaskSummary.ModeSpend m = new TaskSummary.ModeSpend(0, 0.0, 0.0);
    Comparison.Replica judgedOnce = replica("demo-oc-agg2-s2", t(4), t());
    judgedOnce = new Comparison.Replica(judgedOnce.namespace(), judgedOnce.first(), judgedOnce.second(), ID,
        List.of(new TaskSummary("/s/t0", "t0", java.util.Map.of("agg", m, "seq", m), finals)));
    return compare(replica("demo-oc-agg2-s1", t(4), t(2)), judgedOnce);
  }

  @Test
  void aSeedWhoseOtherModeRanButWasNotJudgedNamesTheJudgeToRun() {
    Comparison.Result c = judgedOnce(java.util.Map.of("agg", List.of("agg1"), "seq", List.of("c1")));
    assertEquals("not-comparable", c.relation());
    assertEquals("seed 2 has a parallel replicate (demo-oc-agg2-s2) and its sequential run, which its summaries"
        + " record, is not judged: run ./h2beam judge --namespaces=/runs/demo-oc-agg2-s2 --modes=sequential",
        failures(c, "C2"));
  }

  /** The other mode ran but failed before selection on every task: no judge can help; the cause must be fixed. */
  @Test
  void aSeedWhoseOtherModeFailedBeforeSelectionSaysSo() {
    Comparison.Result c = judgedOnce(java.util.Map.of("agg", List.of("agg1")));
    assertEquals("not-comparable", c.relation());
    assertEquals("seed 2 has a parallel replicate (demo-oc-agg2-s2) but no sequential one: every task of its"
        + " sequential run failed before selection (see the summaries' errors); an unpaired design is refused:"
        + " re-run the sequential mode for seed 2 once the cause is fixed, or leave the seed out of --namespaces",
        failures(c, "C2"));
  }

  @Test
  void twoReplicatesOfOneSeedAreNotComparable() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4), t(2)), replica("demo-oc-agg2-s1-again", t(4), t(2)));
    assertEquals("not-comparable", c.relation());
    assertTrue(failures(c, "C2").contains("seed 1 has 2 parallel replicates (demo-oc-agg2-s1, demo-oc-agg2-s1-again)"),
        failures(c, "C2"));
  }

  @Test
  void differentJudgesAreNotComparable() {
    RunIdentity other = new RunIdentity("c", "demo/oc", "opencode:m", "judge-2", null);
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4), t(2)),
        replica("demo-oc-agg2-s2", other, t(4), t(2)));
    assertEquals("not-comparable", c.relation());
    assertEquals("judge differs across replicates: judge-1 (demo-oc-agg2-s1); judge-2 (demo-oc-agg2-s2)",
        failures(c, "C3"));
  }

  @Test
  void anUnrecordedJudgeIsNotComparedAndNeverAFailure() {
    RunIdentity noJudge = new RunIdentity("c", "demo/oc", "opencode:m", "", null);
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", noJudge, t(4), t(2)));
    assertEquals("", failures(c, "C3"));
    assertEquals("inconclusive", c.relation(), "one replicate: the comparison runs, and cannot favour a mode");
    String text = String.join("\n", Comparison.lines(c, 5.0, true));
    assertTrue(text.contains("  C3 same judge identity: not compared -- judge identity unknown: the config.json of"
        + " demo-oc-agg2-s1 records no judge"), text);
  }

  @Test
  void anIdentityOneReplicateDoesNotRecordIsNotCheckedOnItWhileTheRecordedOnesAgree() {
    RunIdentity noJudge = new RunIdentity("c", "demo/oc", "opencode:m", "", null);
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4), t(2)),
        replica("demo-oc-agg2-s2", noJudge, t(4), t(2)));
    assertEquals("", failures(c, "C3"));
    String text = String.join("\n", Comparison.lines(c, 5.0, true));
    assertTrue(text.contains("  C3 same judge identity: holds (not checked on judge identity unknown: the config.json"
        + " of demo-oc-agg2-s2 records no judge)"), text);
  }

  @Test
  void differentExecutorsAreNotComparable() {
    RunIdentity other = new RunIdentity("c", "demo/cx", "opencode:m", "judge-1", null);
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4), t(2)),
        replica("demo-oc-agg2-s2", other, t(4), t(2)));
    assertEquals("not-comparable", c.relation());
    assertEquals("executor differs across replicates: demo/cx (demo-oc-agg2-s2); demo/oc (demo-oc-agg2-s1)",
        failures(c, "C4"));
  }

  @Test
  void aMissingConfigLeavesExecutorAndImproverNotComparedNotFailed() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", null, t(4), t(2)));
    assertEquals("", failures(c, "C4"));
    String text = String.join("\n", Comparison.lines(c, 5.0, true));
    assertTrue(text.contains("  C4 same declared executor and improver identity: not compared -- executor identity"
        + " unknown: demo-oc-agg2-s1 has no config.json; improver identity unknown: demo-oc-agg2-s1 has no"
        + " config.json"), text);
    assertTrue(!text.contains("FAILS"), text);
  }

  @Test
  void everyFailedConditionIsListed() {
    RunIdentity other = new RunIdentity("c", "demo/oc", "other:m", "judge-2", null);
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4, 4), t(2)),
        replica("demo-oc-agg2-s2", other, t(4), t()));
    String text = String.join("\n", Comparison.lines(c, 5.0, true));
    for (String id : List.of("C1", "C2", "C3", "C4")) assertTrue(text.contains("  " + id + " "), text);
    assertTrue(text.contains("  relation: not-comparable (failed: C1, C2, C3, C4) | claim: exploratory"), text);
  }

  @Test
  void theClaimIsAlwaysExploratory() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4, 4), t(2, 2)),
        replica("demo-oc-agg2-s2", t(4, 3), t(2, 2)), replica("demo-oc-agg2-s3", t(4, 4), t(3, 2)));
    List<String> lines = Comparison.lines(c, 5.0, true);
    assertTrue(lines.get(0).endsWith("(paired-difference/v1; claim: exploratory)"), lines.get(0));
    assertTrue(lines.get(lines.size() - 1).endsWith("| claim: exploratory"), lines.get(lines.size() - 1));
  }

  @Test
  void tasksGradedInOnlyOneModeAreLeftOutOfThePairs() {
    Comparison.Replica r = replica("demo-oc-agg2-s1", t(4, 4), t(2, 2));
    List<Scored> seq = new ArrayList<>(r.second());
    seq.set(1, Fixtures.absent("t1", "seq", 2, "judge-failed"));
    Comparison.Result c = compare(new Comparison.Replica(r.namespace(), r.first(), seq, ID, List.of()));
    assertEquals(List.of("t0"), c.pairs().stream().map(Comparison.Pair::taskId).toList());
    assertEquals(50.0, c.pairs().get(0).score());
  }

  static final String IMPROVER_BY_DESIGN = "  by design (disclosed; no condition fails for it): gated's improver is"
      + " shown each episode's score from the task's checks (checks/), and its gate keeps a step only when those"
      + " scores win; parallel sees no score. Where a task's checks apply the grader's rule, gated selects with the"
      + " signal the judge grades by.";

  /** h2beam's improver (or no method recorded: the default) scores with the checks; any other method by itself. */
  @Test
  void theByDesignNoteSaysWhatGatedsMethodScoresWith() {
    ModePair withGated = new ModePair("agg", "gat");
    assertEquals(IMPROVER_BY_DESIGN, Comparison.byDesign(withGated, List.of()).get(0));
    assertEquals(IMPROVER_BY_DESIGN, Comparison.byDesign(withGated, List.of("improver")).get(0));
    assertEquals("  by design (disclosed; no condition fails for it): gated's method best-of-two scores each episode"
        + " itself (its evaluate), and gated keeps a step only when those scores win; parallel sees no score. What"
        + " those scores rest on is the method's own: this report cannot say whether they apply the grader's rule.",
        Comparison.byDesign(withGated, List.of("best-of-two")).get(0));
    assertEquals(2, Comparison.byDesign(withGated, List.of("best-of-two")).size(), "the last selection's note too");
    assertEquals(List.of(), Comparison.byDesign(AGG_SEQ, List.of("best-of-two")));
  }

  /** config.json's gate and gate_code, as the report names them; a gate of another shape is not recorded. */
  @Test
  void theGateSetupIsReadFromConfigJson() {
    RunIdentity plugin = new RunIdentity("c", null, null, null, null, null, false, null, null, "{\"gate\":"
        + "{\"method\":\"best-of-two\",\"min_win_margin\":0,\"policy\":\"pareto\"},\"gate_code\":{\"method\":"
        + "{\"class\":\"org.example.BestOfTwo\",\"code\":\"sha256:ab\",\"from\":\"b2.jar\"}}}");
    GateSetup setup = GateSetup.of(plugin);
    assertEquals("gated (method best-of-two, policy pareto)", setup.label());
    assertTrue(setup.pluginLine().startsWith("the method best-of-two is a plug-in (org.example.BestOfTwo from"
        + " b2.jar): "), setup.pluginLine());
    RunIdentity builtIn = new RunIdentity("c", null, null, null, null, null, false, null, null, "{\"gate\":"
        + "{\"method\":\"improver\",\"policy\":\"always\"},\"gate_code\":{\"method\":{\"class\":\"x\","
        + "\"code\":\"h2beam\"}}}");
    assertEquals(null, GateSetup.of(builtIn).pluginLine());
    RunIdentity noCode = new RunIdentity("c", null, null, null, null, null, false, null, null, "{\"gate\":"
        + "{\"method\":\"sign-rule\",\"policy\":\"always\"}}");
    assertEquals(null, GateSetup.of(noCode).pluginLine(), "a plug-in is said only where gate_code says so");
    RunIdentity odd = new RunIdentity("c", null, null, null, null, null, false, null, null, "{\"gate\":\"x\"}");
    assertEquals("gated (method and policy not recorded in config.json)", GateSetup.of(odd).label());
    assertEquals(GateSetup.NONE, GateSetup.of(ID));
  }

  @Test
  void scoreLineShowsTheMeanDifferenceItsStandardErrorAndTheThreshold() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4, 4), t(2, 2)),
        replica("demo-oc-agg2-s2", t(4, 4), t(2, 2)), replica("demo-oc-agg2-s3", t(4, 4), t(2, 2)));
    String text = String.join("\n", Comparison.lines(c, 5.0, true));
    assertTrue(text.contains("  score: mean paired difference +50.00 pt (parallel - sequential) | 3 replicates, 6"
        + " task pairs | se 0.00 pt | threshold 5.00 pt = max(minEffect 5.00, 2*se 0.00) | favors-parallel"), text);
  }

  /** One replicate has no standard error, so the threshold built from it is unknown too, not the minEffect alone. */
  @Test
  void aThresholdBuiltFromAnUnknownStandardErrorIsUnknown() {
    Comparison.Result c = compare(replica("demo-oc-agg2-s1", t(4, 4), t(2, 2)));
    String text = String.join("\n", Comparison.lines(c, 5.0, false));
    assertTrue(text.contains(" | se unknown: one replicate | threshold unknown = max(minEffect 5.00, 2*se unknown) | "),
        text);
  }
}
