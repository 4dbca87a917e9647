package dev.h2beam.adapters.exec;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.plugin.Registry;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Makes an {@link Executor} by name ({@code chat}, {@code command}, ...); registered through {@code META-INF/services}. */
public interface ExecutorProvider {

  /** The name a benchmark file gives in {@code executor.kind}. */
  String name();

  /**
   * Opens the executor.
   *
   * @param settings the benchmark file's {@code executor} object (kind-specific keys, already checked for unknown
   *     ones by {@link #keys()})
   * @param role the configuration's {@code executor} role, when the file configures one
   * @param env the environment the executor may draw its allow-listed variables and key from
   */
  Executor open(Map<String, Object> settings, Optional<ResolvedRole> role, Map<String, String> env)
      throws Exception;

  /** The keys this kind accepts in the benchmark file's {@code executor} object, besides {@code kind}. */
  java.util.Set<String> keys();

  static TreeMap<String, ExecutorProvider> all() {
    return Registry.byName(ExecutorProvider.class, ExecutorProvider::name);
  }

  /** The provider called {@code name}; an error naming the known kinds otherwise. */
  static ExecutorProvider named(String name) {
    return Registry.named(ExecutorProvider.class, all(), name, "executor kind '" + name + "' is not known", "");
  }
}
