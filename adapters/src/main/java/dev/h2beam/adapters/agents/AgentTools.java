package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.adapters.exec.Shell;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The agent CLIs h2beam drives, pinned to the versions whose settings, requests and outputs were verified
 * ({@code shared/docs/AGENT-CLIS.md}): where they are installed, the command that installs them, and whether an
 * installed binary is the pinned one. Another version may accept the same flags and still behave differently
 * (network calls, request shapes, output events), so a mismatch is a problem to fix, not a warning.
 */
public final class AgentTools {
  private AgentTools() {}

  public static final String OPENCODE = "opencode";
  public static final String CODEX = "codex";

  public static final String OPENCODE_VERSION = "1.18.33";
  public static final String CODEX_VERSION = "0.171.0";

  /** The npm packages; each brings its platform binary as an optional dependency. */
  public static final String OPENCODE_PACKAGE = "opencode-ai";
  public static final String CODEX_PACKAGE = "@openai/codex";

  /** Overrides the default tools folder. */
  public static final String TOOLS_DIR_ENV = "H2BEAM_TOOLS_DIR";

  /** {@code --version} of either CLI answers in well under a second; this much covers a cold disk. */
  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(30);

  /** Two ~200 MB downloads on a slow link. */
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(15);

  /**
   * What npm may see besides {@link Env#BASE}: its home (for {@code ~/.npmrc}) and the variables that configure a
   * registry or a proxy, all set by the user for npm; the npm_config_ ones are added by prefix below.
   */
  private static final List<String> NPM_ENV = List.of("HOME", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy",
      "https_proxy", "no_proxy", "NODE_EXTRA_CA_CERTS");

  /**
   * {@code AgentTools ensure}: installs the pinned agents into the default tools folder unless both already answer
   * with their pinned versions. The build runs it before the tests that drive the real CLIs, so the README's one test
   * command also installs them on a fresh machine; {@code h2beam setup} is the same for users.
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 1 || !args[0].equals("ensure")) {
      System.err.println("usage: AgentTools ensure");
      System.exit(2);
    }
    Path dir = defaultToolsDir(System.getenv());
    List<String> missing = new ArrayList<>();
    for (String agent : List.of(OPENCODE, CODEX)) {
      if (problem(agent, binary(agent, dir, Optional.empty())).isPresent()) missing.add(agent);
    }
    if (missing.isEmpty()) {
      System.out.println("agent CLIs ready in " + dir);
      return;
    }
    int rc = install(dir, missing, System.out);
    for (String agent : missing) {
      Optional<String> p = problem(agent, binary(agent, dir, Optional.empty()));
      if (p.isPresent()) {
        System.err.println(p.get());
        rc = rc == 0 ? 1 : rc;
      }
    }
    if (rc != 0) System.exit(rc);
  }

  /** {@code $H2BEAM_TOOLS_DIR} when set, else {@code ~/.h2beam/tools}. */
  public static Path defaultToolsDir(Map<String, String> env) {
    String dir = env.get(TOOLS_DIR_ENV);
    if (dir != null && !dir.isBlank()) return Path.of(dir).toAbsolutePath().normalize();
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    return Path.of(home, ".h2beam", "tools").toAbsolutePath().normalize();
  }

  /**
   * The binary to run: {@code override} when given (a user's own install), else the one npm links into
   * {@code <toolsDir>/node_modules/.bin}.
   *
   * @throws IllegalArgumentException {@code agent} is neither {@value #OPENCODE} nor {@value #CODEX}
   */
  public static Path binary(String agent, Path toolsDir, Optional<Path> override) {
    check(agent);
    return override.orElseGet(() -> toolsDir.resolve("node_modules").resolve(".bin").resolve(agent))
        .toAbsolutePath().normalize();
  }

  /** The pinned npm spec of an agent, e.g. {@code opencode-ai@1.18.33}. */
  public static String packageSpec(String agent) {
    return check(agent).equals(OPENCODE) ? OPENCODE_PACKAGE + "@" + OPENCODE_VERSION
        : CODEX_PACKAGE + "@" + CODEX_VERSION;
  }

  /** The version {@code --version} must report. */
  public static String version(String agent) {
    return check(agent).equals(OPENCODE) ? OPENCODE_VERSION : CODEX_VERSION;
  }

  /** The command a user runs to install the agents into {@code toolsDir}, ready to paste into a shell. */
  public static String installCommand(Path toolsDir, List<String> agents) {
    return String.join(" ", Stream.concat(Stream.of("npm"), npmArgs(toolsDir, agents).stream().skip(1))
        .map(Shell::word).toList());
  }

  /**
   * Empty when {@code binary} exists and reports the pinned version; else what is wrong (the binary, what was found)
   * and the command that fixes it. Runs {@code binary --version} with a clean environment and a throwaway home.
   */
  public static Optional<String> problem(String agent, Path binary) {
    return problem(agent, binary, null, () -> "; install the pinned version with: "
        + setupCommand(agent, toolsDirOf(binary)));
  }

  /**
   * As {@link #problem(String, Path)} for a binary the user named with {@code flag} ({@code --opencodeBin}): the
   * flag is what to fix, so the error names it and says to correct it or drop it for the pinned version under
   * {@code toolsDir}; {@code ./h2beam setup} is suggested only when that folder lacks the pinned version too, as
   * installing what is there already fixes nothing.
   */
  public static Optional<String> problem(String agent, Path binary, String flag, Path toolsDir) {
    Path pinned = binary(agent, toolsDir, Optional.empty());
    return problem(agent, binary, flag, () -> "; correct the path, or drop " + flag + " to use the pinned " + agent
        + " " + version(agent) + (problem(agent, pinned).isEmpty() ? " installed at " + pinned
            : ", which is not in " + toolsDir + " either: install it with: " + setupCommand(agent, toolsDir)));
  }

  /** {@code ./h2beam setup} for one agent into {@code dir} (named unless it is the default), and what it runs. */
  private static String setupCommand(String agent, Path dir) {
    return "./h2beam setup --agents=" + agent
        + (dir.equals(defaultToolsDir(System.getenv())) ? "" : " --toolsDir=" + Shell.word(dir.toString()))
        + " (which runs: " + installCommand(dir, List.of(agent)) + ")";
  }

  /**
   * What is wrong with {@code binary}, then the advice {@code fixes} gives; empty when nothing is. {@code flag} is
   * the flag that named the binary ({@code --opencodeBin=...} is shown), null for the tools folder's.
   */
  private static Optional<String> problem(String agent, Path binary, String flag, Supplier<String> fixes) {
    String shown = flag == null ? binary.toString() : flag + "=" + binary;
    if (!Files.isRegularFile(binary)) {
      return Optional.of((flag == null ? agent + " is not installed: " : "") + shown + " does not exist"
          + fixes.get());
    }
    if (!Files.isExecutable(binary)) {
      return Optional.of((flag == null ? agent + " at " : "") + shown + " is not executable" + fixes.get());
    }
    String fix = fixes.get();
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory("h2beam-version-");
      Map<String, String> env = Map.of("HOME", scratch.toString(), "TMPDIR", scratch.toString());
      ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of(binary.toString(), "--version"), scratch,
          Env.child(System.getenv(), List.of(), env), scratch.resolve("stdout.txt"), scratch.resolve("stderr.txt"),
          VERSION_TIMEOUT));
      if (!r.succeeded()) {
        String how = r.timedOut() ? "did not answer within " + VERSION_TIMEOUT.toSeconds() + " s"
            : "exited with " + r.exit() + ": " + r.stderrTail(300);
        return Optional.of(shown + " --version " + how + fix);
      }
      String out = r.stdoutText();
      String first = out.lines().findFirst().orElse("").strip();
      String[] words = first.split("\\s+");
      if (!words[words.length - 1].equals(version(agent))) {
        return Optional.of(shown + " is " + agent + " '" + first + "', h2beam needs " + version(agent) + fix);
      }
      return Optional.empty();
    } catch (ProcessRunner.StartException e) {
      return Optional.of(e.getMessage() + fix);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check the version of " + binary, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while checking the version of " + binary);
    } finally {
      deleteQuietly(scratch);
    }
  }

  /** {@link #install(Path, List, PrintStream, Map)} with this process's environment. */
  public static int install(Path toolsDir, List<String> agents, PrintStream log) throws IOException,
      InterruptedException {
    return install(toolsDir, agents, log, System.getenv());
  }

  /**
   * Runs {@link #installCommand} (npm from the {@code PATH} of {@code env}), copies npm's output to {@code log}, and
   * returns npm's exit status (-1 when it timed out).
   */
  static int install(Path toolsDir, List<String> agents, PrintStream log, Map<String, String> env)
      throws IOException, InterruptedException {
    List<String> command = npmArgs(toolsDir, agents);
    Files.createDirectories(toolsDir);
    List<String> granted = new ArrayList<>(NPM_ENV);
    env.keySet().stream().filter(k -> k.toLowerCase(Locale.ROOT).startsWith("npm_config_")).sorted()
        .forEach(granted::add);
    Path out = Files.createTempFile("h2beam-npm-", ".out");
    Path err = Files.createTempFile("h2beam-npm-", ".err");
    try {
      log.println("installing: " + installCommand(toolsDir, agents));
      ProcessResult r = ProcessRunner.run(ProcessSpec.of(command, toolsDir, Env.child(env, granted, Map.of()), out,
          err, INSTALL_TIMEOUT));
      for (String text : List.of(r.stdoutText(), r.stderrText())) if (!text.isEmpty()) log.println(text);
      if (r.timedOut()) log.println("npm did not finish within " + INSTALL_TIMEOUT.toMinutes() + " minutes");
      return r.timedOut() ? -1 : r.exit();
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static List<String> npmArgs(Path toolsDir, List<String> agents) {
    if (agents.isEmpty()) throw new IllegalArgumentException("name at least one agent to install: opencode, codex");
    List<String> args = new ArrayList<>(List.of("npm", "install", "--prefix", toolsDir.toString(), "--no-audit",
        "--no-fund"));
    agents.stream().distinct().map(AgentTools::packageSpec).forEach(args::add);
    return args;
  }

  /** The tools folder a binary was installed into by npm, or the default one for a binary from elsewhere. */
  private static Path toolsDirOf(Path binary) {
    Path bin = binary.toAbsolutePath().normalize().getParent();
    if (bin != null && bin.endsWith(Path.of("node_modules", ".bin")) && bin.getParent().getParent() != null) {
      return bin.getParent().getParent();
    }
    return defaultToolsDir(System.getenv());
  }

  private static String check(String agent) {
    if (!OPENCODE.equals(agent) && !CODEX.equals(agent)) {
      throw new IllegalArgumentException("unknown agent '" + agent + "'; h2beam drives " + OPENCODE + " and " + CODEX);
    }
    return agent;
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) return;
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      // A scratch folder in the system temp dir; the OS cleans what is left.
    }
  }
}
