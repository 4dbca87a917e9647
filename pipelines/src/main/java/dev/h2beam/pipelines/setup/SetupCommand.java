package dev.h2beam.pipelines.setup;

import dev.h2beam.adapters.agents.AgentTools;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.UsageError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * {@code h2beam setup --agents=opencode,codex}: installs the pinned agent CLIs with npm into h2beam's tools folder
 * (never globally), then checks that each answers with its pinned version. Exit 0 when all are ready.
 */
public final class SetupCommand implements Command {

  @Override public String name() {
    return "setup";
  }

  @Override public String summary() {
    return "install the pinned agent CLIs (OpenCode " + AgentTools.OPENCODE_VERSION + ", Codex "
        + AgentTools.CODEX_VERSION + ") into h2beam's tools folder";
  }

  @Override public boolean runsPipelines() {
    return false;
  }

  @Override public Class<? extends PipelineOptions> options() {
    return SetupOptions.class;
  }

  @Override public int run(String[] args) throws Exception {
    SetupOptions o = PipelineOptionsFactory.fromArgs(args).withValidation().as(SetupOptions.class);
    List<String> agents = new ArrayList<>();
    for (String a : o.getAgents().split(",")) {
      String name = a.strip();
      if (name.isEmpty()) continue;
      if (!name.equals(AgentTools.OPENCODE) && !name.equals(AgentTools.CODEX)) {
        throw new UsageError("--agents: '" + name + "' is not an agent h2beam installs; use opencode, codex");
      }
      if (!agents.contains(name)) agents.add(name);
    }
    if (agents.isEmpty()) throw new UsageError("--agents is empty; name opencode, codex or both");
    Path dir = o.getToolsDir() == null ? AgentTools.defaultToolsDir(System.getenv())
        : Path.of(o.getToolsDir()).toAbsolutePath().normalize();
    System.out.println("installing " + agents + " into " + dir + ":\n  " + AgentTools.installCommand(dir, agents));
    int rc = AgentTools.install(dir, agents, System.out);
    if (rc != 0) {
      // offline, or behind a registry npm cannot reach: the same versions from a mirror or cache, or the user's own
      // binaries (dogAK F12)
      System.out.println("npm exited with " + rc + "; see its output above. Without the npm registry, point npm at a"
          + " mirror or a cache that holds the pinned versions (npm_config_registry, npm_config_cache), or install"
          + " them another way and give their paths to sweep and check with --opencodeBin=/--codexBin= (README, \"Real"
          + " agents: OpenCode and Codex\")");
      return 1;
    }
    int problems = 0;
    for (String a : agents) {
      Path bin = AgentTools.binary(a, dir, Optional.empty());
      Optional<String> p = AgentTools.problem(a, bin);
      if (p.isPresent()) {
        System.out.println("FAIL: " + p.get());
        problems++;
      } else {
        System.out.println("ready: " + a + " " + AgentTools.version(a) + " at " + bin);
      }
    }
    return problems == 0 ? 0 : 1;
  }
}
