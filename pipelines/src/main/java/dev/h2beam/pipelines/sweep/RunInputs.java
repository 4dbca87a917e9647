package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.PathOrder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fingerprint of what a sweep's work reads from its benchmark, kept in the run identity as config.json's
 * {@code input_digests} (h2beam's own key, which harness2 reads past): a SHA-256 (hex) of the base harness's files,
 * and one per task of its instruction, as the executor receives it, and its source files.
 *
 * <p>A resume skips every finished task, so a re-run over edited inputs would keep outputs made from the old ones
 * and a judge would later grade them against the edited benchmark: {@link #changes} names each part that changed,
 * and the sweep refuses to run. Grading files are never read here, as nowhere in a sweep; the tasks' method-visible
 * {@code checks/} are left out too, as only the gated mode reads them and it may join a namespace later. Each file
 * is read once, by several threads at a time, so a resume of thousands of small tasks stays fast.
 */
final class RunInputs {
  private RunInputs() {}

  /** config.json's key. */
  static final String KEY = "input_digests";

  /**
   * {@code {"base": hex, "tasks": {task id: hex}}} for {@code bench}'s base harness and {@code tasks} (in their
   * order).
   *
   * @throws UncheckedIOException when a file cannot be read, naming it
   */
  static Map<String, Object> of(Benchmark bench, List<String> tasks) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("base", tree(Hashes.digest("SHA-256"), bench.baseHarness(), ""));
    List<String> digests = tasks.parallelStream().map(t -> task(bench, t)).toList();
    Map<String, String> byTask = new LinkedHashMap<>();
    for (int i = 0; i < tasks.size(); i++) byTask.put(tasks.get(i), digests.get(i));
    out.put("tasks", byTask);
    return out;
  }

  /** The digest of one task: its instruction, then every file of its source folder (if it has one). */
  static String task(Benchmark bench, String task) {
    MessageDigest sha = Hashes.digest("SHA-256");
    entry(sha, "instruction");
    sha.update(bench.taskPrompt(task).getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
    Optional<Path> source = bench.taskFiles(task);
    return source.isPresent() ? tree(sha, source.get(), "source/") : Hashes.hex(sha.digest());
  }

  /**
   * Adds each regular file below {@code dir} (path order, no link followed; a Finder {@code .DS_Store} left out) as
   * its relative path, NUL, its bytes, NUL, and returns the hex digest.
   */
  private static String tree(MessageDigest sha, Path dir, String prefix) {
    for (String rel : PathOrder.files(dir)) {
      if (rel.equals(".DS_Store") || rel.endsWith("/.DS_Store")) continue;
      entry(sha, prefix + rel);
      try {
        Hashes.update(sha, dir.resolve(rel));
      } catch (IOException e) {
        throw new UncheckedIOException(dir.resolve(rel) + " cannot be read to fingerprint the benchmark's inputs ("
            + e.getMessage() + "); make it readable", e);
      }
      sha.update((byte) 0);
    }
    return Hashes.hex(sha.digest());
  }

  private static void entry(MessageDigest sha, String name) {
    sha.update(name.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
  }

  /**
   * What changed between the digests recorded when the run began ({@code before}, as read from config.json) and
   * {@code now}, one phrase per part, naming the base harness's folder or the task and its files; empty when
   * nothing did. A task only one side has is not listed: the task list is compared on its own.
   */
  @SuppressWarnings("unchecked")
  static List<String> changes(Object before, Map<String, Object> now, Benchmark bench) {
    List<String> out = new ArrayList<>();
    Map<String, Object> old = before instanceof Map ? (Map<String, Object>) before : Map.of();
    if (!now.get("base").equals(old.get("base"))) {
      out.add("the base harness " + bench.baseHarness() + " (a file in it was edited, added or removed)");
    }
    Map<String, Object> oldTasks = old.get("tasks") instanceof Map ? (Map<String, Object>) old.get("tasks")
        : Map.of();
    ((Map<String, Object>) now.get("tasks")).forEach((task, digest) -> {
      Object was = oldTasks.get(task);
      if (was != null && !was.equals(digest)) {
        out.add("task " + task + " (its instruction, or a file under " + bench.taskFiles(task).map(Path::toString)
            .orElse("its source folder") + ")");
      }
    });
    return out;
  }

  /** The refusal for {@code changes} of the identity recorded in {@code file}: what changed and what to do. */
  static String refusal(Path file, List<String> changes) {
    int shown = Math.min(changes.size(), 5);
    String list = String.join("; ", changes.subList(0, shown))
        + (changes.size() > shown ? "; and " + (changes.size() - shown) + " more task(s)" : "");
    return file + " records a different run identity (" + KEY + "): the benchmark's inputs changed since this run"
        + " began: " + list + ". Its finished tasks would be skipped with outputs made from the old inputs: restore"
        + " the files as they were, or use a new --runsRoot (or --output) for the changed benchmark";
  }
}
