package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.exec.Isolation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One run of an agent CLI: which binary, where, against which model, with which prompt.
 *
 * @param binary the CLI (see {@link AgentTools#binary})
 * @param workDir the agent's working folder, which must exist; the agent reads and writes there
 * @param stateDir absent or empty: the run's own HOME, XDG folders, TMPDIR, CODEX_HOME and its captured output go
 *     under it, so two runs never share state
 * @param role the model to call: its endpoint's base URL and key variable, and the model name
 * @param prompt the task the agent is given
 * @param timeout the wall-clock limit; the CLI and everything it started are killed when it passes (neither CLI gives
 *     up by itself when the model server is down)
 * @param sourceEnv where {@code PATH}, the endpoint's key variable and {@code extraAllowedEnv} are read from; nothing
 *     else of it reaches the agent
 * @param extraAllowedEnv further variable names the agent may inherit from {@code sourceEnv}
 * @param groupRecord where the running CLI's process group is recorded ({@code GroupRecord}: a rollout's run folder,
 *     so that a run again there kills a CLI a killed h2beam left running), or null for none (a session in scratch)
 * @param isolation what the CLI may not see of the file system ({@link Isolation}), or null to run it as it is
 */
public record AgentInvocation(Path binary, Path workDir, Path stateDir, ResolvedRole role, String prompt,
    Duration timeout, Map<String, String> sourceEnv, List<String> extraAllowedEnv, Path groupRecord,
    Isolation isolation) {

  public AgentInvocation {
    binary = Objects.requireNonNull(binary, "binary").toAbsolutePath().normalize();
    workDir = Objects.requireNonNull(workDir, "workDir").toAbsolutePath().normalize();
    stateDir = Objects.requireNonNull(stateDir, "stateDir").toAbsolutePath().normalize();
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("an agent run needs a positive timeout, got " + timeout);
    }
    sourceEnv = Map.copyOf(sourceEnv);
    extraAllowedEnv = List.copyOf(extraAllowedEnv);
    if (stateDir.startsWith(workDir) || workDir.startsWith(stateDir)) {
      // The agent may read anything in its working folder: its own state (and the captured output) stays apart.
      throw new IllegalArgumentException("stateDir " + stateDir + " and workDir " + workDir
          + " must not contain each other; give the run a state folder beside its working folder");
    }
  }

  /** A run that is not isolated. */
  public AgentInvocation(Path binary, Path workDir, Path stateDir, ResolvedRole role, String prompt, Duration timeout,
      Map<String, String> sourceEnv, List<String> extraAllowedEnv, Path groupRecord) {
    this(binary, workDir, stateDir, role, prompt, timeout, sourceEnv, extraAllowedEnv, groupRecord, null);
  }

  /** A run that records no process group. */
  public AgentInvocation(Path binary, Path workDir, Path stateDir, ResolvedRole role, String prompt, Duration timeout,
      Map<String, String> sourceEnv, List<String> extraAllowedEnv) {
    this(binary, workDir, stateDir, role, prompt, timeout, sourceEnv, extraAllowedEnv, null, null);
  }

  /** The same run against {@code other} (the relay's address for the same role). */
  AgentInvocation withRole(ResolvedRole other) {
    return new AgentInvocation(binary, workDir, stateDir, other, prompt, timeout, sourceEnv, extraAllowedEnv,
        groupRecord, isolation);
  }

  /** The same run, its environment read from {@code env} (the key variable holding the relay's token). */
  AgentInvocation withSourceEnv(Map<String, String> env) {
    return new AgentInvocation(binary, workDir, stateDir, role, prompt, timeout, env, extraAllowedEnv, groupRecord,
        isolation);
  }

  /** The same run, its process group recorded in {@code file} while it runs. */
  AgentInvocation withGroupRecord(Path file) {
    return new AgentInvocation(binary, workDir, stateDir, role, prompt, timeout, sourceEnv, extraAllowedEnv, file,
        isolation);
  }

  /** The same run, the CLI isolated by {@code i} (null: not isolated). */
  public AgentInvocation withIsolation(Isolation i) {
    return new AgentInvocation(binary, workDir, stateDir, role, prompt, timeout, sourceEnv, extraAllowedEnv,
        groupRecord, i);
  }
}
