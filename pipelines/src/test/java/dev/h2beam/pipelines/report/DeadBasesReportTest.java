package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task whose every base rollout failed is written with status {@code base-failed}: no mode ran, so no ledger holds
 * what its dead bases cost, and each {@code base} entry carries its own {@code cost_usd} ({@code cost_known: false}
 * when that is not all of it). The report adds those dollars up on a line of their own after the spend lines, with
 * how many of the bases' costs are not known, in the text and on the page, and charges them to each mode's vector as
 * ledgers charge shared bases; a report without such a task is as before.
 */
class DeadBasesReportTest {
  static final String NOTE = "  (dead bases: the base rollouts of tasks whose every base failed, in no mode's ledger,"
      + " are charged to each mode apart, as every mode's ledger holds its tasks' shared bases (R = 4k); each ran,"
      + " and was paid for, once, and their tasks have no score in any mode)";
  static final String LINE = "  base rollouts of 1 task(s) whose every base failed (in no mode's ledger): $0.80, and"
      + " 1 rollout(s) whose cost is not known (not counted, not zero)";

  /**
   * A base-failed summary as the sweep writes it (SweepSteps.rollBases): one dead base per entry of {@code costs}, a
   * null cost for an entry that records none, {@code unknown} the entries marked {@code cost_known: false}.
   */
  static void baseFailed(Path ns, String task, int k, List<Double> costs, List<Integer> unknown) throws Exception {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("task_id", task);
    s.put("domain", "accounting");
    s.put("k", k);
    s.put("seed", 1);
    s.put("status", "base-failed");
    List<Object> base = new ArrayList<>();
    for (int i = 0; i < costs.size(); i++) {
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("label", "base" + (i + 1));
      b.put("run_id", ns.getFileName() + "/" + task + "/base" + (i + 1));
      b.put("run_dir", ns.resolve(task).resolve("missing").toString());
      b.put("error", "the executor died");
      if (costs.get(i) != null) b.put("cost_usd", costs.get(i));
      if (unknown.contains(i)) b.put("cost_known", false);
      base.add(b);
    }
    s.put("base", base);
    s.put("modes", new LinkedHashMap<>());
    s.put("selections", new LinkedHashMap<>());
    s.put("errors", List.of("no base rollout produced anything"));
    Path dir = Files.createDirectories(ns.resolve(task));
    Files.writeString(dir.resolve("summary.json"), Json.pretty(s), StandardCharsets.UTF_8);
  }

  static TaskSummary read(Path ns, String task) throws Exception {
    Path file = ns.resolve(task).resolve("summary.json");
    return InputFiles.summary(file.toString(), Files.readString(file));
  }

  /**
   * A base-failed summary spends nothing in any mode, as before; its dead bases' costs are summed (what is known of
   * each, the known part of one marked not known included, as a ledger's sums are) and the bases whose cost is not
   * all known are counted: marked {@code cost_known: false}, or with no {@code cost_usd} beside entries that have
   * one, never as $0. A summary with no cost on any entry (harness2's, which tracks no executor cost, or h2beam's
   * before it recorded one) has none, as its ledgers' rollout usd is read; so has any other summary, whatever its base
   * entries say.
   */
  @Test
  void aBaseFailedSummaryCarriesWhatItsDeadBasesCost(@TempDir Path ns) throws Exception {
    baseFailed(ns, "ledger-3", 3, List.of(0.25, 0.5, 0.05), List.of(2));
    TaskSummary dead = read(ns, "ledger-3");
    assertEquals(1, dead.deadBases().unknown(), "base3: only its known part");
    assertEquals(0.8, dead.deadBases().usd(), 1e-12);
    assertEquals(Map.of(), dead.modes(), "no mode ran");
    assertEquals(TaskSummary.ModeSpend.NONE, dead.mode("agg"));

    baseFailed(ns, "ledger-4", 2, java.util.Arrays.asList(null, 0.125), List.of());
    // these entries were written without tokens: both are counted as recording none, never as 0 tokens
    assertEquals(new TaskSummary.DeadBases(0.125, 1, new TaskSummary.TokenCount(0, 0, 0, 2)),
        read(ns, "ledger-4").deadBases(), "no cost recorded");

    // harness2's shape: no modes at all
    Path legacy = ns.resolve("ledger-5/summary.json");
    Files.createDirectories(legacy.getParent());
    Files.writeString(legacy, "{\"task_id\": \"ledger-5\", \"k\": 2, \"status\": \"base-failed\", \"base\":"
        + " [{\"label\": \"base1\", \"run_id\": \"r1\", \"run_dir\": \"/x/missing\"}, {\"label\": \"base2\"}],"
        + " \"selections\": {}}");
    TaskSummary h2 = InputFiles.summary(legacy.toString(), Files.readString(legacy));
    assertNull(h2.deadBases(), "harness2 tracks no executor cost: its report has no line for it");
    assertEquals(Map.of(), h2.modes());

    Fixtures.summary(ns, "ledger-1", 2, 0.25, 0.5, List.of(), 1.5);
    assertNull(read(ns, "ledger-1").deadBases(), "a task that ran has its bases in its modes' ledgers");
  }

  /**
   * The line follows the spend lines only when a reported task's every base failed (even at a known $0), after an
   * empty line of its own when there is no other spend; without one the lines are harness2's.
   */
  @Test
  void theLineFollowsTheSpendLinesOnlyWhenThereIsSuchATask() {
    String improver = "  improver (editors, composer, selection, reflection) spend across reported modes: $";
    String executor = "  executor (rollouts) spend across reported modes: $";
    assertEquals(List.of("", improver + "1.50", executor + "2.40", LINE), Render.spend(1.5, 2.4, 0, 0,
        new Render.DeadBaseSpend(1, 0.8, 1)));
    assertEquals(List.of("", "  base rollouts of 2 task(s) whose every base failed (in no mode's ledger): $0.00"),
        Render.spend(0, 0, 0, 0, new Render.DeadBaseSpend(2, 0.0, 0)));
    assertEquals(Render.spend(1.5, 2.4, 1, 2), Render.spend(1.5, 2.4, 1, 2, Render.DeadBaseSpend.NONE));
    assertEquals(List.of(), Render.spend(0, 0, 0, 0, Render.DeadBaseSpend.NONE));
  }

  /**
   * Only the namespaces the report covers count, as for every other spend line: a namespace left out by --k, or one
   * without judged rows, adds nothing; the tasks of the covered ones add up.
   */
  @Test
  void onlyTheReportedNamespacesTasksAreCounted() {
    TaskSummary ran = ReportTest.spend("t1", 0.5, 0, 0.75);
    TaskSummary dead = new TaskSummary("/s/t3", "t3", Map.of(), Map.of(), new TaskSummary.DeadBases(0.25, 1));
    TaskSummary deadToo = new TaskSummary("/s/t4", "t4", Map.of(), Map.of(), new TaskSummary.DeadBases(0.5, 0));
    NamespaceFacts reported = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1"), List.of(ran, dead,
        deadToo));
    NamespaceFacts otherK = ReportTest.facts("demo-oc-agg3", ReportTest.both(3, "t1"), List.of(dead));
    NamespaceFacts unjudged = ReportTest.facts("demo-oc-agg2-s9", List.of(), List.of(dead));
    ReportSettings s = ReportTest.settings(List.of("demo-oc-agg2", "demo-oc-agg3", "demo-oc-agg2-s9"),
        List.of("agg", "seq"), List.of(2), Disclosure.AGGREGATE);
    Report.Result r = Report.build(s, List.of(reported, otherK, unjudged), List.of());
    assertTrue(r.text().contains("\n  executor (rollouts) spend across reported modes: $1.50\n    (each mode's"
        + " ledger holds its tasks' k shared base rollouts, as the budget R = 4k counts them, so this sum over modes"
        + " counts each base rollout once per mode; each ran, and was paid for, once)\n  base rollouts of 2"
        + " task(s) whose every base failed (in no mode's ledger): $0.75, and 1 rollout(s) whose cost is not known"
        + " (not counted, not zero)\n"), r.text());
    assertTrue(r.html().contains("base rollouts of 2 task(s) whose every base failed, in no mode&#39;s ledger: $0.75"
        + " (+ 1 not known)"), r.html());

    Report.Result none = ReportTest.build(ReportTest.settings("demo-oc-agg2"), ReportTest.facts("demo-oc-agg2",
        ReportTest.both(2, "t1"), List.of(ran)));
    assertFalse(none.text().contains("every base failed"), none.text());
    assertFalse(none.html().contains("every base failed"), none.html());
  }

  /**
   * Each mode reported in a namespace is charged that namespace's dead bases in its vector line, apart from its
   * ledgers' executor spend, as each mode's ledger is charged its tasks' shared bases (each mode alone would have
   * rolled them); the section says so once, and the page's spend bars carry them as a part of each mode's bar. A
   * mode not reported in the namespace is not charged.
   */
  @Test
  void eachModesVectorIsChargedItsNamespacesDeadBases() {
    TaskSummary ran = ReportTest.spend("t1", 0.5, 0, 0.75);
    TaskSummary dead = new TaskSummary("/s/t3", "t3", Map.of(), Map.of(), new TaskSummary.DeadBases(0.25, 1,
        new TaskSummary.TokenCount(40, 2, 0, 0)));
    NamespaceFacts both = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1"), List.of(ran, dead));
    Report.Result r = ReportTest.build(ReportTest.settings("demo-oc-agg2"), both);
    String part = " | dead bases of 1 task(s) whose every base failed $0.25 (+1 not known), tokens 40 in, 2 out\n";
    assertEquals(2, r.text().split(java.util.regex.Pattern.quote(part), -1).length - 1, r.text());
    assertTrue(r.text().contains("\n" + NOTE + "\n"), r.text());
    assertTrue(r.html().contains(">improver $0.50 + executor $0.75</text>"), r.html());
    assertTrue(r.html().contains(">+ dead bases $0.25 (+ 1 not known) (the lightest part)</text>"), r.html());
    assertTrue(r.html().contains(">dead bases = those, charged to each mode"), r.html());

    List<Scored> aggOnly = ReportTest.both(2, "t1").stream().filter(x -> x.mode().equals("agg")).toList();
    NamespaceFacts one = ReportTest.facts("demo-oc-agg2", aggOnly, List.of(ran, dead));
    Report.Result o = ReportTest.build(ReportTest.settings("demo-oc-agg2"), one);
    assertEquals(1, o.text().split(java.util.regex.Pattern.quote(part), -1).length - 1, o.text());

    Report.Result none = ReportTest.build(ReportTest.settings("demo-oc-agg2"), ReportTest.facts("demo-oc-agg2",
        ReportTest.both(2, "t1"), List.of(ran)));
    assertFalse(none.text().contains("dead bases"), none.text());
    assertFalse(none.html().contains("dead bases"), none.html());
  }

  /**
   * End to end: a namespace with one base-failed task (two dead bases of known cost, one whose cost is not all known)
   * reports the line with their sum and the count, in report.txt and report.html; the same namespace without that
   * task reports exactly the same text without the line, and a page that says nothing of it.
   */
  @Test
  void theReportDisclosesWhatTheDeadBasesOfABaseFailedTaskCost(@TempDir Path runs) throws Exception {
    Path ns = Fixtures.judgedPair(runs, 3);
    Path plainOut = runs.resolve("plain");
    Fixtures.Run plainRun = Fixtures.report("--namespaces=" + ns, "--output=" + plainOut);
    assertEquals(0, plainRun.exit(), plainRun.err());

    // base1 and base2 cost $0.25 and $0.50; base3's $0.05 is only what is known of it
    baseFailed(ns, "ledger-3", 3, List.of(0.25, 0.5, 0.05), List.of(2));
    Path deadOut = runs.resolve("dead");
    Fixtures.Run run = Fixtures.report("--namespaces=" + ns, "--output=" + deadOut);
    assertEquals(0, run.exit(), run.err());
    String text = Files.readString(deadOut.resolve("report.txt"));
    // each mode: 3 stages of $0.50 and a $0.25 selection per task; $0.75 of rollouts per task
    String spend = "  improver (editors, composer, selection, reflection) spend across reported modes: $7.00\n"
        + "  executor (rollouts) spend across reported modes: $3.00\n"
        + "    (each mode's ledger holds its tasks' k shared base rollouts, as the budget R = 4k counts them, so this"
        + " sum over modes counts each base rollout once per mode; each ran, and was paid for, once)\n";
    assertTrue(text.contains("\n" + spend + LINE + "\n"), text);
    String html = Files.readString(deadOut.resolve("report.html"));
    assertTrue(html.contains(">base rollouts of 1 task(s) whose every base failed, in no mode&#39;s ledger: $0.80 (+ 1"
        + " not known)</text>"), html);
    assertTrue(html.contains("not known = stages, selections or rollouts whose cost is not known"), html);

    String plain = Files.readString(plainOut.resolve("report.txt"));
    assertTrue(plain.contains("\n" + spend + "\n"), plain);
    // and each mode's vector: its entries record no tokens, which are not recorded, never 0
    String part = " | dead bases of 1 task(s) whose every base failed $0.80 (+1 not known), tokens not recorded (3"
        + " rollout(s): not counted, not zero)";
    assertEquals(2, text.split(java.util.regex.Pattern.quote(part + "\n"), -1).length - 1, text);
    assertEquals(text.replace(LINE + "\n", "").replace(NOTE + "\n", "").replace(part, ""), plain,
        "the task changes the spend lines and each mode's vector only");
    String plainHtml = Files.readString(plainOut.resolve("report.html"));
    assertFalse(plainHtml.contains("every base failed"), plainHtml);
    assertFalse(plainHtml.contains("not known"), plainHtml);
  }
}
