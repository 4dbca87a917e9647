package dev.h2beam.adapters.bench;

import java.nio.file.Path;
import java.util.Map;

/** Makes a {@link Benchmark} by name; registered through {@code META-INF/services}. */
public interface BenchmarkProvider {

  /** The {@code --bench} name. */
  String name();

  /** One line for {@code --help}. */
  String description();

  /**
   * Opens the benchmark.
   *
   * @param root the folder the benchmark keeps its data and executions in
   * @param settings benchmark-specific settings (for example the substrate)
   */
  Benchmark open(Path root, Map<String, String> settings) throws Exception;
}
