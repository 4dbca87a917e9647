package dev.h2beam.adapters.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs Codex CLI ({@value AgentTools#CODEX_VERSION}) once: {@code codex exec --json --skip-git-repo-check --ephemeral
 * --strict-config -C <workDir> -- <prompt>} with stdin closed, against the role's endpoint through the Responses API
 * (this Codex refuses Chat Completions). Before the run it writes, in the run's fresh {@code CODEX_HOME}:
 *
 * <ul>
 *   <li>{@code config.toml}: the model and a provider {@value #PROVIDER} with the endpoint's base URL and its key
 *       variable as {@code env_key} (Codex reads the key from the environment; no key is ever written); no approvals
 *       and no sandbox (the default read-only sandbox cannot write the deliverable; the isolation is the fresh state
 *       and the allow-listed environment); no update check, web search, analytics, feedback, sub-agents, plugins,
 *       apps or other features that reach the network. {@code --strict-config} makes a key this version does not know
 *       an error rather than a silently ignored setting;
 *   <li>{@code model-catalog.json}: one entry of the catalogue bundled in the binary, the model's own or one renamed
 *       after it: without it Codex reports "model metadata not found" and falls back to generic settings.
 * </ul>
 *
 * <p>Codex writes sqlite state into {@code CODEX_HOME} even with {@code --ephemeral}, which is one more reason each
 * run has its own.
 */
public final class CodexCli {
  private CodexCli() {}

  /** The provider id in config.toml; not a built-in provider's id, so none of its defaults apply. */
  static final String PROVIDER = "h2beam";

  /**
   * The catalogue entry a model without its own entry borrows: the one whose requests were verified against a
   * scripted server (shared/reference/agent-clis/codex-request-body-turn2.json).
   */
  static final String BASE_ENTRY = "gpt-5.5";

  /**
   * The features that would otherwise reach the network or start more than the one agent, and {@code shell_snapshot}:
   * it writes the login shell's environment (the endpoint's key included) into {@code CODEX_HOME/shell_snapshots},
   * and a run that ends mid-write leaves that file behind.
   */
  static final List<String> FEATURES_OFF = List.of("shell_snapshot", "plugins", "remote_plugin", "apps", "goals", "image_generation",
      "computer_use", "browser_use", "in_app_updates", "tool_suggest", "skill_mcp_dependency_install");

  /** {@code codex debug models --bundled} prints a catalogue compiled into the binary; it takes a fraction of this. */
  private static final Duration CATALOGUE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The one-entry catalogue per binary (its path, size and time, so a reinstall is seen) and model: reading the
   * bundled catalogue costs a process start, about half of a whole scripted run.
   */
  private static final Map<String, String> CATALOGUES = new ConcurrentHashMap<>();

  /**
   * Runs Codex to its end or its timeout.
   *
   * @throws IllegalArgumentException the invocation cannot run (state folder not fresh, key variable not set)
   * @throws IOException the configuration or the output files could not be written, the binary could not start, or
   *     its bundled model catalogue could not be read
   */
  public static AgentRun run(AgentInvocation inv) throws IOException, InterruptedException {
    AgentState s = AgentState.create(inv);
    Path codexHome = s.root.resolve("codex-home");
    Files.createDirectories(codexHome);
    SortedMap<String, String> env = s.env(inv, Map.of("CODEX_HOME", codexHome.toString()));
    Path catalogue = codexHome.resolve("model-catalog.json");
    Files.writeString(catalogue, catalogue(inv, s, env));
    Files.writeString(codexHome.resolve("config.toml"), config(inv, catalogue));
    List<String> command = List.of(inv.binary().toString(), "exec", "--json", "--skip-git-repo-check", "--ephemeral",
        "--strict-config", "-C", inv.workDir().toString(), "--", inv.prompt());
    return s.run(inv, command, new ProcessSpec.Stdin.None(), env);
  }

  /** The text of config.toml: top-level keys first (TOML puts every key after a table header into that table). */
  static String config(AgentInvocation inv, Path catalogue) {
    StringBuilder t = new StringBuilder();
    string(t, "model", inv.role().model());
    string(t, "model_provider", PROVIDER);
    string(t, "approval_policy", "never");
    string(t, "sandbox_mode", "danger-full-access");
    t.append("check_for_update_on_startup = false\n");
    string(t, "web_search", "disabled");
    string(t, "model_catalog_json", catalogue.toString());
    t.append("\n[model_providers.").append(PROVIDER).append("]\n");
    string(t, "name", "h2beam endpoint " + inv.role().endpoint().name());
    string(t, "base_url", inv.role().endpoint().baseUrl());
    String var = AgentState.keyVariable(inv);
    if (!var.isEmpty()) string(t, "env_key", var);
    string(t, "wire_api", "responses");
    for (String table : List.of("analytics", "feedback", "agents")) {
      t.append("\n[").append(table).append("]\nenabled = false\n");
    }
    t.append("\n[features]\n");
    for (String feature : FEATURES_OFF) t.append(feature).append(" = false\n");
    return t.toString();
  }

  /** {@code name = "value"} as a TOML basic string. */
  private static void string(StringBuilder t, String name, String value) {
    t.append(name).append(" = \"");
    for (char c : value.toCharArray()) {
      if (c == '"' || c == '\\') t.append('\\').append(c);
      else if (c < 0x20 || c == 0x7F) t.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
      else t.append(c);
    }
    t.append("\"\n");
  }

  /** The one-entry catalogue for the invocation's model, from the binary's bundled one (read once per binary). */
  private static String catalogue(AgentInvocation inv, AgentState s, SortedMap<String, String> env)
      throws IOException, InterruptedException {
    Path real = inv.binary().toRealPath();
    String key = real + "\0" + Files.size(real) + "\0" + Files.getLastModifiedTime(real).toMillis() + "\0"
        + inv.role().model();
    String known = CATALOGUES.get(key);
    if (known != null) return known;
    Path out = s.root.resolve("bundled-models.json");
    Path err = s.root.resolve("bundled-models.stderr.txt");
    ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of(inv.binary().toString(), "debug", "models",
        "--bundled"), s.tmp, env, out, err, CATALOGUE_TIMEOUT));
    if (!r.succeeded()) {
      throw new IOException("cannot read the model catalogue bundled in " + inv.binary() + ": 'codex debug models "
          + "--bundled' " + (r.timedOut() ? "timed out" : "exited with " + r.exit() + ": " + r.stderrTail(300)));
    }
    String text = oneEntry(Json.MAPPER.readTree(out.toFile()), inv.role().model());
    Files.delete(out);
    Files.delete(err);
    CATALOGUES.put(key, text);
    return text;
  }

  /**
   * {@code {"models": [entry]}}: the model's own entry, else {@link #BASE_ENTRY}'s or the first renamed after the
   * model; without websockets either way (a plain HTTP endpoint has none).
   */
  static String oneEntry(JsonNode bundled, String model) throws IOException {
    JsonNode own = null;
    JsonNode base = null;
    for (JsonNode m : bundled.path("models")) {
      String slug = m.path("slug").asText();
      if (slug.equals(model)) own = m;
      if (slug.equals(BASE_ENTRY)) base = m;
    }
    JsonNode pick = own != null ? own : base != null ? base : bundled.path("models").path(0);
    if (!pick.isObject()) throw new IOException("the bundled model catalogue lists no models");
    ObjectNode entry = ((ObjectNode) pick).deepCopy();
    if (own == null) {
      entry.put("slug", model);
      entry.put("display_name", model);
    }
    entry.put("prefer_websockets", false);
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.putArray("models").add(entry);
    return Json.MAPPER.writeValueAsString(out);
  }
}
