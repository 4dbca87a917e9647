package dev.h2beam.adapters.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Runs OpenCode ({@value AgentTools#OPENCODE_VERSION}) once: {@code opencode run --model h2beam/<model> --format json}
 * in the working folder, the prompt on stdin (an argument would be re-quoted), against the role's OpenAI-compatible
 * endpoint, offline but for that endpoint. Before the run it writes, in the run's fresh config folder:
 *
 * <ul>
 *   <li>{@code opencode/opencode.json}: no auto-update, no sharing, one provider {@value #PROVIDER} on the
 *       {@code @ai-sdk/openai-compatible} package built into the binary, the endpoint's base URL, the key as
 *       {@code {env:VAR}} (OpenCode substitutes it when it loads the file, so no key is ever written), the model with
 *       tool calls and limits; permissions: edits and shell allowed, web fetches denied, and every folder outside
 *       the working folder denied (harness2's {@code external_directory} fence);
 *   <li>the plugin-install stoppers: OpenCode otherwise starts {@code npm install @opencode-ai/plugin} in its config
 *       folder and in a workspace's {@code .opencode/}; an empty {@code node_modules/}, a {@code package.json} and a
 *       lock file naming the plugin make it skip that. In the workspace only missing stoppers are added, so a
 *       harness's own {@code .opencode/} files are kept.
 * </ul>
 *
 * <p>The environment adds {@link #QUIET} ({@code OPENCODE_DISABLE_MODELS_FETCH=1}, else it fetches the models.dev
 * catalogue; {@code OPENCODE_DISABLE_AUTOUPDATE=1}; and the start-up trimmings measured in BENCHMARKS.md), and the
 * command names a title ({@link #TITLE}) so no title request reaches the endpoint; {@code git} must be on the PATH
 * (OpenCode snapshots the folder with it).
 * The role's temperature is not passed on: agent CLIs run at their own sampling defaults.
 */
public final class OpenCodeCli {
  private OpenCodeCli() {}

  /** The provider id of the endpoint in opencode.json; not a built-in provider's id, so nothing is merged into it. */
  static final String PROVIDER = "h2beam";

  /** The context window declared for the model: OpenCode compacts the conversation as it nears it. */
  static final int CONTEXT_TOKENS = 131_072;

  /** The completion limit declared when the role sets no {@code max_tokens}. */
  static final int DEFAULT_OUTPUT_TOKENS = 8_192;

  /**
   * The session title given on the command line: with one, OpenCode does not ask the model for a title, a request
   * that would otherwise go to the endpoint, and be paid for, beside every run's first turn.
   */
  static final String TITLE = "h2beam";

  /**
   * The variables that keep a run offline and lean (OpenCode {@value AgentTools#OPENCODE_VERSION} reads each):
   * no models.dev catalogue, no auto-update, no LSP download; none of the default plugins (the sign-in helpers of the
   * built-in providers: the endpoint here is a provider of its own); no file watcher (a run is one-shot); no skills
   * or prompt files from {@code ~/.claude} or {@code ~/.agents}, so the harness in the working folder is the only
   * instruction; no embedded web UI.
   */
  static final Map<String, String> QUIET = Map.of("OPENCODE_DISABLE_MODELS_FETCH", "1",
      "OPENCODE_DISABLE_AUTOUPDATE", "1", "OPENCODE_DISABLE_LSP_DOWNLOAD", "1",
      "OPENCODE_DISABLE_DEFAULT_PLUGINS", "1", "OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER", "1",
      "OPENCODE_DISABLE_EXTERNAL_SKILLS", "1", "OPENCODE_DISABLE_CLAUDE_CODE", "1",
      "OPENCODE_DISABLE_EMBEDDED_WEB_UI", "1");

  /** The plugin package OpenCode would install, at the version bundled with the CLI. */
  private static final String PLUGIN = "@opencode-ai/plugin";

  /**
   * Runs OpenCode to its end or its timeout.
   *
   * @throws IllegalArgumentException the invocation cannot run (state folder not fresh, key variable not set)
   * @throws IllegalStateException git is not on the PATH
   * @throws IOException the configuration or the output files could not be written, or the binary could not start
   */
  public static AgentRun run(AgentInvocation inv) throws IOException, InterruptedException {
    AgentState s = AgentState.create(inv);
    SortedMap<String, String> env = s.env(inv, QUIET);
    AgentState.requireOnPath(env, "git", "OpenCode snapshots the working folder with git");
    Path configDir = s.config.resolve("opencode");
    Files.createDirectories(configDir);
    Files.writeString(configDir.resolve("opencode.json"), config(inv));
    stopPluginInstall(configDir);
    Path workspaceConfig = inv.workDir().resolve(".opencode");
    if (Files.isDirectory(workspaceConfig)) stopPluginInstall(workspaceConfig);
    List<String> command = List.of(inv.binary().toString(), "run", "--model", PROVIDER + "/" + inv.role().model(),
        "--format", "json", "--title", TITLE);
    return s.run(inv, command, new ProcessSpec.Stdin.Text(inv.prompt()), env);
  }

  /** The text of opencode.json for this invocation. */
  static String config(AgentInvocation inv) throws IOException {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("autoupdate", false);
    root.put("share", "disabled");
    ObjectNode provider = root.putObject("provider").putObject(PROVIDER);
    provider.put("npm", "@ai-sdk/openai-compatible");
    provider.put("name", "h2beam endpoint " + inv.role().endpoint().name());
    ObjectNode options = provider.putObject("options");
    options.put("baseURL", inv.role().endpoint().baseUrl());
    String var = AgentState.keyVariable(inv);
    if (!var.isEmpty()) options.put("apiKey", "{env:" + var + "}");
    ObjectNode model = provider.putObject("models").putObject(inv.role().model());
    model.put("name", inv.role().model());
    model.put("tool_call", true);
    Integer output = inv.role().maxTokens();
    model.putObject("limit").put("context", CONTEXT_TOKENS).put("output", output == null ? DEFAULT_OUTPUT_TOKENS
        : output);
    ObjectNode permission = root.putObject("permission");
    permission.put("edit", "allow");
    permission.put("bash", "allow");
    permission.put("webfetch", "deny");
    String work = inv.workDir().toString();
    permission.putObject("external_directory").put("*", "deny").put(work, "allow").put(work + "/**", "allow");
    return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
  }

  /** Adds the files that make OpenCode believe its plugin is installed, keeping those already there. */
  private static void stopPluginInstall(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("node_modules"));
    String dependency = "{\"" + PLUGIN + "\":\"" + AgentTools.OPENCODE_VERSION + "\"}";
    Map<String, String> files = Map.of(
        "package.json", "{\"dependencies\":" + dependency + "}\n",
        "package-lock.json", "{\"lockfileVersion\":3,\"packages\":{\"\":{\"dependencies\":" + dependency + "}}}\n");
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path file = dir.resolve(f.getKey());
      if (!Files.exists(file)) Files.writeString(file, f.getValue());
    }
  }
}
