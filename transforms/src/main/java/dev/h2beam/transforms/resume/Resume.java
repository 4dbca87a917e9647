package dev.h2beam.transforms.resume;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.transforms.tree.Py;
import dev.h2beam.transforms.tree.TreeIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Decides whether a task's cached summary lets it be skipped (spec §8.3). Anything doubtful re-runs the task; the
 * rollout markers and the reply cache make that re-run free where nothing changed.
 */
public final class Resume {
  private Resume() {}

  /**
   * What a refused resume tells the user: nothing is theirs to do; the task runs again, reusing at no cost what is
   * unchanged and running the rest (it said "nothing to do", which read as "no work", before a whole mode ran).
   */
  static final String RERUN = "; re-running the task (no action needed: rollouts and sessions that did not change"
      + " are reused, the rest run now)";

  /** How {@link #retrying} begins. */
  public static final String RETRYING = "--retryFailedSessions: ";

  /**
   * Empty when the task can be skipped; otherwise the sentence to print, in harness2's words followed by the file and
   * the field that refused the resume.
   *
   * @param file the task's summary.json, which {@code summary} was read from
   * @param ns the sweep's namespace (any mode); mode work dirs are derived from it
   */
  @SuppressWarnings("unchecked")
  public static Optional<String> whyNot(Path file, Map<String, Object> summary, List<String> modes, Benchmark bench,
      Path runsRoot, Namespace ns, String task) {
    Path at = file.toAbsolutePath();
    if (!"ok".equals(summary.get("status"))) {
      return Optional.of("cached summary has status " + summary.get("status") + " (" + at + ", field status)"
          + RERUN);
    }
    Map<String, Object> ms = summary.get("modes") instanceof Map ? (Map<String, Object>) summary.get("modes")
        : Map.of();
    Map<String, Object> ss = summary.get("selections") instanceof Map
        ? (Map<String, Object>) summary.get("selections") : Map.of();
    List<String> missing = new ArrayList<>();
    for (String m : modes) {
      Object mode = ms.get(m);
      Object sel = ss.get(m);
      if (!(mode instanceof Map && Boolean.TRUE.equals(((Map<String, Object>) mode).get("ok")) && sel instanceof Map
          && Boolean.TRUE.equals(((Map<String, Object>) sel).get("ok"))
          && ((Map<String, Object>) sel).get("chosen_label") != null
          && !String.valueOf(((Map<String, Object>) sel).get("chosen_label")).isEmpty())) {
        missing.add(m);
      }
    }
    if (!missing.isEmpty()) {
      // harness2's words: every mode the summary records, then the requested modes it does not cover (sorted lists)
      missing.sort(null);
      String fields = missing.stream().map(m -> "modes." + m + ".ok, selections." + m).toList().toString();
      return Optional.of("cached summary covers " + Py.repr(new ArrayList<>(new TreeSet<>(ms.keySet())))
          + ", re-running for " + Py.repr(missing) + " (" + at + ", fields " + fields.substring(1, fields.length() - 1)
          + ")" + RERUN);
    }
    for (String m : modes) {
      Map<String, Object> sel = (Map<String, Object>) ss.get(m);
      String field = at + ", field selections." + m + ".";
      try {
        String reason = adoptedProblem(sel, bench, ns.withMode(m).taskDir(runsRoot, task), field);
        if (reason != null) return Optional.of("cannot resume " + m + ": " + reason + RERUN);
      } catch (RuntimeException | java.io.IOException e) {
        return Optional.of("cannot resume " + m + ": " + e.getMessage() + " (" + field + "chosen_run_dir)" + RERUN);
      }
    }
    return Optional.empty();
  }

  /** What a {@code --retryFailedSessions} resume prints for a finished task it runs again ({@code failed}: by mode). */
  public static String retrying(Path file, Map<String, List<String>> failed) {
    int n = failed.values().stream().mapToInt(List::size).sum();
    List<String> fields = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : failed.entrySet()) {
      fields.add(e.getKey() + ": " + String.join(", ", e.getValue()));
    }
    return RETRYING + n + (n == 1 ? " session" : " sessions") + " of this finished task failed ("
        + String.join("; ", fields) + "; " + file.toAbsolutePath() + ", fields modes.<mode>.stages[].fell_back and"
        + " selections.<mode>.reflection_error); re-running the task: the earlier summary is kept beside it, what did"
        + " not change is reused at no cost, the failed sessions are asked again and what depends on them runs anew";
  }

  /**
   * Why the adopted result of one mode cannot stand, naming the folder and the summary field ({@code field}, the
   * summary's path and the mode's selection record ending in '.') it was found by; null when it can.
   */
  private static String adoptedProblem(Map<String, Object> sel, Benchmark bench, Path workDir, String field)
      throws java.io.IOException {
    String runDir = String.valueOf(sel.getOrDefault("chosen_run_dir", ""));
    String named = " (" + runDir + ", from " + field + "chosen_run_dir)";
    if (runDir.isEmpty() || !Files.isDirectory(Paths.get(runDir))) {
      return "adopted run directory is missing" + (runDir.isEmpty() ? " (" + field + "chosen_run_dir is empty)"
          : named);
    }
    Path run = Paths.get(runDir);
    String output;
    if ("trajectory".equals(sel.get("evidence")) && bench.spec().stateDeliverable()) {
      String t = bench.trajectory(run, bench.spec().obsTrunc());
      output = t.startsWith("(no trajectory") ? "" : t;
    } else {
      output = bench.delivered(run) ? bench.deliverableText(run) : "";
    }
    if (output.isBlank()) return "adopted output is missing" + named;
    if (!bench.artifactsIntact(run)) return "adopted execution artifacts have changed" + named;
    Path harness = workDir.resolve("harnesses").resolve(String.valueOf(sel.get("chosen_label")));
    if (!TreeIO.isTree(bench.surface(), harness)) {
      return "adopted harness is missing (" + harness.toAbsolutePath() + ", from " + field + "chosen_label)";
    }
    Object fp = sel.get("harness_fingerprint");
    if (fp != null && !fp.equals(Runmark.fingerprint(harness))) {
      return "adopted harness has changed (" + harness.toAbsolutePath() + " no longer matches " + field
          + "harness_fingerprint)";
    }
    return null;
  }
}
