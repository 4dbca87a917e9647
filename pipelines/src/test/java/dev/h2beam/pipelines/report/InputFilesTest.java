package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.judge.MetricVector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading judged.json, summary.json and config.json as h2beam and harness2 write them. */
class InputFilesTest {

  private static byte[] utf8(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static JudgedFile judged(String path, String text, int fallbackK) throws IOException {
    return InputFiles.judged(path, utf8(text), fallbackK);
  }

  private static List<MetricRow> metrics(String path, String text) throws IOException {
    return InputFiles.metrics(path, utf8(text));
  }

  @Test
  void gradedAndFracAreRecomputedNotTrusted() throws Exception {
    Map<String, Object> row = Fixtures.row("t1", "agg", 2, "agg1", 0, 0, false, "");
    row.put("graded", true);
    row.put("frac", 1.0);
    Scored s = judged("j", Json.pretty(List.of(row)), 2).rows().get(0);
    assertFalse(s.graded());
    assertNull(s.frac());
  }

  @Test
  void harness2RowIsReadInItsKeyOrderWithWeightedPoints() throws Exception {
    Map<String, Object> row = Fixtures.row("jb/acct/t1", "seq", 3, "c2", 7.5, 10, false, "");
    Scored s = judged("j", Json.pretty(List.of(row)), 3).rows().get(0);
    assertEquals("jb/acct/t1", s.taskId());
    assertEquals("seq", s.mode());
    assertEquals(3, s.k());
    assertEquals(0.75, s.frac());
    assertEquals("final", s.pick());
  }

  @Test
  void legacyArmKeyIsReadAsTheMode() throws Exception {
    Map<String, Object> row = new LinkedHashMap<>(Fixtures.graded("t1", "agg", 1, "agg1", 1, 1));
    row.remove("mode");
    Map<String, Object> legacy = new LinkedHashMap<>();
    legacy.put("arm", "parallel");
    legacy.putAll(row);
    assertEquals("agg", judged("j", Json.pretty(List.of(legacy)), 1).rows().get(0).mode());
  }

  @Test
  void harness2UngradedRowIsAnAbsenceWithAReasonFromItsError() throws Exception {
    List<Map<String, Object>> rows = List.of(Fixtures.ungraded("t1", "agg", 2),
        Fixtures.row("t2", "agg", 2, "agg1", null, null, false, "judge returned nothing"));
    List<Scored> s = judged("j", Json.pretty(rows), 2).rows();
    assertEquals("selection-failed", s.get(0).reason());
    assertEquals("judge-failed", s.get(1).reason());
  }

  @Test
  void h2beamAbsenceReasonIsKeptFromRawAndFromBesideItInOlderFiles() throws Exception {
    Map<String, Object> older = Fixtures.row("t1", "agg", 2, "agg1", null, null, false, "timed out");
    older.put("absence", "judge-timeout");
    Map<String, Object> now = Fixtures.row("t1", "agg", 2, "agg1", null, null, false, "timed out");
    now.put("raw", Map.of("absence", "judge-timeout"));
    for (Map<String, Object> row : List.of(older, now)) {
      String text = Json.pretty(List.of(row));
      assertEquals("judge-timeout", judged("j", text, 2).rows().get(0).reason(), text);
      assertEquals("judge-timeout", InputFiles.judgedFromTree("j", text, 2).rows().get(0).reason(), text);
    }
    // a grader's own raw key of another type is the grader's, not an absence reason
    Map<String, Object> graders = Fixtures.row("t1", "agg", 2, "agg1", null, null, false, "timed out");
    graders.put("raw", Map.of("absence", 3));
    assertEquals("judge-failed", judged("j", Json.pretty(List.of(graders)), 2).rows().get(0).reason());
  }

  @Test
  void rowWithCriteriaButNoPassedCountIsAnAbsence() throws Exception {
    Map<String, Object> row = Fixtures.row("t1", "agg", 2, "agg1", null, 4, false, "");
    Scored s = judged("j", Json.pretty(List.of(row)), 2).rows().get(0);
    assertFalse(s.graded());
    assertEquals("judge-failed", s.reason());
  }

  @Test
  void judgedJsonThatIsNotAnArrayIsRefused() {
    IOException e = assertThrows(IOException.class, () -> judged("j", "{\"rows\": []}", 1));
    assertTrue(e.getMessage().contains("must be a JSON array"), e.getMessage());
  }

  @Test
  void summaryGivesFellBackStagesImproverSpendAndExecutorSpendPerMode(@TempDir Path dir) throws Exception {
    Fixtures.summary(dir, "ledger-1", 2, 0.25, 0.5, List.of("inv1"), 1.5);
    Path file = dir.resolve("ledger-1/summary.json");
    TaskSummary t = InputFiles.summary(file.toString(), Files.readString(file));
    assertEquals("ledger-1", t.taskId());
    assertEquals(new TaskSummary.ModeSpend(1, 1.25, 1.5), t.mode("agg"));
    assertEquals(new TaskSummary.ModeSpend(1, 1.25, 1.5), t.mode("seq"));
  }

  @Test
  void legacyArmsKeyOfASummaryIsRead() throws Exception {
    String text = "{\"task_id\": \"t\", \"k\": 1, \"arms\": {\"agg\": {\"fell_back\": [\"dom1\", \"agg1\"], \"stages\":"
        + " [{\"usd\": 0.5}, {\"usd\": null}]}}, \"selections\": {\"agg\": {\"usd\": 0.25}}}";
    assertEquals(new TaskSummary.ModeSpend(2, 0.75, 0.0), InputFiles.summary("s", text).mode("agg"));
  }

  @Test
  void aSelectionRecordWhoseLessonWasScreenedOutIsCountedAndTheReportSaysSo() throws Exception {
    String text = "{\"task_id\": \"t\", \"k\": 2, \"modes\": {\"agg\": {}, \"seq\": {}}, \"selections\": {\"agg\":"
        + " {\"usd\": 0.25, \"lesson_screened\": [\"line 1 carries a chat-template control token\"]}, \"seq\":"
        + " {\"usd\": 0.25}}}";
    TaskSummary t = InputFiles.summary("s", text);
    assertEquals(new TaskSummary.ModeSpend(0, 0.25, 0.0, 1), t.mode("agg"));
    assertEquals(new TaskSummary.ModeSpend(0, 0.25, 0.0, 0), t.mode("seq"));
    assertEquals(List.of("", "  lessons screened out of the library (instruction overrides, chat-template control"
        + " tokens or credentials; see lesson_screened in the selection records): parallel k=2: 1"),
        Render.screened(new java.util.TreeMap<>(Map.of(new ModeK("agg", 2), 1))));
    assertEquals(List.of(), Render.screened(new java.util.TreeMap<>()));
  }

  @Test
  void failedModeRecordOfASummarySpendsNothing() throws Exception {
    String text = "{\"task_id\": \"t\", \"modes\": {\"seq\": {\"ok\": false, \"error\": \"RuntimeError: x\"}},"
        + " \"selections\": {}}";
    assertEquals(new TaskSummary.ModeSpend(0, 0.0, 0.0), InputFiles.summary("s", text).mode("seq"));
  }

  @Test
  void configGivesTheDeclaredIdentityAndABlankJudgeIsUnknown() throws Exception {
    String text = "{\"method_version\": 2, \"executor\": \"demo/oc\", \"improver\": \"opencode:local/x\","
        + " \"judge\": \"\", \"seed\": 7}";
    RunIdentity id = InputFiles.config("c", text);
    assertEquals("demo/oc", id.executor());
    assertEquals("opencode:local/x", id.improver());
    assertNull(id.judge());
    assertEquals(java.math.BigInteger.valueOf(7), id.seed());
  }

  /** A seed of any size (harness2's is a Python int) is read digit for digit, not through a long or a double. */
  @Test
  void aConfigSeedWiderThanALongIsReadExactly() throws Exception {
    RunIdentity id = InputFiles.config("c", "{\"method_version\": 2, \"seed\": 1180591620717411303429}");
    assertEquals(new java.math.BigInteger("1180591620717411303429"), id.seed());
  }

  @Test
  void theCohortOfAConfigIsWhatReplicatesShareAndNotWhatMayDiffer() throws Exception {
    String one = "{\"method_version\": 2, \"executor\": \"demo/oc\", \"judge\": \"j\", \"split\": \"all\","
        + " \"bench_root\": \"/a\", \"tasks\": [[\"d1\", \"t1\"], [\"d2\", \"t2\"]], \"input_digests\":"
        + " {\"base\": \"b\", \"tasks\": {\"t1\": \"x\", \"t2\": \"y\"}}, \"max_tasks\": null, \"seed\": 1,"
        + " \"timing\": {\"runner\": \"DirectRunner\"}}";
    String other = "{\"method_version\": 2, \"executor\": \"demo/oc\", \"judge\": \"k\", \"split\": \"all\","
        + " \"bench_root\": \"/b\", \"tasks\": [[\"d2\", \"t2\"], [\"d1\", \"t1\"]], \"input_digests\":"
        + " {\"base\": \"b\", \"tasks\": {\"t2\": \"y\", \"t1\": \"x\"}}, \"max_tasks\": 9, \"seed\": 2,"
        + " \"timing\": {\"runner\": \"FlinkRunner\"}}";
    assertEquals(InputFiles.config("c", one).cohort(), InputFiles.config("c", other).cohort());
    // how the selector's ids were shuffled: harness2's rule where config.json records none
    assertEquals("{\"anon_ids\":\"task\",\"input_digests.base\":\"b\",\"input_digests.tasks\":{\"t1\":\"x\","
        + "\"t2\":\"y\"},\"isolation\":\"none\",\"method_version\":2,\"split\":\"all\",\"tasks\":[\"t1\",\"t2\"]}",
        InputFiles.config("c", one).cohort());
    String perReplicate = one.replace("\"seed\": 1,", "\"seed\": 1, \"anon_ids\": \"replicate\",");
    assertTrue(InputFiles.config("c", perReplicate).cohort().startsWith("{\"anon_ids\":\"replicate\","));
    assertNull(InputFiles.config("c", "{\"executor\": \"demo/oc\"}").cohort(), "harness2's config records none");
  }

  @Test
  void aSummaryOfTheWrongShapeIsRefusedNamingTheField() {
    IOException empty = assertThrows(IOException.class, () -> InputFiles.summary("s", "{}"));
    assertEquals("task_id is missing; repair the field or move the file aside", empty.getMessage());
    IOException usd = assertThrows(IOException.class, () -> InputFiles.summary("s", "{\"task_id\": \"t\", \"k\": 1,"
        + " \"selections\": {\"agg\": {\"ok\": false, \"usd\": \"lots\"}}}"));
    assertEquals("selections.agg.usd must be a number, found \"lots\" (a string); repair the field or move the file"
        + " aside", usd.getMessage());
  }

  @Test
  void aJudgedRowOfTheWrongShapeRefusesTheFile() {
    Map<String, Object> row = Fixtures.graded("t1", "agg", 2, "agg1", 1, 1);
    row.put("n_passed", "1");
    IOException e = assertThrows(IOException.class, () -> judged("j", Json.pretty(List.of(row)), 2));
    assertEquals("row 0 of judged.json: n_passed must be a number or null, found \"1\" (a string); repair the field"
        + " or move the file aside", e.getMessage());
  }

  /** A malformed row of metrics.json is refused naming the file and the row, whichever of its fields is wrong. */
  @Test
  void aMalformedMetricsRowIsRefusedNamingItsRow() throws Exception {
    String schema = MetricVector.SCHEMA;
    String ok = "{\"task_id\": \"t1\", \"mode\": \"agg\", \"k\": 1, \"values\": {\"frac\": 1.0},"
        + " \"absent\": {\"cost\": \"spend-unaccounted\"}}";
    assertEquals(1, metrics("m.json", "{\"schema\": \"" + schema + "\", \"rows\": [" + ok + "]}").size());
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("{\"task_id\": \"t2\", \"mode\": \"agg\", \"k\": 1, \"values\": {\"frac\": \"x\"}}",
        "m.json: rows[1]: values.frac is not a number");
    bad.put("{\"task_id\": \"t2\", \"mode\": \"agg\", \"k\": 1, \"absent\": {\"frac\": \"why\"}}",
        "m.json: rows[1]: absent.frac reason 'why' is not one of ");
    bad.put("{\"task_id\": \"t2\", \"mode\": \"agg\", \"k\": \"one\"}", "m.json: rows[1]: k must be a whole number");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      IOException x = assertThrows(IOException.class, () -> metrics("m.json",
          "{\"schema\": \"" + schema + "\", \"rows\": [" + ok + ", " + e.getKey() + "]}"));
      assertTrue(x.getMessage().startsWith(e.getValue()), x.getMessage());
    }
  }

  /**
   * metrics.json as the judge writes it is read token by token, and gives the rows its tree gives; a file that is
   * valid but written otherwise, or malformed, is read from its tree, with the same rows or the same message.
   */
  @Test
  void metricsReadTokenByTokenGiveWhatTheTreeGives() throws Exception {
    String head = "{\"schema\": \"" + MetricVector.SCHEMA + "\", \"namespace\": \"n\", \"metrics\": {\"score\": "
        + "{\"unit\": \"fraction\", \"direction\": \"max\"}}, \"reasons\": [\"judge-failed\"], \"rows\": [";
    String a = "{\"task_id\": \"t1\", \"mode\": \"agg\", \"k\": 2, \"seed\": 0, \"values\": {\"score\": 1.0, "
        + "\"pass\": 1, \"cost\": 0.25}, \"absent\": {\"quality\": \"not-applicable\", \"input_tokens\": "
        + "\"not-recorded\"}}";
    String b = "{\"task_id\": \"t2\", \"mode\": \"sequential\", \"k\": 2, \"values\": {\"score\": 0.5, "
        + "\"pass\": 0, \"cost\": 3e-05}, \"absent\": {\"quality\": \"judge-failed\", \"input_tokens\": "
        + "\"not-recorded\"}}";
    String c = "{\"absent\": {\"score\": \"selection-failed\"}, \"values\": {}, \"k\": 2, \"mode\": \"seq\", "
        + "\"task_id\": \"t3\", \"extra\": [{\"x\": [1, 2]}]}";
    String regular = head + a + ", " + b + ", " + c + ", " + a.replace("t1", "t4") + "]}";
    List<MetricRow> streamed = new MetricsReader().rows(utf8(regular));
    assertEquals(InputFiles.metricsFromTree("m.json", regular), streamed);
    assertEquals(4, streamed.size());
    assertEquals(List.of("cost", "pass", "score"), List.copyOf(streamed.get(3).values().keySet()));
    assertEquals(3e-05, streamed.get(1).value("cost"));
    assertEquals("seq", streamed.get(1).mode());
    // valid, but not as the judge writes it: the tree's reading, with its rows
    for (String odd : List.of(
        head + a.replace("\"k\": 2", "\"k\": 2.0") + "]}",
        head + a.replace("\"task_id\": \"t1\"", "\"task_id\": 7") + "]}",
        head + a.replace("\"values\": {", "\"values\": null, \"v\": {") + "]}",
        head + a.replace("\"cost\": 0.25", "\"cost\": 0.25, \"score\": 0.0") + "]}",
        "{\"rows\": [" + a + "], \"schema\": \"" + MetricVector.SCHEMA + "\", \"rows\": [" + b + "]}")) {
      assertEquals(InputFiles.metricsFromTree("m.json", odd), metrics("m.json", odd), odd);
    }
    assertEquals(0.0, metrics("m.json", head + a.replace("\"cost\": 0.25", "\"cost\": 0.25, \"score\": "
        + "0.0") + "]}").get(0).value("score"), "a name given twice: the last value");
    // malformed: the tree's message
    for (String bad : List.of(head + a.replace("\"not-applicable\"", "\"why\"") + "]}",
        head.replace(MetricVector.SCHEMA, "h2beam-metrics/v0") + a + "]}", head + a + ", {\"task_id\": }]}", "[]")) {
      assertNull(new MetricsReader().rows(utf8(bad)), bad);
      String tree = assertThrows(IOException.class, () -> InputFiles.metricsFromTree("m.json", bad)).getMessage();
      assertEquals(tree, assertThrows(IOException.class, () -> metrics("m.json", bad)).getMessage());
    }
  }

  /**
   * judged.json as the judge writes it is read token by token, and gives the rows its tree gives; harness2's rows
   * and any other valid shape are read from the tree, and a malformed file gets the tree's message.
   */
  @Test
  void judgedRowsReadTokenByTokenGiveWhatTheTreeGives() throws Exception {
    String graded = "{\"task_id\": \"t0\", \"mode\": \"agg\", \"k\": 2, \"label\": \"agg1\", \"run_id\": "
        + "\"ns/t0/agg1\", \"chosen_is_base\": false, \"n_passed\": 3, \"n_criteria\": 4, \"all_pass\": false, "
        + "\"raw\": {\"metric\": \"points\", \"n_criteria\": 4, \"repeat_sd\": 0.125, \"repeats\": [{\"s\": 1}]}, "
        + "\"error\": \"\", \"frac\": 0.75, \"graded\": true, \"absence\": null}";
    String failed = "{\"task_id\": \"t1\", \"mode\": \"sequential\", \"k\": null, \"label\": null, \"run_id\": "
        + "null, \"chosen_is_base\": true, \"n_passed\": null, \"n_criteria\": null, \"all_pass\": false, \"raw\": "
        + "null, \"error\": \"selection did not complete successfully\", \"absence\": \"selection-failed\"}";
    String text = "[" + graded + ", " + failed + "]";
    List<Scored> streamed = JudgedReader.rows(utf8(text), 2);
    assertEquals(InputFiles.judgedFromTree("j", text, 2).rows(), streamed);
    assertEquals(0.125, streamed.get(0).repeatSd());
    assertEquals("points", streamed.get(0).metric());
    assertEquals("seq", streamed.get(1).mode());
    assertEquals(2, streamed.get(1).k());
    for (String odd : List.of(
        "[" + graded.replace("\"mode\": \"agg\"", "\"arm\": \"agg\"") + "]",
        "[" + graded.replace("\"k\": 2", "\"k\": \"3\"") + "]",
        "[" + graded.replace("\"metric\": \"points\"", "\"metric\": 5") + "]",
        "[" + graded.replace("\"repeat_sd\": 0.125", "\"repeat_sd\": \"x\"") + "]",
        "[" + graded.replace("\"label\": \"agg1\"", "\"label\": \"agg1\", \"label\": \"agg2\"") + "]")) {
      assertEquals(InputFiles.judgedFromTree("j", odd, 2).rows(), judged("j", odd, 2).rows(), odd);
    }
    for (String bad : List.of("[" + failed.replace("\"chosen_is_base\": true", "\"chosen_is_base\": null") + "]",
        "[" + graded.replace("\"task_id\": \"t0\"", "\"task_id\": \" \"") + "]",
        "[" + graded.replace("\"k\": 2", "\"k\": 0") + "]", "{}", "[" + graded)) {
      assertNull(JudgedReader.rows(utf8(bad), 2), bad);
      String tree = assertThrows(IOException.class, () -> InputFiles.judgedFromTree("j", bad, 2)).getMessage();
      assertEquals(tree, assertThrows(IOException.class, () -> judged("j", bad, 2)).getMessage());
    }
    // bytes that are not UTF-8 (here in a string the parser would take) are refused as such, in both files
    byte[] latin1 = ("[" + graded.replace("agg1", "agg\u00e9") + "]").getBytes(StandardCharsets.ISO_8859_1);
    assertTrue(assertThrows(IOException.class, () -> InputFiles.judged("j", latin1, 2)).getMessage()
        .startsWith("j is not UTF-8 text (byte 0xE9"));
    assertTrue(assertThrows(IOException.class, () -> InputFiles.metrics("m.json", latin1)).getMessage()
        .startsWith("m.json is not UTF-8 text (byte 0xE9"));
  }
}
