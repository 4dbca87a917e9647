package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.Tokens;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The HTML page charts each mode's model tokens beside its spend: input and output bars over the mode's reported
 * cells, a count that is only the part counted drawn with a dashed end and said so, and a mode whose summaries record
 * none named as not recorded with no bar, never drawn as 0. A page whose runs count no token has no such chart, as
 * its text has no tokens lines.
 */
class TokensChartTest {
  private static TaskSummary summary(String task, Tokens agg, Tokens seq) {
    return new TaskSummary("/s/" + task, task, Map.of(
        "agg", new TaskSummary.ModeSpend(0, 0.5, 0.0, 0, null, 0, 0, agg),
        "seq", new TaskSummary.ModeSpend(0, 0.5, 0.0, 0, null, 0, 0, seq)));
  }

  private static String chart(String html) {
    int from = html.indexOf("<h2>Model tokens per mode</h2>");
    assertTrue(from >= 0, html);
    return html.substring(from, html.indexOf("</svg>", from));
  }

  @Test
  void eachModesTokensAreBarsAndAPartialCountSaysSo() {
    NamespaceFacts f = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1", "t2"), List.of(
        summary("t1", new Tokens(1000, 20, true), new Tokens(100, 10, true)),
        summary("t2", new Tokens(300, 4, true), new Tokens(50, 5, false))));
    String html = ReportTest.build(ReportTest.settings("demo-oc-agg2"), f).html();
    String chart = chart(html);
    assertTrue(chart.contains("aria-label=\"model tokens per mode\""), chart);
    assertTrue(chart.contains(">1300 in + 24 out</text>"), chart);
    assertTrue(chart.contains(">150 in + 15 out</text>"), chart);
    assertTrue(chart.contains(">(1 task(s) not all counted: the part counted)</text>"), chart);
    assertTrue(chart.contains("stroke-dasharray=\"4 3\""), "the partial count ends dashed: " + chart);
    assertTrue(chart.contains("dashed end = more was spent than counted"), chart);
    // the largest bar is the parallel mode's 1324 tokens: its input and output segments fill the bar's 520 px
    assertTrue(chart.contains("<rect x=\"160.0\" y=\"20\" width=\"510.6\" height=\"22\" fill=\"#1f6fb4\"/>"), chart);
    assertEquals(html, ReportTest.build(ReportTest.settings("demo-oc-agg2"), f).html(), "byte-identical");
  }

  /** A mode whose every task records no tokens (harness2's files, h2beam's before it counted) gets words, no bar. */
  @Test
  void aModeWhoseSummariesRecordNoTokensIsNamedNotRecordedNeverZero() {
    NamespaceFacts f = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1", "t2"), List.of(
        summary("t1", new Tokens(1000, 20, true), null), summary("t2", new Tokens(300, 4, true), null)));
    String chart = chart(ReportTest.build(ReportTest.settings("demo-oc-agg2"), f).html());
    assertTrue(chart.contains(">not recorded</text>"), chart);
    assertTrue(chart.contains(">(2 task(s): not counted, not zero)</text>"), chart);
    assertFalse(chart.contains("height=\"22\" fill=\"#c8302b\""), "no sequential bar: " + chart);
    assertFalse(chart.contains("0 in + 0 out"), chart);
  }

  /** The dead bases charged to each mode (as its ledger holds shared bases) are a part of its bar, said under it. */
  @Test
  void theDeadBasesChargedToEachModeArePartOfItsBar() {
    TaskSummary dead = new TaskSummary("/s/t3", "t3", Map.of(), Map.of(), new TaskSummary.DeadBases(0.25, 1,
        new TaskSummary.TokenCount(40, 2, 0, 1)));
    NamespaceFacts f = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1"), List.of(
        summary("t1", new Tokens(1000, 20, true), new Tokens(100, 10, true)), dead));
    String chart = chart(ReportTest.build(ReportTest.settings("demo-oc-agg2"), f).html());
    String said = ">+ dead bases of 1 task(s): 40 in + 2 out (+ 1 rollout(s) not recorded) (the lightest part)</text>";
    assertEquals(2, chart.split(java.util.regex.Pattern.quote(said), -1).length - 1, chart);
    assertTrue(chart.contains("fill=\"#c8302b\" fill-opacity=\"0.15\"/>"), "the sequential bar's dead part: " + chart);
  }

  @Test
  void aPageWhoseRunsCountNoTokenHasNoTokensChart() {
    NamespaceFacts f = ReportTest.facts("demo-oc-agg2", ReportTest.both(2, "t1"), List.of(
        ReportTest.spend("t1", 0.5, 0, 0.25)));
    assertFalse(ReportTest.build(ReportTest.settings("demo-oc-agg2"), f).html().contains("model tokens"));
  }
}
