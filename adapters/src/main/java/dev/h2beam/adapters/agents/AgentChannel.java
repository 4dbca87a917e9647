package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.llm.EndpointProxy;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code opencode} and {@code codex} channels (spec §10.3): an improver, selector or reflector session run by a
 * real agent CLI in the session's own folder. The mission goes to {@code MISSION.md}, the agent reads the evidence
 * under {@code context/} and edits {@code context/harness/} with its own tools (the method harvests and checks that
 * folder like every proposal), and its reply is {@code output/answer.md} when it wrote one, else the text folded from
 * its JSONL. Each session has its own fresh state folder beside the session folder (not inside it), so two sessions
 * share nothing.
 */
final class AgentChannel implements ProposerChannel {
  static final String PROMPT = "Read MISSION.md in the current folder and do what it asks. The evidence it refers to"
      + " is under context/. Reply with the output it requests, and also save that output verbatim to"
      + " output/answer.md.";
  private final Agent agent;
  private final Path binary;
  private final ResolvedRole role;
  private final Map<String, String> env;
  /** What every session may not see but its own two folders, or null: not isolated. */
  private final Isolation isolation;

  AgentChannel(Agent agent, Path binary, ResolvedRole role, Map<String, String> env) {
    this(agent, binary, role, env, null);
  }

  AgentChannel(Agent agent, Path binary, ResolvedRole role, Map<String, String> env, Isolation isolation) {
    this.isolation = isolation;
    this.agent = agent;
    this.binary = binary;
    this.role = role;
    this.env = Map.copyOf(env);
  }

  @Override public SessionResult run(Path cwd, String mission, String system, String label, Duration timeout)
      throws IOException, InterruptedException {
    Files.writeString(cwd.resolve("MISSION.md"), (system.isEmpty() ? "" : system + "\n\n---\n\n") + mission);
    Files.createDirectories(cwd.resolve("output"));
    // beside the session folder, in the run's scratch folder (removed on resume after a kill), never inside it
    Path state = Files.createTempDirectory(cwd.toAbsolutePath().getParent(), "h2beam-agent-state-");
    try {
      AgentRun run = agent.run(new AgentInvocation(binary, cwd, state, role, PROMPT, timeout, env, List.of())
          .withIsolation(isolation == null ? null : isolation.showing(cwd, state)));
      String jsonl = Files.isRegularFile(run.stdoutJsonl())
          ? TextFiles.readCapped(run.stdoutJsonl(), AgentExecutor.MAX_TRAJECTORY) : "";
      AgentUsage u = agent.usage(jsonl);
      double cost = AgentExecutor.cost(u, role);
      boolean known = AgentExecutor.costKnown(u, run, role);
      // as its cost is priced: from what the agent reported ({@link AgentExecutor#cost}), with a mark of their own
      // (at a free endpoint a call its relay could not count cost a known $0, its tokens unknown)
      Tokens tokens = Tokens.observed(u.inputTokens(), u.outputTokens(), AgentExecutor.tokensKnown(u, run));
      Map<String, Object> meta = new LinkedHashMap<>();
      meta.put(SessionResult.USAGE, usage(u));
      meta.put(SessionResult.MODEL_ID, role.model());
      // the relay's record of the session's model calls, for the audit's meta.json (the session's folder is scratch)
      meta.put(SessionResult.MODEL_CALLS, run.modelCalls());
      Path answer = cwd.resolve("output/answer.md");
      String text = Files.isRegularFile(answer) ? TextFiles.readCapped(answer, 1_000_000) : "";
      if (text.isBlank()) text = agent.reply(jsonl);
      if (run.timedOut()) {
        return new SessionResult("", cost, agent.name + ": timeout after " + timeout.toSeconds() + "s; "
            + EndpointProxy.outcomes(run.modelCalls(), role.endpoint()), meta, known, tokens);
      }
      if (text.isBlank()) {
        List<String> errors = agent.errors(jsonl);
        String why = !errors.isEmpty() ? String.join(" | ", errors)
            : "rc=" + run.process().exit() + ": " + run.process().stderrTail(300);
        return new SessionResult("", cost, why.length() > 300 ? why.substring(why.length() - 300) : why, meta,
            known, tokens);
      }
      return new SessionResult(text, cost, "", meta, known, tokens);
    } finally {
      deleteQuietly(state);
    }
  }

  private static Map<String, Object> usage(AgentUsage u) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("prompt_tokens", u.inputTokens());
    m.put("completion_tokens", u.outputTokens());
    m.put("cached_tokens", u.cachedTokens());
    m.put("reasoning_tokens", u.reasoningTokens());
    return m;
  }

  private static void deleteQuietly(Path dir) {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      System.err.println("h2beam: could not remove the session state " + dir + ": " + e.getMessage());
    }
  }

  /** Channel kinds {@code opencode} and {@code codex}. */
  static class Provider implements ChannelProvider {
    private final Agent agent;

    Provider(Agent agent) {
      this.agent = agent;
    }

    @Override public String kind() {
      return agent.name;
    }

    @Override public ProposerChannel open(ChannelSpec spec) {
      throw new IllegalArgumentException("the " + agent.name + " channel needs a role from the configuration file"
          + " (--config=FILE with roles.improver/selector/reflector): the endpoint and model the agent calls");
    }

    @Override public ProposerChannel open(ChannelSpec spec, ResolvedRole role, Map<String, String> settings) {
      return new AgentChannel(agent, agent.binary(settings, System.getenv()), role, System.getenv(),
          isolation(settings));
    }

    /**
     * With the setting {@code isolation} ({@code --isolation=namespaces}): the benchmark folder, the runs root, the
     * rollouts' folder and the library root, each given, hidden from every session but its own folders; null
     * without it.
     *
     * @throws IllegalArgumentException another value, or this machine cannot isolate a program
     */
    static Isolation isolation(Map<String, String> settings) {
      if (!Isolation.asked(settings.get(Isolation.CONFIG_KEY))) return null;
      List<Path> hidden = new java.util.ArrayList<>();
      for (String k : List.of("benchRoot", "runsRoot", "executions", "libraryRoot")) {
        if (settings.containsKey(k)) hidden.add(Path.of(settings.get(k)));
      }
      return new Isolation(hidden, List.of());
    }
  }

  /** {@code opencode}. */
  public static final class OpenCodeProvider extends Provider {
    public OpenCodeProvider() {
      super(Agent.OPENCODE);
    }
  }

  /** {@code codex}. */
  public static final class CodexProvider extends Provider {
    public CodexProvider() {
      super(Agent.CODEX);
    }
  }
}
