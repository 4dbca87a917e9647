package dev.h2beam.pipelines.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.judge.MetricVector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads one metrics.json token by token, for a file as the judge writes it: an object whose {@code schema} is
 * {@link MetricVector#SCHEMA} (or {@link MetricVector#SCHEMA_V1}, read as {@link MetricRow#fromV1}) and whose
 * {@code rows} are objects, each with {@code task_id} and {@code mode} strings, {@code k} an int, every value a
 * number and every reason a string of the closed set. For anything else (a syntax
 * error included) it gives null, and {@link InputFiles#metricsFromTree} reads the file again to give the same rows or
 * the message naming what is wrong. Building the tree cost more than everything else the report did with the file
 * (some 17,000 nodes for a namespace of 500 tasks in two modes).
 *
 * <p>The rows of a file name the same metrics in the same order: the order sorted (a metric row's maps are sorted by
 * name) is worked out for the first row of a sequence and kept for the rows after it, which then share its array of
 * names, as the facts codec's rows do.
 */
final class MetricsReader {
  private final Order values = new Order();
  private final Order absent = new Order();

  /** The file's rows from its bytes (checked UTF-8 by the caller), or null when it is not as the judge writes it. */
  List<MetricRow> rows(byte[] utf8) {
    try (JsonParser p = Json.MAPPER.getFactory().createParser(utf8)) {
      if (p.nextToken() != JsonToken.START_OBJECT) return null;
      String schema = null;
      List<MetricRow> rows = null;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        if (field.equals("schema")) {
          if (v != JsonToken.VALUE_STRING) return null;
          schema = p.getText();
        } else if (field.equals("rows")) {
          if (v != JsonToken.START_ARRAY) return null;
          rows = new ArrayList<>(); // given twice, the last one counts, as in the tree
          for (JsonToken r = p.nextToken(); r != JsonToken.END_ARRAY; r = p.nextToken()) {
            MetricRow row = r == JsonToken.START_OBJECT ? row(p) : null;
            if (row == null) return null;
            rows.add(row);
          }
        } else p.skipChildren();
      }
      if (!MetricVector.readable(schema)) return null;
      if (rows != null && MetricVector.SCHEMA_V1.equals(schema)) rows.replaceAll(MetricRow::fromV1);
      return rows;
    } catch (IOException e) {
      return null; // the tree's reading names what is wrong
    }
  }

  /** One row, the parser at its START_OBJECT; null when it is not as the judge writes it. */
  private MetricRow row(JsonParser p) throws IOException {
    String task = "";
    String mode = "";
    Integer k = null;
    Map<String, Double> vals = Map.of();
    Map<String, String> reasons = Map.of();
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      switch (field) {
        case "task_id", "mode" -> {
          if (v != JsonToken.VALUE_STRING && v != JsonToken.VALUE_NULL) return null;
          String s = v == JsonToken.VALUE_NULL ? "" : p.getText();
          if (field.equals("mode")) mode = s;
          else task = s;
        }
        case "k" -> {
          if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) return null;
          k = p.getIntValue();
        }
        case "values" -> {
          if (v != JsonToken.START_OBJECT) return null;
          vals = values.read(p, false);
          if (vals == null) return null;
        }
        case "absent" -> {
          if (v != JsonToken.START_OBJECT) return null;
          reasons = absent.read(p, true);
          if (reasons == null) return null;
        }
        default -> p.skipChildren();
      }
    }
    return k == null ? null : new MetricRow(task, InputFiles.modeToken(mode), k, vals, reasons);
  }

  /** The order of one map's names as last written, and where each goes sorted. */
  private static final class Order {
    private String[] written = new String[0];
    private int[] sortedAt = new int[0];
    private String[] sorted = new String[0];
    private String[] names = new String[16];
    private Object[] items = new Object[16];

    /**
     * The object the parser is at (its START_OBJECT read) as a sorted map: of numbers, or of reasons of the closed
     * set ({@code reasons}); null when a value is of another kind.
     */
    @SuppressWarnings("unchecked")
    <V> Map<String, V> read(JsonParser p, boolean reasons) throws IOException {
      int n = 0;
      for (JsonToken e = p.nextToken(); e == JsonToken.FIELD_NAME; e = p.nextToken()) {
        if (n == names.length) {
          names = Arrays.copyOf(names, 2 * n);
          items = Arrays.copyOf(items, 2 * n);
        }
        names[n] = p.currentName(); // the parser's own copy of a name: the same object in every row
        JsonToken v = p.nextToken();
        if (reasons) {
          if (v != JsonToken.VALUE_STRING || (items[n] = reason(p)) == null) return null;
        } else {
          if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_NUMBER_FLOAT) return null;
          double d = p.getDoubleValue();
          // beyond a double (1e400): the careful reader names the row (dogAL F1)
          if (!Double.isFinite(d)) return null;
          items[n] = d;
        }
        n++;
      }
      if (!sameAsWritten(n) && !learn(n)) {
        // a name given twice: the last value, as the tree keeps it
        Map<String, Object> m = new TreeMap<>();
        for (int i = 0; i < n; i++) m.put(names[i], items[i]);
        return (Map<String, V>) SortedArrayMap.copyOf(m);
      }
      Object[] out = new Object[n];
      for (int i = 0; i < n; i++) out[sortedAt[i]] = items[i];
      return (Map<String, V>) SortedArrayMap.ofSorted(sorted, out);
    }

    private boolean sameAsWritten(int n) {
      if (n != written.length) return false;
      for (int i = 0; i < n; i++) if (names[i] != written[i] && !names[i].equals(written[i])) return false;
      return true;
    }

    /** Keeps this row's order of names; false (nothing kept) when a name is given twice. */
    private boolean learn(int n) {
      String[] w = Arrays.copyOf(names, n);
      String[] s = w.clone();
      Arrays.sort(s);
      for (int i = 1; i < n; i++) if (s[i - 1].equals(s[i])) return false;
      int[] at = new int[n];
      for (int i = 0; i < n; i++) at[i] = Arrays.binarySearch(s, w[i]);
      written = w;
      sorted = s;
      sortedAt = at;
      return true;
    }

    /** The reason the parser is at, as the closed set's own string (none made per row); null for another text. */
    private static String reason(JsonParser p) throws IOException {
      char[] c = p.getTextCharacters();
      int from = p.getTextOffset();
      int len = p.getTextLength();
      for (String r : MetricVector.REASONS) {
        if (r.length() != len) continue;
        int i = 0;
        while (i < len && r.charAt(i) == c[from + i]) i++;
        if (i == len) return r;
      }
      return null;
    }
  }
}
