package dev.h2beam.pipelines.report;

import static dev.h2beam.pipelines.report.Fixtures.scored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.files.JsonParts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** aggregate withholds per-task scores and successful-tasks slices (restricted file); per-task releases them. */
class DisclosureTest {
  static final Path RUNS = Path.of("/runs");
  static final RunIdentity ID = new RunIdentity("c", "demo/oc", "opencode:m", "judge-1", null);

  static Report.Result build(Disclosure d, List<Scored> rows) {
    NamespaceRef ns = Fixtures.ref(RUNS, "demo-oc-agg2-s1");
    ReportSettings s = new ReportSettings(List.of(ns), List.of(), List.of("agg", "seq"), "demo", d, 5.0, "/out");
    return Report.build(s, List.of(new NamespaceFacts(ns.dir(), true, rows, List.of(), ID)), List.of());
  }

  static List<Scored> rows() {
    List<Scored> rows = new ArrayList<>();
    rows.add(scored("alpha-task", "agg", 2, "agg1", 3, 4, false));
    rows.add(scored("beta-task", "agg", 2, "agg2", 4, 4, true));
    rows.add(scored("alpha-task", "seq", 2, "c1", 1, 4, false));
    rows.add(scored("beta-task", "seq", 2, "c2", 2, 4, false));
    return rows;
  }

  @Test
  void aggregateWithholdsPerTaskScoresAndSuccessfulTasksSlicesFromTheTextAndTheHtml() {
    Report.Result r = build(Disclosure.AGGREGATE, rows());
    for (String released : List.of(r.text(), r.html())) {
      assertFalse(released.contains("alpha-task"), released);
      assertFalse(released.contains("beta-task"), released);
      assertFalse(released.contains("Per-task scores"), released);
      assertFalse(released.contains("Successful-tasks slice ("), released);
    }
    assertTrue(r.text().contains("Disclosure: aggregate -- per-task scores, paired differences per task and"
        + " successful-tasks slices are withheld"), r.text());
    assertTrue(r.text().contains("  parallel k=2: n=  2 | score  87.50%"), r.text());
  }

  @Test
  void aggregateWritesPerTaskScoresPairsAndSlicesToTheRestrictedFile() throws Exception {
    Map<String, Object> restricted = Json.readMap(Json.pretty(build(Disclosure.AGGREGATE, rows()).restricted()));
    List<?> perTask = (List<?>) restricted.get("per_task");
    assertEquals(4, perTask.size());
    Map<?, ?> first = (Map<?, ?>) perTask.get(0);
    assertEquals(List.of("namespace", "seed", "task_id", "mode", "k", "label", "run_id", "n_passed", "n_criteria",
        "all_pass", "frac", "graded", "absence"), new ArrayList<>(first.keySet()));
    assertEquals("alpha-task", first.get("task_id"));
    assertEquals(0.75, first.get("frac"));
    assertEquals(2, ((List<?>) restricted.get("paired_differences")).size());
    List<?> slices = (List<?>) restricted.get("successful_tasks");
    assertEquals(List.of("beta-task"), ((Map<?, ?>) slices.get(0)).get("tasks_meeting_every_criterion"));
    // an ungraded row's all_pass is unknown, not false
    List<Scored> withAbsence = new ArrayList<>(rows());
    withAbsence.add(Fixtures.absent("gamma-task", "agg", 2, "judge-failed"));
    Map<String, Object> read = Json.readMap(Json.pretty(build(Disclosure.AGGREGATE, withAbsence).restricted()));
    Map<?, ?> gamma = ((List<?>) read.get("per_task")).stream().map(r -> (Map<?, ?>) r)
        .filter(r -> "gamma-task".equals(r.get("task_id"))).findFirst().orElseThrow();
    assertEquals(false, gamma.get("graded"));
    assertTrue(gamma.containsKey("all_pass") && gamma.get("all_pass") == null, gamma.toString());
  }

  /**
   * The restricted file's long arrays are written from parts made on several threads, a namespace each, more of them
   * than are made ahead at once, some without a metric row (no part): the file is the one a single writer gives for
   * what it holds (read back and written again, the same bytes), its rows in namespace order, and writing it again
   * gives the same bytes.
   */
  @Test
  void theRestrictedFilesRowsAreWrittenFromPartsAsOneWriterWouldWriteThem() throws Exception {
    List<NamespaceRef> refs = new ArrayList<>();
    List<NamespaceFacts> facts = new ArrayList<>();
    int namespaces = JsonParts.AHEAD + 5;
    for (int seed = 1; seed <= namespaces; seed++) {
      NamespaceRef ns = Fixtures.ref(RUNS, "demo-oc-agg2-s" + seed);
      refs.add(ns);
      List<MetricRow> metrics = new ArrayList<>();
      if (seed % 3 != 1) {
        for (Scored r : rows()) {
          metrics.add(new MetricRow(r.taskId(), r.mode(), r.k(), Map.of("cost_usd", 0.25 * seed, "steps", 3.0),
              Map.of("tokens", "not-reported")));
        }
      }
      facts.add(new NamespaceFacts(ns.dir(), true, rows(), List.of(), ID, seed % 3 != 1, metrics));
    }
    ReportSettings s = new ReportSettings(refs, List.of(), List.of("agg", "seq"), "demo", Disclosure.AGGREGATE, 5.0,
        "/out");
    Map<String, Object> restricted = Report.build(s, facts, List.of()).restricted();
    for (String key : List.of("per_task", "per_task_metrics")) {
      assertInstanceOf(JsonParts.class, restricted.get(key), key);
    }
    String written = Json.pretty(restricted);
    assertEquals(written, Json.pretty(restricted), "each writing makes the parts anew");
    Map<String, Object> read = Json.readMap(written);
    assertEquals(written, Json.pretty(read));
    List<String> expected = new ArrayList<>();
    for (NamespaceRef ns : refs) for (int i = 0; i < rows().size(); i++) expected.add(ns.name());
    assertEquals(expected, ((List<?>) read.get("per_task")).stream().map(r -> ((Map<?, ?>) r).get("namespace"))
        .toList());
    List<String> withMetrics = new ArrayList<>(expected);
    withMetrics.removeIf(name -> Integer.parseInt(name.substring(name.lastIndexOf('s') + 1)) % 3 == 1);
    assertEquals(withMetrics, ((List<?>) read.get("per_task_metrics")).stream()
        .map(r -> ((Map<?, ?>) r).get("namespace")).toList());
    assertEquals(Map.of("cost_usd", 0.5, "steps", 3.0), ((Map<?, ?>) ((List<?>) read.get("per_task_metrics")).get(0))
        .get("values"));
  }

  @Test
  void perTaskReleasesScoresPairedDifferencesAndSlicesAndHasNoRestrictedFile() {
    Report.Result r = build(Disclosure.PER_TASK, rows());
    assertNull(r.restricted());
    assertTrue(r.text().contains("Per-task scores (released by --disclosure=per-task)\n  parallel k=2 seed=1"
        + " alpha-task: agg1 | 3/4 |  75.00%"), r.text());
    assertTrue(r.text().contains("  parallel k=2 seed=1 beta-task: agg2 | 4/4 | 100.00% | every criterion met"),
        r.text());
    assertTrue(r.text().contains("Paired differences per task and seed (parallel - sequential, points)\n  k=2 seed=1"
        + " alpha-task: score +50.00 | pass +0.00"), r.text());
    assertTrue(r.text().contains("Successful-tasks slice (graded tasks whose selected output met every criterion)\n"
        + "  parallel k=2 seed=1: 1 of 2 graded: beta-task\n  sequential k=2 seed=1: 0 of 2 graded"), r.text());
    assertTrue(r.html().contains("alpha-task"), "the HTML carries the released text");
  }

  @Test
  void aggregateWithholdsAFigureOverASingleGradedTask() {
    List<Scored> one = List.of(scored("alpha-task", "agg", 1, "agg1", 3, 4, false),
        scored("alpha-task", "seq", 1, "c1", 4, 4, true));
    Report.Result r = build(Disclosure.AGGREGATE, one);
    assertTrue(r.text().contains("  parallel k=1: n=  1 | score withheld | picked output"), r.text());
    assertTrue(r.text().contains("The gap between them is withheld"), r.text());
    assertTrue(r.text().contains("mean paired difference withheld (a replicate has a single task pair)"), r.text());
    assertTrue(r.text().contains("A figure over a single graded task is that task's score: it is withheld"),
        r.text());
    assertFalse(r.text().contains("75.00"), r.text());
    assertFalse(r.html().contains("75.00"), r.html());
  }

  @Test
  void perTaskReleasesAFigureOverASingleGradedTask() {
    List<Scored> one = List.of(scored("alpha-task", "agg", 1, "agg1", 3, 4, false),
        scored("alpha-task", "seq", 1, "c1", 4, 4, true));
    Report.Result r = build(Disclosure.PER_TASK, one);
    assertTrue(r.text().contains("  parallel k=1: n=  1 | score  75.00% | picked output"), r.text());
    assertTrue(r.text().contains("The 25.00 pt between them is therefore a NOISE FLOOR"), r.text());
  }
}
