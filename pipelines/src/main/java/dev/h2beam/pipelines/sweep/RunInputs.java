package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.BenchSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The fingerprint of what a sweep's work reads from its benchmark, kept in the run identity as config.json's
 * {@code input_digests} (h2beam's own key, which harness2 reads past): a SHA-256 (hex) of the base harness's files,
 * and one per task of its instruction, as the executor receives it, and its source files.
 *
 * <p>A resume skips every finished task, so a re-run over edited inputs would keep outputs made from the old ones
 * and a judge would later grade them against the edited benchmark: {@link #changes} names each part that changed,
 * and the sweep refuses to run. Grading files are never read here, as nowhere in a sweep; the tasks' method-visible
 * {@code checks/} are digested only for a gated run, as only the gated mode reads them and it may join a namespace
 * later. Each file is read once, by several threads at a time, so a resume of thousands of small tasks stays fast.
 */
final class RunInputs {
  private RunInputs() {}

  /** config.json's key. */
  static final String KEY = "input_digests";

  /**
   * {@code {"base": hex, "tasks": {task id: hex}, "prompts": hex}} for {@code bench}'s base harness, {@code tasks}
   * (in their order) and their {@link #prompts}.
   *
   * @throws UncheckedIOException when a file cannot be read, naming it
   */
  static Map<String, Object> of(Benchmark bench, List<String> tasks) {
    return of(bench, tasks, false);
  }

  /**
   * As {@link #of(Benchmark, List)}, and with {@code gated} also {@code "checks": {task id: hex}}: the digest of each
   * task's method-visible {@code checks/} folder, for the tasks that have one. Only the gated mode reads them, so they
   * are recorded once it runs: a gated mode that joins a namespace later reads the checks as they are then.
   */
  static Map<String, Object> of(Benchmark bench, List<String> tasks, boolean gated) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("base", tree(Hashes.digest("SHA-256"), bench.baseHarness(), ""));
    List<String> digests = tasks.parallelStream().map(t -> task(bench, t)).toList();
    Map<String, String> byTask = new LinkedHashMap<>();
    for (int i = 0; i < tasks.size(); i++) byTask.put(tasks.get(i), digests.get(i));
    out.put("tasks", byTask);
    out.put(PROMPTS, prompts(bench, tasks));
    if (gated) {
      List<Optional<String>> checked = tasks.parallelStream()
          .map(t -> bench.checks(t).map(dir -> tree(Hashes.digest("SHA-256"), dir, "checks/"))).toList();
      Map<String, String> checks = new LinkedHashMap<>();
      for (int i = 0; i < tasks.size(); i++) {
        if (checked.get(i).isPresent()) checks.put(tasks.get(i), checked.get(i).get());
      }
      out.put(CHECKS, checks);
    }
    return out;
  }

  /** The part of {@link #KEY} for the tasks' {@code checks/}, present once a gated mode ran. */
  static final String CHECKS = "checks";

  /** The part of {@link #KEY} for the benchmark's words in the method's prompts; a later addition to the key. */
  static final String PROMPTS = "prompts";

  /**
   * The digest of what the benchmark puts into the method's prompts and withholds from them: each task's prompt
   * slots (for a folder benchmark, bench.json's {@code prompts}) and its spec's leak globs, domain word, reserved
   * scripts and deliverable settings. Editing them changes the method's work as much as editing a task. The tasks
   * are taken by id, whatever their order: the stream's order follows the seed, and replicates differ in seed only.
   */
  static String prompts(Benchmark bench, List<String> tasks) {
    return promptsInOrder(bench, new ArrayList<>(new TreeSet<>(tasks)));
  }

  /**
   * {@link #prompts} over {@code tasks} in the order given: what h2beam recorded before it sorted them (in the
   * stream's order, so the digest changed with the seed); kept to recognise such a record ({@link #legacyPrompts}).
   */
  static String promptsInOrder(Benchmark bench, List<String> tasks) {
    MessageDigest sha = Hashes.digest("SHA-256");
    BenchSpec spec = bench.spec();
    List<String> settings = new ArrayList<>(List.of(spec.domainWord(), String.valueOf(spec.allowSubagents()),
        spec.proposerDeliverables(), String.valueOf(spec.stateDeliverable()), String.valueOf(spec.obsTrunc())));
    settings.addAll(spec.leakGlobs());
    settings.add("");
    settings.addAll(new TreeSet<>(spec.reservedScripts()));
    for (String s : settings) entry(sha, s);
    BenchPrompts last = null;
    for (String task : tasks) {
      BenchPrompts p = bench.promptsFor(task);
      if (p.equals(last)) continue; // one benchmark's tasks mostly share their prompts: each run of them once
      last = p;
      entry(sha, task);
      for (String slot : List.of(p.work(), p.domainWord(), p.invLevers(), p.domLevers(), p.yardstick(),
          p.deliverableWord(), p.domainGuidance(), p.selectionChecks(), p.selectionLead(), p.selectionConformance(),
          p.promptPack())) {
        entry(sha, slot);
      }
    }
    return Hashes.hex(sha.digest());
  }

  /**
   * Whether {@code recorded}, a {@link #PROMPTS} digest that differs from today's, is the one an earlier h2beam
   * recorded for these inputs in the stream's order ({@code stream}): the same inputs, to be recorded anew rather
   * than refused as changed.
   */
  static boolean legacyPrompts(Object recorded, Benchmark bench, List<String> stream) {
    return recorded instanceof String r && r.equals(promptsInOrder(bench, stream));
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
  static List<String> changes(Object before, Map<String, Object> now, Benchmark bench, List<String> stream) {
    // a digest recorded before PROMPTS existed has none to compare; Sweep records it then
    List<String> out = new ArrayList<>();
    Map<String, Object> old = before instanceof Map ? (Map<String, Object>) before : Map.of();
    if (!now.get("base").equals(old.get("base"))) {
      out.add("the base harness " + bench.baseHarness() + " (a file in it was edited, added or removed)");
    }
    if (old.containsKey(PROMPTS) && !old.get(PROMPTS).equals(now.get(PROMPTS))
        && !legacyPrompts(old.get(PROMPTS), bench, stream)) {
      out.add("the benchmark's words in the method's prompts or what it withholds from them (for a folder benchmark,"
          + " bench.json's prompts or leak_globs)");
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
    if (old.get(CHECKS) instanceof Map<?, ?> oldChecks && now.get(CHECKS) instanceof Map<?, ?> nowChecks) {
      for (String task : ((Map<String, Object>) now.get("tasks")).keySet()) {
        if (oldTasks.containsKey(task) && !Objects.equals(oldChecks.get(task), nowChecks.get(task))) {
          out.add("task " + task + " (its checks folder, which the gated mode's method runs: " + bench.checks(task)
              .map(Path::toString).orElse("now gone") + ")");
        }
      }
    }
    return out;
  }

  /**
   * The refusal for {@code changes} of the identity recorded in {@code file}: what changed and what to do
   * ({@code elsewhere}: where a different experiment goes, {@link Sweep#elsewhere}).
   */
  static String refusal(Path file, List<String> changes, String elsewhere) {
    int shown = Math.min(changes.size(), 5);
    String list = String.join("; ", changes.subList(0, shown))
        + (changes.size() > shown ? "; and " + (changes.size() - shown) + " more task(s)" : "");
    return file + " records a different run identity (" + KEY + "): the benchmark's inputs changed since this run"
        + " began: " + list + ". Its finished tasks would be skipped with outputs made from the old inputs: restore"
        + " the files as they were, or use " + elsewhere + " for the changed benchmark";
  }
}
