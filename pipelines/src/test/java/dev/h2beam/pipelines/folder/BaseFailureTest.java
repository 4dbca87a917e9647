package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task whose every base rollout died says why, in the first dead rollout's own words, and where to look. */
class BaseFailureTest {

  @Test
  @SuppressWarnings("unchecked")
  void aDownEndpointIsNamedInTheBaseFailedTasksError(@TempDir Path tmp) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    Path config = tmp.resolve("down.yaml");
    Files.writeString(config, "endpoints:\n  local: {base_url: \"http://127.0.0.1:" + port + "/v1\", api_key_env: \""
        + FolderSweepTest.KEY_VAR + "\", timeout_seconds: 5, max_attempts: 1}\nroles:\n"
        + "  executor: {endpoint: local, model: \"exec-model\"}\n  improver: {endpoint: local, model: \"i\"}\n"
        + "  selector: {endpoint: local, model: \"s\"}\n  reflector: {endpoint: local, model: \"s\"}\n");
    Path runs = tmp.resolve("runs");
    Map<String, Object> record = FolderSweepTest.sweepAt(runs, config, 1, "parallel", "--onlyDomains=ledgers",
        "--maxTasks=1");

    Map<String, Object> task = (Map<String, Object>) ((List<Map<String, Object>>) ((List<Map<String, Object>>)
        record.get("domains")).get(0).get("tasks")).get(0);
    assertEquals("base-failed", task.get("status"));
    String error = (String) task.get("error");
    Path rollout = runs.resolve("_executions/signed_sums-oc-agg1/ledgers/april/base1");
    assertTrue(error.startsWith("no base rollout produced anything; base1 failed: "), error);
    assertTrue(error.contains("connection failed: ConnectException; check that the server is up"), error);
    assertTrue(error.contains(rollout.toString()), "names the rollout's folder: " + error);
    assertTrue(Files.isRegularFile(rollout.resolve("trajectory.md")));
    assertFalse(error.contains("\n"), error);

    Map<String, Object> summary = Json.readMap(runs.resolve("signed_sums-oc-agg1/ledgers__april/summary.json"));
    assertEquals(List.of("no base rollout produced anything"), summary.get("errors"), "the spec's error, as it is");
    Map<String, Object> base1 = ((List<Map<String, Object>>) summary.get("base")).get(0);
    assertTrue(((String) base1.get("error")).contains("ConnectException"), base1.toString());
    // with no ledger to hold it, the dead base keeps what it cost beside its entry: here a known $0 (the endpoint
    // has no prices, and the call never reached it)
    assertEquals(0.0, base1.get("cost_usd"), base1.toString());
    assertFalse(base1.containsKey("cost_known"), base1.toString());
    // and what it spent in tokens: a known none (no call left), always written as a ledger's are
    assertEquals(Map.of("input", 0, "output", 0), base1.get("tokens"), base1.toString());
    assertFalse(base1.containsKey("tokens_known"), base1.toString());
    // the spec's placeholder for a dead rollout (§2.5), never created
    assertEquals(runs.resolve("signed_sums-oc-agg1/ledgers__april/missing").toString(), base1.get("run_dir"));
    assertFalse(Files.exists(Path.of((String) base1.get("run_dir"))));
  }
}
