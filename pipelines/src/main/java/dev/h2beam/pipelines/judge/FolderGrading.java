package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.PathOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a folder benchmark's grading material is, for the graders of a namespace: the benchmark folder comes from
 * {@code --benchRoot} or from the {@code bench_root} the sweep recorded in the namespace's config.json, and its
 * {@code bench.json} gives the deliverable's name and the grader's settings.
 */
public record FolderGrading(Path root, String deliverable, JsonNode grader) {

  static FolderGrading of(Path namespaceDir, Map<String, String> settings) throws IOException {
    Path root = benchRoot(namespaceDir, settings);
    Path file = root.resolve("bench.json");
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + " is missing; --benchRoot must name the folder benchmark the namespace was swept on");
    }
    JsonNode bench = Json.readTree(file);
    String deliverable = bench.path("deliverable").asText("answer.md");
    return new FolderGrading(root, deliverable, bench.path("grader"));
  }

  /** The benchmark folder of a namespace: {@code --benchRoot}, else the {@code bench_root} its config.json records. */
  static Path benchRoot(Path namespaceDir, Map<String, String> settings) throws IOException {
    return GraderProvider.benchRoot(namespaceDir, settings).orElseThrow(() -> new IOException(
        namespaceDir.resolve("config.json") + " records no bench_root (was this namespace swept by h2beam?); pass"
            + " --benchRoot=<the benchmark folder>"));
  }

  /** A text value the namespace's config.json records, or null when the file or the key is missing. */
  static String recorded(Path namespaceDir, String key) throws IOException {
    Path config = namespaceDir.resolve("config.json");
    JsonNode c = Files.isRegularFile(config) ? Json.readTree(config) : null;
    return c != null && c.path(key).isTextual() ? c.get(key).asText() : null;
  }

  /**
   * The tasks a namespace ran, as its config.json's {@code input_digests} records them (the sweep's task list, part
   * of its identity); null when it records none (an older h2beam's, harness2's).
   */
  static java.util.Set<String> tasksOf(Path namespaceDir) {
    Path config = namespaceDir.resolve("config.json");
    try {
      JsonNode tasks = Files.isRegularFile(config) ? Json.readTree(config).path("input_digests").path("tasks") : null;
      if (tasks == null || !tasks.isObject() || tasks.isEmpty()) return null;
      java.util.Set<String> out = new java.util.TreeSet<>();
      tasks.fieldNames().forEachRemaining(out::add);
      return out;
    } catch (IOException e) {
      return null;
    }
  }

  /** The default grader of a namespace swept on a folder benchmark (its bench.json's grader kind), or null. */
  static String defaultGrader(Path namespaceDir, Map<String, String> settings) {
    try {
      JsonNode kind = of(namespaceDir, settings).grader().get("kind");
      return kind != null && kind.isTextual() ? kind.asText() : null;
    } catch (IOException e) {
      return null;
    }
  }

  Path gradingDir(String task) {
    return gradingDir(root, task);
  }

  /**
   * SHA-1 (16 hex) over every task's {@code grading/<name>} (a rubric.json, an expected.txt), path and bytes, in path
   * order: a grader's identity holds it, so grades against other references are never mixed or kept as current.
   */
  String digest(String name) throws IOException {
    return digest(name, null);
  }

  /**
   * {@link #digest(String)} over the tasks {@code tasks} (ids, any order; null for every task): the answer keys of the
   * tasks a namespace ran, so that adding a task to the benchmark is no other judge of it (dogAM F3). A task without
   * the file counts as such.
   */
  String digest(String name, java.util.Collection<String> tasks) throws IOException {
    if (tasks != null) {
      java.security.MessageDigest sha = Hashes.digest("SHA-1");
      for (String task : new java.util.TreeSet<>(tasks)) {
        Path f = gradingDir(task).resolve(name);
        sha.update((task + "/grading/" + name).getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        if (Files.isRegularFile(f)) Hashes.update(sha, f);
        else sha.update("(missing)".getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return Hashes.hex(sha.digest()).substring(0, 16);
    }
    // every task's, in path order: the rubric grader's identity as it has always been recorded
    Path all = root.resolve("tasks");
    java.security.MessageDigest sha = Hashes.digest("SHA-1");
    for (String rel : PathOrder.files(all)) {
      if (!rel.endsWith("/grading/" + name)) continue;
      sha.update(rel.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      Hashes.update(sha, all.resolve(rel));
      sha.update((byte) 0);
    }
    return Hashes.hex(sha.digest()).substring(0, 16);
  }

  /**
   * The grading folder of {@code task} in the folder benchmark at {@code root}: the judge side's alone (the
   * benchmark the sweep opens has no way to it), for its graders and the check of their inputs.
   */
  public static Path gradingDir(Path root, String task) {
    Path dir = root.resolve("tasks").resolve(task).normalize();
    if (!dir.startsWith(root.resolve("tasks")) || task.split("/").length != 2) {
      throw new IllegalArgumentException("task id '" + task + "' is not <domain>/<task>");
    }
    return dir.resolve("grading");
  }

  Path taskFile(String task) {
    return gradingDir(task).getParent().resolve("task.md");
  }

  Path deliverable(Path runDir) {
    return runDir.resolve("output").resolve(deliverable);
  }
}
