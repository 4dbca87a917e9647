package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** replicate-mean/v1: one value per seed, the spread as a standard error, unknown (never 0) with one replicate. */
class ReplicatesTest {
  static final Path RUNS = Path.of("/runs");

  /** A replicate whose parallel rows score {@code passed[i]} of 4 on task i. */
  static List<Scored> rows(int... passed) {
    List<Scored> out = new ArrayList<>();
    for (int i = 0; i < passed.length; i++) out.add(scored("t" + i, "agg", 2, "agg1", passed[i], 4, passed[i] == 4));
    return out;
  }

  @Test
  void eachReplicateIsSummarisedAndTheirSpreadIsAStandardError() {
    Map<NamespaceRef, List<Scored>> reps = new LinkedHashMap<>();
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s1"), rows(4, 4));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s2"), rows(2, 2));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s3"), rows(4, 2));
    Replicates.Cell c = Replicates.summarise(reps).get(0);
    assertEquals(List.of(100.0, 50.0, 75.0), c.replicates().stream().map(Replicates.Replicate::score).toList());
    assertEquals(3, c.valued());
    assertEquals(75.0, c.meanScore());
    assertEquals(14.43, c.scoreSe(), 0.005);
    String text = String.join("\n", Replicates.lines(List.of(c), true));
    assertTrue(text.contains("  parallel k=2 seed=2 (demo-oc-agg2-s2): n=  2 | ungraded 0 | score  50.00% | pass "
        + "  0.0%"), text);
    assertTrue(text.contains("  parallel k=2: 3 replicates with a graded task | mean score  75.00% (se 14.43 pt)"),
        text);
  }

  /** Under aggregate disclosure a withheld mean says how many of its replicates are a single task. */
  @Test
  void aWithheldMeanSaysHowManyOfItsReplicatesAreASingleTask() {
    Map<NamespaceRef, List<Scored>> reps = new LinkedHashMap<>();
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s1"), rows(4, 4));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s2"), rows(2));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s3"), rows(4, 2));
    String text = String.join("\n", Replicates.lines(Replicates.summarise(reps), true));
    assertTrue(text.contains("  parallel k=2: 3 replicates with a graded task | mean withheld (one of 3 replicates is"
        + " a single task)"), text);
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s1"), rows(4));
    text = String.join("\n", Replicates.lines(Replicates.summarise(reps), true));
    assertTrue(text.contains("mean withheld (2 of 3 replicates are single tasks)"), text);
  }

  /**
   * dogQ #3: each replicate's score was rounded to 2 places before the mean was taken, so four replicates of six tasks
   * each (17, 8, 14 and 14 of 24 checks) printed a mean of 55.20% beside a pooled 55.21% over the same rows. Each
   * figure is rounded once, where it is shown.
   */
  @Test
  void theMeanIsTakenOverUnroundedReplicatesSoItMatchesThePooledMean() {
    Map<NamespaceRef, List<Scored>> reps = new LinkedHashMap<>();
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s1"), rows(4, 4, 3, 2, 2, 2));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s2"), rows(4, 1, 1, 1, 1, 0));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s3"), rows(4, 4, 2, 2, 1, 1));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s4"), rows(3, 3, 2, 2, 2, 2));
    Replicates.Cell c = Replicates.summarise(reps).get(0);
    assertEquals(100.0 * 53 / 96, c.meanScore(), 1e-9);
    String text = String.join("\n", Replicates.lines(List.of(c), false));
    assertTrue(text.contains("mean score  55.21% (se "), text);
    assertTrue(text.contains("seed=1 (demo-oc-agg2-s1): n=  6 | ungraded 0 | score  70.83%"), text);
  }

  @Test
  void oneReplicateHasUnknownUncertaintyNeverZero() {
    Map<NamespaceRef, List<Scored>> reps = new LinkedHashMap<>();
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2"), rows(4, 2));
    Replicates.Cell c = Replicates.summarise(reps).get(0);
    assertNull(c.scoreSe());
    assertNull(c.passSe());
    String text = String.join("\n", Replicates.lines(List.of(c), true));
    assertTrue(text.contains("mean score  75.00% (se unknown: one replicate)"), text);
    assertTrue(!text.contains("se 0.00"), text);
  }

  @Test
  void replicateWithoutAGradedTaskIsShownAndLeftOutOfTheMean() {
    Map<NamespaceRef, List<Scored>> reps = new LinkedHashMap<>();
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s1"), rows(4, 4));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s2"), List.of(Fixtures.absent("t0", "agg", 2, "judge-failed")));
    Replicates.Cell c = Replicates.summarise(reps).get(0);
    assertEquals(1, c.valued());
    assertEquals(100.0, c.meanScore());
    assertNull(c.scoreSe());
    assertTrue(String.join("\n", Replicates.lines(List.of(c), true))
        .contains("  parallel k=2 seed=2 (demo-oc-agg2-s2): n=  0 | ungraded 1 | no graded task"));
  }

  @Test
  void aggregateDisclosureWithholdsEveryReplicateFigureOfACellWithASingleTaskReplicate() {
    Map<NamespaceRef, List<Scored>> reps = new LinkedHashMap<>();
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s1"), rows(4, 4));
    reps.put(Fixtures.ref(RUNS, "demo-oc-agg2-s2"), rows(1));
    List<Replicates.Cell> cells = Replicates.summarise(reps);
    String aggregate = String.join("\n", Replicates.lines(cells, true));
    assertTrue(aggregate.contains("seed=2 (demo-oc-agg2-s2): n=  1 | ungraded 0 | score withheld | pass withheld"),
        aggregate);
    assertTrue(aggregate.contains("seed=1 (demo-oc-agg2-s1): n=  2 | ungraded 0 | score withheld | pass withheld"),
        "with the pooled line, the other replicate would give the single task away: " + aggregate);
    assertTrue(aggregate.contains("mean withheld"), aggregate);
    String perTask = String.join("\n", Replicates.lines(cells, false));
    assertTrue(perTask.contains("seed=2 (demo-oc-agg2-s2): n=  1 | ungraded 0 | score  25.00%"), perTask);
  }
}
