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
      problems.add(bench.baseHarness().resolve(CredentialScreen.redact(rel)) + ": a symbolic link or special file; a"
          + " harness holds regular files only (links are never followed): replace it with the file it points to,"
          + " or remove it");
    }
    for (String rel : offSurface) {
      problems.add(bench.baseHarness().resolve(CredentialScreen.redact(rel)) + ": not on the " + bench.surface().name()
          + " surface (always-on files " + bench.surface().alwaysOn() + ", skills/<name>/SKILL.md,"
          + " sub_agents/<name>/AGENT.md, scripts/<snake_name>.py, ...); move or remove it");
    }
    if (tree.isEmpty()) {
      problems.add(bench.baseHarness() + ": holds no harness file; write at least " + bench.surface().alwaysOn().get(0));
      return problems;
    }
    try {
      Validation.validate(bench.surface(), tree, bench.spec().allowSubagents(), bench.spec().reservedScripts(),
          scratch);
      bench.validateTree(tree);
    } catch (HarnessRejected e) {
      for (String p : e.getMessage().split(" \\| ")) {
        // the benchmark's own setting, which an improver's refusal cannot point at: here the user can change it
        boolean sub = p.startsWith("sub_agents are not available")
            && bench instanceof dev.h2beam.adapters.folder.FolderBenchmark;
        problems.add(bench.baseHarness() + ": " + p + (sub ? "; a folder benchmark allows them with"
            + " \"allow_subagents\": true in bench.json (OpenCode executors only)" : ""));
      }
    }
    // these name a file by its path in the harness, as they do for an improver's edit: here the harness is a folder
    // of the benchmark's, named first
    // a file off the surface is not read, but its name is shown like the others': a key in it is a finding too
    LinkedHashMap<String, String> named = new LinkedHashMap<>(tree);
    for (String rel : offSurface) named.putIfAbsent(rel, "");
    for (String p : CredentialScreen.findings(named)) problems.add(bench.baseHarness() + ": " + p);
    return problems;
  }
}
