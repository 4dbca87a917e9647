package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.absent;
import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The assembled text report over namespaces' facts: hints, spend, coverage, sections, nothing to report. */
class ReportTest {
  static final Path RUNS = Path.of("/runs");
  static final RunIdentity ID = new RunIdentity("c", "demo/oc", "opencode:m", "judge-1", null);

  static ReportSettings settings(List<String> names, List<String> modes, List<Integer> ks, Disclosure d) {
    List<NamespaceRef> refs = names.stream().map(n -> Fixtures.ref(RUNS, n)).toList();
    return new ReportSettings(refs, ks, modes, refs.get(0).bench(), d, 5.0, "/out");
  }

  static ReportSettings settings(String... names) {
    return settings(List.of(names), List.of("agg", "seq"), List.of(), Disclosure.AGGREGATE);
  }

  static NamespaceFacts facts(String name, List<Scored> rows, List<TaskSummary> summaries) {
    return new NamespaceFacts(RUNS.resolve(name).toString(), true, rows, summaries, ID);
  }

  static TaskSummary spend(String task, double improver, int fellBack, double executor) {
    TaskSummary.ModeSpend m = new TaskSummary.ModeSpend(fellBack, improver, executor);
    return new TaskSummary("/s/" + task, task, Map.of("agg", m, "seq", m));
  }

  static List<Scored> both(int k, String... tasks) {
    List<Scored> rows = new ArrayList<>();
    for (String t : tasks) {
      rows.add(scored(t, "agg", k, "agg1", 1, 2, false));
      rows.add(scored(t, "seq", k, "c1", 1, 1, true));
    }
    return rows;
  }

  static Report.Result build(ReportSettings s, NamespaceFacts... f) {
    return Report.build(s, List.of(f), List.of());
  }

  /**
   * A pooled score over a partial replicate (a task ungraded) favours runs whose missing tasks would have failed: the
   * mode's vector line says so beside its ungraded count (dogAA finding 6), while harness2's headline above stays as
   * harness2 prints it. A replicate with every task ungraded adds nothing to the pooled score and is not partial.
   */
  @Test
  void aPooledScoreOverAPartialReplicateCarriesItsCaveatOnTheVectorLine() {
    List<Scored> s1 = new ArrayList<>(both(2, "t1"));
    s1.add(scored("t2", "agg", 2, "agg1", 1, 2, false));
    s1.add(absent("t2", "seq", 2, "judge-failed"));
    List<Scored> s2 = new ArrayList<>(both(2, "t1", "t2"));
    Report.Result r = build(settings(List.of("demo-oc-agg2-s1", "demo-oc-agg2-s2"), List.of("agg", "seq"),
        List.of(), Disclosure.PER_TASK), facts("demo-oc-agg2-s1", s1, List.of()),
        facts("demo-oc-agg2-s2", s2, List.of()));
    String text = r.text();
    assertTrue(text.contains("  sequential k=2: n=  3 | score 100.00% | picked output: final 3 / candidate 0 / base 0"
        + " | ungraded 1\n"), text);
    assertTrue(text.contains("  sequential k=2: score 100.00% (3 graded, 1 ungraded; 1 partial replicate(s): scored"
        + " over their graded tasks only, which favours runs whose missing tasks would have failed) | "), text);
    assertTrue(text.contains("  parallel k=2: score 50.00% (4 graded, 0 ungraded) | "), text);
  }

  @Test
  void tasksGradedInOneModeButNotTheOtherAreListed() {
    List<Scored> rows = new ArrayList<>(both(2, "t1"));
    rows.add(scored("t2", "agg", 2, "agg2", 1, 1, true));
    rows.add(absent("t2", "seq", 2, "judge-timeout"));
    rows.add(absent("t3", "agg", 2, "selection-failed"));
    rows.add(scored("t3", "seq", 2, "c2", 1, 1, true));
    String text = build(settings("demo-oc-agg2"), facts("demo-oc-agg2", rows, List.of())).text();
    assertTrue(text.contains("Tasks graded in one mode but not the other (absences, never zeros; each leaves its"
        + " replicate without a run value in the paired comparison)\n  k=2 seed=none (demo-oc-agg2): graded in"
        + " parallel only: t2\n  k=2 seed=none"
        + " (demo-oc-agg2): graded in sequential only: t3"), text);
  }

  /**
   * Under aggregate disclosure one task over three seeds is still one task: its pooled score is that task's score
   * (withheld like the replicate means it equals), and a withheld paired difference is not printed in the verdict's
   * reason either.
   */
  @Test
  void oneTaskOverSeveralSeedsIsWithheldInTheHeadlineAndTheVerdictsReason() {
    List<NamespaceFacts> seeds = new ArrayList<>();
    for (int seed = 1; seed <= 3; seed++) {
      seeds.add(facts("demo-oc-agg2-s" + seed, List.of(scored("t1", "agg", 2, "agg1", 1, 2, false),
          scored("t1", "seq", 2, "c1", 1, 2, false)), List.of()));
    }
    ReportSettings s = settings("demo-oc-agg2-s1", "demo-oc-agg2-s2", "demo-oc-agg2-s3");
    String text = Report.build(s, seeds, List.of()).text();
    assertTrue(text.contains("  parallel k=2: n=  3 | score withheld | picked output"), text);
    assertFalse(text.contains("50.00"), text);
    assertTrue(text.contains("| inconclusive: the mean does not exceed the threshold"), text);
    assertFalse(text.contains("|+0.00|"), text);
    String released = Report.build(settings(List.of("demo-oc-agg2-s1", "demo-oc-agg2-s2", "demo-oc-agg2-s3"),
        List.of("agg", "seq"), List.of(), Disclosure.PER_TASK), seeds, List.of()).text();
    assertTrue(released.contains("  parallel k=2: n=  3 | score  50.00%"), released);
    assertTrue(released.contains("| inconclusive: |+0.00| does not exceed the threshold"), released);
  }

  @Test
  void improverSpendSumsStageAndSelectionSpendOfTheReportedModes() {
    String text = build(settings("demo-oc-agg2"), facts("demo-oc-agg2", both(2, "t1", "t2"),
        List.of(spend("t1", 0.75, 0, 0), spend("t2", 0.5, 0, 0)))).text();
    assertTrue(text.contains("\n\n  improver (editors, composer, selection, reflection) spend across reported modes:"
        + " $2.50\n"), text);
    assertFalse(text.contains("executor (rollouts)"), text);
  }

  @Test
  void executorSpendIsAddedWhenAnExecutorReportedItsCost() {
    String text = build(settings("demo-oc-agg2"), facts("demo-oc-agg2", both(2, "t1"),
        List.of(spend("t1", 0.0, 0, 1.2)))).text();
    assertTrue(text.contains("\n\n  executor (rollouts) spend across reported modes: $2.40\n"), text);
    assertFalse(text.contains("improver (editors"), text);
  }

  /** The executor spend is summed as recorded and rounded once: $0.0345 in each of two modes is $0.07, not $0.06. */
  @Test
  void executorSpendIsRoundedOnceNotPerMode() {
    String text = build(settings("demo-oc-agg2"), facts("demo-oc-agg2", both(2, "t1"),
        List.of(spend("t1", 0.0, 0, 0.0345)))).text();
    assertTrue(text.contains("\n  executor (rollouts) spend across reported modes: $0.07\n"), text);
  }

  @Test
  void aModeThatRanButWasNotJudgedIsNamedWithTheJudgeToRun() {
    List<Scored> parallelOnly = both(2, "t1").stream().filter(r -> r.mode().equals("agg")).toList();
    TaskSummary.ModeSpend m = new TaskSummary.ModeSpend(0, 0, 0);
    TaskSummary selected = new TaskSummary("/s/t1", "t1", Map.of("agg", m, "seq", m),
        Map.of("agg", List.of("agg1", "agg2"), "seq", List.of("c1", "c2")));
    Report.Result r = build(settings("demo-oc-agg2-s8"), facts("demo-oc-agg2-s8", parallelOnly,
        List.of(selected)));
    assertTrue(r.text().startsWith("  ! no judged sequential rows at /runs/demo-oc-agg2-s8/judged.json although its"
        + " summaries record that run, left out of every figure below \u2014 run ./h2beam judge"
        + " --namespaces=/runs/demo-oc-agg2-s8 --modes=sequential\n"), r.text());
  }

  /**
   * A mode the summaries record but whose every task failed before selection (no finals: the mode's record holds
   * only its error) has nothing to judge: the hint says so, and does not send the user to the judge, which would
   * say "nothing to judge".
   */
  @Test
  void aModeThatFailedBeforeSelectionOnEveryTaskIsNotSentToTheJudge() {
    List<Scored> parallelOnly = both(2, "t1").stream().filter(r -> r.mode().equals("agg")).toList();
    Report.Result r = build(settings("demo-oc-agg2-s8"), facts("demo-oc-agg2-s8", parallelOnly,
        List.of(spend("t1", 0, 0, 0))));
    assertTrue(r.text().startsWith("  ! no sequential rows at /runs/demo-oc-agg2-s8/judged.json: every task of that"
        + " mode failed before selection (its summaries record no finals; see their errors), so nothing of it can be"
        + " judged; left out of every figure below\n"), r.text());
    assertFalse(r.text().contains("--modes=sequential"), r.text());
  }

  @Test
  void fellBackStagesComeFromTheSummaries() {
    String text = build(settings("demo-oc-agg2"), facts("demo-oc-agg2", both(2, "t1"),
        List.of(spend("t1", 0, 2, 0)))).text();
    assertTrue(text.contains("  parallel k=2: n=  1 | score withheld | picked output: final 1 / candidate 0 / base 0"
        + " | fell back 2"), text);
    assertTrue(text.contains("  WARNING  sequential k=2: 2 stage(s) fell back"), text);
  }

  @Test
  void aNamespaceWithoutJudgedRowsPrintsTheHintLine() {
    NamespaceFacts judged = facts("demo-oc-agg2", both(2, "t1", "t2"), List.of());
    Report.Result r = build(settings("demo-oc-agg1", "demo-oc-agg2"), judged);
    assertTrue(r.reportable());
    assertTrue(r.text().startsWith("  ! no judged rows at /runs/demo-oc-agg1/judged.json \u2014 run ./h2beam judge"
        + " --namespaces=/runs/demo-oc-agg1 for k=1 first\ndemo-oc modes=parallel,sequential\n"), r.text());
  }

  @Test
  void spendOfANamespaceWithoutJudgedRowsIsNotReported() {
    NamespaceFacts judged = facts("demo-oc-agg2-s1", both(2, "t1", "t2"), List.of(spend("t1", 1.0, 0, 0)));
    NamespaceFacts unjudged = new NamespaceFacts(RUNS.resolve("demo-oc-agg2-s2").toString(), false, List.of(),
        List.of(spend("t1", 5.0, 3, 0)), ID);
    String text = build(settings("demo-oc-agg2-s1", "demo-oc-agg2-s2"), judged, unjudged).text();
    assertTrue(text.contains("spend across reported modes: $2.00"), text);
    assertFalse(text.contains("fell back"), text);
  }

  @Test
  void aRequestedKWithoutANamespacePrintsAHint() {
    Report.Result r = build(settings(List.of("demo-oc-agg2"), List.of("agg", "seq"), List.of(2, 3),
        Disclosure.AGGREGATE), facts("demo-oc-agg2", both(2, "t1", "t2"), List.of()));
    assertTrue(r.text().startsWith("  ! no namespace for k=3 among --namespaces"), r.text());
  }

  @Test
  void nothingToReportWhenNoJudgedRowMatches() {
    Report.Result r = build(settings(List.of("demo-oc-agg2"), List.of("seq"), List.of(), Disclosure.AGGREGATE),
        facts("demo-oc-agg2", List.of(scored("t1", "agg", 2, "agg1", 1, 1, true)), List.of()));
    assertFalse(r.reportable());
    assertEquals("nothing to report: no judged rows for modes sequential in 1 namespace(s); their judged.json"
        + " files hold parallel k=2; pass --modes=parallel", r.message());
  }

  @Test
  void nothingToReportWithoutAnyJudgedRowAsksForTheJudge() {
    Report.Result r = build(settings(List.of("demo-oc-agg2"), List.of("seq"), List.of(), Disclosure.AGGREGATE),
        facts("demo-oc-agg2", List.of(), List.of()));
    assertFalse(r.reportable());
    assertEquals("nothing to report: no judged rows for modes sequential in 1 namespace(s); run ./h2beam judge on"
        + " them first", r.message());
  }

  @Test
  void nothingToReportAtARequestedKNamesTheKTheNamespacesHold() {
    Report.Result r = build(settings(List.of("demo-oc-agg2"), List.of("agg", "seq"), List.of(3),
        Disclosure.AGGREGATE), facts("demo-oc-agg2", both(2, "t1", "t2"), List.of()));
    assertFalse(r.reportable());
    assertEquals("nothing to report: no judged rows for modes parallel,sequential at k=3: the 1 namespace(s) of"
        + " --namespaces are at k=2; pass --k=2, or leave --k out for every k", r.message());
  }

  @Test
  void onlyTheRequestedModesAreReportedAndOneModeIsNotCompared() {
    String text = build(settings(List.of("demo-oc-agg2"), List.of("agg"), List.of(), Disclosure.AGGREGATE),
        facts("demo-oc-agg2", both(2, "t1", "t2"), List.of())).text();
    assertTrue(text.startsWith("demo-oc modes=parallel\n"), text);
    assertFalse(text.contains("sequential k=2"), text);
    assertFalse(text.contains("Comparison"), text);
  }

  @Test
  void onlyTheRequestedKAreReported() {
    Report.Result r = build(settings(List.of("demo-oc-agg1", "demo-oc-agg2"), List.of("agg", "seq"), List.of(2),
        Disclosure.AGGREGATE), facts("demo-oc-agg1", both(1, "t1", "t2"), List.of()),
        facts("demo-oc-agg2", both(2, "t1", "t2"), List.of()));
    assertFalse(r.text().contains("k=1"), r.text());
    assertTrue(r.text().contains("  parallel k=2: n=  2"), r.text());
  }

  @Test
  void titleListsTheSeedsOfTheReplicates() {
    Report.Result r = build(settings("demo-oc-agg2-s1", "demo-oc-agg2-s2"),
        facts("demo-oc-agg2-s1", both(2, "t1", "t2"), List.of()), facts("demo-oc-agg2-s2", both(2, "t1", "t2"),
            List.of()));
    assertTrue(r.text().startsWith("demo-oc seeds=1,2 modes=parallel,sequential\n"), r.text());
    Report.Result one = build(settings("demo-oc-agg2-s7"), facts("demo-oc-agg2-s7", both(2, "t1", "t2"), List.of()));
    assertTrue(one.text().startsWith("demo-oc seed=7 modes=parallel,sequential\n"), one.text());
  }

  @Test
  void replicatesArePooledOnTheLineAndSummarisedOneByOne() {
    Report.Result r = build(settings("demo-oc-agg2-s1", "demo-oc-agg2-s2"),
        facts("demo-oc-agg2-s1", both(2, "t1", "t2"), List.of()), facts("demo-oc-agg2-s2", both(2, "t1", "t2"),
            List.of()));
    assertTrue(r.text().contains("  parallel k=2: n=  4 | score  50.00%"), r.text());
    assertTrue(r.text().contains("  parallel k=2 seed=1 (demo-oc-agg2-s1): n=  2 | ungraded 0 | score  50.00%"),
        r.text());
    assertTrue(r.text().contains("  parallel k=2: 2 replicates with a graded task | mean score  50.00% (se 0.00 pt)"),
        r.text());
    assertTrue(r.text().contains("| inconclusive: 2 replicates; paired-difference/v1 needs at least 3"), r.text());
  }

  @Test
  void unreadableFilesArePrintedAndCountedBeforeTheReport() {
    ReadFailure f = new ReadFailure("/runs/demo-oc-agg2/t9/summary.json", "parse summary", "Unexpected end", "");
    Report.Result r = Report.build(settings("demo-oc-agg2"), List.of(facts("demo-oc-agg2", both(2, "t1", "t2"),
        List.of())), List.of(f));
    assertTrue(r.text().startsWith("  ! skipping unreadable /runs/demo-oc-agg2/t9/summary.json: Unexpected end\n"
        + "  ! 1 input file(s) could not be read; nothing in them enters any figure below\ndemo-oc"), r.text());
  }

  @Test
  void anUnreadableJudgedJsonIsReportedOnceNotAlsoAsMissing() {
    ReadFailure f = new ReadFailure("/runs/demo-oc-agg1/judged.json", "parse judged", "bad", "");
    Report.Result r = Report.build(settings("demo-oc-agg1", "demo-oc-agg2"), List.of(facts("demo-oc-agg2",
        both(2, "t1", "t2"), List.of())), List.of(f));
    assertFalse(r.text().contains("no judged rows at /runs/demo-oc-agg1"), r.text());
  }
}
