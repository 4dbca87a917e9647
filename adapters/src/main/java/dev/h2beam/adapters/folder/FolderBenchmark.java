package dev.h2beam.adapters.folder;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkInvalid;
import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.config.KeysOutOfRuns;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.exec.ExecRequest;
import dev.h2beam.adapters.exec.ExecResult;
import dev.h2beam.adapters.exec.Executor;
import dev.h2beam.adapters.exec.ExecutorProvider;
import dev.h2beam.adapters.exec.GroupRecord;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.exec.RolloutMarker;
import dev.h2beam.adapters.files.LeakGlobs;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RolloutFailed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A researcher's own benchmark in a folder:
 *
 * <pre>
 * DIR/bench.json                      name, executor, deliverable, grader, prompts, leak globs, limits
 * DIR/base/                           the base harness (OpenCode surface)
 * DIR/tasks/&lt;domain&gt;/&lt;task&gt;/task.md   the instruction
 * DIR/tasks/&lt;domain&gt;/&lt;task&gt;/source/  files the executor and the improvers may read
 * DIR/tasks/&lt;domain&gt;/&lt;task&gt;/grading/ read by graders only: never opened here
 * DIR/splits.json                     optional train/test split
 * </pre>
 *
 * <p>The folder is only read. Each rollout runs the configured {@link Executor} in {@code <executions>/<run id>/}
 * (under the runs root), whose {@code output/} holds the deliverables; its completion marker records the harness
 * fingerprint, a digest of every deliverable, the executor's spend, tokens and wall time, so a resumed run reuses it
 * and records the same spend.
 */
public final class FolderBenchmark implements Benchmark {
  static final int MAX_DELIVERABLE_CHARS = 200_000;
  static final int MAX_TRAJECTORY_CHARS = 8_000_000;
  private static final ConcurrentHashMap<Path, Object> RUN_LOCKS = new ConcurrentHashMap<>();

  private final Path root;
  private final Path executions;
  private final BenchFile file;
  private final BenchSpec spec;
  private final LinkedHashMap<String, Path> tasks;
  private final List<String> stream;
  private final Executor executor;
  private final Clock clock;
  private final String executorKind;
  private final String substrate;
  /** What every rollout's agent may not see (each is shown its own run folder), or null: not isolated. */
  private final Isolation isolation;

  private FolderBenchmark(Path root, Path executions, BenchFile file, LinkedHashMap<String, Path> tasks,
      List<String> stream, Executor executor, Clock clock, String executorKind, String substrate,
      Isolation isolation) {
    this.isolation = isolation;
    this.executorKind = executorKind;
    this.substrate = substrate;
    this.root = root;
    this.executions = executions;
    this.file = file;
    this.tasks = tasks;
    this.stream = List.copyOf(stream);
    this.executor = executor;
    this.clock = clock;
    this.spec = new BenchSpec(file.name(), substrate.equals("cx") ? "codex_root" : "workspace_agents_md",
        file.prompts(),
        Map.of("proposer", ChannelSpec.of("openai", "improver"), "selector", ChannelSpec.of("openai", "selector")),
        file.prompts().domainWord(), file.leakGlobs(), file.allowSubagents(), Set.of(), null, false, 50_000);
  }

  /**
   * Opens and validates the folder; every problem found is reported at once in a {@link BenchmarkInvalid}.
   *
   * @param executions where rollouts go (the sweep passes {@code <runs root>/_executions})
   * @param split {@code all}, {@code train} or {@code test}
   */
  public static FolderBenchmark open(Path root, Path executions, String split, RunConfig config,
      Map<String, String> env) {
    return open(root, executions, split, config, env, Map.of());
  }

  /**
   * As {@link #open(Path, Path, String, RunConfig, Map)}, with the sweep's settings: {@code executor} replaces the
   * benchmark file's executor kind, {@code substrate} must be the one that executor runs ({@code cx} for codex,
   * {@code oc} otherwise), and {@code opencodeBin}, {@code codexBin}, {@code toolsDir} reach an agent executor.
   */
  public static FolderBenchmark open(Path root, Path executions, String split, RunConfig config,
      Map<String, String> env, Map<String, String> settings) {
    return open(root, executions, split, config, env, settings, Map.of());
  }

  /**
   * As {@link #open(Path, Path, String, RunConfig, Map, Map)}; {@code sources} names where a setting came from when
   * not from the flag of its name ({@code executor}: {@code --benchSettings' executor}), for its problems.
   */
  public static FolderBenchmark open(Path root, Path executions, String split, RunConfig config,
      Map<String, String> env, Map<String, String> settings, Map<String, String> sources) {
    Path r = root.toAbsolutePath().normalize();
    List<String> problems = new ArrayList<>();
    if (!Files.isDirectory(r)) {
      throw new BenchmarkInvalid(List.of(r + ": not a folder; --benchRoot must name the benchmark folder"
          + " (holding bench.json, base/ and tasks/)"));
    }
    TreeMap<String, ExecutorProvider> kinds = ExecutorProvider.all();
    Map<String, Set<String>> kindKeys = new TreeMap<>();
    kinds.forEach((name, provider) -> kindKeys.put(name, provider.keys()));
    BenchFile file = BenchFile.read(r, kindKeys, problems);
    String kind = settings.getOrDefault("executor", file == null ? "" : file.executorKind());
    String substrate = kind.equals("codex") ? "cx" : "oc";
    if (settings.containsKey("substrate") && !settings.get("substrate").equals(substrate)) {
      problems.add("--substrate=" + settings.get("substrate") + " does not match the " + kind + " executor, which runs"
          + " the " + substrate + " substrate: pass --substrate=" + substrate);
    }
    Path base = r.resolve(baseFolder(substrate));
    // what is in it (links, files off the surface, credentials) is the base harness check's, which the sweep and
    // check run on every benchmark (BaseHarness)
    if (!Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS)) {
      problems.add(base + ": missing; put the base harness there (" + (substrate.equals("cx")
          ? "the Codex surface: AGENTS.md, .agents/skills/, scripts/, .codex/" : "the OpenCode surface:"
              + " systemprompt.md, guardrails.md, skills/, scripts/, ...") + ")");
    }
    LeakGlobs leaks = new LeakGlobs(file == null ? BenchFile.DEFAULT_LEAK_GLOBS : file.leakGlobs());
    // the grading file the grader reads, which a misspelt one is named as (dogAK F7)
    String key = file == null ? null : switch (file.graderKind()) {
      case "expected" -> "expected.txt";
      case "rubric" -> "rubric.json";
      default -> null;
    };
    LinkedHashMap<String, Path> tasks = FolderTasks.scan(r, leaks, file == null ? 1 << 20 : file.maxSourceBytes(),
        key, problems);
    if (tasks.isEmpty() && Files.isDirectory(r.resolve("tasks"))) {
      problems.add(r.resolve("tasks") + ": no task found; put each in tasks/<domain>/<task>/task.md");
    }
    List<String> stream = FolderTasks.split(r, split, new LinkedHashSet<>(tasks.keySet()), problems);
    Executor executor = null;
    String given = sources.containsKey("executor") ? sources.get("executor") + " " + kind : "--executor=" + kind;
    if (file != null && kind.strip().startsWith("{")) {
      // the setting replaces bench.json's kind only: an object's other keys would have nowhere to go
      problems.add(given + ": the folder benchmark takes its executor from " + r.resolve(BenchFile.FILE) + " (its"
          + " \"executor\" object); this setting only replaces that executor's kind: give one of " + kinds.keySet()
          + ", or put the executor object in bench.json");
    } else if (file != null) {
      Map<String, Object> executorSettings = new LinkedHashMap<>(kind.equals(file.executorKind())
          ? file.executor() : Map.of("kind", kind));
      for (String k : List.of("opencodeBin", "codexBin", "toolsDir")) {
        if (settings.containsKey(k) && (kind.equals("opencode") || kind.equals("codex"))) {
          executorSettings.put(k, settings.get(k));
        }
      }
      try {
        executor = ExecutorProvider.named(kind).open(executorSettings, config.role("executor"), env);
      } catch (Exception e) {
        problems.add((kind.equals(file.executorKind()) ? r.resolve(BenchFile.FILE) + ": executor" : given) + ": "
            + e.getMessage());
      }
    }
    Isolation isolation = Isolation.forRollouts(settings, executor, kind, List.of(r, executions), problems);
    if (!problems.isEmpty()) {
      // its base harness and spec are there to check (check lists every problem at once, the base harness's too)
      throw new BenchmarkInvalid(problems, file == null || !Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS) ? null
          : new FolderBenchmark(r, executions.toAbsolutePath().normalize(), file, tasks, stream, executor,
              Clock.systemUTC(), kind, substrate, isolation));
    }
    return new FolderBenchmark(r, executions.toAbsolutePath().normalize(), file, tasks, stream, executor,
        Clock.systemUTC(), kind, substrate, isolation);
  }

  public BenchFile file() {
    return file;
  }

  public Path root() {
    return root;
  }

  public Executor executor() {
    return executor;
  }

  @Override public String executorIdentity() {
    return executor.identity();
  }

  @Override public BenchSpec spec() {
    return spec;
  }

  @Override public String substrate() {
    return substrate;
  }

  /** The base harness folder of a substrate: {@code base/} (OpenCode surface), {@code base-cx/} (Codex surface). */
  static String baseFolder(String substrate) {
    return substrate.equals("cx") ? "base-cx" : "base";
  }

  @Override public List<String> tasks() {
    return stream;
  }

  @Override public String domainOf(String task) {
    folder(task);
    return task.substring(0, task.indexOf('/'));
  }

  @Override public String taskPrompt(String task) {
    try {
      return TextFiles.readCapped(folder(task).resolve("task.md"), MAX_DELIVERABLE_CHARS);
    } catch (IOException e) {
      throw new IllegalStateException(folder(task).resolve("task.md") + " cannot be read: " + e.getMessage(), e);
    }
  }

  @Override public BenchPrompts promptsFor(String task) {
    return file.prompts();
  }

  /** The task's {@code checks/} folder: method-visible, for the gated mode's method (unlike grading/). */
  @Override public Optional<Path> checks(String task) {
    Path checks = folder(task).resolve("checks");
    return Files.isDirectory(checks, LinkOption.NOFOLLOW_LINKS) ? Optional.of(checks) : Optional.empty();
  }

  @Override public Optional<Path> taskFiles(String task) {
    Path source = folder(task).resolve("source");
    return Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS) ? Optional.of(source) : Optional.empty();
  }

  @Override public Optional<List<String>> referenceDomainOrder() {
    TreeSet<String> domains = new TreeSet<>(PathOrder.STRINGS);
    for (String t : stream) domains.add(domainOf(t));
    return Optional.of(List.copyOf(domains));
  }

  @Override public Path baseHarness() {
    return root.resolve(baseFolder(substrate));
  }

  @Override public Rollout execute(String task, Path harnessDir, String runId) throws Exception {
    Path taskDir = folder(task);
    Path runDir = runDir(runId);
    String fingerprint = Runmark.fingerprint(harnessDir);
    synchronized (RUN_LOCKS.computeIfAbsent(runDir, d -> new Object())) {
      JsonNode mark = Runmark.readMark(runDir);
      String why = Runmark.whyNot(runDir, fingerprint);
      if (why.equals("reusable") && intact(runDir, mark)) {
        return RolloutMarker.reused(runDir, mark);
      }
      if (Files.exists(runDir.resolve(Runmark.MARKER))) {
        System.err.println("  re-rolling " + runId + ": " + (why.equals("reusable")
            ? "its output/ no longer matches the digests in " + runDir.resolve(Runmark.MARKER) : why));
      }
      // an earlier run's agent still running here (its h2beam was killed) goes first, or it writes into the new run
      GroupRecord.stopRecorded(runDir);
      Trees.delete(runDir);
      Files.createDirectories(runDir);
      Path harness = harnessDir == null ? baseHarness() : harnessDir.toAbsolutePath();
      ExecResult r = executor.run(new ExecRequest(task, taskPrompt(task), taskFiles(task).orElse(null), harness,
          runDir, file.deliverable(), Duration.ofSeconds(file.timeoutSeconds()),
          isolation == null ? null : isolation.showing(runDir)));
      KeysOutOfRuns.Found leaked = KeysOutOfRuns.scrub(runDir);
      if (leaked.any()) System.err.println(leaked.warning(runId + " of " + task));
      if (!r.ok()) {
        // left unmarked: a resume runs it again; the cause travels in the dead rollout's error
        throw new RolloutFailed(executorKind + " executor " + r.errorClass() + " in " + runDir + ": "
            + EnvKeys.redact(r.error()), r.costUsd(), r.costKnown(), r.tokens());
      }
      Path deliverable = runDir.resolve("output").resolve(file.deliverable());
      if (!Files.isRegularFile(deliverable, LinkOption.NOFOLLOW_LINKS)) {
        throw new RolloutFailed("the " + executorKind + " executor produced no output/" + file.deliverable()
            + " in " + runDir + " (see its trajectory.md); the rollout is left unmarked and re-rolled on resume",
            r.costUsd(), r.costKnown(), r.tokens());
      }
      return RolloutMarker.complete(runDir, runDir, runId, fingerprint, clock.millis() / 1000.0,
          Runmark.digests(runDir.resolve("output"), "output/"), r, executor.identity(), taskDir);
    }
  }

  @Override public void discard(String task, String runId) throws IOException {
    Path runDir = runDir(runId);
    synchronized (RUN_LOCKS.computeIfAbsent(runDir, d -> new Object())) {
      // an agent a killed h2beam left running there goes first, or it writes the folder back
      GroupRecord.stopRecorded(runDir);
      Trees.delete(runDir);
    }
  }

  @Override public boolean delivered(Path runDir) {
    return Files.isRegularFile(runDir.resolve("output").resolve(file.deliverable()), LinkOption.NOFOLLOW_LINKS);
  }

  @Override public String trajectory(Path runDir, int obsTrunc) throws IOException {
    Path t = runDir.resolve("trajectory.md");
    if (!Files.isRegularFile(t, LinkOption.NOFOLLOW_LINKS)) return "(no trajectory recorded in " + runDir + ")";
    return TextFiles.readCapped(t, MAX_TRAJECTORY_CHARS);
  }

  @Override public String deliverableText(Path runDir) throws IOException {
    return TextFiles.readCapped(runDir.resolve("output").resolve(file.deliverable()), MAX_DELIVERABLE_CHARS);
  }

  @Override public Map<String, String> deliverableFiles(Path runDir) throws IOException {
    return TextFiles.readAll(runDir.resolve("output"), MAX_DELIVERABLE_CHARS);
  }

  /** Every deliverable is still the bytes the rollout produced, and no file was added or removed. */
  @Override public boolean artifactsIntact(Path runDir) {
    return intact(runDir, Runmark.readMark(runDir));
  }

  /** The marker's digests, keyed by the path relative to the run folder (as the judge reads them). */
  private static boolean intact(Path runDir, JsonNode mark) {
    return Runmark.deliverablesIntact(mark, runDir.resolve("output"), "output/");
  }

  private Path folder(String task) {
    Path p = tasks.get(task);
    if (p == null) {
      throw new IllegalArgumentException("unknown task '" + task + "' in " + root + "; tasks are <domain>/<task>"
          + " folders under tasks/");
    }
    return p;
  }

  private Path runDir(String runId) {
    Path dir = executions.resolve(runId).normalize();
    if (runId.isBlank() || !dir.startsWith(executions) || dir.equals(executions)) {
      throw new IllegalArgumentException("run id '" + runId + "' must be a relative path below " + executions);
    }
    return dir;
  }

}
