package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.RunConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A worker reads the keys from its own environment (a job carries none): one whose environment lacks a variable the
 * sweep's roles read refuses before it does anything, naming the variable, its endpoint and its host, never a value.
 */
class WorkerKeysTest {
  static final RunConfig CONFIG = RunConfig.parse("endpoints:\n"
      + "  a: {base_url: \"http://127.0.0.1:9/v1\", api_key_env: KEY_A}\n"
      + "  j: {base_url: \"http://127.0.0.1:9/v1\", api_key_env: KEY_J}\n"
      + "roles:\n  executor: {endpoint: a, model: e}\n  improver: {endpoint: a, model: e}\n"
      + "  judge: {endpoint: j, model: e}\n", "cfg.yaml");

  @Test
  void aWorkerWithTheKeysRuns() {
    assertDoesNotThrow(() -> SweepContext.requireKeys(CONFIG, Map.of("KEY_A", "sk-worker-value")));
  }

  @Test
  void aWorkerWithoutAKeyRefusesNamingItsHostAndTheVariable() {
    for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("KEY_A", "  "))) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> SweepContext.requireKeys(CONFIG, env));
      assertTrue(e.getMessage().startsWith("the worker on host ")
          && e.getMessage().contains(" has no KEY_A (api_key_env of endpoint a) in its environment")
          && e.getMessage().contains("start every TaskManager with the key variables"), e.getMessage());
      assertFalse(e.getMessage().contains("KEY_J"), "the judge's key is not the sweep's: " + e.getMessage());
    }
  }
}
