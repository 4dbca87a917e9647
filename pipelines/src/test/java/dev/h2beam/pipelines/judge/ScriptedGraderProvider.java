package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.files.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test grader {@code scripted}: each run dir's {@code grade.txt} says what to do: a JSON score to return, or
 * {@code throw}, {@code hang}, {@code empty}. Counts its calls so tests can prove it was never called.
 */
public final class ScriptedGraderProvider implements GraderProvider {
  static final AtomicInteger CALLS = new AtomicInteger();

  @Override public String name() {
    return "scripted";
  }

  @Override public Grader open(Path namespaceDir, Map<String, String> settings) {
    return new Grader() {
      @Override public String identity() {
        return settings.getOrDefault("command", "scripted:v1");
      }

      @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws Exception {
        CALLS.incrementAndGet();
        String what = Files.readString(runDir.resolve("grade.txt")).strip();
        switch (what) {
          case "throw":
            throw new IllegalStateException("grader exploded on " + task);
          case "hang":
            Thread.sleep(60_000);
            return Optional.empty();
          case "empty":
            return Optional.empty();
          default:
            return Optional.of(Json.readMap(what));
        }
      }
    };
  }
}
