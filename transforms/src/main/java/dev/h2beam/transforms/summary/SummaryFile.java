package dev.h2beam.transforms.summary;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Build;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Reads and writes {@code summary.json} (spec §2.11, §8.4). A write merges with what is on disk under an exclusive
 * lock (a JVM lock plus an OS lock on {@code summary.lock}, removed once written) and replaces the file by atomic
 * rename. Modes, selections and errors are always written in the fixed mode order (agg, seq, gat), so the file is the
 * same whichever mode's chain finished first.
 *
 * <p>Each mode's result carries the build that made it ({@link Build#BY_MODE}, h2beam's own key): stamped as this
 * h2beam writes it, and carried through every merge. An older h2beam's merge drops keys it does not know, so a mode
 * without a stamp in a namespace that recording builds began was last written by an h2beam that records none.
 */
public final class SummaryFile {
  private SummaryFile() {}

  public static final List<String> MODE_ORDER = Namespace.MODES;
  /**
   * The top-level key that lists the earlier results a {@code --retryFailedSessions} resume replaced, each kept beside
   * summary.json as {@code summary.retried-<n>.json} with the sessions that had failed in it (an h2beam key, not
   * harness2's).
   */
  public static final String RETRIED = "retried";
  private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  /** Reads a summary; legacy {@code arms} is read as {@code modes}. */
  public static Map<String, Object> read(Path file) throws IOException {
    Map<String, Object> m = Json.readMap(file);
    if (!m.containsKey("modes") && m.get("arms") instanceof Map) {
      Map<String, Object> fixed = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : m.entrySet()) fixed.put(e.getKey().equals("arms") ? "modes" : e.getKey(),
          e.getValue());
      m = fixed;
    }
    return m;
  }

  /** Merges {@code result} into the summary at {@code file} and writes it; returns what was written. */
  public static Map<String, Object> write(Path file, Map<String, Object> result) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    ReentrantLock jvm = LOCKS.computeIfAbsent(abs, p -> new ReentrantLock());
    jvm.lock();
    try {
      Files.createDirectories(abs.getParent());
      Path lockFile = abs.resolveSibling("summary.lock");
      try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = ch.lock()) {
        Map<String, Object> old = Map.of();
        if (Files.isRegularFile(abs)) {
          try {
            old = read(abs);
          } catch (IOException e) {
            old = Map.of();
          }
        }
        Map<String, Object> merged = canonical(merge(old, stamped(result)));
        AtomicFiles.writeString(abs, Json.pretty(merged));
        // removed while held, so a task folder ends as a clean run leaves it (a resume left it behind): one process
        // writes a runs folder at a time (its writer lock), so no other can be waiting on this file's lock
        Files.deleteIfExists(lockFile);
        return merged;
      }
    } finally {
      jvm.unlock();
    }
  }

  /**
   * Where one mode's chain leaves its part of a task's summary ({@code summary.<mode>.json} beside summary.json). On a
   * cluster the two modes' chains of a task run on different workers, and a file written by two workers would need a
   * lock that a network file system does not reliably give; so each chain writes only its own part, and the task's
   * finish step (or a resume, before any chain starts) merges the parts into summary.json.
   */
  public static Path part(Path summary, String mode) {
    return summary.resolveSibling("summary." + mode + ".json");
  }

  /** Writes one mode's part (its only writer is that mode's chain). */
  public static void writePart(Path summary, String mode, Map<String, Object> result) throws IOException {
    Files.createDirectories(summary.toAbsolutePath().getParent());
    AtomicFiles.writeString(part(summary, mode), Json.pretty(canonical(stamped(result))));
  }

  /** The label {@link #failedSessions} gives a mode's reflection whose session failed. */
  public static final String REFLECTION = "reflection";

  /**
   * The sessions of {@code modes} that failed in a finished result, which {@code --retryFailedSessions} asks again:
   * the improver stages that fell back because their sessions failed (the endpoint did not answer usably within the
   * stage's attempts), by label, and the reflection whose session failed ({@value #REFLECTION}: the selection's
   * {@code reflection_error}, a lesson lost); by mode in the fixed mode order, each mode's stages in their order.
   * Empty when there are none. A stage whose edits were refused ({@code refused}) is not one: its session answered,
   * and asked again it would replay the same answer from the reply cache.
   */
  @SuppressWarnings("unchecked")
  public static Map<String, List<String>> failedSessions(Map<String, Object> summary, List<String> modes) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    Map<String, Object> ms = summary.get("modes") instanceof Map ? (Map<String, Object>) summary.get("modes")
        : Map.of();
    Map<String, Object> sels = summary.get("selections") instanceof Map
        ? (Map<String, Object>) summary.get("selections") : Map.of();
    for (String m : MODE_ORDER) {
      if (!modes.contains(m) || !(ms.get(m) instanceof Map)) continue;
      Object stages = ((Map<String, Object>) ms.get(m)).get("stages");
      List<String> labels = new ArrayList<>();
      for (Object st : stages instanceof List ? (List<Object>) stages : List.of()) {
        if (st instanceof Map<?, ?> stage && Boolean.TRUE.equals(stage.get("fell_back"))
            && !Boolean.TRUE.equals(stage.get("refused"))) {
          labels.add(String.valueOf(stage.get("label")));
        }
      }
      if (sels.get(m) instanceof Map<?, ?> sel && sel.get("reflection_error") instanceof String e && !e.isEmpty()) {
        labels.add(REFLECTION);
      }
      if (!labels.isEmpty()) out.put(m, labels);
    }
    return out;
  }

  /** Where a {@code --retryFailedSessions} resume keeps the {@code n}-th result of a task it replaced. */
  public static Path retriedCopy(Path summary, int n) {
    return summary.resolveSibling("summary.retried-" + n + ".json");
  }

  /**
   * {@code merged} with every kept copy beside {@code summary} ({@link #retriedCopy}) that its {@value #RETRIED} list
   * does not name yet added to it, with the sessions that had failed in the copy ({@link #failedSessions}). Called
   * as a re-run's modes are merged, so the list records a result as replaced only once a mode of its re-run has
   * recorded a result: a re-run stopped before that leaves its copy unlisted, and the next
   * {@code --retryFailedSessions} takes it up again.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> listRetried(Path summary, Map<String, Object> merged) throws IOException {
    if (!Files.exists(retriedCopy(summary, 1))) return merged;
    List<Object> entries = new ArrayList<>(list(merged.get(RETRIED)));
    Set<String> listed = new HashSet<>();
    for (Object e : entries) if (e instanceof Map<?, ?> m) listed.add(String.valueOf(m.get("summary")));
    boolean added = false;
    for (int n = 1; Files.exists(retriedCopy(summary, n)); n++) {
      Path kept = retriedCopy(summary, n);
      String name = kept.getFileName().toString();
      if (listed.contains(name)) continue;
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("summary", name);
      entry.put("failed", failedSessions(read(kept), MODE_ORDER));
      entries.add(entry);
      added = true;
    }
    if (!added) return merged;
    Map<String, Object> out = new LinkedHashMap<>(merged);
    out.put(RETRIED, entries);
    return out;
  }

  /**
   * Merges the modes' parts present beside {@code summary} into it, in the fixed mode order, then removes them; the
   * caller is the task's only writer at that point. Returns the merged summary, or null when there was neither a
   * part nor a summary. A part that cannot be read is left in place and named in the error.
   */
  public static Map<String, Object> mergeParts(Path summary) throws IOException {
    List<Path> parts = new ArrayList<>();
    for (String mode : MODE_ORDER) if (Files.isRegularFile(part(summary, mode))) parts.add(part(summary, mode));
    if (parts.isEmpty()) return Files.isRegularFile(summary) ? read(summary) : null;
    Map<String, Object> merged = Map.of();
    if (Files.isRegularFile(summary)) {
      try {
        merged = read(summary);
      } catch (IOException e) {
        merged = Map.of();
      }
    }
    for (Path p : parts) {
      Map<String, Object> part;
      try {
        part = read(p);
      } catch (IOException e) {
        throw new IOException(p + " is unreadable (" + e.getMessage() + "); move it aside to re-run that mode");
      }
      merged = merge(merged, part);
    }
    // a merge onto nothing keeps the part's provisional status; the task's status is decided over all its modes
    String status = String.valueOf(merged.get("status"));
    if (status.equals("ok") || status.equals("partial")) {
      merged = new LinkedHashMap<>(merged);
      merged.put("status", mergedStatus(merged));
    }
    merged = canonical(listRetried(summary, merged));
    AtomicFiles.writeString(summary, Json.pretty(merged));
    for (Path p : parts) Files.deleteIfExists(p);
    return merged;
  }

  /**
   * {@code result}, which this h2beam made, with each mode it records stamped with this build ({@link Build#BY_MODE}).
   */
  static Map<String, Object> stamped(Map<String, Object> result) {
    if (!(result.get("modes") instanceof Map<?, ?> modes) || modes.isEmpty()) return result;
    Map<String, Object> builds = new LinkedHashMap<>();
    for (Object mode : modes.keySet()) builds.put(String.valueOf(mode), Build.id());
    Map<String, Object> out = new LinkedHashMap<>(result);
    out.put(Build.BY_MODE, builds);
    return out;
  }

  /** The merge rule of spec §8.4, with each mode's build carried ({@link #builds}). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> merge(Map<String, Object> old, Map<String, Object> result) {
    Map<String, Object> merged = new LinkedHashMap<>(result);
    if (old.isEmpty()) return merged;
    for (String key : List.of("modes", "selections")) {
      Map<String, Object> m = new LinkedHashMap<>();
      Object o = old.get(key);
      if (o == null && key.equals("modes")) o = old.get("arms");
      if (o instanceof Map) m.putAll((Map<String, Object>) o);
      Object n = result.get(key);
      if (n instanceof Map) m.putAll((Map<String, Object>) n);
      merged.put(key, m);
    }
    // a mode replayed unchanged keeps the record as it was written: a later h2beam's replay adds keys an older one
    // did not record (the ledger's tokens), which would be the later build's words in the older build's result
    Map<?, ?> resultModes = result.get("modes") instanceof Map<?, ?> rm ? rm : Map.of();
    for (Object mode : resultModes.keySet()) {
      if (!sameResult(old, result, String.valueOf(mode))) continue;
      for (String key : List.of("modes", "selections")) {
        Object o = old.get(key) instanceof Map<?, ?> om ? om.get(mode) : null;
        if (o == null && key.equals("modes") && old.get("arms") instanceof Map<?, ?> arms) o = arms.get(mode);
        ((Map<String, Object>) merged.get(key)).put(String.valueOf(mode), o);
      }
    }
    // the earlier results a --retryFailedSessions resume replaced: a mode's part does not record them
    if (old.containsKey(RETRIED) && !result.containsKey(RETRIED)) merged.put(RETRIED, old.get(RETRIED));
    Map<String, Object> builds = builds(old, result, (Map<String, Object>) merged.get("modes"));
    merged.remove(Build.BY_MODE);
    if (!builds.isEmpty()) merged.put(Build.BY_MODE, builds);
    String status = String.valueOf(merged.get("status"));
    List<Object> errors = new ArrayList<>(list(result.get("errors")));
    List<String> seen = new ArrayList<>();
    for (Object e : errors) seen.add(Json.canonical(e));
    for (Object e : list(old.get("errors"))) {
      String text = String.valueOf(e);
      if (text.equals("no base rollout produced anything") && (status.equals("ok") || status.equals("partial"))) {
        continue;
      }
      int colon = text.indexOf(':');
      if (colon > 0 && modeSucceeded(result, text.substring(0, colon))) continue;
      String canon = Json.canonical(e);
      if (seen.contains(canon)) continue;
      seen.add(canon);
      errors.add(e);
    }
    merged.put("errors", errors);
    if (status.equals("ok") || status.equals("partial")) merged.put("status", mergedStatus(merged));
    return merged;
  }

  /**
   * The build of each of {@code modes} (the merged ones): a mode {@code result} records has result's stamp, or none
   * when result has none (a part an older h2beam left); but when {@code old} records the same result for it (a
   * resume replays a finished mode and writes it again unchanged) it keeps the build that made it. A mode only old
   * records keeps old's stamp, or none.
   */
  private static Map<String, Object> builds(Map<String, Object> old, Map<String, Object> result,
      Map<String, Object> modes) {
    Map<?, ?> before = old.get(Build.BY_MODE) instanceof Map<?, ?> b ? b : Map.of();
    Map<?, ?> now = result.get(Build.BY_MODE) instanceof Map<?, ?> b ? b : Map.of();
    Map<?, ?> resultModes = result.get("modes") instanceof Map<?, ?> m ? m : Map.of();
    Map<String, Object> out = new LinkedHashMap<>();
    for (String mode : modes.keySet()) {
      Object build = before.get(mode);
      // an older h2beam's result (no stamp) replayed unchanged stays unstamped: the report names who made it
      if (resultModes.containsKey(mode) && !sameResult(old, result, mode)) build = now.get(mode);
      if (build != null) out.put(mode, build);
    }
    return out;
  }

  /**
   * Whether {@code b} records, for {@code mode}, the mode record and selection {@code a} records
   * ({@link #recordsAsBefore}); a mode {@code a} does not hold is another result. The one test of a replay, for the
   * merge's records and stamps and for the mode's timing alike.
   */
  public static boolean sameResult(Map<String, Object> a, Map<String, Object> b, String mode) {
    for (String key : List.of("modes", "selections")) {
      Object x = a.get(key) instanceof Map<?, ?> m ? m.get(mode) : null;
      if (x == null && key.equals("modes") && a.get("arms") instanceof Map<?, ?> arms) x = arms.get(mode);
      Object y = b.get(key) instanceof Map<?, ?> m ? m.get(mode) : null;
      if (x == null || !recordsAsBefore(x, y)) return false;
    }
    return true;
  }

  /**
   * Whether {@code fresh} records what {@code old} does: equal once {@code fresh} is cut, at every depth, to the keys
   * {@code old} has. A later h2beam replaying an older one's finished mode adds keys the older did not record (the
   * ledger's and the selection's tokens) to the same result; a changed value, or a key {@code old} has and
   * {@code fresh} lacks, is another result.
   */
  public static boolean recordsAsBefore(Object old, Object fresh) {
    return Objects.equals(Json.canonical(old), Json.canonical(cutTo(fresh, old)));
  }

  private static Object cutTo(Object fresh, Object old) {
    if (fresh instanceof Map<?, ?> f && old instanceof Map<?, ?> o) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : f.entrySet()) {
        if (o.containsKey(e.getKey())) out.put(e.getKey(), cutTo(e.getValue(), o.get(e.getKey())));
      }
      return out;
    }
    if (fresh instanceof List<?> f && old instanceof List<?> o && f.size() == o.size()) {
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < f.size(); i++) out.add(cutTo(f.get(i), o.get(i)));
      return out;
    }
    return fresh;
  }

  @SuppressWarnings("unchecked")
  private static boolean modeSucceeded(Map<String, Object> result, String mode) {
    Object modes = result.get("modes");
    Object sels = result.get("selections");
    if (!(modes instanceof Map) || !(sels instanceof Map)) return false;
    Object m = ((Map<String, Object>) modes).get(mode);
    Object s = ((Map<String, Object>) sels).get(mode);
    return m instanceof Map && s instanceof Map && Boolean.TRUE.equals(((Map<String, Object>) m).get("ok"))
        && Boolean.TRUE.equals(((Map<String, Object>) s).get("ok"))
        && !String.valueOf(((Map<String, Object>) s).getOrDefault("chosen_label", "")).isEmpty();
  }

  /**
   * {@code ok} iff modes is non-empty, errors is empty, and every present mode is ok with an ok selection that chose
   * a label; otherwise {@code partial}.
   */
  @SuppressWarnings("unchecked")
  public static String mergedStatus(Map<String, Object> summary) {
    Object modes = summary.get("modes");
    if (!(modes instanceof Map) || ((Map<?, ?>) modes).isEmpty()) return "partial";
    if (!list(summary.get("errors")).isEmpty()) return "partial";
    for (Object mode : ((Map<String, Object>) modes).keySet()) {
      if (!modeSucceeded(summary, String.valueOf(mode))) return "partial";
    }
    return "ok";
  }

  /** Orders modes and selections by mode order and errors by the mode they name (stable otherwise). */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> canonical(Map<String, Object> summary) {
    Map<String, Object> out = new LinkedHashMap<>(summary);
    for (String key : List.of("modes", "selections", Build.BY_MODE)) {
      if (summary.get(key) instanceof Map) {
        Map<String, Object> m = (Map<String, Object>) summary.get(key);
        List<String> keys = new ArrayList<>(m.keySet());
        keys.sort(Comparator.comparingInt(SummaryFile::modeRank).thenComparing(Comparator.naturalOrder()));
        Map<String, Object> sorted = new LinkedHashMap<>();
        for (String k : keys) sorted.put(k, m.get(k));
        out.put(key, sorted);
      }
    }
    List<Object> errors = new ArrayList<>(list(summary.get("errors")));
    errors.sort(Comparator.comparingInt(e -> {
      String t = String.valueOf(e);
      int colon = t.indexOf(':');
      return colon > 0 ? modeRank(t.substring(0, colon)) : -1;
    }));
    out.put("errors", errors);
    return out;
  }

  private static int modeRank(String mode) {
    int i = MODE_ORDER.indexOf(mode);
    return i < 0 ? MODE_ORDER.size() : i;
  }

  static List<Object> list(Object o) {
    if (o instanceof List<?> l) return new ArrayList<>(l);
    return new ArrayList<>();
  }

  /** True when two summaries have the same content (after a JSON round trip). */
  public static boolean same(Map<String, Object> a, Map<String, Object> b) {
    return Objects.equals(Json.canonical(a), Json.canonical(b));
  }
}
