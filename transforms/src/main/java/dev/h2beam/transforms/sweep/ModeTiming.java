package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.transforms.recursion.TaskScope;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When one mode of one task ran, for the metric vector's mode wall time: {@code _audit/<ns>/timing/<mode>/<task>.json}
 * with start, end and wall seconds. Written when the mode runs (a resumed task keeps the file of the run that did the
 * work), kept out of summary.json so the summaries stay the same on every runner. Diagnostic for results: the judge
 * reads it as a measurement, never as an input of the method.
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

  static void write(SweepConfig config, String mode, String task, Instant started, Instant ended) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task_id", task);
    m.put("mode", mode);
    m.put("started_at", started.toString());
    m.put("ended_at", ended.toString());
    m.put("wall_s", Duration.between(started, ended).toNanos() / 1e9);
    try {
      AtomicFiles.writeString(file(config.runs(), config.summaryNamespace(), mode, task), Json.pretty(m) + "\n");
    } catch (IOException e) {
      System.err.println("h2beam: could not write the timing of " + mode + "/" + task + ": " + e.getMessage());
    }
  }
}
