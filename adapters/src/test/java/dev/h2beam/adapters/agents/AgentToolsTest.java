package dev.h2beam.adapters.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentToolsTest {
  @TempDir Path dir;

  @Test
  void theToolsFolderIsTheVariableElseUnderHome() {
    assertEquals(Path.of("/opt/tools"), AgentTools.defaultToolsDir(Map.of("H2BEAM_TOOLS_DIR", "/opt/tools",
        "HOME", "/home/u")));
    assertEquals(Path.of("/home/u/.h2beam/tools"), AgentTools.defaultToolsDir(Map.of("HOME", "/home/u")));
  }

  @Test
  void theBinaryIsNpmsLinkUnlessOverridden() {
    assertEquals(dir.resolve("node_modules/.bin/codex"), AgentTools.binary("codex", dir, Optional.empty()));
    assertEquals(Path.of("/usr/local/bin/opencode"), AgentTools.binary("opencode", dir,
        Optional.of(Path.of("/usr/local/bin/opencode"))));
    assertThrows(IllegalArgumentException.class, () -> AgentTools.binary("claude", dir, Optional.empty()));
  }

  @Test
  void theInstallCommandPinsBothPackages() {
    assertEquals("npm install --prefix /opt/tools --no-audit --no-fund opencode-ai@1.18.33 @openai/codex@0.171.0",
        AgentTools.installCommand(Path.of("/opt/tools"), List.of("opencode", "codex")));
    assertEquals("npm install --prefix '/opt/my tools' --no-audit --no-fund @openai/codex@0.171.0",
        AgentTools.installCommand(Path.of("/opt/my tools"), List.of("codex")));
  }

  @Test
  void aMissingBinaryNamesTheInstallCommand() {
    Path binary = dir.resolve("node_modules/.bin/opencode");
    String problem = AgentTools.problem("opencode", binary).orElseThrow();
    assertTrue(problem.contains(binary.toString()), problem);
    // h2beam's own command first (with the folder, which is not the default one), then what it runs
    assertTrue(problem.contains("install the pinned version with: ./h2beam setup --agents=opencode --toolsDir=" + dir
        + " (which runs: npm install --prefix " + dir + " --no-audit --no-fund opencode-ai@1.18.33)"), problem);
  }

  /**
   * A binary the user named (--opencodeBin) that is missing is that flag's fault: the error names the flag and says to
   * correct it or drop it, and suggests setup only when the tools folder lacks the pinned version too.
   */
  @Test
  void aMissingBinaryFromItsFlagNamesTheFlagAndSuggestsSetupOnlyWhenTheToolsFolderLacksIt() throws Exception {
    Map<String, String> settings = Map.of("opencodeBin", "/nonexistent/opencode", "toolsDir", dir.toString());
    String problem = assertThrows(IllegalArgumentException.class, () -> Agent.OPENCODE.binary(settings, Map.of()))
        .getMessage();
    assertTrue(problem.startsWith("--opencodeBin=/nonexistent/opencode does not exist; correct the path, or drop"
        + " --opencodeBin to use the pinned opencode 1.18.33, which is not in " + dir + " either: install it with:"
        + " ./h2beam setup --agents=opencode --toolsDir=" + dir + " (which runs: npm install --prefix " + dir),
        problem);

    Path bin = Files.createDirectories(dir.resolve("node_modules/.bin"));
    Path pinned = bin.resolve("opencode");
    Files.writeString(pinned, "#!/bin/sh\necho '1.18.33'\n");
    Files.setPosixFilePermissions(pinned, PosixFilePermissions.fromString("rwxr-xr-x"));
    problem = assertThrows(IllegalArgumentException.class, () -> Agent.OPENCODE.binary(settings, Map.of()))
        .getMessage();
    assertEquals("--opencodeBin=/nonexistent/opencode does not exist; correct the path, or drop --opencodeBin to use"
        + " the pinned opencode 1.18.33 installed at " + pinned, problem);
    assertEquals(pinned, Agent.OPENCODE.binary(Map.of("toolsDir", dir.toString()), Map.of()));
  }

  @Test
  void aWrongVersionNamesWhatWasFoundAndTheFix() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("node_modules/.bin"));
    Path codex = bin.resolve("codex");
    Files.writeString(codex, "#!/bin/sh\necho 'codex-cli 0.99.0'\n");
    Files.setPosixFilePermissions(codex, PosixFilePermissions.fromString("rwxr-xr-x"));
    String problem = AgentTools.problem("codex", codex).orElseThrow();
    assertTrue(problem.contains("codex-cli 0.99.0"), problem);
    assertTrue(problem.contains("needs 0.171.0"), problem);
    assertTrue(problem.contains("npm install --prefix " + dir + " --no-audit --no-fund @openai/codex@0.171.0"),
        problem);

    Files.writeString(codex, "#!/bin/sh\necho 'codex-cli 0.171.0'\n");
    assertEquals(Optional.empty(), AgentTools.problem("codex", codex));
  }

  @Test
  void theInstalledBinariesAreThePinnedOnes() {
    for (String agent : List.of(AgentTools.OPENCODE, AgentTools.CODEX)) AgentBinaries.require(agent);
  }
}
