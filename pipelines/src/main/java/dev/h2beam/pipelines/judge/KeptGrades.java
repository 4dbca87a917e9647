package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The grades a judge keeps as it makes them, so that a judge stopped part-way (Ctrl-C, SIGTERM, kill -9) loses none
 * of the grades it paid for: judged.json is written once, when a namespace's rows are all graded. Each graded call of
 * a grader that is not {@linkplain Grader#inProcess in process} is written at once, whole ({@link AtomicFiles}), into
 * {@value #DIR} in the summary namespace, under the namespace's writer lock the judge holds; the next judge serves it
 * instead of calling the grader. A grade is keyed by all that determines it: the namespace, task, mode, k, chosen
 * label, run id and run dir, the digest of the evidence the judge checked ({@link #evidence}), the grader's identity
 * (its name, model, rubrics' digest) and the repeat. A changed deliverable, rubric, grader or model is graded anew; a
 * failed grade is never kept. Once judged.json holds a namespace's rows, the grades kept for them are removed
 * ({@link #forget}): a judge that finished keeps nothing here, and a re-judge grades again as it always did.
 *
 * <p>The folder starts with a dot, so it is never a task folder (task names cannot), and no evidence the method is
 * shown is built from the namespace folder itself, only from chosen files of its task folders.
 */
final class KeptGrades {
  private static final Logger LOG = LoggerFactory.getLogger(KeptGrades.class);

  private KeptGrades() {}

  /** The folder of a summary namespace that holds the grades a stopped judge kept. */
  static final String DIR = ".h2beam-kept-grades";

  /** The kept grades' folder of the summary namespace {@code namespace}. */
  static Path dir(String namespace) {
    return Paths.get(namespace).resolve(DIR);
  }

  /**
   * The digest of what the judge checked of the chosen run: its completion marker as read (its run id, each
   * deliverable's digest, which the judge has just found unchanged, and the harness fingerprint), or, for a run
   * without one (harness2's layout), every file of the run dir ({@link Runmark#fingerprint}).
   */
  static String evidence(Path runDir, JsonNode mark) {
    return mark != null ? "mark:" + Hashes.sha1Hex(mark.toString()) : "files:" + Runmark.fingerprint(runDir);
  }

  /** One grade of one chosen output: where it is kept and what it is kept for. */
  record Grade(Path file, Map<String, Object> key) {
    /** The grade kept for this key, if a judge kept it; anything else there (unreadable, another key) is not served. */
    Optional<Map<String, Object>> served() {
      if (!Files.isRegularFile(file)) return Optional.empty();
      try {
        Map<String, Object> kept = Json.readMap(file);
        if (!Json.canonical(key).equals(Json.canonical(kept.get("key")))
            || !(kept.get("score") instanceof Map<?, ?> score)) {
          return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> typed = (Map<String, Object>) score;
        return Optional.of(typed);
      } catch (IOException | RuntimeException e) {
        LOG.warn("the kept grade {} is unreadable ({}); the grader is called again", file, e.getMessage());
        return Optional.empty();
      }
    }

    /** Keeps a grade just made; a grade that cannot be kept is still this judge's, so only a warning is given. */
    void keep(Map<String, Object> score) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("key", key);
      m.put("score", score);
      try {
        Files.createDirectories(file.getParent());
        AtomicFiles.writeString(file, Json.pretty(m) + "\n");
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not keep the grade of {} in {} ({}); a judge stopped before judged.json is written grades it"
            + " again", key.get("run_id"), file, e.getMessage());
      }
    }
  }

  /** The kept grade of {@code s}'s chosen run with this evidence, by this grader, in this repeat. */
  static Grade of(SelectionItem s, String evidence, String grader, int repeat) {
    Map<String, Object> key = new LinkedHashMap<>();
    key.put("namespace", s.namespace());
    key.put("task_id", s.taskId());
    key.put("mode", s.mode());
    key.put("k", s.k());
    key.put("label", s.label());
    key.put("chosen_is_base", s.chosenIsBase());
    key.put("run_id", s.runId());
    key.put("run_dir", s.runDir());
    key.put("harness_fingerprint", s.harnessFingerprint());
    key.put("evidence", evidence);
    key.put("grader", grader);
    key.put("repeat", repeat);
    String name = rowName(s.taskId(), s.mode(), s.k(), s.label(), s.chosenIsBase()) + "."
        + Hashes.sha1Hex(Json.canonical(key)).substring(0, 16) + ".r" + repeat + ".json";
    return new Grade(dir(s.namespace()).resolve(name), key);
  }

  /** What every kept grade of one row's file name starts with. */
  private static String rowName(String task, String mode, int k, String label, boolean base) {
    return Hashes.sha1Hex(task + "\u0000" + mode + "\u0000" + k + "\u0000" + label + "\u0000" + base)
        .substring(0, 16);
  }

  /**
   * Removes the grades kept for {@code rows}, now written into the namespace's judged.json (or base_judged.json): of
   * any evidence, grader or repeat, since the file holds the rows now. The folder goes too once empty.
   */
  static void forget(String namespace, Collection<JudgedRow> rows) throws IOException {
    Path dir = dir(namespace);
    String[] names = dir.toFile().list();
    if (names == null) return;
    Set<String> written = new HashSet<>();
    for (JudgedRow r : rows) written.add(rowName(r.taskId(), r.mode(), r.k(), r.label(), r.chosenIsBase()));
    for (String name : names) {
      int dot = name.indexOf('.');
      if (dot > 0 && written.contains(name.substring(0, dot))) Files.deleteIfExists(dir.resolve(name));
    }
    try {
      Files.deleteIfExists(dir);
    } catch (java.nio.file.DirectoryNotEmptyException e) {
      // grades kept for rows this judge did not write (other modes, a stopped judge's): kept for the next
    }
  }

  /**
   * Removes the temp files of kept grades a killed judge never renamed into place ({@link AtomicFiles#isLeftover}):
   * only a judge writes there, under the namespace's writer lock, which the caller holds.
   */
  static List<Path> removeLeftovers(String namespace) throws IOException {
    return AtomicFiles.removeLeftovers(dir(namespace), name -> true);
  }

  /** How many grades {@code served} (a mask of repeats per row) says were served. */
  static int count(Collection<Integer> served) {
    int n = 0;
    for (Integer mask : served) n += mask == null ? 0 : Integer.bitCount(mask);
    return n;
  }
}
