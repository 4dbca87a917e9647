package dev.h2beam.adapters.bench;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

  /**
   * Opens the benchmark with the run configuration (endpoints and roles), for benchmarks whose executor talks to a
   * model; the default ignores the configuration.
   */
  default Benchmark open(Path root, Map<String, String> settings, dev.h2beam.adapters.config.RunConfig config)
      throws Exception {
    return open(root, settings);
  }

  /**
   * Every setting the benchmark reads, those the commands set from their own flags included, so that a key it would
   * ignore (a misspelling) is refused before anything runs; empty when the benchmark does not say, and then its
   * settings are not checked for it.
   */
  default Optional<Set<String>> settingKeys() {
    return Optional.empty();
  }

  /**
   * As {@link #open(Path, Map, dev.h2beam.adapters.config.RunConfig)}; {@code sources} says where a setting came
   * from when that is not the flag of its name ({@code executor} from {@code --benchSettings' executor}, not
   * {@code --executor}), so that a problem with it names what the user gave. The default ignores it.
   */
  default Benchmark open(Path root, Map<String, String> settings, dev.h2beam.adapters.config.RunConfig config,
      Map<String, String> sources) throws Exception {
    return open(root, settings, config);
  }

  /**
   * Whether the benchmark writes its executions under its own root. A benchmark whose root is the user's input
   * folder (the folder benchmark) returns false, and the sweep keeps everything it writes under the runs root.
   */
  default boolean writesRoot() {
    return true;
  }
}
