package dev.h2beam.adapters.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.agents.AgentModel.Turn;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class OpenCodeCliTest extends AgentCliContract {
  @Override String agent() {
    return AgentTools.OPENCODE;
  }

  @Override AgentRun run(AgentInvocation inv) throws IOException, InterruptedException {
    return OpenCodeCli.run(inv);
  }

  @Override String modelPath() {
    return ScriptedModelServer.CHAT_PATH;
  }

  /** The title named on the command line spares the endpoint OpenCode's title request (a chat without tools). */
  @Override void checkCleanRun(AgentRun run) {
    List<ScriptedModelServer.Request> untooled = server.requests().stream()
        .filter(r -> r.path().equals(modelPath()) && r.body().path("tools").isEmpty()).toList();
    assertEquals(List.of(), untooled, "no title request");
  }

  @Test
  void aWorkspaceConfigFolderGetsThePluginStoppersAndKeepsItsOwnFiles() throws Exception {
    serve(ANSWERING);
    AgentInvocation inv = invocation("workspace-config", server.baseUrl(), RUN);
    Path own = Files.createDirectories(inv.workDir().resolve(".opencode"));
    String harnessPackage = "{\"dependencies\":{\"@opencode-ai/plugin\":\"1.18.33\"},\"name\":\"harness\"}\n";
    Files.writeString(own.resolve("package.json"), harnessPackage);
    AgentRun run = run(inv);
    assertSucceeded(run);
    assertEquals(harnessPackage, Files.readString(own.resolve("package.json")), "the harness's own file is kept");
    assertTrue(Files.isRegularFile(own.resolve("package-lock.json")));
    try (Stream<Path> installed = Files.list(own.resolve("node_modules"))) {
      assertEquals(List.of(), installed.toList(), "no plugin was installed into the workspace");
    }
    try (Stream<Path> installed = Files.list(inv.stateDir().resolve("xdg/config/opencode/node_modules"))) {
      assertEquals(List.of(), installed.toList(), "no plugin was installed into the config folder");
    }
  }

  @Test
  void aWriteOutsideTheWorkingFolderIsDenied() throws Exception {
    Path outside = dir.resolve("outside.md");
    serve(c -> c.toolResults().isEmpty() ? new Turn.WriteFile(outside.toString(), PLAIN)
        : new Turn.Say("The write was refused: " + c.toolResults().get(0)));
    AgentInvocation inv = invocation("fence", server.baseUrl(), RUN);
    AgentRun run = run(inv);
    assertSucceeded(run);
    assertFalse(Files.exists(outside), "the write outside the working folder was denied");
    String refusal = AgentModel.fromChat(turns(server.requests()).get(1).body()).toolResults().get(0);
    assertTrue(refusal.contains("prevents you from using this specific tool call")
        && refusal.contains("\"permission\":\"external_directory\",\"pattern\":\"*\",\"action\":\"deny\""),
        "the agent was told the fence refused it: " + refusal);
  }

  @Test
  void theConfigNamesTheKeyVariableAndFencesTheWorkingFolder() throws Exception {
    AgentInvocation inv = invocation("config", "http://127.0.0.1:9/v1", RUN);
    String config = OpenCodeCli.config(inv);
    assertTrue(config.contains("\"apiKey\" : \"{env:" + KEY_VAR + "}\""), config);
    assertTrue(config.contains("\"" + inv.workDir() + "/**\" : \"allow\""), config);
    assertTrue(config.contains("\"*\" : \"deny\""), config);
  }
}
