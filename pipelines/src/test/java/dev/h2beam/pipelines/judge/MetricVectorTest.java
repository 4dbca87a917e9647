package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The metric vector: every metric of every row a value or an absence with its reason, never a zero for unknown. */
class MetricVectorTest {

  /** A task whose parallel selection chose {@code runDir} and cost $0.02 in its selector and reflector sessions. */
  private static Path task(Path ns, String task, String modeJson, String runDir) throws Exception {
    return task(ns, task, modeJson, runDir, ", \"usd\": 0.02");
  }

  /** A task whose parallel selection chose {@code runDir}, with {@code selectionJson} after that in its record. */
  private static Path task(Path ns, String task, String modeJson, String runDir, String selectionJson)
      throws Exception {
    Path dir = Files.createDirectories(ns.resolve(task));
    Files.writeString(dir.resolve("summary.json"), "{\"task_id\": \"" + task + "\", \"modes\": {" + modeJson
        + "}, \"selections\": {\"agg\": {\"chosen_run_dir\": \"" + runDir + "\"" + selectionJson + "}}}");
    return dir;
  }

  /** A spend of {@code runDir} that records no cost: the vector reads only its chosen run. */
  private static MetricVector.Spend runOnly(String runDir) {
    return new MetricVector.Spend(runDir, null, null, null, null, null);
  }

  private static JudgedRow graded(String task, String mode, boolean pass) {
    return new JudgedRow("ns", task, mode, 2, "agg1", "r", false, pass ? 2 : 1, 2, pass, Map.of(), "", null);
  }

  @Test
  void everyMetricIsAValueOrAnAbsenceWithItsReason(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    // t1: graded, a ledger, a marker with tokens and wall time, a trajectory in the shared grammar
    Path run1 = Files.createDirectories(runs.resolve("exec/t1"));
    Runmark.markComplete(run1, "r1", "fp", 1.0, Map.of("input_tokens", 120, "output_tokens", 30, "wall_s", 2.5,
        "cost_usd", 0.01));
    Files.writeString(run1.resolve("trajectory.md"), "[USER] go\n[ASSISTANT] ok\n[ACTION] shell: ls\n"
        + "[OBSERVATION] a\n[ASSISTANT] done\n");
    task(ns, "t1", "\"agg\": {\"ledger\": {\"rollout_usd\": 0.04, \"session_usd\": 0.06, \"session_attempts\": 7,"
        + " \"P\": 6}}", run1.toString());
    // t2: the judge failed; the mode has no ledger (it failed); a marker without token counts
    Path run2 = Files.createDirectories(runs.resolve("exec/t2"));
    Runmark.markComplete(run2, "r2", "fp", 1.0, Map.of());
    task(ns, "t2", "\"agg\": {\"ok\": false}", run2.toString());
    // t3: the selection failed: no chosen run, and nothing spent on it
    task(ns, "t3", "\"agg\": {\"ledger\": {\"rollout_usd\": 0.0, \"session_usd\": 0.0}}", "", ", \"usd\": 0");
    List<JudgedRow> rows = List.of(graded("t1", "agg", false),
        JudgedRow.absent("ns", "t2", "agg", 2, "agg1", "r", false, Absence.JUDGE_FAILED, "boom"),
        JudgedRow.absent("ns", "t3", "agg", 2, "", "", false, Absence.SELECTION_FAILED, "no choice"));
    JsonNode m = Json.readTree(MetricVector.write(ns, rows, false));
    assertEquals("h2beam-metrics/v2", m.path("schema").asText());
    assertEquals(dev.h2beam.adapters.files.Build.id(), m.path("h2beam_build").asText(), "the build that judged");
    JsonNode r1 = m.at("/rows/0");
    assertEquals(7, r1.path("seed").asInt());
    assertEquals(0.5, r1.at("/values/score").asDouble());
    assertEquals(0.0, r1.at("/values/pass").asDouble(), "a real 0: graded and not passed");
    assertEquals(150.0, r1.at("/values/total_tokens").asDouble());
    assertEquals(0.02, r1.at("/values/selection_cost").asDouble(), 1e-12);
    assertEquals(0.12, r1.at("/values/cost").asDouble(), 1e-12, "rollouts 0.04 + sessions 0.06 + selection 0.02");
    assertEquals(2.5, r1.at("/values/chosen_wall_s").asDouble());
    assertEquals(2.0, r1.at("/values/turns").asDouble());
    assertEquals(1.0, r1.at("/values/tool_calls").asDouble());
    assertEquals(1.0, r1.at("/values/retries").asDouble());
    assertEquals("not-applicable", r1.at("/absent/quality").asText());
    assertEquals("not-recorded", r1.at("/absent/cached_tokens").asText());
    assertEquals("not-recorded", r1.at("/absent/mode_wall_s").asText());

    JsonNode r2 = m.at("/rows/1");
    assertEquals("judge-failed", r2.at("/absent/score").asText());
    assertEquals("judge-failed", r2.at("/absent/pass").asText());
    assertEquals("spend-unaccounted", r2.at("/absent/cost").asText());
    assertEquals(0.02, r2.at("/values/selection_cost").asDouble(), 1e-12, "the selection's own cost is known");
    assertEquals("not-recorded", r2.at("/absent/input_tokens").asText());
    assertEquals("not-recorded", r2.at("/absent/turns").asText(), "no trajectory: unknown, not 0");

    JsonNode r3 = m.at("/rows/2");
    assertEquals("selection-failed", r3.at("/absent/score").asText());
    assertEquals("selection-failed", r3.at("/absent/input_tokens").asText());
    assertEquals(0.0, r3.at("/values/cost").asDouble(), "the ledger and the selection recorded a real 0 spend");
    assertEquals(0.0, r3.at("/values/selection_cost").asDouble());

    // every row names every metric once, every reason is of the closed set
    for (JsonNode r : m.path("rows")) {
      Set<String> names = new HashSet<>();
      r.path("values").fieldNames().forEachRemaining(n -> assertTrue(names.add(n), n));
      r.path("absent").fields().forEachRemaining(e -> {
        assertTrue(names.add(e.getKey()), e.getKey());
        assertTrue(MetricVector.REASONS.contains(e.getValue().asText()), e.toString());
      });
      assertEquals(MetricVector.METRICS.keySet(), names);
      assertFalse(r.path("values").has("quality"));
    }
    // under a rubric judge, quality is the score
    JsonNode rubric = Json.readTree(MetricVector.write(ns, rows.subList(0, 1), true));
    assertEquals(0.5, rubric.at("/rows/0/values/quality").asDouble());
  }

  /**
   * What the grading step saw of a chosen run stands for a look of the metric vector's own: its marker's numbers are
   * taken as seen (here there is no marker on disk any more), and a run dir seen not to be a folder has no
   * trajectory to count. Seen from a marker, it is what reading the marker gives.
   */
  @Test
  void whatGradingSawOfTheChosenRunIsTakenWithoutAnotherLook(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    Path run1 = Files.createDirectories(runs.resolve("exec/t1"));
    Runmark.markComplete(run1, "r1", "fp", 1.0, Map.of("input_tokens", 120, "output_tokens", 30, "wall_s", 2.5,
        "reasoning_tokens", 4));
    Files.writeString(run1.resolve("trajectory.md"), "[USER] go\n[ASSISTANT] ok\n");
    task(ns, "t1", "\"agg\": {}", run1.toString());
    List<JudgedRow> rows = List.of(graded("t1", "agg", true));
    String key = rows.get(0).key();
    MetricVector.Spend looked = runOnly(run1.toString());
    MetricVector.Seen seen = MetricVector.Seen.of(Runmark.readMark(run1));
    assertEquals(new MetricVector.Seen(true, true, 120.0, 30.0, null, 4.0, 2.5), seen);
    String byLooking = Files.readString(MetricVector.write(ns, rows, false, Map.of(key, looked)));
    assertEquals(byLooking, Files.readString(MetricVector.write(ns, rows, false, Map.of(key, looked.withSeen(seen)))));

    Files.delete(run1.resolve(Runmark.MARKER));
    JsonNode r = Json.readTree(MetricVector.write(ns, rows, false, Map.of(key, looked.withSeen(seen)))).at("/rows/0");
    assertEquals(150.0, r.at("/values/total_tokens").asDouble(), "the marker as grading saw it");
    assertEquals(1.0, r.at("/values/turns").asDouble());
    JsonNode gone = Json.readTree(MetricVector.write(ns, rows, false,
        Map.of(key, looked.withSeen(MetricVector.Seen.NO_RUN_DIR)))).at("/rows/0");
    assertEquals("not-recorded", gone.at("/absent/input_tokens").asText());
    assertEquals("not-recorded", gone.at("/absent/turns").asText(), "no run dir: no trajectory looked at");
    JsonNode now = Json.readTree(MetricVector.write(ns, rows, false, Map.of(key, looked))).at("/rows/0");
    assertEquals("not-recorded", now.at("/absent/input_tokens").asText(), "without a look carried: looked at now");
  }

  /**
   * A chosen run whose marker says its token counts are only the part counted (a free endpoint's uncounted call, or
   * a marker from before tokens_known whose cost is not known) has no token metrics: the part never stands for the
   * whole, and the reason says the spend is not all accounted for. Seen by grading or looked at now, alike.
   */
  @Test
  void countsAMarkerMarksAsPartAreAbsentNotTakenForTheWhole(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    List<Map<String, Object>> marks = List.of(
        Map.of("input_tokens", 120, "output_tokens", 30, "cost_usd", 0.0, "tokens_known", false),
        Map.of("input_tokens", 120, "output_tokens", 30, "cost_usd", 0.25, "cost_known", false));
    for (int i = 0; i < marks.size(); i++) {
      Path run = Files.createDirectories(runs.resolve("exec/p" + i));
      Runmark.markComplete(run, "r" + i, "fp", 1.0, marks.get(i));
      task(ns, "t" + i, "\"agg\": {}", run.toString());
      List<JudgedRow> rows = List.of(graded("t" + i, "agg", true));
      String key = rows.get(0).key();
      MetricVector.Seen seen = MetricVector.Seen.of(Runmark.readMark(run));
      assertTrue(seen.partial(), seen.toString());
      for (MetricVector.Spend sp : List.of(runOnly(run.toString()), runOnly(run.toString()).withSeen(seen))) {
        JsonNode r = Json.readTree(MetricVector.write(ns, rows, false, Map.of(key, sp))).at("/rows/0");
        for (String metric : List.of("input_tokens", "output_tokens", "total_tokens")) {
          assertFalse(r.at("/values").has(metric), r.toString());
          assertEquals("spend-unaccounted", r.at("/absent/" + metric).asText(), metric + ": " + r);
        }
      }
    }
    // all counted at a free endpoint: the numbers stand
    Path whole = Files.createDirectories(runs.resolve("exec/w"));
    Runmark.markComplete(whole, "rw", "fp", 1.0, Map.of("input_tokens", 120, "output_tokens", 30, "cost_usd", 0.0));
    assertFalse(MetricVector.Seen.of(Runmark.readMark(whole)).partial());
    // a marker marked partial that records no counts says it has none, as before
    Path none = Files.createDirectories(runs.resolve("exec/n"));
    Runmark.markComplete(none, "rn", "fp", 1.0, Map.of("cost_usd", 0.0, "cost_known", false));
    assertFalse(MetricVector.Seen.of(Runmark.readMark(none)).partial());
  }

  /** Only a regular trajectory.md is counted, in a run with a marker and in one without (harness2's layout). */
  @Test
  void aTrajectoryIsCountedOnlyWhenItIsARegularFileWithOrWithoutAMarker(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    Path run = Files.createDirectories(runs.resolve("exec/t1"));
    task(ns, "t1", "\"agg\": {}", run.toString());
    List<JudgedRow> rows = List.of(graded("t1", "agg", true));
    Map<String, MetricVector.Spend> spend = Map.of(rows.get(0).key(), runOnly(run.toString()));
    Path trajectory = run.resolve("trajectory.md");
    for (boolean marked : new boolean[] {false, true}) {
      if (marked) Runmark.markComplete(run, "r1", "fp", 1.0, Map.of());
      Files.writeString(trajectory, "[USER] go\n[ASSISTANT] ok\n[ACTION] shell: ls\n");
      JsonNode r = Json.readTree(MetricVector.write(ns, rows, false, spend)).at("/rows/0");
      assertEquals(1.0, r.at("/values/turns").asDouble(), "marked: " + marked);
      assertEquals(1.0, r.at("/values/tool_calls").asDouble(), "marked: " + marked);
      Files.delete(trajectory);
      r = Json.readTree(MetricVector.write(ns, rows, false, spend)).at("/rows/0");
      assertEquals("not-recorded", r.at("/absent/turns").asText(), "none, marked: " + marked);
      Files.createDirectories(trajectory);
      r = Json.readTree(MetricVector.write(ns, rows, false, spend)).at("/rows/0");
      assertEquals("not-recorded", r.at("/absent/turns").asText(), "a folder, marked: " + marked);
      Files.delete(trajectory);
    }
  }

  /**
   * A ledger's retries: its own session_retries where it wrote one (a session made no attempt), else
   * session_attempts - P (harness2's files); none when a session's attempts are not known, or the count is broken.
   */
  @Test
  void retriesAreTheLedgersOwnCountWhereItSaysOneAndNoneWhereAttemptsAreNotKnown() throws Exception {
    assertEquals(1.0, MetricVector.Spend.retries(Json.readTree("{\"session_attempts\": 3, \"P\": 3,"
        + " \"session_retries\": 1}")));
    assertEquals(2.0, MetricVector.Spend.retries(Json.readTree("{\"session_attempts\": 8, \"P\": 6}")));
    assertEquals(0.0, MetricVector.Spend.retries(Json.readTree("{\"session_attempts\": 5, \"P\": 6}")));
    assertEquals(null, MetricVector.Spend.retries(Json.readTree("{\"session_attempts\": 4, \"P\": 3,"
        + " \"attempts_unknown\": [\"g1\"]}")));
    assertEquals(null, MetricVector.Spend.retries(Json.readTree("{\"session_attempts\": 4, \"P\": 3,"
        + " \"session_retries\": -2}")));
    assertEquals(null, MetricVector.Spend.retries(Json.readTree("{\"P\": 3}")));
    // attempts that are no whole number say nothing of retries (dogAL F3)
    assertEquals(null, MetricVector.Spend.retries(Json.readTree("{\"session_attempts\": null, \"P\": 6}")));
    assertEquals(null, MetricVector.Spend.retries(Json.readTree("{\"session_attempts\": \"7\", \"P\": 6}")));
  }

  /** dogAL F3: a ledger amount that is null, not a number or beyond a double is unaccounted, never a known $0. */
  @Test
  void aLedgerAmountItDoesNotHoldIsUnaccountedNotZero() throws Exception {
    for (String amount : List.of("null", "\"lots\"", "1e400")) {
      MetricVector.Spend s = MetricVector.Spend.of(Json.readTree("{\"modes\": {\"agg\": {\"ledger\":"
          + " {\"rollout_usd\": " + amount + ", \"session_usd\": " + amount + ", \"P\": 6}}},"
          + " \"selections\": {\"agg\": {\"usd\": 0.5}}}"), "agg");
      assertEquals(null, s.executorCost(), amount);
      assertEquals(null, s.improverCost(), amount);
      assertEquals(0.5, s.selectionCost(), amount);
    }
    assertEquals(0.25, MetricVector.Spend.of(Json.readTree("{\"modes\": {\"agg\": {\"ledger\": {\"rollout_usd\":"
        + " \"0.25\", \"session_usd\": 1}}}}"), "agg").executorCost(), "a number's text, as the shape allows");
  }

  /** A mode's spend is read field by field exactly as the JSON pointers read it, whatever the summary's shape. */
  @Test
  void aModesSpendIsWhatItsJsonPointersPointAt() throws Exception {
    List<String> summaries = List.of("{}", "{\"modes\": 3, \"selections\": []}",
        "{\"modes\": {\"agg\": {\"ledger\": [1]}}, \"selections\": {\"agg\": null}}",
        "{\"modes\": {\"agg\": {\"ledger\": {\"rollout_usd\": 0.5, \"session_usd\": 1, \"session_attempts\": 7,"
            + " \"P\": 6}}}, \"selections\": {\"agg\": {\"chosen_run_dir\": \"/r/a\"}}}",
        "{\"modes\": [{\"agg\": 1}], \"selections\": {\"agg\": {\"chosen_run_dir\": 4}}}",
        "{\"selections\": {\"agg\": {\"usd\": 0.25}, \"seq\": {\"usd\": \"0.5\", \"usd_known\": true}}}",
        "{\"selections\": {\"agg\": {\"usd\": 0.25, \"usd_known\": false}, \"seq\": {\"usd\": null}}}",
        "{\"selections\": {\"agg\": {\"usd_known\": false}, \"seq\": {\"usd\": \"none\"}}}");
    for (String text : summaries) {
      JsonNode tree = Json.readTree(text);
      for (String mode : List.of("agg", "seq")) {
        JsonNode ledger = tree.at("/modes/" + mode + "/ledger");
        boolean has = ledger.isObject() && ledger.has("rollout_usd") && ledger.has("session_usd");
        Double retries = has && ledger.has("session_attempts") && ledger.has("P")
            ? (double) Math.max(0, ledger.path("session_attempts").asInt() - ledger.path("P").asInt()) : null;
        // the selection's usd when it is a number or a number's text and its record does not say it is only a part
        JsonNode usd = tree.at("/selections/" + mode + "/usd");
        boolean unaccounted = tree.at("/selections/" + mode + "/usd_known").asText().equals("false");
        Double selection = unaccounted ? null : usd.isNumber() ? Double.valueOf(usd.asDouble())
            : usd.isTextual() && usd.asText().matches("[0-9.]+") ? Double.valueOf(usd.asText()) : null;
        MetricVector.Spend expected = new MetricVector.Spend(
            tree.at("/selections/" + mode + "/chosen_run_dir").asText(""),
            has ? ledger.path("rollout_usd").asDouble() : null, has ? ledger.path("session_usd").asDouble() : null,
            selection, unaccounted ? "spend-unaccounted" : selection == null ? "not-recorded" : null, retries);
        assertEquals(expected, MetricVector.Spend.of(tree, mode), text + " " + mode);
      }
    }
    assertEquals(0.5, MetricVector.Spend.of(Json.readTree(summaries.get(5)), "seq").selectionCost(), "its text");
    assertEquals("spend-unaccounted", MetricVector.Spend.of(Json.readTree(summaries.get(6)), "agg")
        .selectionAbsent(), "not its known part");
  }

  /**
   * A ledger whose {@code cost_unknown} names rollouts or sessions whose cost is not known sums only what is known:
   * the cost it names any of is absent (spend-unaccounted), never its known part, and so is their total; the other
   * cost is a value. Empty lists, a null marker and no marker (every file written before it) name none.
   */
  @Test
  void aCostTheLedgerDoesNotKnowAllOfIsAbsentNotItsKnownPart(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    String ledger = "\"agg\": {\"ledger\": {\"rollout_usd\": 0.04, \"session_usd\": 0.06, \"session_attempts\": 7,"
        + " \"P\": 6%s}}";
    Map<String, String> marks = new java.util.LinkedHashMap<>();
    marks.put("rollouts", ", \"cost_unknown\": {\"rollouts\": [\"base1\", \"agg2\"], \"sessions\": []}");
    marks.put("sessions", ", \"cost_unknown\": {\"rollouts\": [], \"sessions\": [\"inv1\"]}");
    marks.put("both", ", \"cost_unknown\": {\"rollouts\": [\"agg1\"], \"sessions\": [\"dom1\", \"agg1\"]}");
    marks.put("empty", ", \"cost_unknown\": {\"rollouts\": [], \"sessions\": []}");
    marks.put("null", ", \"cost_unknown\": null");
    marks.put("none", "");
    List<JudgedRow> rows = new ArrayList<>();
    for (Map.Entry<String, String> m : marks.entrySet()) {
      task(ns, m.getKey(), ledger.formatted(m.getValue()), "");
      rows.add(graded(m.getKey(), "agg", true));
    }
    JsonNode written = Json.readTree(MetricVector.write(ns, rows, false)).at("/rows");
    Map<String, JsonNode> byTask = new HashMap<>();
    for (JsonNode r : written) byTask.put(r.path("task_id").asText(), r);

    JsonNode rollouts = byTask.get("rollouts");
    assertEquals("spend-unaccounted", rollouts.at("/absent/executor_cost").asText(), rollouts.toString());
    assertEquals("spend-unaccounted", rollouts.at("/absent/cost").asText());
    assertEquals(0.06, rollouts.at("/values/improver_cost").asDouble(), 1e-12);
    assertFalse(rollouts.path("values").has("executor_cost"), "not the known part as if it were all");

    JsonNode sessions = byTask.get("sessions");
    assertEquals("spend-unaccounted", sessions.at("/absent/improver_cost").asText(), sessions.toString());
    assertEquals("spend-unaccounted", sessions.at("/absent/cost").asText());
    assertEquals(0.04, sessions.at("/values/executor_cost").asDouble(), 1e-12);

    JsonNode both = byTask.get("both");
    for (String metric : List.of("executor_cost", "improver_cost", "cost")) {
      assertEquals("spend-unaccounted", both.at("/absent/" + metric).asText(), metric);
    }
    assertEquals(1.0, both.at("/values/retries").asDouble(), "the rest of the ledger is read as before");

    for (String known : List.of("empty", "null", "none")) {
      JsonNode r = byTask.get(known);
      assertEquals(0.04, r.at("/values/executor_cost").asDouble(), 1e-12, known);
      assertEquals(0.06, r.at("/values/improver_cost").asDouble(), 1e-12, known);
      assertEquals(0.12, r.at("/values/cost").asDouble(), 1e-12, known + ": with the selection's 0.02");
    }

    // the spend the grading step reads and sends the writer says the same
    JsonNode tree = Json.readTree(Files.readString(ns.resolve("rollouts/summary.json")));
    assertEquals(new MetricVector.Spend("", null, 0.06, 0.02, null, 1.0), MetricVector.Spend.of(tree, "agg"));
    // a marker of another shape is not read as every cost known
    JsonNode odd = Json.readTree("{\"modes\": {\"agg\": {\"ledger\": {\"rollout_usd\": 0.5, \"session_usd\": 1,"
        + " \"cost_unknown\": {\"rollouts\": \"base1\"}}}}}");
    assertEquals(new MetricVector.Spend("", null, null, null, "not-recorded", null), MetricVector.Spend.of(odd, "agg"));
  }

  /**
   * A mode also spends on its blind selector and reflector sessions ({@code selections.<mode>.usd}): that is its
   * {@code selection_cost}, and part of its {@code cost}. A selection whose usd is only the known part
   * ({@code usd_known: false}) leaves both absent (spend-unaccounted), never its known part; a summary without the
   * mode's selection, or a selection without a usd, records none (not-recorded), and the cost is then not all
   * accounted for either. The ledger's own costs are read as before in every case.
   */
  @Test
  void theSelectionsCostIsPartOfTheCostAndAnUnknownOneLeavesItAbsent(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    String ledger = "\"agg\": {\"ledger\": {\"rollout_usd\": 0.5, \"session_usd\": 0.25}}";
    task(ns, "priced", ledger, "", ", \"usd\": 0.125");
    task(ns, "unpriced", ledger, "", ", \"usd\": 0.125, \"usd_known\": false");
    task(ns, "no-usd", ledger, "");
    Files.writeString(ns.resolve("no-usd/summary.json"), Files.readString(ns.resolve("no-usd/summary.json"))
        .replace(", \"usd\": 0.02", ""));
    task(ns, "nan-usd", ledger, "", ", \"usd\": \"NaN\""); // a text the summary's shape lets through
    Path none = Files.createDirectories(ns.resolve("none"));
    Files.writeString(none.resolve("summary.json"), "{\"task_id\": \"none\", \"modes\": {" + ledger
        + "}, \"selections\": {}}");
    List<JudgedRow> rows = new ArrayList<>();
    for (String t : List.of("priced", "unpriced", "no-usd", "nan-usd", "none")) rows.add(graded(t, "agg", true));
    JsonNode written = Json.readTree(MetricVector.write(ns, rows, false)).at("/rows");
    Map<String, JsonNode> byTask = new HashMap<>();
    for (JsonNode r : written) byTask.put(r.path("task_id").asText(), r);

    JsonNode priced = byTask.get("priced");
    assertEquals(0.125, priced.at("/values/selection_cost").asDouble(), 1e-12, priced.toString());
    assertEquals(0.875, priced.at("/values/cost").asDouble(), 1e-12, "0.5 + 0.25 + 0.125");

    JsonNode unpriced = byTask.get("unpriced");
    assertEquals("spend-unaccounted", unpriced.at("/absent/selection_cost").asText(), unpriced.toString());
    assertEquals("spend-unaccounted", unpriced.at("/absent/cost").asText());
    assertFalse(unpriced.path("values").has("selection_cost"), "not the known part as if it were all");

    for (String unrecorded : List.of("no-usd", "nan-usd", "none")) {
      JsonNode r = byTask.get(unrecorded);
      assertEquals("not-recorded", r.at("/absent/selection_cost").asText(), r.toString());
      assertEquals("spend-unaccounted", r.at("/absent/cost").asText(), unrecorded + ": not all of it is known");
    }
    for (JsonNode r : written) {
      assertEquals(0.5, r.at("/values/executor_cost").asDouble(), 1e-12, r.toString());
      assertEquals(0.25, r.at("/values/improver_cost").asDouble(), 1e-12, r.toString());
    }
    // the definitions say so, beside the rows
    JsonNode defs = Json.readTree(ns.resolve(MetricVector.FILE)).path("metrics");
    assertEquals("usd", defs.at("/selection_cost/unit").asText());
    assertEquals("min", defs.at("/selection_cost/direction").asText());
    assertEquals("executor_cost + improver_cost + selection_cost", defs.at("/cost/source").asText());

    // the spend the grading step reads and sends the writer says the same
    JsonNode tree = Json.readTree(Files.readString(ns.resolve("unpriced/summary.json")));
    assertEquals(new MetricVector.Spend("", 0.5, 0.25, null, "spend-unaccounted", null),
        MetricVector.Spend.of(tree, "agg"));
    assertEquals(new MetricVector.Spend("", 0.5, 0.25, null, "not-recorded", null),
        MetricVector.Spend.of(Json.readTree(Files.readString(none.resolve("summary.json"))), "agg"));
  }

  /** A spend's selection cost is a value or an absence with a reason of its own two, never both. */
  @Test
  void aSpendsSelectionCostIsAValueOrAnAbsenceWithItsReason() {
    assertEquals(null, new MetricVector.Spend("", null, null, 0.5, "not-recorded", null).selectionAbsent());
    assertEquals("not-recorded", new MetricVector.Spend("", null, null, null, null, null).selectionAbsent());
    assertEquals("spend-unaccounted",
        new MetricVector.Spend("", null, null, null, "spend-unaccounted", null).selectionAbsent());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new MetricVector.Spend("", null, null, null, "judge-failed", null));
  }

  /**
   * Rows of one namespace with and without a trajectory, in turn: each is counted or absent as it is alone, whatever
   * the row before it had (which only orders the looks).
   */
  @Test
  void rowsWithAndWithoutATrajectoryInTurnAreEachReadAsTheyAre(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    List<JudgedRow> rows = new ArrayList<>();
    Map<String, MetricVector.Spend> spend = new HashMap<>();
    String[] kinds = {"file", "none", "folder", "file", "file", "none", "none", "file"};
    for (int i = 0; i < kinds.length; i++) {
      Path run = Files.createDirectories(runs.resolve("exec/t" + i));
      if (kinds[i].equals("file")) Files.writeString(run.resolve("trajectory.md"), "[USER] go\n[ASSISTANT] ok\n");
      if (kinds[i].equals("folder")) Files.createDirectories(run.resolve("trajectory.md"));
      task(ns, "t" + i, "\"agg\": {}", run.toString());
      JudgedRow r = graded("t" + i, "agg", true);
      rows.add(r);
      spend.put(r.key(), runOnly(run.toString()));
    }
    JsonNode written = Json.readTree(MetricVector.write(ns, rows, false, spend)).at("/rows");
    for (int i = 0; i < kinds.length; i++) {
      JsonNode r = written.get(i);
      if (kinds[i].equals("file")) assertEquals(1.0, r.at("/values/turns").asDouble(), "t" + i);
      else assertEquals("not-recorded", r.at("/absent/turns").asText(), "t" + i + ": " + kinds[i]);
    }
  }

  /**
   * A namespace's metrics.json is written in parts of rows made on two threads, each part reading its own tasks'
   * summaries, markers and trajectories: the file is the same whatever the rows per part.
   */
  @Test
  void metricsWrittenInPartsAreTheSameFileWhateverThePartsHold(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    List<JudgedRow> rows = new ArrayList<>();
    for (int i = 0; i < 1100; i++) {
      Path run = Files.createDirectories(runs.resolve("exec/t" + i));
      if (i % 3 == 0) Files.writeString(run.resolve("trajectory.md"), "[USER] go\n[ASSISTANT] ok\n");
      task(ns, "t" + i, i % 2 == 0 ? "\"agg\": {\"ledger\": {\"rollout_usd\": 0.5, \"session_usd\": 0.25}}"
          : "\"agg\": {}", run.toString());
      rows.add(graded("t" + i, "agg", i % 5 != 0));
    }
    String whole = Files.readString(MetricVector.write(ns, rows, false, Map.of(), Integer.MAX_VALUE));
    for (int perPart : List.of(JudgedFile.ROWS_PER_PART, 7)) {
      Files.delete(ns.resolve(MetricVector.FILE));
      assertEquals(whole, Files.readString(MetricVector.write(ns, rows, false, Map.of(), perPart)), "per part "
          + perPart);
    }
    JsonNode written = Json.readTree(whole).at("/rows");
    assertEquals(1100, written.size());
    assertEquals(0.77, written.get(0).at("/values/cost").asDouble(), 1e-12, "0.5 + 0.25 + the selection's 0.02");
    assertEquals(1.0, written.get(3).at("/values/turns").asDouble());
    assertEquals("spend-unaccounted", written.get(1).at("/absent/cost").asText());
  }

  /** The three metrics of what the mode's models spent in tokens. */
  private static final List<String> MODE_TOKENS = List.of("mode_input_tokens", "mode_output_tokens", "mode_tokens");

  /** A ledger of the parallel mode, its costs known, with {@code tail} after them. */
  private static String ledgerWith(String tail) {
    return "\"agg\": {\"ledger\": {\"rollout_usd\": 0.04, \"session_usd\": 0.06, \"session_attempts\": 6, \"P\": 6"
        + tail + "}}";
  }

  /** The written rows of {@code ns} by task. */
  private static Map<String, JsonNode> rowsByTask(Path ns, List<JudgedRow> rows) throws Exception {
    Map<String, JsonNode> byTask = new HashMap<>();
    for (JsonNode r : Json.readTree(MetricVector.write(ns, rows, false)).at("/rows")) {
      byTask.put(r.path("task_id").asText(), r);
    }
    return byTask;
  }

  private static void assertTokensAbsent(JsonNode row, String reason, String why) {
    for (String metric : MODE_TOKENS) {
      assertEquals(reason, row.at("/absent/" + metric).asText(), why + " " + metric + ": " + row);
      assertFalse(row.path("values").has(metric), why + " " + metric + ": never its counted part");
    }
  }

  /**
   * A mode's tokens are its ledger's (every rollout, bases included, and improver session) and its selection's
   * (selector and reflector sessions), input and output each summed apart, and their total; 0 and 0 recorded is a
   * real 0. Empty lists of labels not counted, a null mark and {@code tokens_known: true} say every count is known.
   * The metrics.json declares the three in tokens, lower is better, and every row names each of them once.
   */
  @Test
  void aModesTokensAreItsLedgersAndItsSelectionsCountsSummed(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    String selection = ", \"usd\": 0.02, \"tokens\": {\"input\": 300, \"output\": 40}";
    task(ns, "counted", ledgerWith(", \"tokens\": {\"input\": 9000, \"output\": 700}"), "", selection);
    task(ns, "zero", ledgerWith(", \"tokens\": {\"input\": 0, \"output\": 0}"), "",
        ", \"usd\": 0, \"tokens\": {\"input\": 0, \"output\": 0}");
    task(ns, "marked", ledgerWith(", \"tokens\": {\"input\": 9000, \"output\": 700}, \"tokens_unknown\":"
        + " {\"rollouts\": [], \"sessions\": []}"), "", selection + ", \"tokens_known\": true");
    task(ns, "null-mark", ledgerWith(", \"tokens\": {\"input\": 9000, \"output\": 700}, \"tokens_unknown\": null"),
        "", selection);
    List<JudgedRow> rows = new ArrayList<>();
    for (String t : List.of("counted", "zero", "marked", "null-mark")) rows.add(graded(t, "agg", true));
    Map<String, JsonNode> byTask = rowsByTask(ns, rows);

    for (String t : List.of("counted", "marked", "null-mark")) {
      JsonNode r = byTask.get(t);
      assertEquals(9300.0, r.at("/values/mode_input_tokens").asDouble(), t + ": 9000 + the selection's 300: " + r);
      assertEquals(740.0, r.at("/values/mode_output_tokens").asDouble(), t + ": 700 + the selection's 40");
      assertEquals(10040.0, r.at("/values/mode_tokens").asDouble(), t + ": 9300 + 740");
      assertEquals(0.12, r.at("/values/cost").asDouble(), 1e-12, t + ": the costs are read as before");
      assertEquals(0.0, r.at("/values/retries").asDouble(), t);
    }
    JsonNode zero = byTask.get("zero");
    for (String metric : MODE_TOKENS) {
      assertEquals(0.0, zero.at("/values/" + metric).asDouble(-1), metric + ": a recorded 0 is a real 0: " + zero);
    }

    // the spend the grading step reads and sends the writer says the same
    JsonNode tree = Json.readTree(Files.readString(ns.resolve("counted/summary.json")));
    assertEquals(new MetricVector.Spend("", 0.04, 0.06, 0.02, null, 0.0, 9300.0, 740.0, null, null),
        MetricVector.Spend.of(tree, "agg"));

    // the definitions, and each row names each metric once (counted in the file's text: a name given twice would
    // be lost to a parsed tree)
    JsonNode defs = Json.readTree(ns.resolve(MetricVector.FILE)).path("metrics");
    String text = Files.readString(ns.resolve(MetricVector.FILE));
    for (String metric : MODE_TOKENS) {
      assertEquals("tokens", defs.at("/" + metric + "/unit").asText(), metric);
      assertEquals("min", defs.at("/" + metric + "/direction").asText(), metric);
      java.util.regex.Matcher named = java.util.regex.Pattern.compile("\"" + metric + "\"\\s*:").matcher(text);
      int times = 0;
      while (named.find()) times++;
      assertEquals(1 + rows.size(), times, metric + ": its definition and once in every row");
    }
    assertEquals("mode_input_tokens + mode_output_tokens", defs.at("/mode_tokens/source").asText());
    assertTrue(defs.at("/mode_input_tokens/source").asText().contains("tokens.input"));
    assertTrue(defs.at("/mode_output_tokens/source").asText().contains("tokens.output"));
  }

  /**
   * A mode's tokens are not recorded unless both its ledger and its selection record them: harness2's files (and
   * h2beam's before it counted them) have neither, and a record with only one is not the mode's whole count. No
   * ledger and no selection record record none either. Nothing else of the spend changes.
   */
  @Test
  void aModesTokensThatALedgerOrSelectionDoesNotRecordAreAbsentNotRecorded(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    String counted = ", \"tokens\": {\"input\": 9000, \"output\": 700}";
    String selection = ", \"usd\": 0.02, \"tokens\": {\"input\": 300, \"output\": 40}";
    task(ns, "harness2", ledgerWith(""), "");
    task(ns, "ledger-only", ledgerWith(counted), "");
    task(ns, "selection-only", ledgerWith(""), "", selection);
    task(ns, "no-ledger", "\"agg\": {\"ok\": false}", "", selection);
    Path none = Files.createDirectories(ns.resolve("no-selection"));
    Files.writeString(none.resolve("summary.json"), "{\"task_id\": \"no-selection\", \"modes\": {"
        + ledgerWith(counted) + "}, \"selections\": {}}");
    List<JudgedRow> rows = new ArrayList<>();
    for (String t : List.of("harness2", "ledger-only", "selection-only", "no-ledger", "no-selection")) {
      rows.add(graded(t, "agg", true));
    }
    Map<String, JsonNode> byTask = rowsByTask(ns, rows);
    for (JudgedRow row : rows) {
      JsonNode r = byTask.get(row.taskId());
      assertTokensAbsent(r, "not-recorded", row.taskId());
      if (!row.taskId().equals("no-ledger")) {
        assertEquals(0.04, r.at("/values/executor_cost").asDouble(), 1e-12, row.taskId());
      }
    }
    assertEquals(0.12, byTask.get("harness2").at("/values/cost").asDouble(), 1e-12, "a harness2 file's cost");

    JsonNode tree = Json.readTree(Files.readString(ns.resolve("ledger-only/summary.json")));
    assertEquals(new MetricVector.Spend("", 0.04, 0.06, 0.02, null, 0.0), MetricVector.Spend.of(tree, "agg"));
    assertEquals("not-recorded", MetricVector.Spend.of(null, "agg").tokensAbsent(), "a summary not read");
  }

  /**
   * A mode that failed on the task (its budget guard, an error of its own) records no ledger and no selection: its
   * tokens and retries are absent because it failed, as its score is, not {@code not-recorded}, which is for files
   * written before they were counted (dogAA finding 4).
   */
  @Test
  void aFailedModesTokensAndRetriesAreAbsentAsModeFailed(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    Path dir = Files.createDirectories(ns.resolve("t1"));
    Files.writeString(dir.resolve("summary.json"), "{\"task_id\": \"t1\", \"modes\": {\"agg\": {\"ok\": false,"
        + " \"error\": \"BudgetError\"}}, \"selections\": {}}");
    JsonNode r = rowsByTask(ns, List.of(JudgedRow.absent("ns", "t1", "agg", 2, "", "", false, Absence.MODE_FAILED,
        "BudgetError"))).get("t1");
    assertEquals("mode-failed", r.at("/absent/score").asText());
    assertTokensAbsent(r, "mode-failed", "a failed mode");
    assertEquals("mode-failed", r.at("/absent/retries").asText(), r.toString());
  }

  /**
   * A mode's tokens are absent (spend-unaccounted) when a record says some were not counted: its ledger's
   * {@code tokens_unknown} names a rollout or a session, or its selection says {@code tokens_known: false}. A mark
   * of another shape cannot say which counts are left out: absent too, never a value. The marks of tokens and of
   * costs are each read for their own metrics.
   */
  @Test
  void aModesTokensNotAllCountedAreAbsentSpendUnaccounted(@TempDir Path runs) throws Exception {
    Path ns = runs.resolve("bench-oc-agg2-s7");
    String counted = ", \"tokens\": {\"input\": 9000, \"output\": 700}";
    String selection = ", \"usd\": 0.02, \"tokens\": {\"input\": 300, \"output\": 40}";
    Map<String, String> marks = new java.util.LinkedHashMap<>();
    marks.put("session", ", \"tokens_unknown\": {\"rollouts\": [], \"sessions\": [\"inv1\"]}");
    marks.put("rollout", ", \"tokens_unknown\": {\"rollouts\": [\"base1\"], \"sessions\": []}");
    marks.put("not-a-list", ", \"tokens_unknown\": {\"rollouts\": \"base1\", \"sessions\": []}");
    marks.put("one-list", ", \"tokens_unknown\": {\"rollouts\": []}");
    marks.put("a-boolean", ", \"tokens_unknown\": true");
    marks.put("a-list", ", \"tokens_unknown\": []");
    List<JudgedRow> rows = new ArrayList<>();
    for (Map.Entry<String, String> m : marks.entrySet()) {
      task(ns, m.getKey(), ledgerWith(counted + m.getValue()), "", selection);
      rows.add(graded(m.getKey(), "agg", true));
    }
    task(ns, "selection", ledgerWith(counted), "", selection + ", \"tokens_known\": false");
    rows.add(graded("selection", "agg", true));
    // the costs' mark says nothing of the tokens
    task(ns, "cost-unknown", ledgerWith(counted + ", \"cost_unknown\": {\"rollouts\": [\"base1\"], \"sessions\":"
        + " [\"inv1\"]}"), "", selection);
    rows.add(graded("cost-unknown", "agg", true));
    Map<String, JsonNode> byTask = rowsByTask(ns, rows);

    for (String t : List.of("session", "rollout", "not-a-list", "one-list", "a-boolean", "a-list", "selection")) {
      JsonNode r = byTask.get(t);
      assertTokensAbsent(r, "spend-unaccounted", t);
      assertEquals(0.12, r.at("/values/cost").asDouble(), 1e-12, t + ": every cost is known: " + r);
    }
    JsonNode costs = byTask.get("cost-unknown");
    assertEquals(9300.0, costs.at("/values/mode_input_tokens").asDouble(), costs.toString());
    assertEquals(740.0, costs.at("/values/mode_output_tokens").asDouble());
    assertEquals(10040.0, costs.at("/values/mode_tokens").asDouble());
    assertEquals("spend-unaccounted", costs.at("/absent/executor_cost").asText());

    JsonNode tree = Json.readTree(Files.readString(ns.resolve("selection/summary.json")));
    assertEquals(new MetricVector.Spend("", 0.04, 0.06, 0.02, null, 0.0, null, null, "spend-unaccounted", null),
        MetricVector.Spend.of(tree, "agg"));
  }

  /**
   * A count that is not a whole number from 0 up is no count: the summary's shape check refuses it, naming the
   * field, and a spend read from it records no tokens (not-recorded), never a sum with it.
   */
  @Test
  void aTokensCountOfAnotherShapeIsNoCount() throws Exception {
    String selection = "\"selections\": {\"agg\": {\"ok\": false, \"usd\": 0.02, \"tokens\": %s}}";
    String ledger = "\"modes\": {\"agg\": {\"ledger\": {\"rollout_usd\": 0.04, \"session_usd\": 0.06,"
        + " \"tokens\": %s}}}";
    String good = "{\"input\": 300, \"output\": 40}";
    Map<String, String> bad = new java.util.LinkedHashMap<>();
    bad.put("{\"input\": -1, \"output\": 40}", ".tokens.input");
    bad.put("{\"input\": 300, \"output\": 2.5}", ".tokens.output");
    bad.put("{\"input\": \"300\", \"output\": 40}", ".tokens.input");
    bad.put("{\"input\": 300}", ".tokens.output");
    bad.put("{\"input\": 300, \"output\": null}", ".tokens.output");
    bad.put("[300, 40]", ".tokens");
    bad.put("300", ".tokens");
    for (Map.Entry<String, String> b : bad.entrySet()) {
      for (boolean inLedger : new boolean[] {true, false}) {
        JsonNode tree = Json.readTree("{\"task_id\": \"t\", \"k\": 2, " + ledger.formatted(inLedger ? b.getKey() : good)
            + ", " + selection.formatted(inLedger ? good : b.getKey()) + "}");
        String field = (inLedger ? "modes.agg.ledger" : "selections.agg") + b.getValue();
        String refusal = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
            () -> dev.h2beam.pipelines.files.FileShapes.summary(tree), tree.toString()).getMessage();
        assertTrue(refusal.startsWith(field + " "), refusal);
        MetricVector.Spend spend = MetricVector.Spend.of(tree, "agg");
        assertEquals(null, spend.modeInputTokens(), tree.toString());
        assertEquals(null, spend.modeOutputTokens(), tree.toString());
        assertEquals("not-recorded", spend.tokensAbsent(), tree.toString());
      }
    }
  }

  /**
   * A spend's tokens are both counts or neither, and an absence has a reason of the two, never beside a value; a
   * spend made without them (the constructors before them) records none. They come with the spend when what
   * grading saw of the chosen run is added.
   */
  @Test
  void aSpendsTokensAreBothCountsOrAnAbsenceWithItsReason() {
    assertEquals("not-recorded", new MetricVector.Spend("", 0.5, 0.25, 0.125, null, 1.0).tokensAbsent());
    assertEquals("not-recorded", new MetricVector.Spend("", 0.5, 0.25, 0.125, null, 1.0, null).tokensAbsent());
    MetricVector.Spend half = new MetricVector.Spend("", null, null, null, null, null, 5.0, null, null, null);
    assertEquals(null, half.modeInputTokens(), "one count alone is not the mode's");
    assertEquals("not-recorded", half.tokensAbsent());
    assertEquals("spend-unaccounted", new MetricVector.Spend("", null, null, null, null, null, null, 6.0,
        "spend-unaccounted", null).tokensAbsent());
    MetricVector.Spend both = new MetricVector.Spend("/r", null, null, null, null, null, 5.0, 6.0,
        "not-recorded", null);
    assertEquals(null, both.tokensAbsent(), "no reason beside a value");
    assertEquals(5.0, both.modeInputTokens());
    assertEquals(6.0, both.modeOutputTokens());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new MetricVector.Spend("", null, null, null, null, null, null, null, "judge-failed", null));
    MetricVector.Spend seen = both.withSeen(MetricVector.Seen.NO_RUN_DIR);
    assertEquals(5.0, seen.modeInputTokens(), "kept with what grading saw");
    assertEquals(6.0, seen.modeOutputTokens(), "kept with what grading saw");
    assertEquals(MetricVector.Seen.NO_RUN_DIR, seen.seen());
    assertEquals("spend-unaccounted", new MetricVector.Spend("", null, null, null, null, null, null, null,
        "spend-unaccounted", null).withSeen(MetricVector.Seen.NO_RUN_DIR).tokensAbsent());
  }
}
