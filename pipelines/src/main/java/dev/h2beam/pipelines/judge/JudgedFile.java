package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.files.FileShapes;
import dev.h2beam.pipelines.files.JsonParts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** judged.json: read, merged by harness2's rule, written sorted by (task, mode, k) with an atomic rename. */
public final class JudgedFile {
  private JudgedFile() {}

  /** The judged rows of a namespace's selections, harness2's file. */
  public static final String FILE = "judged.json";
  /** The judged base rollouts ({@code judge --bases}). */
  public static final String BASES_FILE = "base_judged.json";

  /**
   * judged.json's row order, harness2's (spec §2.12): sorted by (task_id, mode, k), the mode token by its text, as
   * Python sorts it (agg, gat, seq where the gated mode ran; the reports list modes in their fixed order).
   */
  private static final Comparator<JudgedRow> ORDER = Comparator.comparing(JudgedRow::taskId)
      .thenComparing(JudgedRow::mode).thenComparingInt(JudgedRow::k);

  /** The rows of an existing judged.json, none when it does not exist; an unreadable file is an IOException. */
  public static List<JudgedRow> read(Path file, String namespace) throws IOException {
    JsonNode parsed = parsed(file);
    if (parsed == null) return List.of();
    List<JudgedRow> rows = new ArrayList<>(parsed.size());
    for (JsonNode row : parsed) rows.add(JudgedRow.fromTree(namespace, row));
    return rows;
  }

  /**
   * Refuses an existing judged.json that {@link #read} would refuse, with the same message, without making its rows
   * (the judge looks at every namespace's before it grades any, and reads it again when it writes).
   */
  public static void check(Path file) throws IOException {
    parsed(file);
  }

  /** The file's rows as parsed and checked, null when it does not exist. */
  private static JsonNode parsed(Path file) throws IOException {
    if (!Files.exists(file)) return null;
    JsonNode parsed;
    try {
      parsed = Json.readTree(file);
    } catch (IOException | RuntimeException e) {
      throw new IOException(file + " is unreadable (" + e.getMessage() + ")");
    }
    try {
      FileShapes.judged(parsed);
    } catch (IOException e) {
      throw new IOException(file + " has the wrong shape: " + e.getMessage());
    }
    return parsed;
  }

  /**
   * Merges new rows into old ones per (task, mode, k): a new row replaces the old one, except that a graded row is
   * never replaced by a failed re-judge of the same run id; a different run id replaces it, and a selection error
   * always replaces. The result is sorted by (task, mode, k).
   */
  public static List<JudgedRow> merge(Collection<JudgedRow> old, Collection<JudgedRow> fresh) {
    Map<String, JudgedRow> byKey = new LinkedHashMap<>();
    for (JudgedRow r : old) byKey.put(r.key(), r);
    for (JudgedRow r : fresh) {
      if (!keepsOld(byKey.get(r.key()), r)) byKey.put(r.key(), r);
    }
    List<JudgedRow> out = new ArrayList<>(byKey.values());
    out.sort(ORDER);
    return out;
  }

  /** Whether {@code fresh} leaves {@code before} in place: a failed re-judge of the same run never erases a score. */
  static boolean keepsOld(JudgedRow before, JudgedRow fresh) {
    return before != null && before.runId().equals(fresh.runId()) && before.graded() && !fresh.graded()
        && !fresh.error().startsWith("selection");
  }

  /**
   * The rows of this run that were not graded, for the console: task, mode, k, label, absence, error and whether the
   * earlier graded row was kept in their place (judged.json then does not show the failure).
   */
  static List<Object> failures(Collection<JudgedRow> old, Collection<JudgedRow> fresh) {
    Map<String, JudgedRow> before = new LinkedHashMap<>();
    for (JudgedRow r : old) before.put(r.key(), r);
    List<JudgedRow> failed = new ArrayList<>(fresh.stream().filter(r -> !r.graded()).toList());
    failed.sort(ORDER);
    List<Object> out = new ArrayList<>();
    for (JudgedRow r : failed) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("task_id", r.taskId());
      m.put("mode", r.mode());
      m.put("k", r.k());
      m.put("label", r.label());
      m.put("absence", r.absenceCode());
      m.put("error", r.error());
      m.put("kept_earlier", keepsOld(before.get(r.key()), r));
      out.add(m);
    }
    return out;
  }

  /**
   * Rows of a namespace's judged.json and metrics.json made into bytes together, a part of the file each ({@link
   * JsonParts}): a namespace of 20,000 tasks was written by one thread in most of a second while the other core
   * waited; a namespace of 500 tasks is one part.
   */
  static final int ROWS_PER_PART = 1000;

  public static void write(Path file, List<JudgedRow> rows) throws IOException {
    write(file, rows, ROWS_PER_PART);
  }

  /** {@link #write}, its rows made in parts of {@code rowsPerPart} (the file is the same for any). */
  static void write(Path file, List<JudgedRow> rows, int rowsPerPart) throws IOException {
    JsonParts json = JsonParts.runs(rows, rowsPerPart, 1, (g, run) -> {
      for (JudgedRow r : run) Json.MAPPER.writeValue(g, r.toJson());
    });
    AtomicFiles.write(file, false, out -> Json.writePretty(out, json));
  }

  /**
   * What {@link #mergeInto} did: {@code result} is what the command prints; {@code rows} the rows it wrote, null
   * when it wrote nothing.
   */
  public record Merged(Map<String, Object> result, List<JudgedRow> rows) {}

  /**
   * Merges fresh rows into the namespace's judged.json and writes it; returns what the command prints (the file, its
   * row and graded counts, or the error when the existing file is unreadable: it is then left untouched) and the rows
   * written.
   */
  public static Merged mergeInto(Path namespace, List<JudgedRow> fresh) throws IOException {
    Map<String, Object> result = new LinkedHashMap<>();
    Path file = namespace.resolve(FILE);
    List<JudgedRow> old;
    try {
      old = read(file, namespace.toString());
    } catch (IOException e) {
      result.put("error", e.getMessage() + "; move it aside to rebuild it (it was left untouched)");
      return new Merged(result, null);
    }
    List<JudgedRow> merged = merge(old, fresh);
    result.put("failed", failures(old, fresh));
    try {
      write(file, merged);
    } catch (IOException e) {
      result.put("error", cannotWrite(file, e) + "; the earlier judged.json is unchanged");
      return new Merged(result, null);
    }
    result.put("wrote", file.toString());
    result.put("rows", merged.size());
    result.put("graded", merged.stream().filter(JudgedRow::graded).count());
    // the modes judged.json now holds rows of: the report the judge suggests names no other
    result.put("modes", new java.util.TreeSet<>(merged.stream().map(JudgedRow::mode).toList()));
    return new Merged(result, merged);
  }

  /**
   * Why a file could not be written and the fix: the folder's permissions, owner, a read-only or full file system.
   * Not "move it aside", which is the fix for a file that cannot be read.
   */
  static String cannotWrite(Path file, IOException e) {
    Path dir = file.toAbsolutePath().getParent();
    // the machine's state (a full disk, a read-only mount, no file handles) has its own fix, not the permissions
    java.util.Optional<String> state = dev.h2beam.adapters.files.DiskFull.line(
        dev.h2beam.adapters.files.DiskFull.naming(file, e));
    if (state.isPresent()) return state.get();
    return "cannot write " + file + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + "): this user"
        + " needs write permission on " + dir + " and on the file if it exists (see ls -ld " + dir + "; chmod u+w,"
        + " or ask the owner), on a file system that is neither read-only nor full; or judge a copy of the"
        + " namespace";
  }

  /**
   * Writes base_judged.json (indent 1): {@code {task, label, run_id, score}}, score null when ungraded, merged into the
   * file there as judged.json is (dogAL F5): an earlier base row stays unless this run judged it, and a failed
   * re-judge of the same run never erases its score (its failure says {@code kept_earlier}). A file there that cannot
   * be read is left untouched and named.
   */
  public static Map<String, Object> writeBases(Path namespace, List<JudgedRow> rows) throws IOException {
    Path file = namespace.resolve(BASES_FILE);
    Map<String, Object> result = new LinkedHashMap<>();
    // task, then label: the order harness2 writes them in
    Map<String, Map<String, Object>> byKey = new java.util.TreeMap<>();
    if (Files.exists(file)) {
      JsonNode old;
      try {
        old = Json.readTree(file);
      } catch (IOException e) {
        old = null;
      }
      if (old == null || !old.isArray()) {
        result.put("error", file + " cannot be read as a list of base rows; move it aside to rebuild it (it was left"
            + " untouched)");
        return result;
      }
      for (JsonNode r : old) {
        if (!r.isObject()) continue;
        Map<String, Object> m = Json.convert(r, Map.class);
        byKey.put(r.path("task").asText("") + "\u0000" + r.path("label").asText(""), m);
      }
    }
    java.util.Set<String> kept = new java.util.HashSet<>();
    for (JudgedRow r : rows) {
      String key = r.taskId() + "\u0000" + r.label();
      Map<String, Object> before = byKey.get(key);
      if (!r.graded() && before != null && before.get("score") != null && r.runId().equals(before.get("run_id"))) {
        kept.add(key);
        continue;
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("task", r.taskId());
      m.put("label", r.label());
      m.put("run_id", r.runId());
      m.put("score", r.graded() ? r.raw() : null);
      byKey.put(key, m);
    }
    AtomicFiles.writeString(file, Json.pretty(new ArrayList<>(byKey.values()), 1));
    List<Object> failed = failures(List.of(), rows);
    for (Object f : failed) {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) f;
      m.put("kept_earlier", kept.contains(m.get("task_id") + "\u0000" + m.get("label")));
    }
    result.put("failed", failed);
    result.put("wrote", file.toString());
    result.put("rows", byKey.size());
    result.put("graded", byKey.values().stream().filter(m -> m.get("score") != null).count());
    return result;
  }
}
