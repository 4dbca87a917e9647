package dev.h2beam.pipelines.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.files.FileShapes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one judged.json token by token, for a file as h2beam's judge writes it: an array of row objects, each with a
 * non-blank {@code task_id} and {@code mode}, {@code k} an int of at least 1 or null, the counts numbers or null, the
 * flags booleans, the texts strings or null and {@code raw} an object or null. For anything else (harness2's legacy
 * {@code arm} and k as text, a wrong shape, a syntax error) it gives null, and {@link InputFiles#judged} reads the
 * file from its tree, which gives the same rows or the message naming what is wrong. As for metrics.json ({@link
 * MetricsReader}), the tree cost more than everything else the report did with the file. It reads the file's bytes,
 * which the caller has checked are UTF-8: parsing its text instead copied each part of it into characters first.
 */
final class JudgedReader {
  private JudgedReader() {}

  /**
   * The rows, {@code fallbackK} for a row whose k is null or missing; null when the file is not as the judge writes
   * it.
   */
  static List<Scored> rows(byte[] utf8, int fallbackK) {
    try (JsonParser p = Json.MAPPER.getFactory().createParser(utf8)) {
      if (p.nextToken() != JsonToken.START_ARRAY) return null;
      List<Scored> rows = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        Scored row = t == JsonToken.START_OBJECT ? row(p, fallbackK) : null;
        if (row == null) return null;
        rows.add(row);
      }
      return rows;
    } catch (IOException e) {
      return null; // the tree's reading names what is wrong
    }
  }

  /** One row, the parser at its START_OBJECT ({@link InputFiles#row} from a tree); null when it is not regular. */
  private static Scored row(JsonParser p, int fallbackK) throws IOException {
    String task = null;
    String mode = null;
    int k = fallbackK;
    String label = "";
    String runId = "";
    String error = "";
    String absence = "";
    String rawAbsence = "";
    Boolean base = false;
    Boolean allPass = false;
    Double passed = null;
    Double criteria = null;
    String metric = "";
    Double repeatSd = null;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      switch (field) {
        case "task_id" -> task = v == JsonToken.VALUE_STRING ? p.getText() : null;
        case "mode" -> mode = v == JsonToken.VALUE_STRING ? p.getText() : null;
        case "arm" -> {
          return null; // harness2's legacy key: the tree's reading knows which of the two counts
        }
        case "k" -> {
          if (v == JsonToken.VALUE_NULL) k = fallbackK;
          else if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT
              && p.getIntValue() >= 1) k = p.getIntValue();
          else return null;
        }
        case "label", "run_id", "error", "absence" -> {
          if (v != JsonToken.VALUE_STRING && v != JsonToken.VALUE_NULL) return null;
          String s = v == JsonToken.VALUE_NULL ? "" : p.getText();
          switch (field) {
            case "label" -> label = s;
            case "run_id" -> runId = s;
            case "error" -> error = s;
            default -> absence = s;
          }
        }
        case "chosen_is_base", "all_pass" -> {
          if (!v.isBoolean()) return null;
          if (field.equals("all_pass")) allPass = v == JsonToken.VALUE_TRUE;
          else base = v == JsonToken.VALUE_TRUE;
        }
        case "n_passed", "n_criteria" -> {
          if (v != JsonToken.VALUE_NULL && !v.isNumeric()) return null;
          Double n = v == JsonToken.VALUE_NULL ? null : p.getDoubleValue();
          if (field.equals("n_passed")) passed = n;
          else criteria = n;
        }
        case "raw" -> {
          if (v == JsonToken.VALUE_NULL) {
            metric = "";
            repeatSd = null;
          } else if (v != JsonToken.START_OBJECT) return null;
          else {
            metric = "";
            repeatSd = null;
            for (JsonToken e = p.nextToken(); e == JsonToken.FIELD_NAME; e = p.nextToken()) {
              String name = p.currentName();
              JsonToken x = p.nextToken();
              if (name.equals("absence")) {
                // an ungraded row's reason, in raw after 50dc1e1 (beside it before, read above); raw is the
                // grader's otherwise, so anything but a text there is not h2beam's and is passed over
                if (x == JsonToken.VALUE_STRING) rawAbsence = p.getText();
                else p.skipChildren();
              } else if (name.equals("metric")) {
                if (x == JsonToken.VALUE_STRING) metric = p.getText();
                else if (x == JsonToken.VALUE_NULL) metric = "";
                else return null;
              } else if (name.equals("repeat_sd")) {
                repeatSd = x.isNumeric() ? p.getDoubleValue() : null;
                p.skipChildren();
              } else p.skipChildren();
            }
          }
        }
        default -> p.skipChildren();
      }
    }
    if (task == null || task.isBlank() || mode == null || mode.isBlank()) return null;
    // counts no judge writes (beyond a double, below 0, more passed than there are): the tree's reading names them
    if (!count(passed) || !count(criteria)
        || passed != null && criteria != null && FileShapes.moreThan(passed, criteria)) {
      return null;
    }
    if (repeatSd != null && !Double.isFinite(repeatSd)) repeatSd = null;
    return new Scored(task, InputFiles.modeToken(mode), k, label, runId, base, passed, criteria, allPass, metric,
        error, absence.isEmpty() ? rawAbsence : absence, repeatSd);
  }

  /** A count as a judge writes it: none, or a finite number from 0 up. */
  private static boolean count(Double n) {
    return n == null || Double.isFinite(n) && n >= 0;
  }
}
