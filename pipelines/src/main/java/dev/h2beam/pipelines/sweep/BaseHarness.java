package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import dev.h2beam.transforms.safety.CredentialScreen;
import dev.h2beam.transforms.tree.TreeIO;
import dev.h2beam.transforms.tree.Validation;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Checks a benchmark's base harness before anything runs, with the same rules every proposal meets: files on the
 * editable surface only, validation rules, no grader verdicts, no literal credentials. Every problem is returned, so
 * {@code check} and the sweep can show them all at once.
 */
public final class BaseHarness {
  private BaseHarness() {}

  /** Refuses a base harness with any problem, listing them all and naming the benchmark's flag. */
  public static void require(Benchmark bench, String benchName) {
    require(bench, benchName, null);
  }

  /** {@link #require(Benchmark, String)} with the script checks' copies made in {@code scratch} (may be null). */
  static void require(Benchmark bench, String benchName, Path scratch) {
    List<String> problems = problems(bench, scratch);
    if (!problems.isEmpty()) {
      throw new UsageError("the base harness of --bench=" + benchName + " (" + bench.baseHarness()
          + ") cannot be used:\n  " + String.join("\n  ", problems));
    }
  }

  public static List<String> problems(Benchmark bench) {
    return problems(bench, null);
  }

  static List<String> problems(Benchmark bench, Path scratch) {
    List<String> problems = new ArrayList<>();
    try {
      VerdictTripwire.assertNone(bench.baseHarness());
    } catch (RuntimeException e) {
      problems.add(e.getMessage());
    }
    List<String> offSurface = new ArrayList<>();
    LinkedHashMap<String, String> tree;
    try {
      tree = TreeIO.read(bench.surface(), bench.baseHarness(), offSurface);
    } catch (UncheckedIOException e) {
      problems.add(e.getMessage() + ": " + e.getCause().getMessage());
      return problems;
    } catch (HarnessRejected e) {
      problems.add(e.getMessage());
      return problems;
    }
    for (String rel : PathOrder.skipped(bench.baseHarness())) {
      problems.add(bench.baseHarness().resolve(rel) + ": a symbolic link or special file; a harness holds regular"
          + " files only (links are never followed): replace it with the file it points to, or remove it");
    }
    for (String rel : offSurface) {
      problems.add(bench.baseHarness().resolve(rel) + ": not on the " + bench.surface().name()
          + " surface (always-on files " + bench.surface().alwaysOn() + ", skills/<name>/SKILL.md,"
          + " sub_agents/<name>/AGENT.md, scripts/<snake_name>.py, ...); move or remove it");
    }
    if (tree.isEmpty()) {
      problems.add(bench.baseHarness() + ": holds no harness file; write at least " + bench.surface().alwaysOn().get(0));
      return problems;
    }
    problems.addAll(validation(bench, tree, scratch));
    problems.addAll(CredentialScreen.findings(tree));
    return problems;
  }

  /** The benchmark's last validated base tree and what its validation found. */
  private record Validated(Benchmark bench, Map<String, String> tree, List<String> problems) {}

  private static final AtomicReference<Validated> LAST = new AtomicReference<>();

  /**
   * What validating {@code tree} finds (its script checks run {@code sh -n} and the like in subprocesses). A sweep
   * checks its base harness twice, when it plans and again once it holds the lock (the benchmark may write the
   * harness in between); the second check of the same benchmark over the same bytes reuses the first's result, as
   * validation depends on nothing else. The tree is read afresh for each check, so a change is always validated.
   */
  private static List<String> validation(Benchmark bench, Map<String, String> tree, Path scratch) {
    Validated last = LAST.get();
    if (last != null && last.bench() == bench && last.tree().equals(tree)) return last.problems();
    List<String> found = new ArrayList<>();
    try {
      Validation.validate(bench.surface(), tree, bench.spec().allowSubagents(), bench.spec().reservedScripts(),
          scratch);
      bench.validateTree(tree);
    } catch (HarnessRejected e) {
      for (String p : e.getMessage().split(" \\| ")) found.add(p);
    }
    LAST.set(new Validated(bench, Map.copyOf(tree), List.copyOf(found)));
    return found;
  }
}
