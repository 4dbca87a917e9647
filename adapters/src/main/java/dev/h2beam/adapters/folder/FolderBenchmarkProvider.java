package dev.h2beam.adapters.folder;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.config.RunConfig;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --bench=folder --benchRoot=DIR}: a researcher's own tasks. Settings: {@code substrate} (oc, or cx for the
 * codex executor), {@code split} (all, train, test), {@code executions} (where rollouts go; default
 * {@code DIR/runs/_executions}), {@code executor} (replaces bench.json's executor kind), the agent binaries, and
 * {@code isolation} ({@code namespaces}: each rollout's agent sees its own run folder and nothing else of the
 * benchmark folder, the rollouts' folder or {@code runsRoot}: {@link dev.h2beam.adapters.exec.Isolation}).
 */
public final class FolderBenchmarkProvider implements BenchmarkProvider {

  @Override public String name() {
    return "folder";
  }

  @Override public String description() {
    return "your own tasks in a folder: bench.json, base/, tasks/<domain>/<task>/{task.md,source/,grading/}";
  }

  @Override public Benchmark open(Path root, Map<String, String> settings) {
    return open(root, settings, RunConfig.empty());
  }

  @Override public Benchmark open(Path root, Map<String, String> settings, RunConfig config) {
    return open(root, settings, config, Map.of());
  }

  @Override public Benchmark open(Path root, Map<String, String> settings, RunConfig config,
      Map<String, String> sources) {
    Path executions = settings.containsKey("executions") ? Paths.get(settings.get("executions"))
        : root.resolve("runs").resolve("_executions");
    return FolderBenchmark.open(root, executions, settings.getOrDefault("split", "all"), config, System.getenv(),
        settings, sources);
  }

  /** The executor's kind, where rollouts go, and what the sweep sets from its flags; bench.json holds the rest. */
  @Override public Optional<Set<String>> settingKeys() {
    return Optional.of(Set.of("substrate", "split", "executions", "executor", "opencodeBin", "codexBin",
        "toolsDir", "isolation", "runsRoot"));
  }

  @Override public boolean writesRoot() {
    return false;
  }
}
