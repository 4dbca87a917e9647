package dev.h2beam.adapters.exec;

import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.adapters.llm.EndpointProxy;
import dev.h2beam.adapters.model.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code command} executor: brings the user's own agent, run as {@code sh -c <command>} through the
 * {@link ProcessRunner}. One rollout lays out its run dir as
 *
 * <pre>
 * runDir/
 *   workspace/      the agent's working folder:
 *     ...           the harness tree, at the root
 *     task.md       the instruction
 *     source/       the task's source files (when the task has any)
 *   output/         empty; the agent writes its deliverable here (output/&lt;deliverable&gt;)
 *   home/ tmp/      HOME and TMPDIR, fresh for each rollout
 *   stdout.txt stderr.txt   the agent's output, capped at {@link ProcessSpec#DEFAULT_CAP_BYTES} each
 *   running.json    while the agent runs: its process group ({@link GroupRecord})
 *   model_calls.jsonl       with a role: the agent's model calls, one line each ({@link EndpointProxy})
 *   trajectory.md   the rollout in harness2's trajectory grammar
 * </pre>
 *
 * <p>The harness sits at the workspace root because that is where agent CLIs look for their instructions
 * ({@code AGENTS.md}, {@code .agents/}, {@code .codex/}) and where harness2 installs a tree for its own agents; a
 * harness entry named {@code task.md} or {@code source} is left out (with a warning), since those names are the
 * task's. Copies take regular files only: symbolic links, devices and the like are skipped and listed as
 * {@code [HARNESS] skipped ...} lines of the trajectory.
 *
 * <p>The command template may use {@code {workspace}}, {@code {task_dir}}, {@code {harness}} (all three the
 * workspace folder today, named separately so a template says what it means) and {@code {output}}; each is replaced
 * by its absolute path, single-quoted for the shell. Other braces are left alone (shell and awk code use them).
 *
 * <p>The agent's environment is the {@link Env#BASE} allow-list, the names in {@code env_allow}, the executor role's
 * key variable (by its own name, holding the relay's token, never the key) when a role is configured, and:
 * {@code HOME}, {@code TMPDIR} (inside the run dir), {@code H2BEAM_TASK} (the task id), {@code H2BEAM_OUTPUT} (the
 * output folder), {@code H2BEAM_DELIVERABLE} (the file name the benchmark reads from it), and from the role
 * {@code OPENAI_BASE_URL} (its relay, below) and {@code H2BEAM_MODEL} (its model). Nothing else of h2beam's
 * environment reaches the agent.
 *
 * <p>With a role, {@code OPENAI_BASE_URL} is the loopback address of the run's own {@link EndpointProxy}, as for the
 * agent CLIs: each model call the agent makes waits for the endpoint's limits in this worker (its
 * {@code max_concurrency}, {@code requests_per_minute} and {@code tokens_per_minute} share) like every other call of
 * the job, goes on to the endpoint with the agent's own headers (the relay's token replaced by the key), and is
 * recorded in the run folder's {@code model_calls.jsonl}. The rollout's tokens and cost are what those calls reported,
 * priced at the endpoint's prices; its cost is known only when every call was answered and every success reported its
 * input and output tokens ({@link EndpointProxy.Spend}). A call the agent makes elsewhere is not seen and not counted.
 * Without a role the agent is given no endpoint, and h2beam sees none of its calls: its cost is not known, unless the
 * executor's {@code free} setting says it calls no paid model (then it is a known $0).
 */
final class CommandExecutor implements Executor {
  static final String WORKSPACE = "workspace";
  static final String OUTPUT = "output";
  static final String TASK_FILE = "task.md";
  static final String SOURCE = "source";
  static final String STDOUT = "stdout.txt";
  static final String STDERR = "stderr.txt";
  static final String TRAJECTORY = "trajectory.md";

  /** The stderr tail an error message carries. */
  private static final int ERROR_TAIL = 300;

  private final String template;
  private final List<String> granted;
  private final Duration timeoutOverride;
  private final Optional<ResolvedRole> role;
  private final Map<String, String> source;
  private final boolean free;

  /**
   * @param granted the names of {@code env_allow} plus the role's key variable
   * @param timeoutOverride {@code timeout_seconds}, or null to use each request's timeout
   * @param source the environment the granted variables are read from
   */
  CommandExecutor(String template, List<String> granted, Duration timeoutOverride, Optional<ResolvedRole> role,
      Map<String, String> source) {
    this(template, granted, timeoutOverride, role, source, false);
  }

  /** @param free the agent calls no paid model beyond the role's relay ({@link CommandExecutorProvider}) */
  CommandExecutor(String template, List<String> granted, Duration timeoutOverride, Optional<ResolvedRole> role,
      Map<String, String> source, boolean free) {
    if (template == null || template.isBlank()) {
      throw new IllegalArgumentException("the command executor needs \"command\": a shell command running the agent,"
          + " e.g. \"my-agent --task {workspace}/task.md --out {output}\"");
    }
    dev.h2beam.adapters.config.KeyFree.refuseIn("the command executor's \"command\"", template);
    this.template = template;
    this.granted = List.copyOf(granted);
    this.granted.forEach(Env::checkName);
    this.timeoutOverride = timeoutOverride;
    this.role = Objects.requireNonNull(role, "role");
    this.source = Map.copyOf(source);
    this.free = free;
  }

  /** The agent runs in the request's isolation, when it has one. */
  @Override public boolean isolates() {
    return true;
  }

  @Override public String identity() {
    // (a key held only after this executor was made is kept out of the records all the same)
    return dev.h2beam.adapters.config.KeyFree.text("command:" + template);
  }

  @Override public ExecResult run(ExecRequest req) throws IOException, InterruptedException {
    Path runDir = req.runDir().toAbsolutePath().normalize();
    Path workspace = runDir.resolve(WORKSPACE);
    Path output = runDir.resolve(OUTPUT);
    Path home = runDir.resolve("home");
    Path tmp = runDir.resolve("tmp");
    // an earlier run's agent, left running by a killed h2beam, is stopped before anything of this run is laid out,
    // and what it wrote is not this run's (a benchmark clears the whole folder; this is for a caller that does not)
    if (GroupRecord.stopRecorded(runDir)) Trees.delete(output);
    for (Path d : List.of(output, home, tmp)) Files.createDirectories(d);

    List<String> skipped = new ArrayList<>();
    int harnessFiles = SafeCopy.copy(req.harnessDir(), workspace, "", Set.of(TASK_FILE, SOURCE), skipped);
    AtomicFiles.writeString(workspace.resolve(TASK_FILE), req.instruction());
    int sourceFiles = 0;
    if (req.sourceDir() != null) {
      if (Files.isDirectory(req.sourceDir())) {
        sourceFiles = SafeCopy.copy(req.sourceDir(), workspace.resolve(SOURCE), SOURCE + "/", Set.of(), skipped);
      } else {
        skipped.add("skipped source/: the task's source folder " + req.sourceDir() + " is missing");
      }
    }

    String command = Shell.substitute(template, Map.of("workspace", workspace.toString(),
        "task_dir", workspace.toString(), "harness", workspace.toString(), "output", output.toString()));
    Duration timeout = timeoutOverride != null ? timeoutOverride : req.timeout();

    CommandTrajectory t = new CommandTrajectory()
        .harness("command executor: " + WORKSPACE + "/ holds the harness at its root (" + files(harnessFiles) + "), "
            + TASK_FILE + (req.sourceDir() == null ? "" : " and " + SOURCE + "/ (" + files(sourceFiles) + ")")
            + "; the agent writes its deliverable to " + OUTPUT + "/" + req.deliverable());
    skipped.forEach(t::harness);
    t.user(req.instruction()).action(command);

    ExecResult result;
    EndpointProxy relay = role.isPresent() ? EndpointProxy.open(role.get().endpoint(),
        runDir.resolve(EndpointProxy.CALL_LOG), source) : null;
    try {
      ProcessResult r;
      try (relay) {
        // the relay is closed once the agent is gone: every call it made has ended and has its record
        r = ProcessRunner.run(ProcessSpec.of(List.of("sh", "-c", command), workspace,
            environment(req, output, home, tmp, relay), runDir.resolve(STDOUT), runDir.resolve(STDERR), timeout)
            .withGroupRecord(runDir.resolve(GroupRecord.FILE)).withIsolation(req.isolation()));
      }
      t.observation(r.stdoutText(), Math.max(0, r.stdoutBytes() - Files.size(r.stdout())))
          .stderr(r.stderrText(), Math.max(0, r.stderrBytes() - Files.size(r.stderr())));
      result = outcome(runDir, command, timeout, r, t);
    } catch (ProcessRunner.StartException e) {
      // the host refused to start sh (no file descriptors, memory or processes left): not the agent's outcome, so
      // not a failed rollout either; it goes up as it is (HostFailure), and the run folder stays unmarked
      if (e.refusedByHost()) throw e;
      String error = "cannot start `sh -c " + Shell.word(command) + "`: " + e.getMessage();
      t.error(error);
      result = new ExecResult(runDir, null, 0.0, null, null, 0.0, "start", error);
    }
    if (relay != null) {
      result = priced(result, EndpointProxy.Spend.of(role.get().endpoint(), relay.calls()));
    } else if (!free) {
      // given no endpoint, the agent's spend is out of h2beam's sight: not known, never a $0 it cannot vouch for
      result = new ExecResult(result.runDir(), result.exit(), result.wallS(), null, null, 0.0, result.errorClass(),
          result.error(), false);
    }
    List<String> delivered = PathOrder.files(output);
    t.harness(OUTPUT + "/ holds " + (delivered.isEmpty() ? "nothing" : String.join(", ", delivered)));
    AtomicFiles.writeString(runDir.resolve(TRAJECTORY), t.render());
    return result;
  }

  /** The result of a process that ran, with its trajectory's last line. */
  static ExecResult outcome(Path runDir, String command, Duration timeout, ProcessResult r,
      CommandTrajectory t) {
    if (r.timedOut()) {
      String error = "`sh -c " + Shell.word(command) + "` did not finish within " + timeout.toSeconds()
          + " s; its process group was killed";
      t.error(error);
      return new ExecResult(runDir, null, r.wallS(), null, null, 0.0, "timeout", error);
    }
    t.exit(r.exit());
    if (r.outputCut()) {
      // the deliverable may be whole, but the record of how it was made is not: never mark such a rollout complete
      String error = "`sh -c " + Shell.word(command) + "` exited with " + r.exit() + ", but " + r.cutReason();
      t.error(error);
      return new ExecResult(runDir, r.exit(), r.wallS(), null, null, 0.0, "output-cut", error);
    }
    if (r.succeeded()) return new ExecResult(runDir, 0, r.wallS(), null, null, 0.0, "", "");
    String tail = r.stderrTail(ERROR_TAIL);
    String error = "`sh -c " + Shell.word(command) + "` exited with " + r.exit() + ": "
        + (tail.isEmpty() ? "(no stderr)" : tail);
    return new ExecResult(runDir, r.exit(), r.wallS(), null, null, 0.0, "exit", error);
  }

  /**
   * The result with the tokens and cost of the agent's calls through its relay: the tokens counted, all of them or
   * marked as the part counted, each mark on its own (at a free endpoint an uncounted call's cost is a known $0).
   */
  private static ExecResult priced(ExecResult r, EndpointProxy.Spend spend) {
    Tokens t = spend.tokens();
    return new ExecResult(r.runDir(), r.exit(), r.wallS(), t.input(), t.output(), spend.usd(), r.errorClass(),
        r.error(), spend.known(), t.known());
  }

  private Map<String, String> environment(ExecRequest req, Path output, Path home, Path tmp, EndpointProxy relay) {
    Map<String, String> set = new LinkedHashMap<>();
    set.put("HOME", home.toString());
    set.put("TMPDIR", tmp.toString());
    set.put("H2BEAM_TASK", req.task());
    set.put("H2BEAM_OUTPUT", output.toString());
    set.put("H2BEAM_DELIVERABLE", req.deliverable());
    role.ifPresent(r -> {
      set.put("OPENAI_BASE_URL", relay.baseUrl());
      set.put("H2BEAM_MODEL", r.model());
    });
    // the key variable holds the relay's token: the agent never has the key
    return Env.child(relay == null ? source : relay.withToken(source), granted, set);
  }

  private static String files(int n) {
    return n + (n == 1 ? " file" : " files");
  }
}
