package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounds follow the sweep's schedule: one base phase, then each chain's tasks one after another. */
class SweepBoundsTest {
  private static final List<String> BOTH = List.of("agg", "seq");

  @Test
  void theIssueWorkloadAtFiftyMillisecondsMatchesHarness2sBoundWhenThePhaseIsWideEnough() {
    // 8 x 5, k = 3, both modes, L = 50 ms: harness2's 3.75 s is 5 tasks x (1 base step + 4k + 2 steps) x L
    SweepBounds wide = new SweepBounds(40, 5, 3, BOTH, 6, 2, 2, 50, 50);
    assertEquals("seq", wide.longestMode());
    assertEquals(3750, wide.harness2FormMs(), 1e-9);
    assertEquals(50 + 5 * 700, wide.criticalPathMs(), 1e-9, "the bases of every task share one phase");
    assertEquals(2 * 100 + 100, wide.modeMs("agg"), 1e-9, "agg: proposals, compositions, each rolled; 2 sessions");
  }

  @Test
  void aPhaseWidthOfTwoSplitsTheBasesAndTheParallelModesPhases() {
    SweepBounds w2 = new SweepBounds(40, 5, 3, BOTH, 2, 2, 2, 50, 50);
    assertEquals(100, w2.baseMs(), 1e-9, "3 bases, 2 at a time: 2 steps");
    assertEquals((3 + 2) * 100 + 100, w2.modeMs("agg"), 1e-9, "6 proposals in 3 steps, 3 compositions in 2");
    assertEquals(3 * (1 + 1) * 100 + 100, w2.modeMs("seq"), 1e-9, "INV and DOM side by side, then the composition");
    assertEquals(100 + 5 * 700, w2.criticalPathMs(), 1e-9);
    assertEquals(5 * (100 + 700), w2.harness2FormMs(), 1e-9);
  }

  @Test
  void theLimitBoundsCountEverySessionAndRolloutOfTheSweep() {
    SweepBounds b = new SweepBounds(40, 5, 3, BOTH, 2, 2, 16, 500, 500);
    assertEquals(40 * 2 * (9 + 2), b.sessions());
    assertEquals(220_000, b.sessionLimitMs(), 1e-9, "harness2's 220 s limit bound at 2 sessions");
    assertEquals(40 * (3 + 9 * 2), b.rollouts());
    assertEquals(840 * 500 / 16.0, b.rolloutLimitMs(), 1e-9);
    assertEquals(220_000, b.maxMs(), 1e-9);
  }

  @Test
  void atKOneThereIsNoSelectionSession() {
    SweepBounds b = new SweepBounds(4, 2, 1, List.of("seq"), 2, 2, 2, 10, 20);
    assertEquals(4 * 1 * (3 + 1), b.sessions());
    assertEquals((1 + 1) * 30 + 20, b.modeMs("seq"), 1e-9);
    assertEquals(10 + 2 * 80, b.criticalPathMs(), 1e-9);
  }

  @Test
  void executorAndSessionLatenciesCountOnTheirOwnSteps() {
    SweepBounds b = new SweepBounds(1, 1, 2, List.of("agg"), 4, 1, 1, 100, 1);
    assertEquals(1 * 100, b.baseMs(), 1e-9);
    assertEquals((1 + 1) * 101 + 2, b.modeMs("agg"), 1e-9);
    assertEquals((2 + 3 * 2) * 100, b.rolloutLimitMs(), 1e-9, "k bases and 3k per mode, one at a time");
  }

  @Test
  void nonsenseIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new SweepBounds(0, 1, 1, BOTH, 1, 1, 1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new SweepBounds(1, 1, 1, BOTH, 1, 1, 1, -1, 0));
  }
}
