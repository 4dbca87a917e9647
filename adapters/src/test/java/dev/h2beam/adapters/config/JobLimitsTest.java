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
      roles:
        improver: {endpoint: api, model: "m"}
        executor: {endpoint: small, model: "e"}
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
    RunConfig two = c.shareAmong(2);
    Endpoint api = two.role("improver").orElseThrow().endpoint();
    assertEquals(4, api.maxConcurrency());
    assertEquals(300, api.requestsPerMinute());
    assertEquals(45000, api.tokensPerMinute());
    assertEquals(1, two.role("executor").orElseThrow().endpoint().maxConcurrency());
    assertEquals(c.identity(), two.identity(), "a worker's share does not change the run identity");
    assertSame(c, c.shareAmong(1));
    assertEquals(2, c.endpoints().get("api").share(3).maxConcurrency(), "8 over 3 rounds down: never more");
  }

  @Test
  void aLimitBelowTheWorkerCountIsRefusedNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RunConfig.parse(CONFIG, "cfg.yaml").shareAmong(4));
    assertTrue(e.getMessage().startsWith("endpoints.small.max_concurrency is 2, fewer than the job's 4 workers"),
        e.getMessage());
  }
}
