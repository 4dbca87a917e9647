package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.pipelines.sweep.SweepCommand;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rollout the host refuses to start (here the kernel refuses the exec: one argument longer than it takes, E2BIG,
 * a real {@code ProcessBuilder.start} failure, as EMFILE under a low {@code ulimit -n} is) is not a dead rollout of a
 * finished task: its mode fails naming the cause, the sweep exits 2, and the same command, once the host lets the
 * program start, ends with the files of a clean run.
 */
class HostRefusalTest {
  /** The run ids (their ends) whose next execution the host refuses; each once. */
  static final Set<String> REFUSE = ConcurrentHashMap.newKeySet();

  @Test
  void aRolloutTheHostRefusesFailsItsTaskAndTheResumeEndsAsACleanRun(@TempDir Path tmp) throws Exception {
    Path clean = tmp.resolve("clean");
    Path faulted = tmp.resolve("faulted");
    assertEquals(0, sweep(clean), "the clean run");

    REFUSE.addAll(List.of("/d01-t01/base2", "/d01-t02/agg2"));
    assertEquals(2, sweep(faulted), "a task the host kept from running is a failed task");
    assertTrue(REFUSE.isEmpty(), "both refusals happened: " + REFUSE);
    Map<String, Object> t1 = SummaryFile.read(summary(faulted, "d01-t01"));
    Map<String, Object> t2 = SummaryFile.read(summary(faulted, "d01-t02"));
    for (Map<String, Object> s : List.of(t1, t2)) assertEquals("partial", s.get("status"), String.valueOf(s));
    String e1 = String.valueOf(t1.get("errors"));
    String e2 = String.valueOf(t2.get("errors"));
    assertTrue(e1.contains("agg: HostFailure: rollout base2 could not start (cannot run sh: Cannot run program"), e1);
    assertTrue(e1.contains("seq: HostFailure: rollout base2 could not start"), "both modes fail: " + e1);
    assertTrue(e2.contains("agg: HostFailure: rollout agg2 could not start (cannot run sh: Cannot run program"), e2);
    for (String e : List.of(e1, e2)) {
      assertTrue(e.contains("Argument list too long"), "the host's reason is named: " + e);
      assertTrue(e.contains("the host's failure, not the method's outcome, so the task is not finished;"), e);
      assertTrue(e.contains("re-run the same command, which runs the task again"), e);
    }
    assertFalse(String.valueOf(t2.get("selections")).contains("dropped=[agg2]"),
        "no selection was made over a candidate the host refused: " + t2.get("selections"));
    assertFalse(Files.readString(summary(faulted, "d01-t02")).contains("/missing"), "no missing run recorded");

    assertEquals(0, sweep(faulted), "the resume, the host letting every program start");
    for (String task : List.of("d01-t01", "d01-t02", "d01-t03")) {
      String want = Files.readString(summary(clean, task)).replace(clean.toString(), faulted.toString());
      assertEquals(want, Files.readString(summary(faulted, task)), task + " ends as in a clean run");
    }
  }

  private static int sweep(Path root) throws Exception {
    return new SweepCommand().run(new String[] {"--bench=hostrefusal", "--benchRoot=" + root, "--k=2",
        "--modes=parallel,sequential", "--benchSettings={\"domains\": 1, \"tasksPerDomain\": 3}",
        "--sessionRetryWaitSeconds=0", "--progress=off"});
  }

  private static Path summary(Path root, String task) {
    return root.resolve("runs/synthetic-oc-agg2").resolve(task).resolve("summary.json");
  }

  /** The synthetic benchmark, whose executions the host refuses for the run ids in {@link #REFUSE}. */
  public static final class Provider implements BenchmarkProvider {
    @Override public String name() {
      return "hostrefusal";
    }

    @Override public String description() {
      return "the synthetic benchmark with rollouts the host refuses to start (HostRefusalTest)";
    }

    @Override public Optional<Set<String>> settingKeys() {
      return new SyntheticBenchmarkProvider().settingKeys();
    }

    @Override public Benchmark open(Path root, Map<String, String> settings) {
      return new Refusing(new SyntheticBenchmarkProvider().open(root, settings));
    }
  }

  /** Every call is the synthetic benchmark's, but for the refused executions. */
  private record Refusing(Benchmark b) implements Benchmark {
    @Override public Rollout execute(String task, Path harnessDir, String runId) throws Exception {
      if (REFUSE.stream().anyMatch(runId::endsWith) && REFUSE.removeIf(runId::endsWith)) {
        Path dir = Files.createTempDirectory("h2beam-refused-");
        // ARG_MAX aside, Linux takes no single argument longer than 128 KiB: execve fails with E2BIG
        ProcessRunner.run(ProcessSpec.of(List.of("sh", "-c", ":", "x".repeat(200_000)), dir,
            Env.base(System.getenv()), dir.resolve("out"), dir.resolve("err"), Duration.ofSeconds(10)));
        throw new AssertionError("the host started a program with a 200,000-character argument");
      }
      return b.execute(task, harnessDir, runId);
    }

    @Override public BenchSpec spec() {
      return b.spec();
    }

    @Override public String substrate() {
      return b.substrate();
    }

    @Override public dev.h2beam.adapters.model.SurfaceSpec surface() {
      return b.surface();
    }

    @Override public List<String> tasks() {
      return b.tasks();
    }

    @Override public String domainOf(String task) {
      return b.domainOf(task);
    }

    @Override public String taskPrompt(String task) {
      return b.taskPrompt(task);
    }

    @Override public dev.h2beam.adapters.model.BenchPrompts promptsFor(String task) {
      return b.promptsFor(task);
    }

    @Override public Optional<Path> taskFiles(String task) {
      return b.taskFiles(task);
    }

    @Override public Optional<Path> checks(String task) {
      return b.checks(task);
    }

    @Override public Optional<List<String>> referenceDomainOrder() {
      return b.referenceDomainOrder();
    }

    @Override public void discard(String task, String runId) throws IOException {
      b.discard(task, runId);
    }

    @Override public boolean delivered(Path runDir) {
      return b.delivered(runDir);
    }

    @Override public String trajectory(Path runDir, int obsTrunc) throws IOException {
      return b.trajectory(runDir, obsTrunc);
    }

    @Override public String deliverableText(Path runDir) throws IOException {
      return b.deliverableText(runDir);
    }

    @Override public Map<String, String> deliverableFiles(Path runDir) throws IOException {
      return b.deliverableFiles(runDir);
    }

    @Override public boolean artifactsIntact(Path runDir) {
      return b.artifactsIntact(runDir);
    }

    @Override public Path baseHarness() {
      return b.baseHarness();
    }

    @Override public void prepare() throws IOException {
      b.prepare();
    }

    @Override public String executorIdentity() {
      return b.executorIdentity();
    }

    @Override public void validateTree(Map<String, String> tree) throws dev.h2beam.adapters.model.HarnessRejected {
      b.validateTree(tree);
    }
  }
}
