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
    Path tasks = root.resolve("tasks");
    java.security.MessageDigest sha = Hashes.digest("SHA-1");
    for (String rel : PathOrder.files(tasks)) {
      if (!rel.endsWith("/grading/" + name)) continue;
      sha.update(rel.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      Hashes.update(sha, tasks.resolve(rel));
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
