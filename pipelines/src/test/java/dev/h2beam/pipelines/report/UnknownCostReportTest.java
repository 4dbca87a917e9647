package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Costs the sweep could not learn (a model call without an answer or without token counts, a session attempt that
 * crashed) are marked in summary.json: a stage's or selection's {@code usd_known: false}, a ledger's
 * {@code cost_unknown}. The report counts them beside the spend, in the text and on the page, and never shows them as
 * $0; a summary without marks reports exactly as before.
 */
class UnknownCostReportTest {

  /** Marks, in the task's summary, the first {@code stages} stages of {@code mode}, its selection, its rollouts. */
  @SuppressWarnings("unchecked")
  static void markUnknown(Path ns, String task, String mode, int stages, boolean selection, List<String> rollouts,
      List<String> sessions) throws Exception {
    Path file = ns.resolve(task).resolve("summary.json");
    Map<String, Object> s = Json.readMap(file);
    Map<String, Object> m = (Map<String, Object>) ((Map<String, Object>) s.get("modes")).get(mode);
    List<Object> st = (List<Object>) m.get("stages");
    for (int i = 0; i < stages; i++) ((Map<String, Object>) st.get(i)).put("usd_known", false);
    Map<String, Object> sel = (Map<String, Object>) ((Map<String, Object>) s.get("selections")).get(mode);
    if (selection) sel.put("usd_known", false);
    if (!rollouts.isEmpty() || !sessions.isEmpty()) {
      Map<String, Object> unknown = new LinkedHashMap<>();
      unknown.put("rollouts", rollouts);
      unknown.put("sessions", sessions);
      ((Map<String, Object>) m.get("ledger")).put("cost_unknown", unknown);
    }
    Files.writeString(file, Json.pretty(s), StandardCharsets.UTF_8);
  }

  @Test
  void aSummaryCountsTheStagesSelectionAndRolloutsWhoseCostIsNotKnown(@TempDir Path ns) throws Exception {
    Fixtures.summary(ns, "ledger-1", 2, 0.25, 0.5, List.of(), 1.5);
    markUnknown(ns, "ledger-1", "agg", 2, true, List.of("base1", "agg1", "agg2"), List.of("inv1"));
    markUnknown(ns, "ledger-1", "seq", 0, true, List.of(), List.of());
    Path file = ns.resolve("ledger-1/summary.json");
    TaskSummary t = InputFiles.summary(file.toString(), Files.readString(file));
    // the amounts are what is known, as written; the counts are what they leave out
    assertEquals(new TaskSummary.ModeSpend(0, 1.25, 1.5, 0, null, 3, 3), t.mode("agg"));
    assertEquals(new TaskSummary.ModeSpend(0, 1.25, 1.5, 0, null, 1, 0), t.mode("seq"));

    Fixtures.summary(ns, "ledger-2", 2, 0.25, 0.5, List.of(), 1.5);
    Path plain = ns.resolve("ledger-2/summary.json");
    assertEquals(new TaskSummary.ModeSpend(0, 1.25, 1.5), InputFiles.summary(plain.toString(),
        Files.readString(plain)).mode("agg"), "no marks: every cost known, as before");
  }

  /**
   * A selection that records no usd (absent or null: metrics.json's {@code selection_cost: not-recorded}) is a cost
   * not known, counted beside the spend as a marked one is; it was summed as $0 with no note (dogAA finding 1).
   */
  @Test
  @SuppressWarnings("unchecked")
  void aSelectionThatRecordsNoUsdIsACostNotKnownNotZero(@TempDir Path ns) throws Exception {
    Fixtures.summary(ns, "ledger-1", 2, 0.25, 0.5, List.of(), 1.5);
    Path file = ns.resolve("ledger-1/summary.json");
    Map<String, Object> s = Json.readMap(file);
    Map<String, Object> selections = (Map<String, Object>) s.get("selections");
    ((Map<String, Object>) selections.get("agg")).remove("usd");
    ((Map<String, Object>) selections.get("seq")).put("usd", null);
    Files.writeString(file, Json.pretty(s), StandardCharsets.UTF_8);
    TaskSummary t = InputFiles.summary(file.toString(), Files.readString(file));
    assertEquals(new TaskSummary.ModeSpend(0, 0.75, 1.5, 0, null, 1, 0), t.mode("agg"));
    assertEquals(new TaskSummary.ModeSpend(0, 0.75, 1.5, 0, null, 1, 0), t.mode("seq"));
    // a ledger whose rollouts' amount is null: each of its rollouts not known, never $0
    Map<String, Object> agg = (Map<String, Object>) ((Map<String, Object>) s.get("modes")).get("agg");
    Map<String, Object> ledger = (Map<String, Object>) agg.get("ledger");
    ledger.put("rollout_usd", null);
    Files.writeString(file, Json.pretty(s), StandardCharsets.UTF_8);
    t = InputFiles.summary(file.toString(), Files.readString(file));
    assertEquals(0.0, t.mode("agg").executorUsd());
    assertEquals(ledger.get("R") == null ? 1 : ((Number) ledger.get("R")).intValue(), t.mode("agg").executorUnknown());
  }

  /**
   * A spend line is printed when some of its costs are not known, even when what is known is $0: the line says how
   * many were left out. With every cost known the lines are harness2's.
   */
  @Test
  void aSpendLineNamesHowManyCostsAreNotKnownEvenAtZero() {
    String improver = "  improver (editors, composer, selection, reflection) spend across reported modes: $";
    String executor = "  executor (rollouts) spend across reported modes: $";
    assertEquals(List.of("", improver + "0.00, and 3 stage(s) or selection(s) whose cost is not known (not counted,"
        + " not zero)"), Render.spend(0, 0, 3, 0));
    assertEquals(List.of("", improver + "1.50", executor + "0.00, and 2 rollout(s) whose cost is not known (not"
        + " counted, not zero)"), Render.spend(1.5, 0, 0, 2));
    assertEquals(List.of("", improver + "0.12, and 1 stage(s) or selection(s) whose cost is not known (not counted,"
        + " not zero)",
        executor + "2.40, and 4 rollout(s) whose cost is not known (not counted, not zero)"),
        Render.spend(0.12, 2.4, 1, 4));
    assertEquals(List.of(), Render.spend(0, 0, 0, 0));
    assertEquals(Render.spend(1.5, 2.4), Render.spend(1.5, 2.4, 0, 0));
    assertEquals(List.of("", improver + "1.50", executor + "2.40"), Render.spend(1.5, 2.4));
  }

  /** Counts add up over the tasks and namespaces of a cell, and only over the reported cells. */
  @Test
  void theCountsOfACellAddUpOverItsTasksAndAreShownBesideItsSpend() {
    NamespaceFacts facts = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1", "t2"), List.of(
        new TaskSummary("/s/t1", "t1", Map.of("agg", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 2, 1),
            "seq", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 3))),
        new TaskSummary("/s/t2", "t2", Map.of("agg", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 1, 0)))));
    Report.Result r = ReportTest.build(ReportTest.settings("demo-oc-agg2"), facts);
    assertTrue(r.text().contains("\n\n  improver (editors, composer, selection, reflection) spend across reported"
        + " modes: $0.00, and 3 stage(s) or selection(s) whose cost is not known (not counted, not zero)\n"
        + "  executor (rollouts) spend across reported modes: $0.00, and 4 rollout(s) whose cost is not known (not"
        + " counted, not zero)\n"),
        r.text());
    assertTrue(r.html().contains("<td>$0.00 + 3 not known</td><td>$0.00 + 1 not known</td></tr>"), r.html());
    assertTrue(r.html().contains("<td>$0.00</td><td>$0.00 + 3 not known</td></tr>"), "sequential: " + r.html());
    assertTrue(r.html().contains("improver $0.00 (+ 3 not known) + executor $0.00 (+ 1 not known)"), r.html());
    assertTrue(r.html().contains("improver $0.00 + executor $0.00 (+ 3 not known)"), r.html());
    assertTrue(r.html().contains("not known = stages, selections or rollouts whose cost is not known"), r.html());

    // a parallel-only report leaves the sequential counts out
    Report.Result agg = ReportTest.build(ReportTest.settings(List.of("demo-oc-agg2"), List.of("agg"), List.of(),
        Disclosure.AGGREGATE), facts);
    assertTrue(agg.text().contains("$0.00, and 3 stage(s) or selection(s) whose cost is not known (not counted, not"
        + " zero)\n  executor (rollouts) spend across reported modes: $0.00, and 1 rollout(s)"), agg.text());
  }

  /**
   * A cheap model's spend is summed as recorded and rounded once: $0.00048 per task and mode, rounded per cell, was
   * $0.00 in every vector and the improver's spend line was left out. A known amount under a cent reads {@code <$0.01}.
   */
  @Test
  void aSpendUnderACentIsSummedAsRecordedAndNeverShownAsZero() {
    NamespaceFacts facts = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1", "t2"), List.of(
        new TaskSummary("/s/t1", "t1", Map.of("agg", new TaskSummary.ModeSpend(0, 0.00048, 0.0036),
            "seq", new TaskSummary.ModeSpend(0, 0.00048, 0.0))),
        new TaskSummary("/s/t2", "t2", Map.of("agg", new TaskSummary.ModeSpend(0, 0.00048, 0.0036),
            "seq", new TaskSummary.ModeSpend(0, 0.00048, 0.0)))));
    Report.Result r = ReportTest.build(ReportTest.settings("demo-oc-agg2"), facts);
    assertTrue(r.text().contains("\n  improver (editors, composer, selection, reflection) spend across reported"
        + " modes: <$0.01\n  executor (rollouts) spend across reported modes: $0.01\n"), r.text());
    assertTrue(r.text().contains("| improver <$0.01 | executor $0.01 |"), r.text());
    assertTrue(r.text().contains("| improver <$0.01 | executor $0.00 |"), r.text());
    // the page says the same, escaped
    assertTrue(r.html().contains("<td>&lt;$0.01</td><td>$0.01</td>"), r.html());
    assertTrue(r.html().contains("improver &lt;$0.01 + executor $0.01"), r.html());
    assertEquals("$0.00", Render.dollars(0));
    assertEquals("<$0.01", Render.dollars(0.0049));
    assertEquals("$0.01", Render.dollars(0.005));
  }

  /**
   * End to end: a namespace whose summaries mark costs not known reports their counts in report.txt and report.html;
   * the same namespace without the marks reports exactly the same text without them, and a page that says nothing
   * of costs not known.
   */
  @Test
  void theReportCountsCostsNotKnownAndWithoutMarksIsAsBefore(@TempDir Path runs) throws Exception {
    Path ns = Fixtures.judgedPair(runs, 2);
    Path plainOut = runs.resolve("plain");
    assertEquals(0, Fixtures.report("--namespaces=" + ns, "--output=" + plainOut).exit());

    markUnknown(ns, "ledger-1", "agg", 1, true, List.of("base1"), List.of("inv1"));
    markUnknown(ns, "ledger-2", "seq", 2, false, List.of("c1", "c2"), List.of("inv1", "dom1"));
    Path markedOut = runs.resolve("marked");
    Fixtures.Run run = Fixtures.report("--namespaces=" + ns, "--output=" + markedOut);
    assertEquals(0, run.exit(), run.err());
    String text = Files.readString(markedOut.resolve("report.txt"));
    String improver = "  improver (editors, composer, selection, reflection) spend across reported modes: $7.00";
    String executor = "  executor (rollouts) spend across reported modes: $3.00";
    String improverUnknown = ", and 4 stage(s) or selection(s) whose cost is not known (not counted, not zero)";
    String executorUnknown = ", and 3 rollout(s) whose cost is not known (not counted, not zero)";
    assertTrue(text.contains("\n" + improver + improverUnknown + "\n" + executor + executorUnknown + "\n"), text);
    String html = Files.readString(markedOut.resolve("report.html"));
    assertTrue(html.contains("<td>$3.50 + 2 not known</td><td>$1.50 + 1 not known</td></tr>"), html);
    assertTrue(html.contains("<td>$3.50 + 2 not known</td><td>$1.50 + 2 not known</td></tr>"), html);
    assertTrue(html.contains("improver $3.50 (+ 2 not known) + executor $1.50 (+ 1 not known)"), html);

    String plain = Files.readString(plainOut.resolve("report.txt"));
    assertTrue(plain.contains("\n" + improver + "\n" + executor + "\n"), plain);
    // each mode's vector counts its own costs not known beside its amounts
    assertTrue(text.contains("  parallel k=2: score 100.00% (2 graded, 0 ungraded) | improver $3.50 (+2 not known)"
        + " | executor $1.50 (+1 not known) |"), text);
    assertEquals(text.replace(improverUnknown, "").replace(executorUnknown, "").replaceAll(" \\(\\+\\d+ not known\\)",
        ""), plain, "the marks change the spend lines and the vectors' amounts only");
    String plainHtml = Files.readString(plainOut.resolve("report.html"));
    assertFalse(plainHtml.contains("not known"), plainHtml);
    assertTrue(plainHtml.contains("<td>$3.50</td><td>$1.50</td></tr>"), plainHtml);
  }
}
