package dev.h2beam.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.config.KeysOutOfRuns;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.Rollout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The offline demo benchmark (spec §16): two accounting ledgers whose harness script, a POSIX shell and awk program,
 * is run for real. The base script drops credits (it sums only positive amounts), so base rollouts print the wrong
 * total until an improver deletes {@link #POSITIVE_FILTER}.
 *
 * <p>Safe for several threads executing different run ids at once; requests for the same run id are serialised.
 */
public final class DemoBenchmark implements Benchmark {

  /** The positive-only filter in the base {@code scripts/summarize.sh}; deleting it makes the totals correct. */
  public static final String POSITIVE_FILTER = "if (amount > 0) ";

  static final String ANSWER = "answer.txt";
  static final String TRAJECTORY = "trajectory.md";
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  /** The most of a rollout's text held in memory; a script that prints more is shown clipped, with a note. */
  static final int MAX_TEXT_CHARS = 1_000_000;

  private static final String TRAJECTORY_HEAD =
      "[ACTION] Run scripts/summarize.sh on ledger.csv\n[OBSERVATION]\n";

  private static final BenchSpec SPEC = spec("demo", ChannelSpec.of("scripted-ledger", "local/deterministic"));

  /** A ledger benchmark's spec: its name, and the channel serving its improver, selector and reflector. */
  static BenchSpec spec(String name, ChannelSpec channel) {
    return new BenchSpec(
        name,
        "workspace_config",
        BenchPrompts.of("reconcile signed amounts in a transaction ledger"),
        Map.of("proposer", channel, "selector", channel),
        null,
        List.of("reference_answer.txt"),
        false,
        Set.of(),
        null,
        false,
        50_000);
  }

  private final Path root;
  private final BenchSpec spec;
  private final LedgerTasks tasks;
  private final Latency latency;
  private final Duration timeout;
  private final Clock clock;
  private final AtomicLong executions = new AtomicLong();
  // static: every instance in this JVM (one per DoFn, say) must serialise requests for the same run folder
  private static final ConcurrentHashMap<Path, Object> RUN_LOCKS = new ConcurrentHashMap<>();

  /** The demo rooted at {@code root}; call {@link #setUp} first so the base harness and sources exist. */
  public DemoBenchmark(Path root) {
    this(root, DEFAULT_TIMEOUT, Clock.systemUTC());
  }

  DemoBenchmark(Path root, Duration timeout, Clock clock) {
    this(root, SPEC, LedgerTasks.DEMO, Latency.NONE, timeout, clock);
  }

  /**
   * A ledger benchmark over other tasks (the synthetic one): its own spec, its tasks and their domains, and a latency
   * slept before each script run that is not a reused rollout, as an agent's would be.
   */
  DemoBenchmark(Path root, BenchSpec spec, LedgerTasks tasks, Latency latency, Duration timeout, Clock clock) {
    this.root = root.toAbsolutePath().normalize();
    this.spec = Objects.requireNonNull(spec, "spec");
    this.tasks = Objects.requireNonNull(tasks, "tasks");
    this.latency = Objects.requireNonNull(latency, "latency");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the script timeout must be positive, got " + timeout);
    }
  }

  /**
   * Writes the base harness ({@code <root>/base}) and the ledgers ({@code <root>/sources/<task>/ledger.csv}) where
   * they are absent. An existing file is never overwritten, even when it differs from the demo's version: it may be
   * a deliberate edit, and the demo must not destroy it. Delete the file to get the demo's version back.
   *
   * @return the existing files that differ from what the demo would have written, so a caller can warn about them
   */
  public static List<Path> setUp(Path root) throws IOException {
    return DemoSetup.writeMissing(root.toAbsolutePath().normalize(), LedgerTasks.DEMO);
  }

  /** Writes the base harness and the ledgers where absent ({@link #setUp}). */
  @Override public void prepare() throws IOException {
    DemoSetup.writeMissing(root, tasks);
  }

  @Override public BenchSpec spec() {
    return spec;
  }

  @Override public String substrate() {
    return "oc";
  }

  @Override public List<String> tasks() {
    return tasks.ids();
  }

  @Override public String domainOf(String task) {
    requireTask(task);
    return tasks.domainOf(task);
  }

  @Override public String taskPrompt(String task) {
    requireTask(task);
    return "Sum every signed amount in ledger.csv, credits and debits alike, and answer with one line "
        + "`Total: <sum>` using two decimals.";
  }

  @Override public Optional<Path> taskFiles(String task) {
    requireTask(task);
    return Optional.of(root.resolve("sources").resolve(task));
  }

  /**
   * The task's own check ({@code checks/<task>/check.sh}, written by the demo's setup): the answer reports the signed
   * total of the task's ledger. The gated mode's method scores episodes with it; it is the task's test of the same
   * fact the judge's grader checks, kept in a folder of its own.
   */
  @Override public Optional<Path> checks(String task) {
    requireTask(task);
    return Optional.of(root.resolve("checks").resolve(task));
  }

  @Override public Optional<List<String>> referenceDomainOrder() {
    TreeSet<String> domains = new TreeSet<>();
    for (String t : tasks()) domains.add(domainOf(t));
    return Optional.of(List.copyOf(domains));
  }

  @Override public Path baseHarness() {
    return root.resolve("base");
  }

  @Override public void validateTree(Map<String, String> tree) {
    if (!tree.containsKey(DemoSetup.SCRIPT)) {
      throw new HarnessRejected(DemoSetup.SCRIPT + " is missing: every rollout runs `sh " + DemoSetup.SCRIPT
          + " ledger.csv`, so keep that script (edit it in place) and have it print `Total: <sum>`");
    }
  }

  /** How many script executions this instance has started (reused rollouts are not counted). */
  public long executionCount() {
    return executions.get();
  }

  @Override public Rollout execute(String task, Path harnessDir, String runId) throws Exception {
    requireTask(task);
    Path runDir = runDir(runId);
    String fingerprint = Runmark.fingerprint(harnessDir);
    synchronized (RUN_LOCKS.computeIfAbsent(runDir, d -> new Object())) {
      String why = Runmark.whyNot(runDir, fingerprint);
      if (why.equals("reusable") && answerMatchesMarker(runDir)) {
        return new Rollout(runDir, true);
      }
      if (Files.exists(runDir.resolve(Runmark.MARKER))) {
        // a marker that cannot be used is reported with its path; the rollout is redone, nothing else is touched
        System.err.println("  re-rolling " + runId + ": " + (why.equals("reusable")
            ? "its answer.txt no longer matches the digest in " + runDir.resolve(Runmark.MARKER)
            : why + " (" + runDir.resolve(Runmark.MARKER) + ")"));
      }
      // what an earlier attempt left; nothing there, as for nearly every rollout, answered without an exception
      Trees.delete(runDir);
      Files.createDirectories(runDir);
      Path script = (harnessDir == null ? baseHarness() : harnessDir.toAbsolutePath()).resolve(DemoSetup.SCRIPT);
      if (!Files.isRegularFile(script)) {
        throw new IOException(script + " is missing: the harness must ship " + DemoSetup.SCRIPT
            + (harnessDir == null ? " (run DemoBenchmark.setUp to write the base harness)" : ""));
      }
      Path ledger = root.resolve("sources").resolve(task).resolve("ledger.csv");
      executions.incrementAndGet();
      byte[] stdout;
      try (InFlight.Entry busy = InFlight.ROLLOUTS.enter()) {
        latency.sleep(runId);
        stdout = ScriptRun.run(runDir, script, List.of(ledger.toString()), timeout);
      }
      // an improver's script that read h2beam's environment: its key goes no further than this rollout's output
      stdout = KeysOutOfRuns.scrub(stdout, runId + " of " + task);
      Path answer = runDir.resolve(ANSWER);
      AtomicFiles.writeBytes(answer, stdout);
      AtomicFiles.writeString(runDir.resolve(TRAJECTORY),
          TRAJECTORY_HEAD + new String(stdout, StandardCharsets.UTF_8));
      Runmark.markComplete(runDir, runId, fingerprint, clock.millis() / 1000.0,
          Map.of("deliverables", Map.of(ANSWER, Runmark.fileDigest(answer))));
      return new Rollout(runDir, false);
    }
  }

  @Override public void discard(String task, String runId) throws IOException {
    Path runDir = runDir(runId);
    synchronized (RUN_LOCKS.computeIfAbsent(runDir, d -> new Object())) {
      Trees.delete(runDir);
    }
  }

  @Override public boolean delivered(Path runDir) {
    return Files.isRegularFile(runDir.resolve(ANSWER));
  }

  /**
   * The recorded trajectory, as written; {@code obsTrunc} is not applied (the base script prints one line). A
   * harness's script prints what it likes, so bytes that are not UTF-8 are shown as U+FFFD.
   */
  @Override public String trajectory(Path runDir, int obsTrunc) throws IOException {
    return TextFiles.readCapped(runDir.resolve(TRAJECTORY), MAX_TEXT_CHARS);
  }

  /** The answer the script printed, rendered leniently like the trajectory. */
  @Override public String deliverableText(Path runDir) throws IOException {
    return TextFiles.readCapped(runDir.resolve(ANSWER), MAX_TEXT_CHARS);
  }

  @Override public Map<String, String> deliverableFiles(Path runDir) throws IOException {
    return Map.of(ANSWER, deliverableText(runDir));
  }

  /** The answer is still the bytes the rollout wrote: its digest equals the one recorded in the marker. */
  @Override public boolean artifactsIntact(Path runDir) {
    return answerMatchesMarker(runDir);
  }

  private static boolean answerMatchesMarker(Path runDir) {
    JsonNode mark = Runmark.readMark(runDir);
    Path answer = runDir.resolve(ANSWER);
    if (mark == null || !Files.isRegularFile(answer)) return false;
    String recorded = mark.path("deliverables").path(ANSWER).asText("");
    try {
      return !recorded.isEmpty() && recorded.equals(Runmark.fileDigest(answer));
    } catch (IOException e) {
      return false;
    }
  }

  private Path runDir(String runId) {
    Path executions = root.resolve("executions");
    Path dir = executions.resolve(Objects.requireNonNull(runId, "runId")).normalize();
    if (runId.isBlank() || !dir.startsWith(executions) || dir.equals(executions)) {
      throw new IllegalArgumentException("run id '" + runId
          + "' must be a relative path below <root>/executions, such as demo-oc-agg2/ledger-1/base1");
    }
    return dir;
  }

  private void requireTask(String task) {
    if (!tasks.has(task)) {
      throw new IllegalArgumentException("unknown " + spec.name() + " task '" + task + "'; its tasks are "
          + tasks.describe());
    }
  }
}
