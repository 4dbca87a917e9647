package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.report.Fixtures.ModeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report over parallel, sequential and gated runs of one cell: every mode listed, every pair of modes compared
 * with its own verdict, equal budget among the declared conditions, three series on the plot, and a parallel and
 * sequential report untouched by the gated rows beside it.
 */
class ReportThreeModesTest {
  static final String ALL = "--modes=parallel,sequential,gated";

  /**
   * Three seeds at k=2, two tasks each. Parallel passes both (2/2), sequential neither (1/2); gated's final passes
   * ledger-1 (g3, one of its finals) and its chosen candidate g1 half-passes ledger-2. Every ledger is on budget
   * except the gated one of {@code offBudgetTask} in seed 2 (R = 7), when given.
   */
  static void cell(Path runs, String offBudgetTask) throws Exception {
    cell(runs, offBudgetTask, (seed, task) -> null);
  }

  /** {@link #cell(Path, String)} whose gated mode records {@code gate.apply(seed, task)} (null: the default). */
  static void cell(Path runs, String offBudgetTask, BiFunction<Integer, String, Map<String, Object>> gate)
      throws Exception {
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      Fixtures.judged(ns, List.of(
          Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2), Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2),
          Fixtures.graded("ledger-1", "gat", 2, "g3", 2, 2), Fixtures.graded("ledger-2", "agg", 2, "agg2", 2, 2),
          Fixtures.graded("ledger-2", "seq", 2, "c2", 1, 2), Fixtures.graded("ledger-2", "gat", 2, "g1", 1, 2)));
      for (String task : List.of("ledger-1", "ledger-2")) {
        boolean off = seed == 2 && task.equals(offBudgetTask);
        Fixtures.summary(ns, task, 2, 0.5, 0.25, List.of(), 0.0, List.of(
            ModeRun.onBudget("agg", 2, List.of("agg1", "agg2"), "agg1"),
            ModeRun.onBudget("seq", 2, List.of("c1", "c2"), "c1"),
            new ModeRun("gat", List.of("g3", "r1"), task.equals("ledger-1") ? "g3" : "g1", off ? 7 : 8,
                gate.apply(seed, task))));
      }
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
      for (String mode : List.of("seq", "gat")) Fixtures.namespace(runs, "demo-oc-" + mode + "2-s" + seed);
    }
  }

  /** The comparison sections of a report, in order: their first line and their relation line. */
  static List<String> comparisons(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^(Comparison at k=.*)$[\\s\\S]*?^  (relation: .*)$").matcher(text);
    while (m.find()) out.add(m.group(1).replace(" (paired-difference/v1; claim: exploratory)", "") + " => "
        + m.group(2));
    return out;
  }

  @Test
  void aReportOverThreeModesListsEachAndComparesEveryPairWithItsOwnVerdict(@TempDir Path runs) throws Exception {
    cell(runs, null);
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", ALL);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().startsWith("demo-oc seeds=1,2,3 modes=parallel,sequential,gated\n"), run.out());
    assertTrue(run.out().contains("\n  parallel k=2: n=  6 | score 100.00% | picked output: final 6 / candidate 0 /"
        + " base 0\n  sequential k=2: n=  6 | score  50.00% | picked output: final 6 / candidate 0 / base 0\n"
        + "  gated k=2: n=  6 | score  75.00% | picked output: final 3 / candidate 3 / base 0\n"), run.out());
    // what differs by design is said in each pair with gated, and only there
    String[] sections = run.out().split("\nComparison at k=2: ");
    assertFalse(sections[1].contains("by design"), sections[1]);
    for (int i = 2; i <= 3; i++) {
      assertTrue(sections[i].contains("  by design (disclosed; no condition fails for it): gated's improver is shown"
          + " each episode's score from the task's checks (checks/)"), sections[i]);
      assertTrue(sections[i].contains("  by design: gated runs no last selection"), sections[i]);
    }
    // parallel - gated: +0 and +50 pt per seed; sequential - gated: -50 and 0
    assertEquals(List.of(
        "Comparison at k=2: parallel vs sequential => relation: favors-parallel | claim: exploratory",
        "Comparison at k=2: parallel vs gated => relation: favors-parallel | claim: exploratory",
        "Comparison at k=2: sequential vs gated => relation: favors-gated | claim: exploratory"),
        comparisons(run.out()));
    assertTrue(run.out().contains("  score: mean paired difference -25.00 pt (sequential - gated) | 3 replicates, 6"
        + " task pairs"), run.out());
    assertEquals(3, run.out().split("  C5 equal budget, R = 4k = 8 rollouts and P = 3k = 6 improver sessions per"
        + " task in each mode's ledger: holds\n", -1).length - 1, run.out());
  }

  @Test
  void aPairWhoseLedgersDifferIsNotComparableAndSaysWhy(@TempDir Path runs) throws Exception {
    cell(runs, "ledger-1");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", ALL, "--disclosure=per-task");
    assertEquals(0, run.exit(), run.err());
    assertEquals(List.of(
        "Comparison at k=2: parallel vs sequential => relation: favors-parallel | claim: exploratory",
        "Comparison at k=2: parallel vs gated => relation: not-comparable (failed: C5) | claim: exploratory",
        "Comparison at k=2: sequential vs gated => relation: not-comparable (failed: C5) | claim: exploratory"),
        comparisons(run.out()));
    assertTrue(run.out().contains("  C5 equal budget, R = 4k = 8 rollouts and P = 3k = 6 improver sessions per task"
        + " in each mode's ledger: FAILS -- seed 2 (demo-oc-agg2-s2) ledger-1: parallel R=8, P=6, gated R=7, P=6\n"),
        run.out());
    assertTrue(run.out().contains("Paired differences per task and seed (parallel - sequential, points)"), run.out());
    assertFalse(run.out().contains("(parallel - gated, points)"), "a pair that is not comparable has no differences");
  }

  @Test
  void perTaskDisclosureListsEachComparablePairsDifferencesUnderItsOwnHeading(@TempDir Path runs) throws Exception {
    cell(runs, null);
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", ALL, "--disclosure=per-task");
    assertEquals(0, run.exit(), run.err());
    String text = run.out();
    int a = text.indexOf("Paired differences per task and seed (parallel - sequential, points)\n");
    int b = text.indexOf("Paired differences per task and seed (parallel - gated, points)\n");
    int c = text.indexOf("Paired differences per task and seed (sequential - gated, points)\n");
    assertTrue(a >= 0 && a < b && b < c, text);
    assertTrue(text.substring(c).contains("  k=2 seed=1 ledger-1: score -50.00 | pass -100.00\n"), text);
    assertTrue(text.contains("  gated k=2 seed=1 ledger-2: g1 | 1/2 |  50.00%\n"), text);
  }

  /** harness2's lines of the three-mode report of {@link #cell}: byte for byte, whatever the gated method. */
  static final String HARNESS2_LINES = "demo-oc seeds=1,2,3 modes=parallel,sequential,gated\n"
      + "===================================================\n"
      + "  parallel k=2: n=  6 | score 100.00% | picked output: final 6 / candidate 0 / base 0\n"
      + "  sequential k=2: n=  6 | score  50.00% | picked output: final 6 / candidate 0 / base 0\n"
      + "  gated k=2: n=  6 | score  75.00% | picked output: final 3 / candidate 3 / base 0\n"
      + "\n"
      + "  improver (editors, composer, selection, reflection) spend across reported modes: $31.50\n"
      + "\n"
      + "Each mode's vector";

  static final String GATED_VECTOR = "  gated k=2: score 75.00% (6 graded, 0 ungraded) | improver $10.50 | executor"
      + " $0.00 | 48 rollouts and 36 improver sessions counted over 6 task(s) | session attempts not recorded (6"
      + " task(s): not counted, not zero)\n";

  static final String SEEDS = " in demo-oc-agg2-s1, demo-oc-agg2-s2, demo-oc-agg2-s3\n";

  /** The report's text, its runs root written RUNS; asserted to exit 0 and to start with harness2's lines. */
  static String report(Path runs) throws Exception {
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", ALL);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().startsWith(HARNESS2_LINES), run.out());
    return run.out().replace(runs.toString(), "RUNS");
  }

  /** The method a code entry of gate_code names: h2beam's own or a plug-in's, from its jar. */
  static Map<String, Object> code(String className, String jar) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("class", className);
    m.put("code", jar == null ? "h2beam" : "sha256:" + "ab".repeat(32));
    if (jar != null) m.put("from", jar);
    return m;
  }

  /**
   * The gated results and each comparison with gated name the method and policy config.json records; h2beam's own
   * improver gets no plug-in line and keeps the by-design note on its checks.
   */
  @Test
  void theBuiltInMethodIsNamedWithItsPolicyAndNoPluginLine(@TempDir Path runs) throws Exception {
    cell(runs, null);
    for (int seed = 1; seed <= 3; seed++) {
      Fixtures.gateConfig(runs.resolve("demo-oc-agg2-s" + seed), "improver", "score_comparison",
          code("dev.h2beam.transforms.gated.ImproverMethod", null));
    }
    String text = report(runs);
    String named = "gated (method improver, policy score_comparison)" + SEEDS;
    assertTrue(text.contains("\n" + GATED_VECTOR + "    " + named + "\nReplicates"), text);
    String[] sections = text.split("\nComparison at k=2: ");
    assertFalse(sections[1].contains("gated (method"), sections[1]);
    for (int i = 2; i <= 3; i++) {
      assertTrue(sections[i].contains(" holds\n  " + named + "  by design (disclosed; no condition fails for it):"
          + " gated's improver is shown each episode's score from the task's checks (checks/), and its gate keeps a"
          + " step only when those scores win; " + (i == 2 ? "parallel" : "sequential") + " sees no score. Where a"
          + " task's checks apply the grader's rule, gated selects with the signal the judge grades by.\n"),
          sections[i]);
    }
    assertFalse(text.contains("plug-in"), text);
    assertFalse(text.contains("the method failed"), text);
  }

  /**
   * A plug-in method is named with its policy, disclosed once with its class and jar, scores episodes by its own
   * evaluate in the by-design note, and a method that failed in every step says its score is the base harness's.
   */
  @Test
  void aPluginMethodThatFailedInEveryStepIsNamedDisclosedAndSaidToHaveFailed(@TempDir Path runs) throws Exception {
    cell(runs, null, (seed, task) -> Fixtures.gate(6, 6, "base"));
    for (int seed = 1; seed <= 3; seed++) {
      Fixtures.gateConfig(runs.resolve("demo-oc-agg2-s" + seed), "best-of-two", "score_comparison",
          code("org.example.BestOfTwo", "best-of-two-1.0.jar"));
    }
    String text = report(runs);
    String named = "gated (method best-of-two, policy score_comparison)" + SEEDS;
    assertTrue(text.contains("\n" + GATED_VECTOR + "    " + named + "    the method best-of-two is a plug-in"
        + " (org.example.BestOfTwo from best-of-two-1.0.jar): its budget and blindness hold for the calls it makes"
        + " through its API (the models and inputs h2beam hands it); what else its code does is neither counted in"
        + " the ledger nor seen by this report (README: \"What a method is trusted with\")\n"
        + "    gated: the method failed in 36 of 36 steps (method_errors in the summaries): its score is the base"
        + " harness's, not the method's work\n\nReplicates"), text);
    assertEquals(1, text.split("is a plug-in", -1).length - 1, "disclosed once: " + text);
    String[] sections = text.split("\nComparison at k=2: ");
    for (int i = 2; i <= 3; i++) {
      assertTrue(sections[i].contains(" holds\n  " + named + "  by design (disclosed; no condition fails for it):"
          + " gated's method best-of-two scores each episode itself (its evaluate), and gated keeps a step only when"
          + " those scores win; " + (i == 2 ? "parallel" : "sequential") + " sees no score. What those scores rest on"
          + " is the method's own: this report cannot say whether they apply the grader's rule.\n"), sections[i]);
      assertFalse(sections[i].contains("checks/"), sections[i]);
    }
    String html = Files.readString(runs.resolve("_report/report.html"));
    assertTrue(html.contains("    the method best-of-two is a plug-in (org.example.BestOfTwo from"
        + " best-of-two-1.0.jar):"), "the page's text report says it too");
  }

  /**
   * Failures in some steps are counted against every step; a summary that does not record method_failed is counted
   * apart (never as 0), and when none records it nothing is said; every step failed with a candidate kept is not
   * said to be the base.
   */
  @Test
  void methodFailuresInSomeStepsAreCountedAndAnUnrecordedCountIsNotZero(@TempDir Path root) throws Exception {
    Path some = root.resolve("some");
    cell(some, null, (seed, task) -> Fixtures.gate(6, seed == 3 ? null : task.equals("ledger-1") ? 2 : 0, "g1"));
    assertTrue(report(some).contains("\n" + GATED_VECTOR + "    gated (method and policy not recorded in"
        + " config.json)" + SEEDS + "    gated: the method failed in 4 of 24 steps (method_errors in the summaries);"
        + " 2 task(s) record no method_failed (not counted, not zero)\n\nReplicates"), report(some));
    Path none = root.resolve("none");
    cell(none, null, (seed, task) -> Fixtures.gate(6, null, "g1"));
    assertFalse(report(none).contains("the method failed"), report(none));
    Path kept = root.resolve("kept");
    cell(kept, null, (seed, task) -> Fixtures.gate(6, 6, task.equals("ledger-1") ? "base" : "g1"));
    assertTrue(report(kept).contains("\n    gated: the method failed in 36 of 36 steps (method_errors in the"
        + " summaries): no step had both its proposal and its scores, so its score is not the method's work\n"),
        report(kept));
  }

  @Test
  void aGatedLabelIsFinalWhenItsSummaryListsItAndBaseOrCandidateOtherwise() {
    List<String> finals = List.of("g3", "r1", "base2");
    assertEquals("final", scored("t", "gat", 2, "g3", 1, 1, true).pick(finals));
    assertEquals("final", scored("t", "gat", 2, "r1", 1, 1, true).pick(finals));
    assertEquals("final", scored("t", "gat", 2, "base2", 1, 1, true).pick(finals), "the gate kept the base");
    assertEquals("base", scored("t", "gat", 2, "base1", 1, 1, true).pick(finals));
    assertEquals("candidate", scored("t", "gat", 2, "g1", 1, 1, true).pick(finals));
    assertEquals("candidate", scored("t", "gat", 2, "g3", 1, 1, true).pick(List.of()), "no summary, no final");
    assertEquals("final", scored("t", "seq", 2, "c2", 1, 1, true).pick(List.of()), "sequential by its label");
  }

  @Test
  void theParallelAndSequentialReportIsTheSameWithGatedRowsBesideIt(@TempDir Path root) throws Exception {
    Path withGated = root.resolve("with");
    cell(withGated, null);
    Path without = root.resolve("without");
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(without, "demo-oc-agg2-s" + seed);
      Fixtures.judged(ns, List.of(
          Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2), Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2),
          Fixtures.graded("ledger-2", "agg", 2, "agg2", 2, 2), Fixtures.graded("ledger-2", "seq", 2, "c2", 1, 2)));
      for (String task : List.of("ledger-1", "ledger-2")) {
        Fixtures.summary(ns, task, 2, 0.5, 0.25, List.of(), 0.0, List.of(
            ModeRun.onBudget("agg", 2, List.of("agg1", "agg2"), "agg1"),
            ModeRun.onBudget("seq", 2, List.of("c1", "c2"), "c1")));
      }
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
    }
    for (String disclosure : List.of("aggregate", "per-task")) {
      Fixtures.Run a = Fixtures.report("--namespaces=" + withGated + "/demo-oc-agg2-*",
          "--modes=parallel,sequential", "--disclosure=" + disclosure, "--output=" + root.resolve("a"));
      Fixtures.Run b = Fixtures.report("--namespaces=" + without + "/demo-oc-agg2-*",
          "--modes=parallel,sequential", "--disclosure=" + disclosure, "--output=" + root.resolve("b"));
      assertEquals(0, a.exit(), a.err());
      for (String file : List.of("report.txt", "report.html")) {
        assertEquals(Files.readString(root.resolve("b").resolve(file)).replace(without.toString(), "RUNS"),
            Files.readString(root.resolve("a").resolve(file)).replace(withGated.toString(), "RUNS"), file);
      }
      assertFalse(a.out().contains("gated"), a.out());
    }
  }

  @Test
  void theHtmlPlotDrawsAThirdSeriesForGatedAndKeepsTheOtherTwo() {
    List<NamespaceRef> refs = new ArrayList<>();
    List<NamespaceFacts> facts = new ArrayList<>();
    RunIdentity id = new RunIdentity("c", "demo/oc", "opencode:m", "judge-1", null);
    for (int k = 1; k <= 2; k++) {
      NamespaceRef ref = Fixtures.ref(ReportTest.RUNS, "demo-oc-agg" + k);
      refs.add(ref);
      List<Scored> rows = new ArrayList<>();
      for (String t : List.of("t1", "t2")) {
        rows.add(scored(t, "agg", k, "agg1", 2, 4, false));
        rows.add(scored(t, "seq", k, "c1", 3, 4, false));
        rows.add(scored(t, "gat", k, "g2", k, 4, false));
      }
      facts.add(new NamespaceFacts(ref.dir(), true, rows, List.of(new TaskSummary("s", "t1", Map.of(), Map.of())),
          id));
    }
    ReportSettings s = new ReportSettings(refs, List.of(), List.of("agg", "seq", "gat"), "demo",
        Disclosure.AGGREGATE, 5.0, "/out");
    String html = Report.build(s, facts, List.of()).html();
    for (String colour : List.of("#1f6fb4", "#c8302b", "#2a8a3e")) {
      assertEquals(1, count(html, "<polyline points=\"[^\"]+\" fill=\"none\" stroke=\"" + colour + "\""), colour);
      assertEquals(2, count(html, "<circle [^>]*fill=\"" + colour + "\"/>"), colour);
    }
    assertEquals(3, count(html, "<polyline "), "one line per mode");
    assertEquals(2, count(html, "<text [^>]*fill=\"#2a8a3e\">gated</text>"), "gated in the legend and the spend");
    // gated's points at 25% (k=1) and 50% (k=2) carry their own labels
    assertTrue(html.contains("fill=\"#2a8a3e\">25.00%</text>") && html.contains("fill=\"#2a8a3e\">50.00%</text>"),
        html);
  }

  private static int count(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    int n = 0;
    while (m.find()) n++;
    return n;
  }
}
