package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.ReferenceGrant;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.plugin.Registry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
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

  /**
   * The benchmark folder a namespace was swept on: {@code --benchRoot} (the {@code benchRoot} setting), else the
   * {@code bench_root} its config.json records; empty when neither names one.
   */
  static Optional<Path> benchRoot(Path namespaceDir, Map<String, String> settings) throws IOException {
    if (settings.containsKey("benchRoot")) {
      return Optional.of(Paths.get(settings.get("benchRoot")).toAbsolutePath().normalize());
    }
    Path config = namespaceDir.resolve("config.json");
    JsonNode c = Files.isRegularFile(config) ? Json.readTree(config) : null;
    return c != null && c.path("bench_root").isTextual() && !c.get("bench_root").asText().isBlank()
        ? Optional.of(Paths.get(c.get("bench_root").asText())) : Optional.empty();
  }

  static TreeMap<String, GraderProvider> all() {
    return Registry.byName(GraderProvider.class, GraderProvider::name);
  }

  /** The provider called {@code name}; an error naming the known graders otherwise. */
  static GraderProvider named(String name) {
    return Registry.named(GraderProvider.class, all(), name, "--grader=" + name + " is not a known grader",
        "");
  }
}
