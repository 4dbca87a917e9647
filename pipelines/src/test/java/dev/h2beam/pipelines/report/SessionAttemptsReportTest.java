package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each mode's vector line says how many improver session attempts (retries included) its ledgers counted, from their
 * {@code session_attempts}: the part counted when a ledger names sessions whose attempts are not known, and a task
 * whose summary records none is counted apart, never as 0 attempts.
 */
class SessionAttemptsReportTest {
  private static TaskSummary summary(String task, TaskSummary.Attempts agg, TaskSummary.Attempts seq) {
    return new TaskSummary("/s/" + task, task, Map.of(
        "agg", new TaskSummary.ModeSpend(0, 0.5, 0.0, 0, new TaskSummary.Budget(8, 6), 0, 0, null, agg),
        "seq", new TaskSummary.ModeSpend(0, 0.5, 0.0, 0, new TaskSummary.Budget(8, 6), 0, 0, null, seq)));
  }

  /**
   * The ledger's {@code session_attempts} is read as a count when it is a whole number from 0 up; its
   * {@code attempts_unknown} naming a session marks the count as the part counted; a ledger without it, as
   * harness2's files before they had one and h2beam's summaries without a ledger, records none.
   */
  @Test
  void aLedgersSessionAttemptsAreReadAsCountedInPartOrNotRecorded() throws Exception {
    String text = "{\"task_id\": \"t1\", \"k\": 2, \"modes\": {"
        + "\"agg\": {\"ledger\": {\"R\": 8, \"P\": 6, \"session_attempts\": 9}},"
        + " \"seq\": {\"ledger\": {\"R\": 8, \"P\": 6, \"session_attempts\": 5, \"attempts_unknown\": [\"c2\"]}},"
        + " \"gated\": {\"ledger\": {\"R\": 8, \"P\": 6}}}, \"selections\": {}}";
    TaskSummary t = InputFiles.summary("/s/t1/summary.json", text);
    assertEquals(new TaskSummary.Attempts(9, true), t.mode("agg").attempts());
    assertEquals(new TaskSummary.Attempts(5, false), t.mode("seq").attempts());
    assertNull(t.mode("gated").attempts(), "no session_attempts: not recorded, not 0");
  }

  @Test
  void theVectorLineSaysTheSessionAttemptsEachModeCounted() {
    NamespaceFacts f = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1", "t2"), List.of(
        summary("t1", new TaskSummary.Attempts(7, true), new TaskSummary.Attempts(6, true)),
        summary("t2", new TaskSummary.Attempts(9, true), new TaskSummary.Attempts(4, false))));
    String text = ReportTest.build(ReportTest.settings("demo-oc-agg2"), f).text();
    assertTrue(text.contains("16 rollouts and 12 improver sessions counted over 2 task(s) | 16 session attempts"
        + " (retries included) over 2 task(s)\n"), text);
    assertTrue(text.contains("16 rollouts and 12 improver sessions counted over 2 task(s) | 10 session attempts"
        + " (retries included) over 2 task(s); 1 of them not all counted (the part counted, not the whole)\n"), text);
  }

  /**
   * Summaries that record no attempts (harness2's, or an older h2beam's) still give a vector line: the attempts are
   * said to be not recorded, and a task that records none beside tasks that do is counted apart.
   */
  @Test
  void attemptsNotRecordedAreAnAbsenceWithItsReasonNeverZero() {
    NamespaceFacts none = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1", "t2"), List.of(
        ReportTest.spend("t1", 0.5, 0, 0.0), ReportTest.spend("t2", 0.5, 0, 0.0)));
    String text = ReportTest.build(ReportTest.settings("demo-oc-agg2"), none).text();
    assertTrue(text.contains(" | session attempts not recorded (2 task(s): not counted, not zero)\n"), text);
    assertTrue(!text.contains("0 session attempts"), text);

    NamespaceFacts some = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1", "t2"), List.of(
        summary("t1", new TaskSummary.Attempts(7, true), null), ReportTest.spend("t2", 0.5, 0, 0.0)));
    String mixed = ReportTest.build(ReportTest.settings("demo-oc-agg2"), some).text();
    assertTrue(mixed.contains(" | 7 session attempts (retries included) over 1 task(s); 1 task(s) record none (not"
        + " counted, not zero)\n"), mixed);
    assertTrue(mixed.contains(" | session attempts not recorded (2 task(s): not counted, not zero)\n"), mixed);
  }
}
