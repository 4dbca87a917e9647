package dev.h2beam.adapters.exec;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every program h2beam starts (executors, graders, script checks), one way:
 *
 * <ul>
 *   <li>in its own session and process group (through {@code setsid}), so a timeout, a cancellation or an interrupt
 *       of the calling thread kills the program <em>and everything it started</em>, and {@link #run} returns only
 *       once they are gone;
 *   <li>when the program exits on its own, whatever it left running in its group (a background job it did not wait
 *       for) is killed too: a finished program leaves nothing behind, and a pipe held by a straggler never keeps the
 *       runner waiting;
 *   <li>with exactly the environment of its {@link ProcessSpec} (nothing inherited) and standard output and error
 *       copied into files up to a cap, the rest counted and discarded.
 * </ul>
 *
 * <p>Safe to call from many threads at once; each call owns its process and its two pump threads.
 */
public final class ProcessRunner {
  /**
   * The logger, made when something is first logged: starting slf4j took 15 ms of a resume that logs nothing
   * (BENCHMARKS.md, issue 12).
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(ProcessRunner.class);
  }

  /** How often a cancellation hook is polled while the program runs. */
  private static final long POLL_MS = 100;

  /**
   * How long the pumps may take to reach end of stream once the group is dead (the last bytes in the pipe). Only a
   * process that escaped the group can hold the pipe open past the group's end, so a long grace costs nothing in
   * the normal case; a short one (it was 2 s) cut the output of healthy runs on a machine so loaded (load average
   * 40 on 2 cores, a 2,000-task sweep) that the pump thread was not scheduled in time, and a run whose output was
   * cut is a wrong deliverable.
   */
  private static final long DRAIN_MS = 15_000;

  static {
    LaunchMechanism.prefer(); // before the first child: one exec per child instead of two (LaunchMechanism)
  }

  private ProcessRunner() {}

  /** The program could not be started at all (not found, not executable, no working folder); nothing ran. */
  public static final class StartException extends IOException {
    private static final long serialVersionUID = 1L;
    private final boolean refusedByHost;

    StartException(String message, Throwable cause) {
      this(message, cause, false);
    }

    StartException(String message, Throwable cause, boolean refusedByHost) {
      super(message, cause);
      this.refusedByHost = refusedByHost;
    }

    /**
     * Whether the system refused to start a program that is there ({@code ProcessBuilder.start} failed: no file
     * descriptors, memory or processes left, {@link HostFailure}), rather than the program or its folder missing.
     */
    public boolean refusedByHost() {
      return refusedByHost;
    }
  }

  /**
   * Runs the program to its end, its timeout, or its cancellation.
   *
   * @throws StartException the program could not be started; the message names it and why
   * @throws IOException an output file could not be created or written (the program is dead on return)
   * @throws InterruptedException the calling thread was interrupted, or this JVM's exit has begun (no program starts
   *     then, and one still running when the exit has waited for the records in progress is killed: {@link
   *     RunningGroups}); the whole group is dead on return
   */
  public static ProcessResult run(ProcessSpec spec) throws IOException, InterruptedException {
    return run(spec, DRAIN_MS);
  }

  /** The same, with the grace the pumps get to reach end of stream after the group ended (tests shorten it). */
  static ProcessResult run(ProcessSpec spec, long drainMs) throws IOException, InterruptedException {
    if (spec.isolation() == null) return run(spec, drainMs, false);
    java.util.Optional<String> why = Isolation.unavailable();
    if (why.isPresent()) {
      throw new StartException("cannot run " + spec.command().get(0) + " isolated: " + why.get() + "; "
          + Isolation.remedy(), null);
    }
    return run(spec, drainMs, Isolation.inUserNamespace());
  }

  /** An isolated program started inside a user namespace or not ({@link Isolation#unavailable}'s probe tries both). */
  static ProcessResult run(ProcessSpec spec, boolean inUserNamespace) throws IOException, InterruptedException {
    return run(spec, DRAIN_MS, inUserNamespace);
  }

  private static ProcessResult run(ProcessSpec spec, long drainMs, boolean inUserNamespace)
      throws IOException, InterruptedException {
    String program = resolve(spec.command().get(0), spec.workDir(), spec.env().get("PATH"));
    List<String> argv = new ArrayList<>();
    argv.add(program);
    argv.addAll(spec.command().subList(1, spec.command().size()));
    if (!Files.isDirectory(spec.workDir())) {
      throw new StartException("cannot run " + spec.command().get(0) + ": working folder " + spec.workDir()
          + " does not exist", null);
    }
    if (spec.isolation() == null) return started(spec, drainMs, argv);
    for (Path v : spec.isolation().visible()) Files.createDirectories(v);
    Path stage = Files.createTempDirectory(spec.isolation().stageParent(), "h2beam-stage");
    try {
      return started(spec, drainMs,
          spec.isolation().wrap(argv, spec.workDir().toAbsolutePath().normalize(), stage, inUserNamespace));
    } finally {
      Isolation.unstage(stage);
    }
  }

  /** Starts {@code argv} (the resolved program and its arguments, or the isolating wrapper around them) and waits. */
  private static ProcessResult started(ProcessSpec spec, long drainMs, List<String> command)
      throws IOException, InterruptedException {
    boolean ownGroup = ProcessGroup.SETSID != null && !spec.alone();
    List<String> argv = new ArrayList<>();
    if (ownGroup) argv.add(ProcessGroup.SETSID);
    argv.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(argv).directory(spec.workDir().toFile())
        .redirectOutput(ProcessBuilder.Redirect.PIPE).redirectError(ProcessBuilder.Redirect.PIPE);
    pb.environment().clear();
    pb.environment().putAll(spec.env());
    if (spec.stdin() instanceof ProcessSpec.Stdin.FromFile f) {
      if (!Files.isRegularFile(f.file())) {
        throw new StartException("cannot run " + spec.command().get(0) + ": its input file " + f.file()
            + " does not exist", null);
      }
      pb.redirectInput(f.file().toFile());
    } else if (spec.stdin() instanceof ProcessSpec.Stdin.None) {
      pb.redirectInput(new File("/dev/null"));
    }

    RunningGroups.starting(); // throws once the exit has begun: nothing starts then
    // recorded before the start, with a token the program carries: a JVM killed before the pid's record leaves one
    Path record = ownGroup ? spec.groupRecord() : null;
    String token;
    try {
      token = record == null ? null : GroupRecord.starting(record);
    } catch (IOException | RuntimeException e) {
      RunningGroups.notStarted();
      throw e;
    }
    if (token != null) pb.environment().put(GroupRecord.ENV, token);
    long t0 = System.nanoTime();
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      RunningGroups.notStarted();
      if (token != null) GroupRecord.remove(record);
      throw new StartException("cannot run " + spec.command().get(0) + ": " + e.getMessage(), e, true);
    } catch (RuntimeException e) {
      RunningGroups.notStarted();
      if (token != null) GroupRecord.remove(record);
      throw e;
    }
    ProcessGroup group = new ProcessGroup(p, ownGroup);
    RunningGroups.started(group);
    try {
      if (token != null) GroupRecord.write(record, token, p.pid());
      return await(spec, drainMs, p, group, t0);
    } catch (IOException e) {
      group.killAndWait(); // dead already unless the record could not be written
      throw e;
    } finally {
      RunningGroups.ended(group);
      if (token != null) GroupRecord.remove(record);
    }
  }

  /** Waits for the started program {@code p} to end, time out or be cancelled; its group is dead on return. */
  private static ProcessResult await(ProcessSpec spec, long drainMs, Process p, ProcessGroup group, long t0)
      throws IOException, InterruptedException {
    OutputPump out;
    OutputPump err;
    try {
      out = OutputPump.start(p.getInputStream(), spec.stdout(), spec.capBytes(), "h2beam-proc-" + p.pid() + "-out");
      err = OutputPump.start(p.getErrorStream(), spec.stderr(), spec.capBytes(), "h2beam-proc-" + p.pid() + "-err");
    } catch (IOException e) {
      group.killAndWait();
      throw e;
    }
    if (spec.stdin() instanceof ProcessSpec.Stdin.Text t) {
      feed(p, t.text());
    }

    boolean timedOut = false;
    boolean cancelled = false;
    boolean settled = false;
    try {
      long deadline = t0 + spec.timeout().toNanos();
      boolean polled = spec.cancelled() != ProcessSpec.NEVER;
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          timedOut = true;
          break;
        }
        if (p.waitFor(polled ? Math.min(left, TimeUnit.MILLISECONDS.toNanos(POLL_MS)) : left, TimeUnit.NANOSECONDS)) {
          break;
        }
        if (spec.cancelled().getAsBoolean()) {
          cancelled = true;
          break;
        }
      }
      settled = true;
    } finally {
      if (!settled) {
        // Interrupted, or the cancellation hook threw: the program must not outlive this call either way.
        group.killAndWait();
        out.finish(drainMs);
        err.finish(drainMs);
      }
    }
    if (timedOut || cancelled) {
      group.killAndWait();
    } else if (!spec.alone()) {
      group.killLeftovers();
    }
    double wallS = (System.nanoTime() - t0) / 1e9;
    boolean drained = out.finish(drainMs) & err.finish(drainMs);
    if (!drained) {
      Log.LOG.warn("{} left a process outside its group holding its output open; output after {} s is discarded",
          spec.command().get(0), wallS);
    }
    for (OutputPump pump : List.of(out, err)) {
      if (pump.writeError() != null) {
        throw new IOException("cannot write the output of " + spec.command().get(0) + " to "
            + (pump == out ? spec.stdout() : spec.stderr()) + ": " + pump.writeError().getMessage(),
            pump.writeError());
      }
    }
    Integer exit = timedOut || cancelled ? null : p.exitValue();
    return new ProcessResult(exit, timedOut, cancelled, wallS, out.total(), err.total(), out.truncated(),
        err.truncated(), spec.stdout(), spec.stderr(), !drained);
  }

  /** Writes the text to the child's stdin on its own thread: a child that reads slowly must not block the runner. */
  private static void feed(Process p, String text) {
    OutputStream in = p.getOutputStream();
    Thread t = new Thread(() -> {
      try (in) {
        in.write(text.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // The child closed its input or died before reading it all; its exit status tells the rest.
      }
    }, "h2beam-proc-" + p.pid() + "-in");
    t.setDaemon(true);
    t.start();
  }

  /**
   * The absolute program for {@code name}: itself when it holds a {@code /} (taken from {@code workDir} when
   * relative), else the first executable on {@code pathEnv} (the child's own PATH, {@code /usr/bin:/bin} when it has
   * none, as {@code execvp} would do). Done here rather than by {@code setsid}, so a missing program is a
   * {@link StartException}, not an exit status 127.
   */
  static String resolve(String name, Path workDir, String pathEnv) throws StartException {
    if (name.contains("/")) {
      Path f = workDir.resolve(name);
      if (!Files.isRegularFile(f) || !Files.isExecutable(f)) {
        throw new StartException("cannot run " + name + ": no such executable file", null);
      }
      return f.toAbsolutePath().toString();
    }
    String path = pathEnv == null ? "/usr/bin:/bin" : pathEnv;
    Path found = onPath(path, name, workDir);
    if (found == null) throw new StartException("cannot run " + name + ": not found on PATH " + path, null);
    return found.toString();
  }

  /** The first executable file named {@code program} on {@code pathEnv}, or null (when {@code pathEnv} is null too). */
  public static Path onPath(String pathEnv, String program) {
    return pathEnv == null ? null : onPath(pathEnv, program, Path.of("").toAbsolutePath());
  }

  /** {@link #onPath(String, String)} with relative entries (an empty one is ".") taken from {@code workDir}. */
  private static Path onPath(String pathEnv, String program, Path workDir) {
    // one separator character, not a pattern: split without compiling one for every program started
    for (String dir : pathEnv.split(File.pathSeparator)) {
      Path f = workDir.resolve(dir.isEmpty() ? "." : dir).resolve(program);
      // java.io.File answers a missing file with false; Files throws and catches an exception for each PATH entry
      // before the program's, for every program started (half a percent of a sweep's CPU at L = 0)
      File file = f.toFile();
      if (file.isFile() && file.canExecute()) return f.toAbsolutePath().normalize();
    }
    return null;
  }
}
