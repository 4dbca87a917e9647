package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The judge model's spend for a run's rows: what the graded rows report, summed; a row the judge failed or timed out
 * on cost what is not known, counted apart and never as zero; a row the judge was never called for costs nothing.
 */
class JudgeSpendTest {
  private static JudgedRow graded(double usd) {
    return new JudgedRow("ns", "t", "agg", 1, "c1", "r", false, 1, 1, true, Map.of("judge_cost_usd", usd), "", null);
  }

  private static JudgedRow absent(Absence a) {
    return JudgedRow.absent("ns", "t", "agg", 1, "c1", "r", false, a, "why");
  }

  @Test
  void gradedRowsAreSummedAndFailedOnesCountedApart() {
    Map<String, Object> m = NamespaceWrite.judgeSpend(List.of(graded(0.25), graded(0.125),
        absent(Absence.JUDGE_FAILED), absent(Absence.JUDGE_TIMEOUT), absent(Absence.SELECTION_FAILED)));
    assertEquals(0.375, (double) m.get("judge_usd"), 1e-12);
    assertEquals(2L, m.get("judge_usd_rows"));
    assertEquals(2L, m.get("judge_usd_unknown_rows"), "the selection that failed never called the judge");
    assertEquals("the judge model this run: $0.3750 over 2 graded row(s); the calls for 2 row(s) it failed on cost"
        + " an amount not known here (not counted, not zero)", JudgeCommand.judgeSpend(m));
    assertEquals("the judge model this run: $0.0000 over 0 graded row(s)",
        JudgeCommand.judgeSpend(NamespaceWrite.judgeSpend(List.of())));
  }
}
