package dev.h2beam.adapters.jobbench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkInvalid;
import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.config.KeysOutOfRuns;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.exec.ExecRequest;
import dev.h2beam.adapters.exec.ExecResult;
import dev.h2beam.adapters.exec.Executor;
import dev.h2beam.adapters.exec.GroupRecord;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.exec.RolloutMarker;
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
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JobBench (spec §12.3), harness2's representative benchmark, on a checkout of its dataset: tasks are the
 * occupations' task folders, each rollout runs the configured {@link Executor} on the task's
 * {@code TASK_INSTRUCTIONS.txt} and {@code task_folder/}, and its work products are whatever files it leaves in its
 * output folder. The checkout is only read; rollouts go to the executions folder in harness2's store layout
 * ({@link JobBenchLayout}). The rubrics are never opened here: they are the grader's, on the judge side.
 *
 * <p>A finished rollout's marker (in its trajectory folder) records the harness fingerprint, a digest of every work
 * product and the executor's spend, so a resumed run reuses it only while both still match and reports the same
 * spend. Anything else is wiped with its judge details and rolled again; a rollout that fails or leaves no file is
 * left unmarked, so a resume rolls it again rather than adopting an empty result.
 */
final class JobBench implements Benchmark {
  static final int MAX_INSTRUCTION_CHARS = 200_000;
  static final int MAX_DELIVERABLE_CHARS = 200_000;
  static final int MAX_TRAJECTORY_CHARS = 8_000_000;
  /** The file a single-reply executor ({@code chat}) writes its answer to; an agent may write any files. */
  static final String REPLY_FILE = "answer.md";
  /** Answer-key paths that must never reach a model: harness2's JobBench list. */
  static final List<String> LEAK_GLOBS = List.of(JobBenchLayout.RUBRICS, "eval_result/**", "expected/**",
      "reference/**");

  private static final Logger LOG = LoggerFactory.getLogger(JobBench.class);
  private static final ConcurrentHashMap<Path, Object> RUN_LOCKS = new ConcurrentHashMap<>();

  private final Path root;
  private final Path store;
  private final String substrate;
  private final Path base;
  private final LinkedHashMap<String, Path> tasks;
  private final List<String> stream;
  private final Executor executor;
  private final Duration timeout;
  private final BenchSpec spec;
  private final Clock clock;
  /** What every rollout's agent may not see (each is shown its own folder), or null: not isolated. */
  private final Isolation isolation;

  JobBench(Path root, Path store, String substrate, Path base, LinkedHashMap<String, Path> tasks,
      List<String> stream, Executor executor, Duration timeout, Clock clock) {
    this(root, store, substrate, base, tasks, stream, executor, timeout, clock, null);
  }

  JobBench(Path root, Path store, String substrate, Path base, LinkedHashMap<String, Path> tasks,
      List<String> stream, Executor executor, Duration timeout, Clock clock, Isolation isolation) {
    this.isolation = isolation;
    this.root = root;
    this.store = store;
    this.substrate = substrate;
    this.base = base;
    this.tasks = tasks;
    this.stream = List.copyOf(stream);
    this.executor = executor;
    this.timeout = timeout;
    this.clock = clock;
    this.spec = new BenchSpec("jb", substrate.equals("cx") ? "codex_root" : "workspace_agents_md",
        JobBenchPrompts.PROFILE,
        Map.of("proposer", ChannelSpec.of("openai", "improver"), "selector", ChannelSpec.of("openai", "selector")),
        "profession", LEAK_GLOBS, substrate.equals("oc"), Set.of(), "contents", false, 50_000);
  }

  /**
   * Opens a checkout; every problem found (dataset, split file, settings, executor) is reported at once in a
   * {@link BenchmarkInvalid}.
   */
  static JobBench open(Path root, Map<String, String> settings, RunConfig config, Map<String, String> env)
      throws Exception {
    return open(root, settings, config, env, Map.of());
  }

  /** As {@link #open(Path, Map, RunConfig, Map)}, with where each setting came from ({@code sources}). */
  static JobBench open(Path root, Map<String, String> settings, RunConfig config, Map<String, String> env,
      Map<String, String> sources) throws Exception {
    Path r = root.toAbsolutePath().normalize();
    List<String> problems = new ArrayList<>();
    JobBenchSettings s = JobBenchSettings.read(r, settings, sources, problems);
    LinkedHashMap<String, Path> tasks = JobBenchTasks.discover(r, problems);
    List<String> stream = tasks.isEmpty() ? List.of() : JobBenchTasks.split(s.splitFile(), s.split(), tasks, problems);
    Executor executor = s.openExecutor(config, env, problems);
    Path base = s.baseHarness();
    if (base == null && problems.isEmpty()) {
      try {
        base = JobBenchBase.materialise(s.executions(), s.substrate());
      } catch (IOException e) {
        problems.add("the base harness cannot be written under " + s.executions() + ": " + e.getMessage());
      }
    }
    // the checkout holds the rubrics; the rollouts' store, every other rollout
    Isolation isolation = Isolation.forRollouts(settings, executor, String.valueOf(s.executorSpec().get("kind")),
        List.of(r, s.executions()), problems);
    if (!problems.isEmpty()) throw new BenchmarkInvalid(problems);
    return new JobBench(r, s.executions(), s.substrate(), base, tasks, stream, executor,
        Duration.ofSeconds(s.timeoutSeconds()), Clock.systemUTC(), isolation);
  }

  @Override public BenchSpec spec() {
    return spec;
  }

  @Override public String substrate() {
    return substrate;
  }

  @Override public List<String> tasks() {
    return stream;
  }

  @Override public String domainOf(String task) {
    folder(task);
    return task.substring(0, task.indexOf('/'));
  }

  /** {@code TASK_INSTRUCTIONS.txt} verbatim (malformed UTF-8 replaced, clipped with a visible note if enormous). */
  @Override public String taskPrompt(String task) {
    folder(task);
    Path file = JobBenchLayout.taskFolder(root, task).resolve(JobBenchLayout.INSTRUCTIONS);
    try {
      return TextFiles.readCapped(file, MAX_INSTRUCTION_CHARS);
    } catch (IOException e) {
      throw new IllegalStateException(file + " cannot be read (" + e.getMessage() + "); is the dataset checkout"
          + " complete?", e);
    }
  }

  /** The profile with the task's occupation lens. */
  @Override public BenchPrompts promptsFor(String task) {
    return JobBenchPrompts.forOccupation(domainOf(task));
  }

  /** The task's {@code task_folder/}, instruction included (the agent receives it that way). */
  @Override public Optional<Path> taskFiles(String task) {
    folder(task);
    Path folder = JobBenchLayout.taskFolder(root, task);
    return Files.isDirectory(folder) ? Optional.of(folder) : Optional.empty();
  }

  /** Every occupation of the checkout, sorted (harness2's seedless order), whatever the split. */
  @Override public Optional<List<String>> referenceDomainOrder() {
    TreeSet<String> domains = new TreeSet<>(PathOrder.STRINGS);
    for (String t : tasks.keySet()) domains.add(t.substring(0, t.indexOf('/')));
    return Optional.of(List.copyOf(domains));
  }

  @Override public Path baseHarness() {
    return base;
  }

  @Override public String executorIdentity() {
    return executor.identity();
  }

  @Override public Rollout execute(String task, Path harnessDir, String runId) throws Exception {
    Path taskDir = folder(task);
    String label = JobBenchLayout.label(runId);
    Path out = JobBenchLayout.output(store, task, label);
    Path traj = JobBenchLayout.trajectory(store, task, label);
    String fingerprint = Runmark.fingerprint(harnessDir);
    synchronized (RUN_LOCKS.computeIfAbsent(traj, d -> new Object())) {
      JsonNode mark = Runmark.readMark(traj);
      String why = Runmark.whyNot(traj, fingerprint);
      if (why.equals("reusable") && JobBenchLayout.intact(out)) {
        return RolloutMarker.reused(out, mark);
      }
      if (Files.exists(out, LinkOption.NOFOLLOW_LINKS) || Files.exists(traj, LinkOption.NOFOLLOW_LINKS)) {
        LOG.info("re-rolling {}: {}", label, why.equals("reusable")
            ? "its work products no longer match the digests in " + traj.resolve(Runmark.MARKER) : why);
      }
      // an earlier run's agent still running here (its h2beam was killed) goes first, or it writes into the new run
      GroupRecord.stopRecorded(traj);
      Trees.delete(out);
      Trees.delete(traj);
      Trees.delete(JobBenchLayout.judgeDir(store, task, label)); // details of the rollout being replaced
      Files.createDirectories(traj);
      Path harness = harnessDir == null ? base : harnessDir.toAbsolutePath();
      ExecResult r = executor.run(new ExecRequest(task, taskPrompt(task), taskFiles(task).orElse(null), harness,
          traj, REPLY_FILE, timeout, isolation == null ? null : isolation.showing(traj)));
      collectOutput(traj.resolve("output"), out);
      KeysOutOfRuns.Found leaked = KeysOutOfRuns.scrub(traj, out);
      if (leaked.any()) System.err.println(leaked.warning(runId + " of " + task));
      if (!r.ok()) {
        // left unmarked: a resume runs it again; the cause travels in the dead rollout's error
        throw new RolloutFailed("the executor " + r.errorClass() + " in " + traj + ": " + EnvKeys.redact(r.error()),
            r.costUsd(), r.costKnown(), r.tokens());
      }
      if (!JobBenchLayout.delivered(out)) {
        throw new RolloutFailed("the executor left no file in its output folder for " + task + " (" + traj
            + ", see trajectory.md); the rollout is left unmarked and rolled again on resume", r.costUsd(),
            r.costKnown(), r.tokens());
      }
      return RolloutMarker.complete(traj, out, runId, fingerprint, clock.millis() / 1000.0, Runmark.digests(out, ""),
          r, executor.identity(), taskDir);
    }
  }

  /** Moves the executor's output folder to the store's {@code model_output/<label>} (the run dir). */
  private static void collectOutput(Path produced, Path out) throws IOException {
    if (!Files.isDirectory(produced, LinkOption.NOFOLLOW_LINKS)) return;
    Files.createDirectories(out.getParent());
    try {
      Files.move(produced, out, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(produced, out);
    }
  }

  @Override public void discard(String task, String runId) throws IOException {
    String label = JobBenchLayout.label(runId);
    Path traj = JobBenchLayout.trajectory(store, task, label);
    synchronized (RUN_LOCKS.computeIfAbsent(traj, d -> new Object())) {
      GroupRecord.stopRecorded(traj);
      Trees.delete(JobBenchLayout.output(store, task, label));
      Trees.delete(traj);
      Trees.delete(JobBenchLayout.judgeDir(store, task, label));
    }
  }

  @Override public boolean delivered(Path runDir) {
    return JobBenchLayout.delivered(runDir);
  }

  @Override public boolean artifactsIntact(Path runDir) {
    return JobBenchLayout.intact(runDir);
  }

  /** The executor's rendering ({@code trajectory.md} in the trajectory folder). */
  @Override public String trajectory(Path runDir, int obsTrunc) throws IOException {
    Path t = JobBenchLayout.trajectoryOf(runDir).resolve("trajectory.md");
    if (!Files.isRegularFile(t, LinkOption.NOFOLLOW_LINKS)) return "(no trajectory recorded for " + runDir + ")";
    return TextFiles.readCapped(t, MAX_TRAJECTORY_CHARS);
  }

  /** Every work product as raw UTF-8 text (each clipped), symbolic links skipped. */
  @Override public Map<String, String> deliverableFiles(Path runDir) throws IOException {
    return TextFiles.readAll(runDir, MAX_DELIVERABLE_CHARS);
  }

  /** The work products as one text: a {@code === FILE: <path> ===} header before each. */
  @Override public String deliverableText(Path runDir) throws IOException {
    List<String> parts = new ArrayList<>();
    deliverableFiles(runDir).forEach((rel, text) -> parts.add("=== FILE: " + rel + " ===\n" + text + "\n"));
    return String.join("\n", parts);
  }

  private Path folder(String task) {
    Path p = tasks.get(task);
    if (p == null) {
      throw new IllegalArgumentException("unknown task '" + task + "' in " + root + "; tasks are <occupation>/<task>"
          + " folders under dataset/main holding task_folder/" + JobBenchLayout.INSTRUCTIONS);
    }
    return p;
  }
}
