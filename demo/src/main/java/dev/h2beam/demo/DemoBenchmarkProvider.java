package dev.h2beam.demo;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Provides the offline demo benchmark under the name {@code demo}. */
public final class DemoBenchmarkProvider implements BenchmarkProvider {

  @Override public String name() {
    return "demo";
  }

  @Override public String description() {
    return "offline ledger demo: two accounting tasks run by a POSIX shell script; no model, network or Python";
  }

  /** Only what the commands set from their flags: the demo has no settings of its own. */
  @Override public Optional<Set<String>> settingKeys() {
    return Optional.of(Set.of("substrate", "split"));
  }

  /**
   * Opens the demo without writing anything: its base harness and ledgers are written, where absent, by
   * {@link DemoBenchmark#prepare()} once a sweep is about to run.
   */
  @Override public Benchmark open(Path root, Map<String, String> settings) throws Exception {
    String substrate = settings.getOrDefault("substrate", "oc");
    if (!substrate.equals("oc")) {
      throw new IllegalArgumentException("the demo runs on the OpenCode surface only: use substrate oc, not '"
          + substrate + "'");
    }
    return new DemoBenchmark(root);
  }
}
