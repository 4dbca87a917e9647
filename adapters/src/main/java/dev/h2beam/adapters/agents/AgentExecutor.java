package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.exec.ExecRequest;
import dev.h2beam.adapters.exec.ExecResult;
import dev.h2beam.adapters.exec.Executor;
import dev.h2beam.adapters.exec.ExecutorProvider;
import dev.h2beam.adapters.exec.GroupRecord;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.adapters.llm.EndpointProxy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code opencode} and {@code codex} executors: one real agent CLI run per rollout. The harness is installed into
 * a fresh {@code workspace/} beside the task's {@code task.md} and {@code source/} ({@link AgentWorkspace}), the agent
 * runs there against the configuration's {@code executor} role with its own fresh state folder and a clean
 * environment, its deliverables are moved from {@code workspace/output/} to the run's {@code output/}, its JSONL is
 * rendered into {@code trajectory.md}, each of its model calls is recorded in {@value EndpointProxy#CALL_LOG} by the
 * relay it calls through ({@link EndpointProxy}), and its tokens are priced at the endpoint's prices.
 * The wall-clock limit kills the whole process group (neither CLI gives up when the model server is down); a
 * timed-out or failed run says why.
 */
final class AgentExecutor implements Executor {
  static final int OBS_TRUNC = 50_000;
  static final int MAX_TRAJECTORY = 8_000_000;
  private final Agent agent;
  private final Path binary;
  private final ResolvedRole role;
  private final Map<String, String> env;
  private final List<String> envAllow;

  AgentExecutor(Agent agent, Path binary, ResolvedRole role, Map<String, String> env, List<String> envAllow) {
    this.agent = agent;
    this.binary = binary;
    this.role = role;
    this.env = Map.copyOf(env);
    this.envAllow = List.copyOf(envAllow);
  }

  /** The agent runs in the request's isolation, when it has one. */
  @Override public boolean isolates() {
    return true;
  }

  @Override public String identity() {
    return agent.name + ":" + role.identity();
  }

  @Override public ExecResult run(ExecRequest r) throws IOException, InterruptedException {
    Path runDir = r.runDir();
    Path ws = runDir.resolve("workspace");
    // a CLI an earlier, killed h2beam left running here goes first, with what it wrote (a benchmark clears the whole
    // folder too; this is for a caller that does not)
    if (GroupRecord.stopRecorded(runDir)) {
      Trees.delete(ws);
      Trees.delete(runDir.resolve("output"));
      Trees.delete(runDir.resolve("state"));
    }
    List<String> warnings = new ArrayList<>(AgentWorkspace.install(agent.installMode, r.harnessDir(), ws,
        Map.of("working_directory", ws.toString(), "date", "")));
    Files.writeString(ws.resolve("task.md"), r.instruction());
    if (r.sourceDir() != null) AgentWorkspace.copyTree(r.sourceDir(), ws.resolve("source"), warnings);
    Files.createDirectories(ws.resolve("output"));
    String prompt = r.instruction().strip() + "\n\n" + (r.sourceDir() == null ? ""
        : "The task's files are in source/ (also described in task.md). ")
        + "Write your deliverable to output/" + r.deliverable() + ".\n";
    // recorded in the run folder while it runs: a run again here first kills a CLI a killed h2beam left running
    // (GroupRecord#stopRecorded, which the benchmarks call before they clear the folder)
    AgentRun run = agent.run(new AgentInvocation(binary, ws, runDir.resolve("state"), role, prompt, r.timeout(), env,
        envAllow).withGroupRecord(runDir.resolve(GroupRecord.FILE)).withIsolation(r.isolation()),
        runDir.resolve(EndpointProxy.CALL_LOG));
    Path output = ws.resolve("output");
    if (Files.isDirectory(output, LinkOption.NOFOLLOW_LINKS)) {
      AgentWorkspace.copyTree(output, runDir.resolve("output"), warnings);
    }
    String jsonl = Files.isRegularFile(run.stdoutJsonl()) ? TextFiles.readCapped(run.stdoutJsonl(), MAX_TRAJECTORY)
        : "";
    StringBuilder trajectory = new StringBuilder();
    for (String w : warnings) trajectory.append("[HARNESS] ").append(w).append('\n');
    trajectory.append(agent.render(run.stdoutJsonl(), OBS_TRUNC, MAX_TRAJECTORY));
    Files.writeString(runDir.resolve("trajectory.md"), trajectory.toString());
    Files.copy(run.stdoutJsonl(), runDir.resolve("events.jsonl"));
    AgentUsage u = account(agent.usage(jsonl), run, role);
    double cost = cost(u, role);
    boolean known = costKnown(u, run, role);
    boolean counted = tokensKnown(u, run);
    double wall = run.process().wallS();
    if (run.timedOut()) {
      return new ExecResult(runDir, null, wall, u.inputTokens(), u.outputTokens(), cost, "timeout",
          agent.name + " did not finish within " + r.timeout().toSeconds() + " s and was killed with its process"
              + " group; " + EndpointProxy.outcomes(run.modelCalls(), role.endpoint()), known, counted);
    }
    if (run.process().outputCut()) {
      return new ExecResult(runDir, run.process().exit(), wall, u.inputTokens(), u.outputTokens(), cost,
          "output-cut", agent.name + " exited with " + run.process().exit() + ", but " + run.process().cutReason(),
          known, counted);
    }
    if (!run.succeeded()) {
      List<String> errors = agent.errors(jsonl);
      // a CLI repeats an endpoint's error for each retry: once each, with what its calls got
      return new ExecResult(runDir, run.process().exit(), wall, u.inputTokens(), u.outputTokens(), cost, "exit",
          agent.name + " exited with " + run.process().exit() + ": " + (errors.isEmpty()
              ? run.process().stderrTail(300) : String.join(" | ", new LinkedHashSet<>(errors))) + "; "
              + EndpointProxy.outcomes(run.modelCalls(), role.endpoint()), known, counted);
    }
    return new ExecResult(runDir, run.process().exit(), wall, u.inputTokens(), u.outputTokens(), cost, "", "",
        known, counted);
  }

  /**
   * What a run spent by its own account ({@code events}, the CLI's), or, for a CLI killed at its timeout or whose
   * output was cut, which may not have reported its last calls, by its relay's, which saw every call and what each
   * reported (a runaway agent's 585 calls were recorded as $0.00 and 0 tokens, not known).
   */
  static AgentUsage account(AgentUsage events, AgentRun run, ResolvedRole role) {
    if (!run.timedOut() && !run.process().outputCut()) return events;
    EndpointProxy.Spend relayed = EndpointProxy.Spend.of(role.endpoint(), run.modelCalls());
    return new AgentUsage(relayed.tokens().input(), relayed.tokens().output(), null, null, null);
  }

  /**
   * Whether {@link #cost} is all a run cost. Its events are the CLI's own account, so they are taken as whole only
   * when the CLI ended by itself with its whole output read (a CLI killed at its timeout, or whose output was cut,
   * may not have reported its last calls: its cost is then its relay's account, whole when every call the relay saw
   * is priced), every call its relay recorded is priced ({@link EndpointProxy.Spend}:
   * answered, and a success with its tokens), and the events report the tokens or a cost, unless no call reported
   * any tokens (then none was billed).
   */
  static boolean costKnown(AgentUsage u, AgentRun run, ResolvedRole role) {
    if (!EndpointProxy.Spend.of(role.endpoint(), run.modelCalls()).known()) return false;
    // killed or cut off, its events may miss calls: the relay's account, whole when every call it saw is priced
    if (run.timedOut() || run.process().outputCut()) return true;
    if ((u.inputTokens() != null && u.outputTokens() != null) || u.costUsd() != null) return true;
    return run.modelCalls().stream().allMatch(c -> c.get("tokens") == null);
  }

  /**
   * Whether the tokens its events report are all it spent: the CLI ended by itself with its whole output read, its
   * events report both counts, and every call its relay recorded is priced ({@link EndpointProxy.Spend#tokens});
   * killed or cut off, the relay's count, when every call it saw is.
   * Unlike {@link #costKnown}, the endpoint's prices do not matter: at a free endpoint a call that went uncounted
   * cost a known $0, but what it spent in tokens is not known.
   */
  static boolean tokensKnown(AgentUsage u, AgentRun run) {
    if (run.timedOut() || run.process().outputCut()) return EndpointProxy.Spend.tokens(run.modelCalls()).known();
    return u.inputTokens() != null && u.outputTokens() != null
        && EndpointProxy.Spend.tokens(run.modelCalls()).known();
  }

  /** The tokens at the endpoint's prices; what OpenCode itself reports as cost when the tokens are unknown. */
  static double cost(AgentUsage u, ResolvedRole role) {
    if (u.inputTokens() != null && u.outputTokens() != null) {
      return role.endpoint().cost(u.inputTokens(), u.outputTokens());
    }
    return u.costUsd() == null ? 0.0 : u.costUsd();
  }

  /** {@code executor: {"kind": "opencode"}} and {@code {"kind": "codex"}}. */
  static class Provider implements ExecutorProvider {
    private final Agent agent;

    Provider(Agent agent) {
      this.agent = agent;
    }

    @Override public String name() {
      return agent.name;
    }

    @Override public Set<String> keys() {
      return Set.of("env_allow", agent.name + "Bin", "toolsDir");
    }

    @Override public Executor open(Map<String, Object> settings, Optional<ResolvedRole> role,
        Map<String, String> env) {
      ResolvedRole r = role.orElseThrow(() -> new IllegalArgumentException("the " + agent.name + " executor needs"
          + " roles.executor in --config (the endpoint and model the agent calls)"));
      List<String> allow = new ArrayList<>();
      Object a = settings.get("env_allow");
      if (a instanceof List<?> l) l.forEach(x -> allow.add(String.valueOf(x)));
      return new AgentExecutor(agent, agent.binary(settings, env), r, env, allow);
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
