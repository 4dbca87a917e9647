package dev.h2beam.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Parsing shared by every command's flags, with errors that name the flag. */
public final class Flags {
  private Flags() {}

  /** In {@code --modes}: parallel and sequential. */
  public static final String BOTH = "both";

  /**
   * The {@code --modes} a printed next command needs for {@code tokens}: empty when the next command's default
   * ({@code defaultSpec}) means the same modes, else {@code " --modes=<names>"}.
   */
  public static String modesFlag(List<String> tokens, String defaultSpec) {
    return tokens.equals(modes(defaultSpec)) ? ""
        : " --modes=" + String.join(",", tokens.stream().map(Namespace::modeName).toList());
  }

  /** The non-blank, trimmed parts of a comma list. */
  public static List<String> split(String s) {
    if (s == null || s.isBlank()) return List.of();
    List<String> out = new ArrayList<>();
    for (String p : s.split(",")) if (!p.isBlank()) out.add(p.strip());
    return out;
  }

  /**
   * {@code --modes}: mode names or tokens, normalised to tokens in the fixed order agg, seq, gat; {@code both} is
   * harness2's two modes (parallel and sequential), as every command's help says.
   */
  public static List<String> modes(String spec) {
    List<String> tokens = new ArrayList<>();
    for (String raw : split(spec)) {
      if (raw.equals(BOTH)) {
        for (String t : List.of("agg", "seq")) if (!tokens.contains(t)) tokens.add(t);
        continue;
      }
      String t;
      try {
        t = Namespace.modeToken(raw);
      } catch (IllegalArgumentException e) {
        throw new UsageError("--modes: '" + raw + "' is not a mode; use parallel, sequential, gated, both (parallel"
            + " and sequential), or several separated by commas");
      }
      if (!tokens.contains(t)) tokens.add(t);
    }
    if (tokens.isEmpty()) {
      throw new UsageError("--modes is empty; use parallel, sequential, gated, both (parallel and sequential), or"
          + " several separated by commas");
    }
    List<String> ordered = new ArrayList<>();
    for (String m : Namespace.MODES) if (tokens.contains(m)) ordered.add(m);
    return ordered;
  }

  /**
   * A settings flag ({@code --benchSettings}, {@code --graderSettings}): a JSON object whose values are put into
   * {@code into} as text, an object or list as its canonical JSON (an executor object, for instance). A key some
   * other flag sets is refused, naming that flag, so one value never has two sources.
   *
   * @param owned keys another flag sets → that flag
   */
  public static void settings(String flag, String json, Map<String, String> owned, Map<String, String> into) {
    if (json == null || json.isBlank()) return;
    JsonNode n;
    try {
      n = Json.readTree(json);
    } catch (IOException e) {
      throw new UsageError("--" + flag + ": not valid JSON: " + Json.syntaxProblem(e) + "; give an object of"
          + " settings such as '{\"name\": \"value\", \"count\": 2}' (the README lists each one's settings)");
    }
    if (n == null || !n.isObject()) {
      throw new UsageError("--" + flag + ": must be a JSON object of settings such as '{\"name\": \"value\","
          + " \"count\": 2}' (the README lists each one's settings)");
    }
    for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) n::fields) {
      String key = e.getKey();
      if (owned.containsKey(key)) {
        throw new UsageError("--" + flag + ": " + key + " is set by " + owned.get(key) + ", not here");
      }
      JsonNode v = e.getValue();
      into.put(key, v.isTextual() ? v.asText() : Json.canonical(Json.MAPPER.convertValue(v, Object.class)));
    }
  }

  /**
   * The benchmark settings {@code sweep} and {@code check} take from their flags, into {@code into}: the agent
   * binaries ({@code --opencodeBin}, {@code --codexBin}, {@code --toolsDir}, absolute; null when not given), then
   * {@code --benchSettings} ({@link #settings}, which also refuses a key the benchmark does not read, {@code known}
   * when it says, naming the key and the keys it does read: a misspelt key would be ignored in silence), then
   * {@code --executor} ({@code executor}, blank when not given), refused beside {@code --benchSettings}' executor.
   * Returns where each {@code --benchSettings} key came from, so that a problem with it names what the user gave
   * (that flag's key, not an {@code --executor} never given).
   */
  public static Map<String, String> benchSettings(String bench, Optional<Set<String>> known, String json,
      Map<String, String> owned, String executor, String opencodeBin, String codexBin, String toolsDir,
      Map<String, String> into) {
    if (opencodeBin != null) into.put("opencodeBin", absolute(opencodeBin));
    if (codexBin != null) into.put("codexBin", absolute(codexBin));
    if (toolsDir != null) into.put("toolsDir", absolute(toolsDir));
    Map<String, String> sources = new TreeMap<>();
    for (String k : given(bench, known, json, owned, into)) sources.put(k, "--benchSettings' " + k);
    if (!executor.isBlank()) {
      // a benchmark whose rollouts are its own scripts would drop it in silence (dogAG A2, B5)
      if (known.isPresent() && !known.get().contains("executor")) {
        throw new UsageError("--executor=" + executor + ": --bench=" + bench + " takes no executor (its rollouts are"
            + " h2beam's own scripts; folder and JobBench benchmarks take one); leave --executor out");
      }
      if (into.containsKey("executor")) {
        throw new UsageError("--executor=" + executor + " and --benchSettings' executor both name the executor: give"
            + " it once");
      }
      into.put("executor", executor);
    }
    return sources;
  }

  private static String absolute(String path) {
    return java.nio.file.Paths.get(path).toAbsolutePath().normalize().toString();
  }

  private static Set<String> given(String bench, Optional<Set<String>> known, String json, Map<String, String> owned,
      Map<String, String> into) {
    Map<String, String> given = new TreeMap<>();
    settings("benchSettings", json, owned, given);
    if (known.isPresent()) {
      Set<String> unknown = new TreeSet<>(given.keySet());
      unknown.removeAll(known.get());
      Set<String> open = new TreeSet<>(known.get());
      open.removeAll(owned.keySet());
      if (!unknown.isEmpty()) {
        throw new UsageError("--benchSettings: " + String.join(", ", unknown) + (unknown.size() == 1 ? " is not a"
            + " setting" : " are not settings") + " of --bench=" + bench + "; " + (open.isEmpty() ? "it takes none"
                : "known: " + open) + " (the README's section of the benchmark lists them)");
      }
    }
    into.putAll(given);
    return given.keySet();
  }

  /**
   * {@code --isolation} into the benchmark's settings {@code into}, as the sweep and check both pass it (the
   * benchmark then checks the value, its executor and this machine); nothing for {@code none}.
   *
   * @throws UsageError the benchmark does not take the setting (its rollouts are h2beam's own scripts)
   */
  public static void isolation(String bench, Optional<Set<String>> known, String isolation,
      Map<String, String> into) {
    if (isolation.equals(Isolation.NONE)) return;
    if (!known.map(k -> k.contains(Isolation.CONFIG_KEY)).orElse(false)) {
      throw new UsageError("--isolation=" + isolation + ": --bench=" + bench + " does not run its rollouts isolated"
          + " (folder and JobBench benchmarks do); leave --isolation out");
    }
    into.put(Isolation.CONFIG_KEY, isolation);
  }

  /**
   * The benchmark settings the sweep and check set from their own flags ({@code isolation} and {@code runsRoot} the
   * sweep's alone: {@code --isolation} sets both).
   */
  public static final Map<String, String> BENCH_FLAGS = Map.of("substrate", "--substrate", "split", "--split",
      "opencodeBin", "--opencodeBin", "codexBin", "--codexBin", "toolsDir", "--toolsDir",
      Isolation.CONFIG_KEY, "--isolation", "runsRoot", "--runsRoot");
}
