package dev.h2beam.adapters.jobbench;

import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.exec.Executor;
import dev.h2beam.adapters.exec.ExecutorProvider;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * JobBench's settings (the sweep's {@code --benchSettings} and its own flags), checked: every problem is collected
 * and names the setting as the user gave it ({@code --benchSettings' timeoutSeconds}, {@code --executor=...}).
 * Relative paths are read against the benchmark root, so every worker of a cluster finds the same file.
 *
 * @param executorSpec the {@code executor} setting as an executor object: {@code kind} plus that kind's own keys
 * @param splitFile null when none is set
 * @param baseHarness null for h2beam's own base harness
 * @param executorGiven how the user gave the executor ({@code --executor=chat}), for its problems
 */
record JobBenchSettings(String substrate, String split, Path splitFile, Path executions,
    Map<String, Object> executorSpec, long timeoutSeconds, Path baseHarness, Map<String, String> agentBinaries,
    String executorGiven) {

  /** The agent binaries' settings, which the sweep and check set from their flags for an agent executor. */
  static final List<String> AGENT_KEYS = List.of("opencodeBin", "codexBin", "toolsDir");

  static final Set<String> KEYS = Set.of("substrate", "split", "splitFile", "executions", "executor",
      "timeoutSeconds", "baseHarness", "opencodeBin", "codexBin", "toolsDir", "isolation", "runsRoot");

  JobBenchSettings {
    agentBinaries = agentBinaries == null ? Map.of() : Map.copyOf(agentBinaries);
  }
  /** harness2's default rollout limit for an OpenCode agent on JobBench. */
  static final long DEFAULT_TIMEOUT_SECONDS = 2400;

  /**
   * Reads the settings; {@code sources} says where a setting came from when not from the flag of its name
   * ({@link dev.h2beam.adapters.bench.BenchmarkProvider#open(Path, Map, RunConfig, Map)}).
   */
  static JobBenchSettings read(Path root, Map<String, String> settings, Map<String, String> sources,
      List<String> problems) {
    for (String k : new TreeSet<>(settings.keySet())) {
      if (!KEYS.contains(k)) {
        problems.add(given(sources, k, settings) + ": unknown for jobbench; known: " + new TreeSet<>(KEYS));
      }
    }
    String substrate = settings.getOrDefault("substrate", DEFAULTS.get("substrate"));
    if (!substrate.equals("oc") && !substrate.equals("cx")) {
      problems.add(given(sources, "substrate", settings) + ": JobBench runs on oc (OpenCode) or cx (Codex)");
    }
    Path splitFile = path(root, settings.get("splitFile"));
    Path executions = settings.containsKey("executions") ? path(root, settings.get("executions"))
        : root.resolve("runs").resolve("_executions");
    Path base = path(root, settings.get("baseHarness"));
    if (base != null && !Files.isDirectory(base)) {
      problems.add(given(sources, "baseHarness", settings) + ": " + base + " is not a folder; name a harness tree"
          + " (systemprompt.md, ...) or leave it unset for h2beam's own");
    }
    long timeout = DEFAULT_TIMEOUT_SECONDS;
    String t = settings.get("timeoutSeconds");
    if (t != null) {
      try {
        timeout = Long.parseLong(t.strip());
      } catch (NumberFormatException e) {
        timeout = -1;
      }
      if (timeout < 1 || timeout > 86_400) {
        problems.add(given(sources, "timeoutSeconds", settings) + ": '" + t + "' must be a whole number of seconds"
            + " from 1 to 86400");
      }
    }
    Map<String, String> agents = new TreeMap<>();
    for (String k : AGENT_KEYS) if (settings.containsKey(k)) agents.put(k, settings.get(k));
    String executor = given(sources, "executor", settings);
    return new JobBenchSettings(substrate, settings.getOrDefault("split", DEFAULTS.get("split")), splitFile,
        executions, executorSpec(settings.getOrDefault("executor", DEFAULTS.get("executor")), executor, problems),
        timeout, base, agents, executor);
  }

  /** The settings the commands set from flags of their own name ({@code --executor}, ...). */
  private static final Set<String> FLAGS = Set.of("substrate", "split", "executor", "opencodeBin", "codexBin",
      "toolsDir");

  /**
   * How the user gave setting {@code key}: its {@code sources} entry, else the flag of its name with its value
   * ({@code --executor=chat}, marked as the default when not given), else {@code --benchSettings' key}.
   */
  static String given(Map<String, String> sources, String key, Map<String, String> settings) {
    if (sources.containsKey(key)) return sources.get(key);
    if (!FLAGS.contains(key)) return "--benchSettings' " + key;
    return "--" + key + "=" + settings.getOrDefault(key, DEFAULTS.get(key) + " (the default)");
  }

  private static final Map<String, String> DEFAULTS = Map.of("executor", "chat", "substrate", "oc", "split", "all");

  static Map<String, Object> executorSpec(String value, String given, List<String> problems) {
    if (!value.strip().startsWith("{")) return Map.of("kind", value.strip());
    Map<String, Object> spec;
    try {
      spec = Json.readMap(value);
    } catch (IOException e) {
      problems.add(given + ": not valid JSON: " + Json.syntaxProblem(e));
      return Map.of();
    }
    if (!(spec.get("kind") instanceof String)) {
      problems.add(given + ": an executor object needs a \"kind\", e.g. {\"kind\": \"command\", "
          + "\"command\": \"my-agent {workspace} {output}\"}");
      return Map.of();
    }
    return spec;
  }

  /** The configured executor, or null with the problems added (an unknown kind or key, a setting it refuses). */
  Executor openExecutor(RunConfig config, Map<String, String> env, List<String> problems) throws Exception {
    if (executorSpec.isEmpty()) return null;
    String kind = (String) executorSpec.get("kind");
    TreeMap<String, ExecutorProvider> kinds = ExecutorProvider.all();
    ExecutorProvider provider = kinds.get(kind);
    if (provider == null) {
      problems.add(executorGiven + ": kind '" + kind + "' is not known; known: " + kinds.keySet());
      return null;
    }
    Map<String, Object> own = new LinkedHashMap<>(executorSpec);
    own.remove("kind");
    boolean ok = true;
    for (String k : new TreeSet<>(own.keySet())) {
      if (!provider.keys().contains(k)) {
        problems.add(executorGiven + ": " + k + ": unknown for kind " + kind + "; known: "
            + new TreeSet<>(provider.keys()));
        ok = false;
      }
    }
    if (!ok) return null;
    // --opencodeBin, --codexBin and --toolsDir reach an agent executor, as on the folder benchmark (they were refused
    // as settings JobBench does not know, so a JobBench sweep could not run the user's own agent binary)
    Map<String, Object> spec = new LinkedHashMap<>(executorSpec);
    if (kind.equals("opencode") || kind.equals("codex")) spec.putAll(agentBinaries);
    try {
      return provider.open(spec, config.role("executor"), env);
    } catch (IllegalArgumentException e) {
      problems.add(executorGiven + ": " + e.getMessage());
      return null;
    }
  }

  private static Path path(Path root, String value) {
    return value == null || value.isBlank() ? null : root.resolve(value.strip()).toAbsolutePath().normalize();
  }
}
