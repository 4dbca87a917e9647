package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.transforms.recursion.TaskScope;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When one mode of one task ran, for the metric vector's mode wall time: {@code _audit/<ns>/timing/<mode>/<task>.json}
 * with start, end and wall seconds. Written when the mode runs (a resumed task keeps the file of the run that did the
 * work, and so does a mode replayed, unchanged, because its task re-runs for another mode), kept out of summary.json
 * so the summaries stay the same on every runner. Diagnostic for results: the judge reads it as a measurement, never
 * as an input of the method.
 */
public final class ModeTiming {
  private ModeTiming() {}

  /** The file for one task's mode under the runs root of a summary namespace. */
  public static Path file(Path runsRoot, Namespace ns, String mode, String task) {
    return folder(runsRoot, ns, mode).resolve(fileName(task));
  }

  /** The folder of one mode's files under the runs root of a summary namespace. */
  public static Path folder(Path runsRoot, Namespace ns, String mode) {
    return TaskScope.auditDir(runsRoot, ns).resolve("timing").resolve(mode);
  }

  /** The name of one task's file in its mode's {@link #folder}. */
  public static String fileName(String task) {
    return Namespace.slug(task) + ".json";
  }

  /**
   * Records the mode's time, unless the task's summary.json already records this mode's result and selection as
   * {@code mode} and {@code selection} (a replay: a task re-run for a mode its summary lacks replays the others from
   * the caches) and its timing file exists: then the file of the run that did the work is kept.
   */
  static void write(SweepConfig config, String mode, String task, Instant started, Instant ended, Path summary,
      Object result, Object selection) {
    Path file = file(config.runs(), config.summaryNamespace(), mode, task);
    if (replayed(summary, mode, result, selection) && Files.isRegularFile(file)) return;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task_id", task);
    m.put("mode", mode);
    m.put("started_at", started.toString());
    m.put("ended_at", ended.toString());
    m.put("wall_s", Duration.between(started, ended).toNanos() / 1e9);
    try {
      AtomicFiles.writeString(file, Json.pretty(m) + "\n");
    } catch (IOException e) {
      System.err.println("h2beam: could not write the timing of " + mode + "/" + task + ": " + e.getMessage());
    }
  }

  /** Whether {@code summary} records the mode's result and selection as given (none: a first run). */
  static boolean replayed(Path summary, String mode, Object result, Object selection) {
    if (!Files.isRegularFile(summary) || result == null || selection == null) return false;
    try {
      // as the summary's merge sees a replay: an older h2beam's record lacks keys a later one adds
      Map<String, Object> now = Map.of("modes", Map.of(mode, result), "selections", Map.of(mode, selection));
      return SummaryFile.sameResult(SummaryFile.read(summary), now, mode);
    } catch (IOException | RuntimeException e) {
      return false; // unreadable: this run's time is the one known
    }
  }
}
