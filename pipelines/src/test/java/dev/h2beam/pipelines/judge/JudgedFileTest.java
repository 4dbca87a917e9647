package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** harness2's judged.json merge rule (spec §14.2), one rule per test. */
class JudgedFileTest {

  static JudgedRow graded(String task, String runId) {
    return new JudgedRow("ns", task, "agg", 2, "agg1", runId, false, 1, 2, false, Map.of(), "", null);
  }

  static JudgedRow failed(String task, String runId, String error) {
    return JudgedRow.absent("ns", task, "agg", 2, "agg1", runId, false, Absence.JUDGE_FAILED, error);
  }

  /**
   * dogX F8: a judge on a full disk was told to fix the folder's permissions; the machine's state gets its own fix,
   * and a refused write still gets the permission advice.
   */
  @Test
  void aFullDiskIsToldToFreeSpaceAndARefusedWriteToFixPermissions() {
    Path file = Path.of("/runs/ns/config.json");
    assertEquals("could not write " + file + " (No space left on device): free space and re-run the same command;"
        + " finished work is kept and resumed", JudgedFile.cannotWrite(file, new IOException("No space left on"
        + " device")));
    String denied = JudgedFile.cannotWrite(file, new java.nio.file.AccessDeniedException(file.toString()));
    assertEquals("cannot write " + file + " (AccessDeniedException: " + file + "): this user needs write permission"
        + " on /runs/ns", denied.substring(0, denied.indexOf(" and on the file")));
  }

  @Test
  void aFailedReJudgeOfTheSameRunKeepsTheGradedRow() {
    JudgedRow old = graded("t", "r1");
    assertSame(old, JudgedFile.merge(List.of(old), List.of(failed("t", "r1", "boom"))).get(0));
  }

  @Test
  void aDifferentRunIdReplacesEvenAGradedRow() {
    JudgedRow fresh = failed("t", "r2", "boom");
    assertSame(fresh, JudgedFile.merge(List.of(graded("t", "r1")), List.of(fresh)).get(0));
  }

  @Test
  void aSelectionErrorAlwaysReplaces() {
    JudgedRow fresh = failed("t", "r1", "selection did not complete successfully");
    assertSame(fresh, JudgedFile.merge(List.of(graded("t", "r1")), List.of(fresh)).get(0));
  }

  @Test
  void aNewGradedRowReplacesAnOldOne() {
    JudgedRow fresh = graded("t", "r1");
    assertSame(fresh, JudgedFile.merge(List.of(failed("t", "r1", "boom")), List.of(fresh)).get(0));
  }

  @Test
  void rowsOfOtherTasksStayAndTheResultIsSortedByTaskModeK() {
    List<JudgedRow> merged = JudgedFile.merge(List.of(graded("b", "r"), graded("a", "r")), List.of(graded("c", "r")));
    assertEquals(List.of("a", "b", "c"), merged.stream().map(JudgedRow::taskId).toList());
  }

  @Test
  void legacyArmIsReadAsModeAndDerivedKeysAreRecomputed(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("judged.json"), "[{\"task_id\": \"t\", \"arm\": \"seq\", \"k\": 1, \"n_passed\": 1,"
        + " \"n_criteria\": 4, \"frac\": 0.9, \"graded\": false}]");
    JudgedRow r = JudgedFile.read(dir.resolve("judged.json"), "ns").get(0);
    assertEquals("seq", r.mode());
    assertEquals(0.25, r.frac());
    assertEquals(true, r.graded());
  }

  @Test
  void anUnreadableFileIsAnErrorNotAnEmptyList(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("judged.json"), "{}");
    assertThrows(IOException.class, () -> JudgedFile.read(dir.resolve("judged.json"), "ns"));
  }

  /**
   * Rows are made from the parsed file as they were from the file converted to maps and lists: legacy keys, k as
   * text, nulls and missing keys, numbers of every size, a nested raw record in its order, and {@link JudgedFile#check}
   * refuses what {@link JudgedFile#read} refuses, with the same message.
   */
  @Test
  @SuppressWarnings("unchecked")
  void rowsReadFromTheParsedFileEqualRowsReadThroughMaps(@TempDir Path dir) throws IOException {
    String text = "[{\"task_id\": \"t1\", \"mode\": \"agg\", \"k\": 2, \"label\": \"agg1\", \"run_id\": \"r\","
        + " \"chosen_is_base\": true, \"n_passed\": 3, \"n_criteria\": 12345678901234, \"all_pass\": false,"
        + " \"raw\": {\"z\": [1, 2.5, null, {\"b\": 1, \"a\": \"x\"}], \"a\": 99999999999999999999},"
        + " \"error\": \"\", \"absence\": null},"
        + " {\"task_id\": \"t2\", \"arm\": \"seq\", \"k\": \"3\", \"n_passed\": 0.5, \"n_criteria\": 1.0,"
        + " \"raw\": null, \"label\": null, \"absence\": \"judge-failed\", \"error\": \"boom\"},"
        + " {\"task_id\": \"t3\", \"mode\": \"gat\", \"arm\": \"agg\"}]";
    Path file = dir.resolve("judged.json");
    Files.writeString(file, text);
    List<JudgedRow> viaMaps = new ArrayList<>();
    for (Object o : Json.MAPPER.readValue(text, List.class)) {
      viaMaps.add(viaMap("ns", (Map<String, Object>) o));
    }
    List<JudgedRow> read = JudgedFile.read(file, "ns");
    assertEquals(viaMaps, read);
    for (int i = 0; i < read.size(); i++) {
      assertEquals(Json.pretty(viaMaps.get(i).toJson()),
          Json.pretty(read.get(i).toJson()), "row " + i + " as written");
    }
    JudgedFile.check(file);

    Files.writeString(file, "[{\"task_id\": \"t\"}]");
    IOException byRead = assertThrows(IOException.class, () -> JudgedFile.read(file, "ns"));
    IOException byCheck = assertThrows(IOException.class, () -> JudgedFile.check(file));
    assertEquals(byRead.getMessage(), byCheck.getMessage());
  }

  /**
   * A row as the judge read judged.json before it read the parsed file (the whole file converted to maps and lists
   * first): the expectation {@link JudgedRow#fromTree} must meet.
   */
  @SuppressWarnings("unchecked")
  private static JudgedRow viaMap(String namespace, Map<String, Object> m) {
    Object mode = m.containsKey("mode") ? m.get("mode") : m.get("arm");
    Object raw = m.get("raw");
    Object k = m.get("k");
    return new JudgedRow(namespace, text(m.get("task_id")), text(mode), k instanceof Number n ? n.intValue() : 0,
        text(m.get("label")), text(m.get("run_id")), Boolean.TRUE.equals(m.get("chosen_is_base")),
        m.get("n_passed") instanceof Number n ? n : null, m.get("n_criteria") instanceof Number n ? n : null,
        Boolean.TRUE.equals(m.get("all_pass")), raw instanceof Map ? (Map<String, Object>) raw : Map.of(),
        text(m.get("error")), m.get("absence") != null ? text(m.get("absence"))
            : raw instanceof Map<?, ?> r && r.get("absence") instanceof String a ? a : null);
  }

  private static String text(Object o) {
    return o == null ? "" : String.valueOf(o);
  }

  /**
   * A namespace's judged.json is written in parts of rows made on two threads: the file is the one a single writer
   * gives (the rows as maps, written pretty), whatever the rows per part, a last short part included.
   */
  @Test
  void judgedJsonWrittenInPartsIsTheFileOneWriterGives(@TempDir Path dir) throws Exception {
    List<JudgedRow> rows = new ArrayList<>();
    List<Object> maps = new ArrayList<>();
    for (int i = 0; i < 2300; i++) {
      JudgedRow r = i % 7 == 0 ? failed("t" + i, "r" + i, "boom \u2014 " + i)
          : new JudgedRow("ns", "t" + i, i % 2 == 0 ? "agg" : "seq", 2, "agg1", "r" + i, false, i % 3, 2, i % 3 == 2,
              Map.of("metric", "points", "repeat_sd", 0.1 * i), "", null);
      rows.add(r);
      maps.add(r.toJson());
    }
    String one = Json.pretty(maps);
    for (int perPart : List.of(JudgedFile.ROWS_PER_PART, 1, 999, 5000)) {
      Path file = dir.resolve("judged-" + perPart + ".json");
      JudgedFile.write(file, rows, perPart);
      assertEquals(one, Files.readString(file), "rows per part " + perPart);
    }
    JudgedFile.write(dir.resolve("none.json"), List.of());
    assertEquals("[]", Files.readString(dir.resolve("none.json")));
  }
}
