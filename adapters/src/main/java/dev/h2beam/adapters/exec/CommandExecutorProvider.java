package dev.h2beam.adapters.exec;

import dev.h2beam.adapters.config.ResolvedRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code "executor": {"kind": "command", ...}}: the user's own agent as a shell command (see {@link CommandExecutor}
 * for the workspace layout, placeholders and environment). Keys:
 *
 * <ul>
 *   <li>{@code command} (required): the shell command template, e.g. {@code "my-agent {workspace} {output}"};
 *   <li>{@code env_allow}: names of further variables the agent may inherit (default none);
 *   <li>{@code timeout_seconds}: a limit for every rollout, instead of the run's own;
 *   <li>{@code free}: true when the agent calls no paid model beyond the role's relay (a script, a free local model):
 *       without a role its cost is then a known $0, else not known (h2beam gave it no endpoint and sees none of its
 *       calls).
 * </ul>
 */
public final class CommandExecutorProvider implements ExecutorProvider {
  @Override public String name() {
    return "command";
  }

  @Override public Set<String> keys() {
    return Set.of("command", "env_allow", "timeout_seconds", "free");
  }

  /**
   * @throws IllegalArgumentException a setting has the wrong type, or the role's key variable is not set in
   *     {@code env} (the message names the variable, never a value)
   */
  @Override public Executor open(Map<String, Object> settings, Optional<ResolvedRole> role, Map<String, String> env) {
    Object command = settings.get("command");
    if (!(command instanceof String)) {
      throw new IllegalArgumentException("executor \"command\" must be a string holding the shell command that runs "
          + "the agent, e.g. \"my-agent --task {workspace}/task.md --out {output}\"; got " + command);
    }
    List<String> granted = new ArrayList<>(names(settings.get("env_allow")));
    if (role.isPresent() && !role.get().endpoint().apiKeyEnv().isEmpty()) {
      String key = role.get().endpoint().apiKeyEnv();
      if (env.get(key) == null) {
        throw new IllegalArgumentException("the executor role's endpoint '" + role.get().endpoint().name()
            + "' reads its key from " + key + ", which is not set; export " + key + " before the run");
      }
      granted.add(key);
    }
    Object free = settings.getOrDefault("free", false);
    if (!(free instanceof Boolean)) {
      throw new IllegalArgumentException("executor \"free\" must be true or false (true: the agent calls no paid model"
          + " beyond the executor role's relay); got " + free);
    }
    return new CommandExecutor((String) command, granted, timeout(settings.get("timeout_seconds")), role, env,
        (Boolean) free);
  }

  private static List<String> names(Object v) {
    if (v == null) return List.of();
    List<String> out = new ArrayList<>();
    if (v instanceof List<?> list) {
      for (Object o : list) {
        if (!(o instanceof String s)) break;
        Env.checkName(s);
        out.add(s);
      }
      if (out.size() == list.size()) return out;
    }
    throw new IllegalArgumentException("executor \"env_allow\" must be a list of variable names, e.g. "
        + "[\"MY_AGENT_CONFIG\"]; got " + v);
  }

  private static Duration timeout(Object v) {
    if (v == null) return null;
    if (v instanceof Number n && n.doubleValue() > 0 && n.doubleValue() == Math.rint(n.doubleValue())) {
      return Duration.ofSeconds(n.longValue());
    }
    throw new IllegalArgumentException("executor \"timeout_seconds\" must be a positive whole number of seconds; got "
        + v);
  }
}
