package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dogAL F1, F6: numbers no judge or sweep writes (a count beyond a double, a usd of "NaN", more criteria passed than
 * there are, token counts past a long) make the file they are in unreadable, named with what is wrong; the report
 * goes on without it, never with a stack trace and never with a score above 100%.
 */
class OddNumbersReportTest {
  /** The report of the three demo replicates once {@code file} of seed 1 had {@code from} replaced by {@code to}. */
  static Fixtures.Run edited(Path runs, String file, String from, String to) throws Exception {
    ReportCommandTest.replicates(runs);
    Path f = runs.resolve("demo-oc-agg2-s1").resolve(file);
    String text = Files.readString(f);
    assertTrue(text.contains(from), text);
    Files.writeString(f, text.replaceFirst(java.util.regex.Pattern.quote(from), to));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.out() + run.err());
    assertFalse(run.err().contains("\tat ") || run.out().contains("\tat "), run.err());
    return run;
  }

  @Test
  void aCountBeyondADoubleMakesJudgedJsonUnreadable(@TempDir Path runs) throws Exception {
    Fixtures.Run run = edited(runs, "judged.json", "\"n_passed\": 2", "\"n_passed\": 1e400");
    assertTrue(run.out().contains("n_passed must be a finite number from 0 up, found Infinity"), run.out());
  }

  @Test
  void moreCriteriaPassedThanThereAreMakesJudgedJsonUnreadable(@TempDir Path runs) throws Exception {
    Fixtures.Run run = edited(runs, "judged.json", "\"n_passed\": 2", "\"n_passed\": 9");
    assertTrue(run.out().contains("n_passed 9 is more than n_criteria 2"), run.out());
    // the replicate at 275% and the cell at 158.33% the file gave before
    assertFalse(run.out().contains("275.00%") || run.out().contains("158.33%"), run.out());
  }

  /** dogAM: a sum of weights one rounding step above its total is every criterion passed, not a file to refuse. */
  @Test
  void aSumOfWeightsARoundingStepAboveItsTotalIsRead(@TempDir Path runs) throws Exception {
    Fixtures.Run run = edited(runs, "judged.json", "\"n_passed\": 2", "\"n_passed\": 2.0000000000000004");
    assertFalse(run.out().contains("is more than n_criteria"), run.out());
    assertFalse(run.out().contains("skipping unreadable"), run.out());
  }

  @Test
  void aUsdOfNanMakesTheSummaryUnreadable(@TempDir Path runs) throws Exception {
    Fixtures.Run run = edited(runs, "ledger-1/summary.json", "\"usd\": 0.5", "\"usd\": \"NaN\"");
    assertTrue(run.out().contains("ledger-1/summary.json: modes.agg.stages[0].usd must be a number, found \"NaN\""),
        run.out());
  }

  @Test
  void aMetricBeyondADoubleMakesMetricsJsonUnreadable(@TempDir Path runs) throws Exception {
    ReportCommandTest.replicates(runs);
    for (int seed = 1; seed <= 3; seed++) {
      Fixtures.metrics(runs.resolve("demo-oc-agg2-s" + seed), List.of(
          Fixtures.metricRow("ledger-1", "agg", 2, Map.of("cost", 1.0), Map.of()),
          Fixtures.metricRow("ledger-1", "seq", 2, Map.of("cost", 2.0), Map.of())));
    }
    Path m = runs.resolve("demo-oc-agg2-s1/metrics.json");
    Files.writeString(m, Files.readString(m).replaceFirst("\"cost\": 1.0", "\"cost\": 1e400"));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.out() + run.err());
    assertFalse(run.err().contains("\tat "), run.err());
    assertTrue(run.out().contains("values.cost is Infinity, beyond any value a metric has"), run.out());
  }

  @Test
  @SuppressWarnings("unchecked")
  void tokenCountsPastALongAreNotRecorded(@TempDir Path runs) throws Exception {
    ReportCommandTest.replicates(runs);
    Path s = runs.resolve("demo-oc-agg2-s1/ledger-1/summary.json");
    Map<String, Object> summary = Json.readMap(s);
    Map<String, Object> agg = (Map<String, Object>) ((Map<String, Object>) summary.get("modes")).get("agg");
    ((Map<String, Object>) agg.get("ledger")).put("tokens", Map.of("input", Long.MAX_VALUE, "output", 0));
    ((Map<String, Object>) ((Map<String, Object>) summary.get("selections")).get("agg")).put("tokens",
        Map.of("input", 1, "output", 0));
    Files.writeString(s, Json.pretty(summary));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.out() + run.err());
    assertFalse(run.err().contains("\tat "), run.err());
  }
}
