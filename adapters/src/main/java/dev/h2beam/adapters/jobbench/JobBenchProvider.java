package dev.h2beam.adapters.jobbench;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.config.RunConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --bench=jobbench --benchRoot=<a checkout of job-bench-eval>}. Settings: {@code substrate} (oc, cx),
 * {@code split} (all, train, test), {@code splitFile} (harness2's {@code {"benchmark": "jb", ...}}),
 * {@code executor} (a kind such as {@code chat}, or an executor object such as
 * {@code {"kind": "command", "command": "..."}}; default {@code chat}), {@code timeoutSeconds} (one rollout; default
 * 2400), {@code baseHarness} (a harness folder instead of h2beam's own) and {@code executions} (where rollouts go;
 * default {@code <root>/runs/_executions}). Relative paths are read against the root.
 */
public final class JobBenchProvider implements BenchmarkProvider {

  @Override public String name() {
    return "jobbench";
  }

  @Override public String description() {
    return "JobBench on a checkout of its dataset: dataset/main/<occupation>/<task>/task_folder/TASK_INSTRUCTIONS.txt";
  }

  @Override public Benchmark open(Path root, Map<String, String> settings) throws Exception {
    return open(root, settings, RunConfig.empty());
  }

  @Override public Benchmark open(Path root, Map<String, String> settings, RunConfig config) throws Exception {
    return JobBench.open(root, settings, config, System.getenv());
  }

  @Override public Benchmark open(Path root, Map<String, String> settings, RunConfig config,
      Map<String, String> sources) throws Exception {
    return JobBench.open(root, settings, config, System.getenv(), sources);
  }

  @Override public Optional<Set<String>> settingKeys() {
    return Optional.of(JobBenchSettings.KEYS);
  }

  /** The checkout is the user's input: the sweep keeps what it writes under the runs root. */
  @Override public boolean writesRoot() {
    return false;
  }
}
