package dev.h2beam.pipelines.judge;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --grader=noop}: a grader that does no work and passes everything. It exists to measure the judge's own
 * overhead (BENCHMARKS.md); never use it to report results.
 */
public final class NoopGrader implements Grader {
  @Override public String identity() {
    return "noop";
  }

  /** Reads files only (see {@link Grader#inProcess}). */
  @Override public boolean inProcess() {
    return true;
  }

  @Override public Optional<Map<String, Object>> score(Path runDir, String task) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("n_passed", 1);
    m.put("n_criteria", 1);
    m.put("metric", "noop");
    return Optional.of(m);
  }

  /** {@code --grader=noop}. */
  public static final class Provider implements GraderProvider {
    @Override public String name() {
      return "noop";
    }

    @Override public Grader open(Path namespaceDir, Map<String, String> settings) {
      return new NoopGrader();
    }
  }
}
