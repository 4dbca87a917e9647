package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One judged selection (spec §2.12): a graded row has a score; every other row has an absence reason from {@link
 * Absence} (in judged.json, in its {@code raw}) and null scores, never zeros.
 *
 * @param namespace the namespace folder this row belongs to (not written to judged.json)
 * @param nPassed a number or null
 * @param nCriteria a number or null
 */
public record JudgedRow(
    String namespace, String taskId, String mode, int k, String label, String runId, boolean chosenIsBase,
    Number nPassed, Number nCriteria, Boolean allPass, Map<String, Object> raw, String error, String absence)
    implements Serializable {

  /**
   * The key of an ungraded row's absence reason in judged.json, in its {@code raw}; h2beam up to 50dc1e1 wrote it
   * beside {@code raw}, and such files are read either way ({@link #absenceNode}).
   */
  public static final String ABSENCE = "absence";

  /**
   * A judged.json row's absence reason as written: beside {@code raw} (h2beam up to 50dc1e1, a key harness2's judge
   * refused), else {@code raw}'s when it is a text (any other value there is the grader's own); null for none.
   */
  public static JsonNode absenceNode(JsonNode row) {
    JsonNode raw = row.get("raw");
    return row.hasNonNull(ABSENCE) || raw == null || !raw.path(ABSENCE).isTextual() ? row.get(ABSENCE)
        : raw.get(ABSENCE);
  }

  public JudgedRow {
    raw = raw == null ? new LinkedHashMap<>() : new LinkedHashMap<>(raw);
    error = error == null ? "" : error;
    label = label == null ? "" : label;
    runId = runId == null ? "" : runId;
  }

  /** An ungraded row: no score, the reason and the error. */
  public static JudgedRow absent(String namespace, String taskId, String mode, int k, String label, String runId,
      boolean chosenIsBase, Absence absence, String error) {
    return new JudgedRow(namespace, taskId, mode, k, label, runId, chosenIsBase, null, null, false, Map.of(), error,
        absence.code);
  }

  /** Graded means the judge produced criteria ({@code n_criteria > 0}); it says nothing about passing. */
  public boolean graded() {
    return nCriteria != null && nCriteria.doubleValue() > 0 && nPassed != null;
  }

  public Double frac() {
    return graded() ? nPassed.doubleValue() / nCriteria.doubleValue() : null;
  }

  /** The merge key: (task_id, mode, k). */
  public String key() {
    return key(taskId, mode, k);
  }

  /** The merge key of a row of this task, mode and k. */
  public static String key(String taskId, String mode, int k) {
    return taskId + "\u0000" + mode + "\u0000" + k;
  }

  /** The row's absence reason: null for a graded row, {@code judge-failed} for an ungraded one that names none. */
  public String absenceCode() {
    return graded() ? null : absence == null || absence.isEmpty() ? Absence.JUDGE_FAILED.code : absence;
  }

  /**
   * judged.json's keys, exactly harness2's in its order: harness2's judge and report build each row with its
   * {@code Scored(**row)} and fail on any other key. An ungraded row's absence reason is h2beam's, so it goes in
   * {@code raw} (as {@code absence}), which harness2 carries through as it is.
   */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task_id", taskId);
    m.put("mode", mode);
    m.put("k", k);
    m.put("label", label);
    m.put("run_id", runId);
    m.put("chosen_is_base", chosenIsBase);
    m.put("n_passed", nPassed);
    m.put("n_criteria", nCriteria);
    m.put("all_pass", allPass != null && allPass);
    String code = absenceCode();
    if (code == null) {
      m.put("raw", raw);
    } else {
      Map<String, Object> withReason = new LinkedHashMap<>(raw);
      withReason.put(ABSENCE, code);
      m.put("raw", withReason);
    }
    m.put("error", error);
    m.put("frac", frac());
    m.put("graded", graded());
    return m;
  }

  /**
   * Reads a row of judged.json (h2beam's or harness2's; legacy {@code arm}) as parsed and checked
   * ({@code FileShapes.judgedRow}); derived keys are recomputed.
   */
  @SuppressWarnings("unchecked")
  public static JudgedRow fromTree(String namespace, JsonNode m) {
    JsonNode mode = m.has("mode") ? m.get("mode") : m.get("arm");
    JsonNode raw = m.get("raw");
    JsonNode k = m.get("k");
    JsonNode absence = absenceNode(m);
    return new JudgedRow(namespace, str(m.get("task_id")), str(mode), k != null && k.isNumber() ? k.intValue() : 0,
        str(m.get("label")), str(m.get("run_id")), isTrue(m.get("chosen_is_base")), num(m.get("n_passed")),
        num(m.get("n_criteria")), isTrue(m.get("all_pass")),
        raw != null && raw.isObject() ? Json.MAPPER.convertValue(raw, Map.class) : Map.of(), str(m.get("error")),
        absence == null || absence.isNull() ? null : str(absence));
  }

  /** A text of the row, "" for none: a checked row's texts are strings. */
  private static String str(JsonNode n) {
    if (n == null || n.isNull()) return "";
    return n.isValueNode() ? n.asText() : n.toString();
  }

  private static boolean isTrue(JsonNode n) {
    return n != null && n.isBoolean() && n.booleanValue();
  }

  private static Number num(JsonNode n) {
    return n != null && n.isNumber() ? n.numberValue() : null;
  }
}
