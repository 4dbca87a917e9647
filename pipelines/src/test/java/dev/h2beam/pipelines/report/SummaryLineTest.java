package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.absent;
import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-(mode, k) line of spec §13.2 and the figures of §2.13. */
class SummaryLineTest {

  static Summary one(List<Scored> rows) {
    return Summary.summarise(rows, Map.of(), Map.of()).get(0);
  }

  @Test
  void lineWithNoGradedTaskSaysSo() {
    Summary s = new Summary(new ModeK("agg", 2), 0, 0, null, null, 0, 0, 0, 0, 0.0, List.of());
    assertEquals("  parallel k=2: no graded task", s.line("jb", false));
  }

  @Test
  void lineWithNoGradedTaskStillShowsItsUngradedCount() {
    Summary s = one(List.of(absent("t1", "seq", 3, "judge-failed"), absent("t2", "seq", 3, "run-missing")));
    assertEquals("  sequential k=3: no graded task | ungraded 2", s.line("jb", false));
  }

  @Test
  void gradedLineRightAlignsNAndPrintsTheScoreWithTwoDecimals() {
    Summary s = one(List.of(scored("t1", "agg", 2, "agg1", 1, 1, true), scored("t2", "agg", 2, "agg2", 1, 1, true),
        scored("t3", "agg", 2, "agg1", 0, 1, false)));
    assertEquals("  parallel k=2: n=  3 | score  66.67% | picked output: final 3 / candidate 0 / base 0",
        s.line("jb", false));
  }

  @Test
  void labLineReportsPartialCreditAndAllCriteriaPass() {
    Summary s = one(List.of(scored("t1", "agg", 1, "agg1", 3, 4, false), scored("t2", "agg", 1, "agg1", 2, 2, true)));
    assertEquals("  parallel k=1: n=  2 | partial  87.50% | pass  50.0% | picked output: final 2 / candidate 0 /"
        + " base 0", s.line("lab", false));
  }

  @Test
  void fellBackAndUngradedSegmentsAppearWhenNonZero() {
    Summary s = Summary.summarise(List.of(scored("t1", "seq", 2, "c1", 1, 2, false),
        absent("t2", "seq", 2, "selection-failed")), Map.of(new ModeK("seq", 2), 3), Map.of()).get(0);
    assertEquals("  sequential k=2: n=  1 | score  50.00% | picked output: final 1 / candidate 0 / base 0 | fell back"
        + " 3 | ungraded 1", s.line("jb", false));
  }

  /**
   * A gated task whose gate rejected every candidate delivers a shared base rollout as its final: one final, not
   * also a base, so final, candidate and base add up to n; the line says how many finals were the base.
   */
  @Test
  void aBaseTheGateKeptIsAFinalCountedOnce() {
    Map<String, List<String>> finals = Map.of("t1", List.of("base2"), "t2", List.of("g3", "r1"), "t3", List.of("g3"));
    List<Scored> rows = List.of(scored("t1", "gat", 2, "base2", 1, 1, true), scored("t2", "gat", 2, "g3", 1, 1, true),
        scored("t3", "gat", 2, "g1", 1, 1, true));
    Summary s = Summary.summarise(rows, r -> r.pick(finals.get(r.taskId())), Map.of(), Map.of()).get(0);
    assertEquals("  gated k=2: n=  3 | score 100.00% | picked output: final 2 (1 the base, which the gate kept) /"
        + " candidate 1 / base 0", s.line("jb", false));
  }

  @Test
  void pickedOutputCountsFinalsCandidatesAndReferenceOutputs() {
    Summary s = one(List.of(scored("t1", "seq", 2, "c2", 1, 1, true), scored("t2", "seq", 2, "c3", 1, 1, true),
        scored("t3", "seq", 2, "inv1", 1, 1, true), scored("t4", "seq", 2, "base1", 1, 1, true)));
    assertEquals(1, s.choseFinal());
    assertEquals(2, s.choseCandidate());
    assertEquals(1, s.keptBase());
  }

  @Test
  void ungradedRowsAreNeverCountedAsZeros() {
    Summary s = one(List.of(scored("t1", "agg", 2, "agg1", 1, 1, true), absent("t2", "agg", 2, "judge-timeout")));
    assertEquals(1, s.n());
    assertEquals(1, s.nUngraded());
    assertEquals(100.0, s.score());
    assertEquals(100.0, s.allPass());
  }

  @Test
  void noGradedRowMeansNoScoreNotZero() {
    Summary s = one(List.of(absent("t1", "agg", 2, "judge-failed")));
    assertNull(s.score());
    assertNull(s.allPass());
  }

  @Test
  void withheldLineReplacesTheFiguresOnly() {
    Summary s = one(List.of(scored("t1", "agg", 2, "agg1", 1, 1, true)));
    assertEquals("  parallel k=2: n=  1 | score withheld | picked output: final 1 / candidate 0 / base 0",
        s.line("jb", true));
  }

  @Test
  void numbersRoundAndFormatAsPythonDoes() {
    assertEquals(" 12.2", PyFormat.fixed(12.25, 5, 1));
    assertEquals("2.67", PyFormat.fixed(2.675, 0, 2));
    assertEquals(0.12, PyFormat.round(0.125, 2));
    assertEquals("-0.00", PyFormat.fixed(-0.001, 0, 2));
    assertEquals(66.67, PyFormat.round(100 * PyFormat.mean(List.of(1.0, 1.0, 0.0)), 2));
  }

  @Test
  void mixedScoringUnitsAreCollectedSorted() {
    Scored a = new Scored("t1", "agg", 1, "agg1", "", false, 1.0, 2.0, false, "points", "", "");
    Scored b = new Scored("t2", "agg", 1, "agg1", "", false, 1.0, 2.0, false, "criteria", "", "");
    assertEquals(List.of("criteria", "points"), one(List.of(a, b)).metrics());
  }
}
