package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rubric judge on a job of several worker processes: each worker grades with its share of the judge endpoint's
 * limits, as a sweep's workers do, so the judge job as a whole keeps them; a limit too small to divide is refused
 * naming it. (The client learns the workers from the JobManager, {@code FlinkClusterIT} runs it on a real cluster.)
 */
class RubricGraderShareTest {
  static final Path EXAMPLE = Paths.get("..", "examples", "folder-bench").toAbsolutePath().normalize();

  @TempDir Path tmp;

  private Map<String, String> settings(String limits, String workers) throws Exception {
    Path config = tmp.resolve("judge.yaml");
    Files.writeString(config, "endpoints:\n"
        + "  local: {base_url: \"http://127.0.0.1:9/v1\", " + limits + "}\n"
        + "  sweeps: {base_url: \"http://127.0.0.1:9/v2\", max_concurrency: 1}\n"
        + "roles:\n"
        + "  improver: {endpoint: sweeps, model: \"improve-model\"}\n"
        + "  judge: {endpoint: local, model: \"judge-model\"}\n"
        + "grants:\n"
        + "  - {benchmark: signed_sums, endpoint: local, model: \"judge-model\", references: \"grading/rubric.json\"}\n");
    Map<String, String> s = new HashMap<>();
    s.put("config", config.toString());
    s.put("benchRoot", EXAMPLE.toString());
    if (workers != null) s.put(JudgeCommand.WORKERS, workers);
    return s;
  }

  private Endpoint opened(Map<String, String> settings) throws Exception {
    Path ns = Files.createDirectories(tmp.resolve("signed_sums-oc-agg1"));
    try (RubricGrader g = (RubricGrader) new RubricGrader.Provider().open(ns, settings)) {
      return g.role().endpoint();
    }
  }

  @Test
  void eachOfTheJobsWorkersGradesWithItsShareOfTheJudgeEndpointsLimits() throws Exception {
    String limits = "max_concurrency: 5, requests_per_minute: 60, tokens_per_minute: 90000";
    Endpoint alone = opened(settings(limits, null));
    assertEquals(5, alone.maxConcurrency());
    Endpoint share = opened(settings(limits, "2"));
    assertEquals(2, share.maxConcurrency(), "5 calls at once over 2 workers: 2 each");
    assertEquals(30, share.requestsPerMinute());
    assertEquals(45_000, share.tokensPerMinute());
    // the file's sweep endpoint, which the judge never calls, is neither divided nor refused for being too small
    // the instrument is the same: a re-judge on a cluster is not a different judge
    Path ns = tmp.resolve("signed_sums-oc-agg1");
    try (RubricGrader a = (RubricGrader) new RubricGrader.Provider().open(ns, settings(limits, null));
        RubricGrader b = (RubricGrader) new RubricGrader.Provider().open(ns, settings(limits, "2"))) {
      assertEquals(a.identity(), b.identity());
    }
  }

  @Test
  void aLimitBelowTheWorkersIsRefusedNamingIt() throws Exception {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> opened(settings("max_concurrency: 1", "2")));
    assertTrue(e.getMessage().startsWith("endpoints.local.max_concurrency is 1, fewer than the job's 2 workers"),
        e.getMessage());
  }
}
