package dev.h2beam.adapters.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CodexCliTest extends AgentCliContract {
  @Override String agent() {
    return AgentTools.CODEX;
  }

  @Override AgentRun run(AgentInvocation inv) throws IOException, InterruptedException {
    return CodexCli.run(inv);
  }

  @Override String modelPath() {
    return AgentModel.RESPONSES_PATH;
  }

  /** A whole Codex run takes about 1.2 s, so 3 s still see its processes before the kill. */
  @Override Duration downTimeout() {
    return Duration.ofSeconds(3);
  }

  /**
   * The settings silence the helper-binary refusal and the missing model metadata, and no shell snapshot (the login
   * shell's environment, the key included) is written.
   */
  @Override void checkCleanRun(AgentRun run) throws IOException {
    Path home = run.stdoutJsonl().resolveSibling("codex-home");
    assertTrue(Files.isDirectory(home), home.toString());
    assertFalse(Files.exists(home.resolve("shell_snapshots")), home.toString());
    String stderr = Files.readString(run.stderr());
    assertFalse(stderr.contains("Refusing to create helper binaries"), stderr);
    String stdout = Files.readString(run.stdoutJsonl());
    assertFalse(stdout.contains("metadata"), stdout);
  }

  @Test
  void theServersScriptedFaultsApplyToTheResponsesRoute() throws Exception {
    serve(ANSWERING);
    server.next(ScriptedModelServer.Fault.status(400, null));
    AgentRun run = run(invocation("fault", server.baseUrl(), RUN));
    assertEquals(1, run.process().exit());
    assertTrue(Files.readString(run.stdoutJsonl()).contains("\"turn.failed\""));
  }

  @Test
  void theCatalogueEntryIsRenamedAfterTheModel() throws Exception {
    JsonNode bundled = Json.MAPPER.readTree("{\"models\": [{\"slug\": \"a\", \"display_name\": \"A\"},"
        + " {\"slug\": \"" + CodexCli.BASE_ENTRY + "\", \"display_name\": \"B\", \"prefer_websockets\": true}]}");
    JsonNode one = Json.MAPPER.readTree(CodexCli.oneEntry(bundled, "my-model"));
    assertEquals(1, one.path("models").size());
    JsonNode entry = one.path("models").path(0);
    assertEquals("my-model", entry.path("slug").asText());
    assertEquals("my-model", entry.path("display_name").asText());
    assertFalse(entry.path("prefer_websockets").asBoolean());
    assertEquals("A", Json.MAPPER.readTree(CodexCli.oneEntry(bundled, "a")).path("models").path(0)
        .path("display_name").asText(), "a model of the catalogue keeps its own entry");
  }
}
