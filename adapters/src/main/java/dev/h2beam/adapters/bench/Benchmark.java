package dev.h2beam.adapters.bench;

import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One benchmark × substrate cell as the method sees it (spec §12): tasks, their text and sources, executions and
 * their deliverables. It never exposes a score; scoring is the {@code Grader}'s, on the judge side.
 *
 * <p>Implementations must be safe to call from several threads and, on a cluster, from several workers that share
 * the benchmark's folders.
 */
public interface Benchmark {

  BenchSpec spec();

  /** The substrate token, {@code oc} or {@code cx}. */
  String substrate();

  default SurfaceSpec surface() {
    return SurfaceSpec.forSubstrate(substrate());
  }

  /** Every task id in a stable order. */
  List<String> tasks();

  String domainOf(String task);

  /** The task as the agent receives it, with criteria and expected outputs stripped. */
  String taskPrompt(String task);

  default BenchPrompts promptsFor(String task) {
    return spec().prompts();
  }

  /** The task's source material, if it has any. */
  default Optional<Path> taskFiles(String task) {
    return Optional.empty();
  }

  /**
   * The task's method-visible checks (a folder holding {@code check.sh}, for example the task's own unit tests): what
   * the gated mode's method may score episodes with. Distinct from grading, which only the judge reads; empty when
   * the task has none.
   */
  default Optional<Path> checks(String task) {
    return Optional.empty();
  }

  /** The seedless domain order; empty means "descending task count, then name". */
  default Optional<List<String>> referenceDomainOrder() {
    return Optional.empty();
  }

  /**
   * Runs one rollout, idempotent by run id and harness fingerprint: a finished rollout of the same harness is reused
   * ({@link Rollout#reused()}), anything else is wiped and run again. Throwing records a dead rollout.
   *
   * @param harnessDir the harness to install, or null for the benchmark's unmodified base harness
   */
  Rollout execute(String task, Path harnessDir, String runId) throws Exception;

  /**
   * Removes whatever a rollout of {@code runId} left, completed or not; nothing when it left nothing. For a run id the
   * method will not roll after all (a gated step an interrupted run took the other way), so that a resumed run's
   * files are a clean run's. Default: nothing, for a benchmark that keeps no rollout folders.
   */
  default void discard(String task, String runId) throws IOException {}

  /** Did the rollout produce the requested artifact. */
  boolean delivered(Path runDir);

  /** The rollout's trajectory rendered in the shared grammar (spec §11.2). */
  String trajectory(Path runDir, int obsTrunc) throws IOException;

  /** The deliverable as text, from agent-authored bytes only. */
  String deliverableText(Path runDir) throws IOException;

  /** Per-file deliverable texts (name → text); empty means "use {@link #deliverableText}". */
  default Map<String, String> deliverableFiles(Path runDir) throws IOException {
    return Map.of();
  }

  /** Whether the adopted execution's artifacts are still what the rollout produced. */
  default boolean artifactsIntact(Path runDir) {
    return true;
  }

  /** The directory holding the unmodified harness tree. */
  Path baseHarness();

  /**
   * Writes what the benchmark creates in its own root on first use (the demo's base harness and sources), where
   * absent. Called once every option was accepted, just before a sweep writes anything; never by a dry run or for a
   * refused option, and never by {@code open}, which only reads. A benchmark that only reads its folder does nothing.
   */
  default void prepare() throws IOException {}

  /** How the run identity names the executor beyond the benchmark and substrate (its kind, endpoint and model). */
  default String executorIdentity() {
    return "";
  }

  /** Benchmark invariants on a proposed tree; the message of the rejection is fed back verbatim. */
  default void validateTree(Map<String, String> tree) throws HarnessRejected {}
}
