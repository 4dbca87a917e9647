package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Runmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What the judge trusts before it grades a chosen run, and the check of all of it. Anything that fails is an
 * {@code evidence-changed} absence with the reason; the grader is never called.
 *
 * <p>Trusted: the selection in summary.json (run id, run dir, label, the harness fingerprint it recorded) and the
 * run's completion marker {@code .adapt_complete}, written when the rollout finished. Checked:
 * <ul>
 *   <li>the marker is there and readable, version 1, and names the chosen run id;
 *   <li>every deliverable it records still has its digest, and no file was added to a folder of recorded
 *       deliverables (the folder benchmark records every file of {@code output/});
 *   <li>the harness the run used ({@code <mode work dir>/harnesses/<label>}) still has the fingerprint the marker
 *       records, and the summary recorded that same fingerprint.
 * </ul>
 *
 * <p>A run of a namespace h2beam swept ({@link SelectionItem#markerRequired}) always has a marker with its
 * deliverables and a harness folder, so their absence is a change. harness2's own layout may legitimately keep the
 * marker elsewhere (JobBench keeps it beside the run dir) and carry no deliverable digests: there a run dir
 * without a marker is graded as it is, and whatever marker and harness are present are still checked.
 */
final class EvidenceCheck {
  private EvidenceCheck() {}

  /** What one look at a chosen run saw of its run dir and completion marker. */
  enum Marker {
    /** The run dir is not a folder (or cannot be told to be one). */
    NO_RUN_DIR,
    /** A folder without a marker, or one whose marker's existence cannot be told. */
    MISSING,
    /** A marker that is a regular file. */
    FILE,
    /** A marker that is there and is not a regular file. */
    OTHER
  }

  /**
   * The look at a chosen run's marker and run dir. Only probes that answer without an exception: a missing file seen
   * through {@code Files.readAttributes} cost an exception with its stack trace, and in a tree whose run dirs keep no
   * marker (JobBench's keep it beside the run dir) that was most of the judge's look at each row. The first probe is
   * the one that most likely settles it: where a marker is {@code expected}, whether it is a regular file, which also
   * proves its run dir a folder; elsewhere whether the marker exists at all, which leaves one look at the run dir
   * where the other order took two more. Both orders give the same answer for the same files.
   */
  static Marker lookAtMarker(Path runDir, boolean expected) {
    Path marker = runDir.resolve(Runmark.MARKER);
    if (expected) {
      if (Files.isRegularFile(marker)) return Marker.FILE;
      if (!Files.isDirectory(runDir)) return Marker.NO_RUN_DIR;
      return Files.exists(marker) ? Marker.OTHER : Marker.MISSING;
    }
    if (!Files.exists(marker)) return Files.isDirectory(runDir) ? Marker.MISSING : Marker.NO_RUN_DIR;
    if (Files.isRegularFile(marker)) return Marker.FILE;
    return Files.isDirectory(runDir) ? Marker.OTHER : Marker.NO_RUN_DIR;
  }

  /**
   * Why the chosen run can no longer be trusted, or empty when every check holds. {@code marker} is what
   * {@link #lookAtMarker} saw of the run (a folder: not {@link Marker#NO_RUN_DIR}); {@code markSeen} is given the
   * marker as {@link Runmark#readMark} would read it (null when there is none or it is unreadable), before anything
   * is checked.
   */
  static Optional<String> changed(SelectionItem s, Path runDir, Marker marker,
      Consumer<JsonNode> markSeen) throws IOException {
    Path markerFile = runDir.resolve(Runmark.MARKER);
    // one look tells a missing marker (or one whose existence cannot be told) from one that is there but unreadable
    if (marker == Marker.MISSING) {
      markSeen.accept(null);
      if (s.markerRequired()) {
        return Optional.of("its completion marker " + markerFile + " is gone: h2beam marks every rollout it"
            + " completes, so the run dir was changed after its rollout");
      }
      return Optional.empty();
    }
    JsonNode mark = marker == Marker.FILE ? Runmark.parseMark(markerFile) : null;
    markSeen.accept(mark);
    if (mark == null) return Optional.of("its completion marker " + markerFile + " is unreadable");
    if (mark.path("version").asInt(-1) != 1) {
      return Optional.of(markerFile + " has version " + mark.path("version") + ", not 1");
    }
    String markedRun = mark.path("run_id").asText("");
    if (!s.runId().isEmpty() && !markedRun.isEmpty() && !markedRun.equals(s.runId())) {
      return Optional.of(markerFile + " records run " + markedRun + ", not the chosen run " + s.runId());
    }
    Optional<String> deliverables = deliverablesChanged(s, runDir, mark.path("deliverables"));
    return deliverables.isPresent() ? deliverables : harnessChanged(s, markerFile, mark.path("harness").asText(""));
  }

  private static Optional<String> deliverablesChanged(SelectionItem s, Path runDir, JsonNode recorded)
      throws IOException {
    if (!recorded.isObject()) {
      return s.markerRequired() ? Optional.of(runDir.resolve(Runmark.MARKER) + " records no deliverable digests")
          : Optional.empty();
    }
    TreeSet<String> folders = new TreeSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = recorded.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      Path f = runDir.resolve(e.getKey());
      if (!Files.isRegularFile(f)) {
        return Optional.of(e.getKey() + " recorded in " + Runmark.MARKER + " is gone from " + runDir);
      }
      if (!Runmark.fileDigest(f).equals(e.getValue().asText())) {
        return Optional.of(e.getKey() + " in " + runDir + " no longer matches the digest recorded in "
            + Runmark.MARKER);
      }
      int slash = e.getKey().indexOf('/');
      if (slash > 0) folders.add(e.getKey().substring(0, slash));
    }
    for (String folder : folders) {
      for (String rel : PathOrder.files(runDir.resolve(folder))) {
        if (!recorded.has(folder + "/" + rel)) {
          return Optional.of(folder + "/" + rel + " was added to " + runDir + " after its rollout (it is not among"
              + " the deliverables " + Runmark.MARKER + " records)");
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> harnessChanged(SelectionItem s, Path markerFile, String marked) {
    if (marked.isEmpty() || marked.equals("base")) return Optional.empty(); // the benchmark's own base harness
    if (!s.harnessFingerprint().isEmpty() && !s.harnessFingerprint().equals(marked)) {
      return Optional.of("summary.json records harness fingerprint " + s.harnessFingerprint() + " for "
          + s.label() + ", but " + markerFile + " records " + marked);
    }
    if (s.harnessDir().isEmpty()) return Optional.empty();
    Path harness = Paths.get(s.harnessDir());
    if (!Files.isDirectory(harness)) {
      return s.markerRequired() ? Optional.of("the chosen harness " + harness + " is gone") : Optional.empty();
    }
    String now = Runmark.fingerprint(harness);
    return now.equals(marked) ? Optional.empty() : Optional.of("the chosen harness " + harness + " changed after"
        + " its rollout (fingerprint " + now + "; " + markerFile + " records " + marked + ")");
  }
}
