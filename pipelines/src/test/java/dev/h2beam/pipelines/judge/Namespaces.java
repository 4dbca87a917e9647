package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.Namespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds namespaces by hand in the Python harness2's layout (spec §16.4), for judge tests. */
final class Namespaces {
  private Namespaces() {}

  /**
   * A namespace {@code <runs>/<name>} with one summary per task; each task's agg and seq selections choose a run dir
   * under {@code <runs>/../executions} holding {@code answer.txt} and {@code grade.txt} = {@code grade}.
   */
  static Path python(Path runs, String name, int k, Map<String, String> gradeByTask) throws Exception {
    return python(runs, name, k, gradeByTask, List.of("agg", "seq"));
  }

  /** A chosen label per mode: a parallel final, a sequential final, a gated step's candidate episode. */
  static final Map<String, String> CHOSEN = Map.of("agg", "agg1", "seq", "c1", "gat", "g2");

  /** {@link #python(Path, String, int, Map)} with a selection in each of {@code modes}, labelled as {@link #CHOSEN}. */
  static Path python(Path runs, String name, int k, Map<String, String> gradeByTask, List<String> modes)
      throws Exception {
    Path ns = runs.resolve(name);
    for (Map.Entry<String, String> e : gradeByTask.entrySet()) {
      String task = e.getKey();
      Map<String, Object> selections = new LinkedHashMap<>();
      for (String mode : modes) {
        String label = CHOSEN.get(mode);
        Path runDir = runs.getParent().resolve("executions").resolve(name).resolve(task).resolve(label);
        Files.createDirectories(runDir);
        Files.writeString(runDir.resolve("answer.txt"), "Total: 85.15\n");
        Files.writeString(runDir.resolve("grade.txt"), e.getValue());
        selections.put(mode, selection(task, mode, k, label, name + "/" + task + "/" + label, runDir.toString(),
            true));
      }
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("task_id", task);
      summary.put("domain", "accounting");
      summary.put("k", k);
      summary.put("seed", null);
      summary.put("status", "ok");
      summary.put("base", List.of());
      summary.put("modes", Map.of());
      summary.put("selections", selections);
      summary.put("errors", List.of());
      Files.createDirectories(ns.resolve(task));
      Files.writeString(ns.resolve(task).resolve("summary.json"), Json.pretty(summary));
    }
    return ns;
  }

  /**
   * The same namespace as h2beam sweeps it: config.json records the benchmark provider, each chosen run used a harness
   * folder in its mode's work folder ({@code <runs>/<mode ns>/<task>/harnesses/<label>}), carries a completion marker
   * with that harness's fingerprint and its answer's digest, and the summary records the harness fingerprint.
   */
  @SuppressWarnings("unchecked")
  static Path h2beam(Path runs, String name, int k, Map<String, String> gradeByTask) throws Exception {
    Path ns = python(runs, name, k, gradeByTask);
    Files.writeString(ns.resolve("config.json"), "{\"method_version\": 2, \"bench_provider\": \"demo\", \"judge\": \"\"}\n");
    for (String task : gradeByTask.keySet()) {
      Path summaryFile = ns.resolve(task).resolve("summary.json");
      Map<String, Object> summary = Json.readMap(summaryFile);
      for (Map.Entry<String, Object> e : ((Map<String, Object>) summary.get("selections")).entrySet()) {
        Map<String, Object> sel = (Map<String, Object>) e.getValue();
        String label = (String) sel.get("chosen_label");
        Path harness = Namespace.parse(name).orElseThrow().withMode(e.getKey()).taskDir(runs, task)
            .resolve("harnesses").resolve(label);
        Files.createDirectories(harness);
        Files.writeString(harness.resolve("systemprompt.md"), "Sum every signed amount.\n");
        String fingerprint = Runmark.fingerprint(harness);
        Path runDir = Path.of((String) sel.get("chosen_run_dir"));
        Runmark.markComplete(runDir, (String) sel.get("chosen_run_id"), fingerprint, 0.0,
            Map.of("deliverables", Map.of("answer.txt", Runmark.fileDigest(runDir.resolve("answer.txt")))));
        sel.put("harness_fingerprint", fingerprint);
      }
      Files.writeString(summaryFile, Json.pretty(summary));
    }
    return ns;
  }

  /** A selection record with harness2's keys in harness2's order (spec §2.9). */
  static Map<String, Object> selection(String task, String mode, int k, String label, String runId, String runDir,
      boolean ok) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("task_id", task);
    s.put("mode", mode);
    s.put("k", k);
    s.put("chosen_id", "A");
    s.put("chosen_label", label);
    s.put("chosen_run_id", runId);
    s.put("chosen_is_base", false);
    s.put("why", "");
    s.put("id_map", Map.of("A", label));
    s.put("dropped", new ArrayList<>());
    s.put("n_candidates", 1);
    s.put("ok", ok);
    s.put("fallback", !ok);
    s.put("error", ok ? "" : "selector down");
    s.put("usd", 0.0);
    s.put("experience", Map.of());
    s.put("trivial", false);
    s.put("evidence", "deliverable");
    s.put("chosen_run_dir", runDir);
    s.put("chosen_tree_is_base", false);
    return s;
  }

  static String score(int passed, int criteria) {
    return "{\"n_passed\": " + passed + ", \"n_criteria\": " + criteria + "}";
  }
}
