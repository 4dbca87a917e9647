package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The judge model's spend for a run's rows: what the grades report, summed (every repeat's); a grade the judge failed
 * or timed out on cost what is not known, its row counted apart and never as zero; a row the judge was never called
 * for costs nothing.
 */
class JudgeSpendTest {
  private static JudgedRow graded(Map<String, Object> raw) {
    return new JudgedRow("ns", "t", "agg", 1, "c1", "r", false, 1, 1, true, raw, "", null);
  }

  private static JudgedRow absent(Absence a) {
    return JudgedRow.absent("ns", "t", "agg", 1, "c1", "r", false, a, "why");
  }

  @Test
  void gradesAreSummedAndFailedOnesCountedApart() {
    Map<String, Object> m = NamespaceWrite.judgeSpend(List.of(graded(Map.of("judge_cost_usd", 0.25)),
        graded(Map.of("judge_cost_usd", 0.125)), graded(Map.of("no_output", true)), absent(Absence.JUDGE_FAILED),
        absent(Absence.JUDGE_TIMEOUT), absent(Absence.SELECTION_FAILED)));
    assertEquals(0.375, (double) m.get("judge_usd"), 1e-12);
    assertEquals(2L, m.get("judge_usd_rows"));
    assertEquals(2L, m.get("judge_usd_unknown_rows"), "no selection, no deliverable: the judge was never called");
    // a grade with a call unanswered (or answered without its tokens) has a null cost: unknown, not $0
    Map<String, Object> unpriced = new java.util.HashMap<>();
    unpriced.put("judge_cost_usd", null);
    Map<String, Object> u = NamespaceWrite.judgeSpend(List.of(graded(unpriced), graded(Map.of("judge_cost_usd", 0.5))));
    assertEquals(0.5, (double) u.get("judge_usd"), 1e-12);
    assertEquals(1L, u.get("judge_usd_rows"));
    assertEquals(1L, u.get("judge_usd_unknown_rows"));
    assertEquals("the judge model this run: $0.3750 for 2 row(s); 2 row(s) had calls whose cost is not known here"
        + " (not counted, not zero)", JudgeCommand.judgeSpend(m));
    assertEquals("the judge model this run: $0.0000 for 0 row(s)",
        JudgeCommand.judgeSpend(NamespaceWrite.judgeSpend(List.of())));
  }

  @Test
  void everyRepeatOfARowCounts() {
    JudgedRow repeated = graded(Map.of("repeats", 3, "repeat_raw", List.of(Map.of("judge_cost_usd", 0.5),
        Map.of("error", "no answer", "absence", Absence.JUDGE_FAILED.code), Map.of("judge_cost_usd", 0.25))));
    Map<String, Object> m = NamespaceWrite.judgeSpend(List.of(repeated));
    assertEquals(0.75, (double) m.get("judge_usd"), 1e-12);
    assertEquals(1L, m.get("judge_usd_rows"));
    assertEquals(1L, m.get("judge_usd_unknown_rows"), "its failed repeat's cost is not known");
  }
}
