package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The title, line order, NOTE and WARNINGs of spec §13.2, each at and just past its threshold. */
class RenderNotesTest {

  static String render(List<Scored> rows, Map<ModeK, Integer> fellBack) {
    return String.join("\n", Render.block(Summary.summarise(rows, fellBack, Map.of()), "", "jb", s -> false));
  }

  static String render(List<Scored> rows) {
    return render(rows, Map.of());
  }

  /** {@code n} graded rows of a mode at k, the first {@code finals} picking a final, the rest a candidate. */
  static List<Scored> picks(String mode, int k, int n, int finals, int bases) {
    List<Scored> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String label = i < bases ? "base1" : i < bases + finals ? (mode.equals("agg") ? "agg1" : "c1") : "inv1";
      rows.add(scored("t" + i, mode, k, label, 1, 1, true));
    }
    return rows;
  }

  @Test
  void titleIsFollowedByARuleOfAtLeastFortyCharacters() {
    List<String> lines = Render.block(List.of(), "demo-oc modes=parallel", "demo", s -> false);
    assertEquals(List.of("demo-oc modes=parallel", "=".repeat(40)), lines);
    String longTitle = "x".repeat(55);
    assertEquals("=".repeat(55), Render.block(List.of(), longTitle, "demo", s -> false).get(1));
  }

  @Test
  void linesAreSortedByKThenMode() {
    String text = render(List.of(scored("a", "seq", 1, "c1", 1, 1, true), scored("a", "agg", 2, "agg1", 1, 1, true),
        scored("a", "agg", 1, "agg1", 1, 1, true), scored("a", "seq", 2, "c1", 1, 1, true)));
    List<String> names = text.lines().filter(l -> l.contains(": n=")).map(l -> l.substring(2, l.indexOf(':')))
        .toList();
    assertEquals(List.of("parallel k=1", "sequential k=1", "parallel k=2", "sequential k=2"), names);
  }

  @Test
  void noiseFloorNoteWhenBothModesHaveAScoreAtK1() {
    String text = render(List.of(scored("a", "agg", 1, "agg1", 1, 1, true), scored("b", "agg", 1, "agg1", 1, 2, false),
        scored("a", "seq", 1, "c1", 1, 1, true), scored("b", "seq", 1, "c1", 1, 1, true)));
    assertTrue(text.contains("\n\n  NOTE  at k=1 the parallel and sequential modes are the same procedure (one"
        + " INVARIANT draw, one DOMAIN draw, one composition).\n        The 25.00 pt between them is therefore a NOISE"
        + " FLOOR, not a result -- an effect at k>=2 has to clear it."), text);
  }

  @Test
  void noNoiseFloorNoteWhenOneModeHasNoGradedTaskAtK1() {
    String text = render(List.of(scored("a", "agg", 1, "agg1", 1, 1, true),
        Fixtures.absent("a", "seq", 1, "judge-failed")));
    assertFalse(text.contains("NOTE"), text);
  }

  @Test
  void noNoiseFloorNoteAtK2() {
    String text = render(List.of(scored("a", "agg", 2, "agg1", 1, 1, true), scored("a", "seq", 2, "c1", 1, 1, true)));
    assertFalse(text.contains("NOTE"), text);
  }

  @Test
  void ownFinalWarningFiresWhenTheFinalIsChosenOnAQuarterOfGradedTasks() {
    String text = render(picks("agg", 2, 8, 2, 0));
    assertTrue(text.contains("\n\n  WARNING  parallel k=2: the mode's own final was chosen on only 2/8 tasks. These"
        + " records include outputs outside the published pool of 2 composed finals."), text);
  }

  @Test
  void ownFinalWarningDoesNotFireJustPastAQuarter() {
    assertFalse(render(picks("agg", 2, 8, 3, 0)).contains("own final"));
  }

  @Test
  void basePickedWarningFiresAtEightyPercentOfGradedTasks() {
    String text = render(picks("seq", 2, 5, 1, 4));
    assertTrue(text.contains("\n\n  WARNING  sequential k=2: selection chose a reference output on 4/5 tasks,"
        + " outside the published pool of composed outputs."), text);
  }

  @Test
  void basePickedWarningDoesNotFireJustBelowEightyPercent() {
    assertFalse(render(picks("seq", 2, 5, 2, 3)).contains("reference output"));
  }

  @Test
  void fallbackWarningFiresFromOneFellBackStage() {
    String text = render(picks("agg", 1, 2, 2, 0), Map.of(new ModeK("agg", 1), 1));
    assertTrue(text.contains("\n\n  WARNING  parallel k=1: 1 stage(s) fell back to the inherited harness. Inspect the"
        + " stage errors when interpreting these results."), text);
  }

  @Test
  void noFallbackWarningWithoutFellBackStages() {
    assertFalse(render(picks("agg", 1, 2, 2, 0), Map.of(new ModeK("agg", 1), 0)).contains("fell back"));
  }

  @Test
  void mixedUnitsWarningFiresWithTwoScoringUnits() {
    Scored a = new Scored("t1", "agg", 1, "agg1", "", false, 1.0, 2.0, false, "weighted_points", "", "");
    Scored b = new Scored("t2", "agg", 1, "agg1", "", false, 1.0, 2.0, false, "criteria_count", "", "");
    String text = render(List.of(a, b));
    assertTrue(text.contains("\n\n  WARNING  parallel k=1: graded rows carry MIXED scoring units (criteria_count,"
        + " weighted_points). The score averages weighted points with unweighted criteria counts (about 20 pt apart"
        + " on JobBench); re-judge the fallback rows before comparing this line with any published number."), text);
  }

  @Test
  void noMixedUnitsWarningWithOneScoringUnit() {
    Scored a = new Scored("t1", "agg", 1, "agg1", "", false, 1.0, 2.0, false, "criteria_count", "", "");
    Scored b = new Scored("t2", "agg", 1, "agg1", "", false, 1.0, 2.0, false, "criteria_count", "", "");
    assertFalse(render(List.of(a, b)).contains("MIXED"));
  }

  @Test
  void improverSpendLineIsPrintedOnlyWhenSomethingWasSpent() {
    assertEquals(List.of(), Render.spend(0, 0));
    assertEquals(List.of("", "  improver (editors, composer, selection, reflection) spend across reported modes:"
        + " $1.25"), Render.spend(1.25, 0));
  }

  @Test
  void executorSpendLineIsAddedWhenAnExecutorReportedACost() {
    assertEquals(List.of("", "  improver (editors, composer, selection, reflection) spend across reported modes:"
        + " $0.50", "  executor (rollouts) spend across reported modes: $2.00"), Render.spend(0.5, 2.0));
  }
}
