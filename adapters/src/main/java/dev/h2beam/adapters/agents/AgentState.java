package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The fresh state folder of one agent run, and the one way both launchers start their CLI. Layout:
 *
 * <pre>
 * stateDir/
 *   home/                 HOME
 *   xdg/config data state cache/   XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME, XDG_CACHE_HOME
 *   tmp/                  TMPDIR
 *   stdout.jsonl stderr.txt   the CLI's output
 * </pre>
 *
 * <p>Everything a CLI remembers (sessions, sqlite databases, snapshots, logs, caches) lands under one of these, so a
 * run sees nothing of another run nor of the user's own configuration.
 */
final class AgentState {
  final Path root;
  final Path home;
  final Path config;
  final Path data;
  final Path state;
  final Path cache;
  final Path tmp;
  final Path stdout;
  final Path stderr;

  private AgentState(Path root) {
    this.root = root;
    this.home = root.resolve("home");
    Path xdg = root.resolve("xdg");
    this.config = xdg.resolve("config");
    this.data = xdg.resolve("data");
    this.state = xdg.resolve("state");
    this.cache = xdg.resolve("cache");
    this.tmp = root.resolve("tmp");
    this.stdout = root.resolve("stdout.jsonl");
    this.stderr = root.resolve("stderr.txt");
  }

  /**
   * Lays out the invocation's state folder and checks what the run needs from its environment.
   *
   * @throws IllegalArgumentException the state folder is not fresh, the working folder is missing, or the endpoint's
   *     key variable is not set in the source environment (the message names the variable, never a value)
   */
  static AgentState create(AgentInvocation inv) throws IOException {
    if (!Files.isDirectory(inv.workDir())) {
      throw new IllegalArgumentException("the agent's working folder " + inv.workDir() + " does not exist");
    }
    if (Files.exists(inv.stateDir())) {
      boolean empty;
      try (Stream<Path> entries = Files.list(inv.stateDir())) {
        empty = entries.findAny().isEmpty();
      }
      if (!empty) {
        throw new IllegalArgumentException("the state folder " + inv.stateDir() + " is not empty; every agent run "
            + "needs a fresh one, so no run sees another's sessions or settings");
      }
    }
    String var = keyVariable(inv);
    if (!var.isEmpty() && inv.sourceEnv().getOrDefault(var, "").isBlank()) {
      throw new IllegalArgumentException("the endpoint '" + inv.role().endpoint().name() + "' reads its key from "
          + var + ", which is not set; export " + var + " before the run");
    }
    AgentState s = new AgentState(inv.stateDir());
    for (Path dir : List.of(s.home, s.config, s.data, s.state, s.cache, s.tmp)) Files.createDirectories(dir);
    return s;
  }

  /** The endpoint's key variable, "" for an endpoint that needs no key. */
  static String keyVariable(AgentInvocation inv) {
    return inv.role().endpoint().apiKeyEnv();
  }

  /**
   * The CLI's whole environment: {@link Env#BASE}, the key variable, the invocation's extra names, the fresh folders
   * of this state, then {@code settings} (the CLI's own switches).
   */
  SortedMap<String, String> env(AgentInvocation inv, Map<String, String> settings) {
    List<String> granted = new ArrayList<>(inv.extraAllowedEnv());
    String var = keyVariable(inv);
    if (!var.isEmpty()) granted.add(var);
    SortedMap<String, String> overrides = new TreeMap<>(Map.of("HOME", home.toString(),
        "XDG_CONFIG_HOME", config.toString(), "XDG_DATA_HOME", data.toString(), "XDG_STATE_HOME", state.toString(),
        "XDG_CACHE_HOME", cache.toString(), "TMPDIR", tmp.toString()));
    overrides.putAll(settings);
    return Env.child(inv.sourceEnv(), granted, overrides);
  }

  /** Runs the CLI in the working folder through {@link ProcessRunner}, output into this state's two files. */
  AgentRun run(AgentInvocation inv, List<String> command, ProcessSpec.Stdin stdin, SortedMap<String, String> env)
      throws IOException, InterruptedException {
    ProcessSpec spec = ProcessSpec.of(command, inv.workDir(), env, stdout, stderr, inv.timeout()).withStdin(stdin);
    if (inv.groupRecord() != null) spec = spec.withGroupRecord(inv.groupRecord());
    if (inv.isolation() != null) spec = spec.withIsolation(inv.isolation());
    ProcessResult r = ProcessRunner.run(spec);
    return new AgentRun(r, stdout, stderr, r.timedOut());
  }

  /**
   * The program a CLI needs on the child's {@code PATH}, or an error saying to install it.
   *
   * @throws IllegalStateException the program is not on the {@code PATH} of {@code env}
   */
  static void requireOnPath(SortedMap<String, String> env, String program, String why) {
    if (ProcessRunner.onPath(env.get("PATH"), program) == null) {
      throw new IllegalStateException(program + " is not on the PATH given to the agent (" + env.get("PATH")
          + "); " + why + ": install " + program + " or add its folder to PATH");
    }
  }
}
