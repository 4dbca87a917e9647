package dev.h2beam.adapters.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** An endpoint's limits belong to the job: W workers each get a W-th, and a limit too small to divide is refused. */
class JobLimitsTest {
  private static final String CONFIG = """
      endpoints:
        api: {base_url: "http://127.0.0.1:8000/v1", max_concurrency: 8, requests_per_minute: 600,
              tokens_per_minute: 90000}
        small: {base_url: "http://127.0.0.1:8001/v1", max_concurrency: 2}
        judging: {base_url: "http://127.0.0.1:8002/v1", max_concurrency: 1}
      roles:
        improver: {endpoint: api, model: "m"}
        executor: {endpoint: small, model: "e"}
        judge: {endpoint: judging, model: "j"}
      """;

  @Test
  void rateLimitsAreReadFromTheFile() {
    Endpoint api = RunConfig.parse(CONFIG, "cfg.yaml").endpoints().get("api");
    assertEquals(600, api.requestsPerMinute());
    assertEquals(90000, api.tokensPerMinute());
    assertEquals(0, RunConfig.parse(CONFIG, "cfg.yaml").endpoints().get("small").requestsPerMinute(), "none");
  }

  @Test
  void aRateLimitMustBeAWholeNumberOfAtLeastOne() {
    ConfigError e = assertThrows(ConfigError.class, () -> RunConfig.parse(
        CONFIG.replace("requests_per_minute: 600", "requests_per_minute: 0"), "cfg.yaml"));
    assertTrue(e.getMessage().contains("endpoints.api.requests_per_minute"), e.getMessage());
  }

  @Test
  void eachWorkerGetsItsShareAndRolesFollowTheirEndpoint() {
    RunConfig c = RunConfig.parse(CONFIG, "cfg.yaml");
    RunConfig two = c.shareAmong(2, RunConfig.SWEEP_ROLES);
    Endpoint api = two.role("improver").orElseThrow().endpoint();
    assertEquals(4, api.maxConcurrency());
    assertEquals(300, api.requestsPerMinute());
    assertEquals(45000, api.tokensPerMinute());
    assertEquals(1, two.role("executor").orElseThrow().endpoint().maxConcurrency());
    assertEquals(c.identity(), two.identity(), "a worker's share does not change the run identity");
    assertEquals(1, two.role("judge").orElseThrow().endpoint().maxConcurrency(), "the sweep does not call the judge:"
        + " its endpoint is left whole, not refused for being too small to divide");
    assertSame(c, c.shareAmong(1, RunConfig.SWEEP_ROLES));
    assertEquals(2, c.endpoints().get("api").share(3).maxConcurrency(), "8 over 3 rounds down: never more");
  }

  @Test
  void aLimitBelowTheWorkerCountIsRefusedNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RunConfig.parse(CONFIG, "cfg.yaml").shareAmong(4, RunConfig.SWEEP_ROLES));
    assertTrue(e.getMessage().startsWith("endpoints.small.max_concurrency is 2, fewer than the job's 4 workers"),
        e.getMessage());
    // the judge's job divides the judge's endpoint, and only it
    IllegalArgumentException j = assertThrows(IllegalArgumentException.class,
        () -> RunConfig.parse(CONFIG, "cfg.yaml").shareAmong(2, java.util.List.of("judge")));
    assertTrue(j.getMessage().startsWith("endpoints.judging.max_concurrency is 1, fewer than the job's 2 workers"),
        j.getMessage());
    RunConfig judging = RunConfig.parse(CONFIG.replace("max_concurrency: 1}", "max_concurrency: 4}"), "cfg.yaml")
        .shareAmong(4, java.util.List.of("judge"));
    assertEquals(1, judging.role("judge").orElseThrow().endpoint().maxConcurrency());
    assertEquals(2, judging.role("executor").orElseThrow().endpoint().maxConcurrency(), "not the judge's: whole");
  }
}
