package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.config.ReferenceGrant;
import dev.h2beam.adapters.plugin.Registry;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Makes a {@link Grader} by name for one namespace; registered through {@code META-INF/services}. */
public interface GraderProvider {

  /** The {@code --grader} name; a benchmark's own grader carries the benchmark's name. */
  String name();

  /**
   * Opens the grader for a namespace.
   *
   * @param namespaceDir the namespace folder being judged
   * @param settings grader settings from the command line (e.g. {@code command})
   */
  Grader open(Path namespaceDir, Map<String, String> settings) throws Exception;

  /**
   * What the grader of a namespace would send to a model besides the work: the reference egress grant it needs
   * (benchmark, endpoint, pinned model, references), or empty when it sends no reference to any model, as most
   * graders do. Asked before any grader is opened; it must send nothing.
   *
   * @param benchmark the benchmark the namespace's name records
   */
  default Optional<ReferenceGrant> referenceEgress(Path namespaceDir, String benchmark, Map<String, String> settings)
      throws Exception {
    return Optional.empty();
  }

  static TreeMap<String, GraderProvider> all() {
    return Registry.byName(GraderProvider.class, GraderProvider::name);
  }

  /** The provider called {@code name}; an error naming the known graders otherwise. */
  static GraderProvider named(String name) {
    return Registry.named(all(), name, "--grader=" + name + " is not a known grader", "");
  }
}
