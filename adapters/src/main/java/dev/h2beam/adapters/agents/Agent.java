package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.llm.EndpointProxy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The two agent CLIs as h2beam runs them: which launcher, which renderer of their JSONL output, which install mode
 * their harness uses, and which substrate token they stand for.
 */
public enum Agent {
  OPENCODE("opencode", "oc", "workspace_agents_md"),
  CODEX("codex", "cx", "codex_root");

  public final String name;
  public final String substrate;
  public final String installMode;

  Agent(String name, String substrate, String installMode) {
    this.name = name;
    this.substrate = substrate;
    this.installMode = installMode;
  }

  public static Agent named(String name) {
    for (Agent a : values()) if (a.name.equals(name)) return a;
    throw new IllegalArgumentException("agent '" + name + "' is not one of opencode, codex");
  }

  /**
   * Runs the CLI once through its own {@link EndpointProxy}: the CLI is told the relay's address, so each of its model
   * calls holds the endpoint's limits in this worker like a chat channel's call does, and is given the relay's token
   * where the endpoint's key would be, so the key never reaches the agent.
   */
  AgentRun run(AgentInvocation inv) throws IOException, InterruptedException {
    return run(inv, null);
  }

  /**
   * The same, also writing each model call of the run to {@code callLog} as it ends (see {@link EndpointProxy#open});
   * the run carries the calls either way ({@link AgentRun#modelCalls}).
   */
  AgentRun run(AgentInvocation inv, Path callLog) throws IOException, InterruptedException {
    ResolvedRole r = inv.role();
    EndpointProxy relay = EndpointProxy.open(r.endpoint(), callLog, inv.sourceEnv());
    AgentRun run;
    try (relay) {
      // the CLI gets the relay's address and, in the key variable, the relay's token: never the key itself
      AgentInvocation relayed = inv.withRole(new ResolvedRole(r.role(), relay.relayed(), r.model(), r.temperature(),
          r.maxTokens())).withSourceEnv(relay.withToken(inv.sourceEnv()));
      run = runDirect(relayed);
    }
    // read once the relay is closed: every call it served has ended and has its record
    return run.withModelCalls(relay.calls());
  }

  /** Runs the CLI once straight against the invocation's endpoint, holding none of its limits. */
  AgentRun runDirect(AgentInvocation inv) throws IOException, InterruptedException {
    return this == OPENCODE ? OpenCodeCli.run(inv) : CodexCli.run(inv);
  }

  String render(Path jsonl, int obsTrunc, int maxChars) {
    return this == OPENCODE ? OpenCodeEvents.render(jsonl, obsTrunc, maxChars)
        : CodexEvents.render(jsonl, obsTrunc, maxChars);
  }

  AgentUsage usage(String jsonl) {
    return this == OPENCODE ? OpenCodeEvents.usage(jsonl) : CodexEvents.usage(jsonl);
  }

  String reply(String jsonl) {
    return this == OPENCODE ? OpenCodeEvents.reply(jsonl) : CodexEvents.reply(jsonl);
  }

  java.util.List<String> errors(String jsonl) {
    return this == OPENCODE ? OpenCodeEvents.errors(jsonl) : CodexEvents.errors(jsonl);
  }

  /**
   * The binary to run: {@code settings} may name one ({@code opencodeBin} / {@code codexBin}, from the command line),
   * else the pinned install under the tools folder ({@code toolsDir}, else {@code H2BEAM_TOOLS_DIR}, else
   * {@code ~/.h2beam/tools}). Refuses, with the command that fixes it, a binary that is missing or of another
   * version: for a binary the user named, the flag to correct or drop.
   */
  public Path binary(Map<String, ?> settings, Map<String, String> env) {
    Object override = settings.get(name + "Bin");
    Object tools = settings.get("toolsDir");
    Path dir = tools == null ? AgentTools.defaultToolsDir(env) : Path.of(String.valueOf(tools));
    Path bin = AgentTools.binary(name, dir, Optional.ofNullable(override).map(o -> Path.of(String.valueOf(o))));
    // a binary the user named is their flag's to fix; the tools folder's, setup's
    Optional<String> problem = override == null ? AgentTools.problem(name, bin)
        : AgentTools.problem(name, bin, "--" + name + "Bin", dir.toAbsolutePath().normalize());
    if (problem.isPresent()) throw new IllegalArgumentException(problem.get());
    return bin;
  }
}
