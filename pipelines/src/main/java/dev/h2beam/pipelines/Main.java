package dev.h2beam.pipelines;

import dev.h2beam.adapters.files.Causes;
import dev.h2beam.adapters.files.DiskFull;
import dev.h2beam.adapters.files.Refusals;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.adapters.plugin.Registry;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.options.Description;

/**
 * The {@code h2beam} entry point: {@code h2beam SUB --name=value ...}. Exit codes: 0 success, 1 bad options or a
 * failed run, 2 finished with failures to look at (a failed task, an ungraded row).
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // every line printed from here on, by h2beam or a library it runs, goes without the keys h2beam holds
    System.setOut(KeyFreeStream.of(System.out));
    System.setErr(KeyFreeStream.of(System.err));
    Registry.atStart();
    StopRequest.listen(System.err);
    ExitGuard.install(args.length == 0 ? "h2beam" : "h2beam " + args[0], System.err);
    if (args.length > 0) HeapWatch.start(args[0], System.err);
    int code;
    try {
      code = run(args, System.out, System.err);
    } catch (OutOfMemoryError e) {
      // thrown on the main thread (a class loaded, a file read): what it held is free again once it is here
      System.err.println("error: " + (args.length == 0 ? "h2beam" : args[0]) + ": " + HeapWatch.hint(e));
      code = 1;
    } finally {
      ExitGuard.returned();
    }
    System.exit(code);
  }

  public static TreeMap<String, Command> commands() {
    return Registry.byName(Command.class, Command::name);
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    out = KeyFreeStream.of(out);
    err = KeyFreeStream.of(err);
    TreeMap<String, Command> all = commands();
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      out.println("h2beam: Harness² experiments as Apache Beam pipelines.");
      out.println();
      out.println("usage: h2beam SUBCOMMAND [--name=value ...]    (h2beam SUBCOMMAND --help for its options)");
      out.println();
      for (Command c : all.values()) out.printf("  %-8s %s%n", c.name(), c.summary());
      return args.length == 0 ? 1 : 0;
    }
    Command c = all.get(args[0]);
    if (c == null) {
      String near = OptionArgs.nearest(args[0], all.keySet());
      err.println("error: unknown subcommand '" + args[0] + "'" + (near == null ? "" : "; did you mean " + near + "?")
          + "; use one of " + all.keySet());
      return 1;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) {
      printHelp(c, out);
      return 0;
    }
    try {
      requireFlinkIfAsked(rest);
      try {
        return c.run(directDefaults(rest));
      } finally {
        // nothing a command handed over for removal stays behind it (the chains wait for theirs already)
        Scratch.awaitDeletions();
      }
    } catch (UsageError | IllegalArgumentException e) {
      // a message-less exception would print "error: null"; its type is what there is to say; an error the JVM threw
      // twice when out of memory is added to itself ("Self-suppression not permitted", the error its cause)
      err.println("error: " + (HeapWatch.outOfMemory(e) ? c.name() + ": " + HeapWatch.hint(e)
          : e.getMessage() == null ? e.getClass().getSimpleName() + " (no message)" : e.getMessage() + unencodable(e)));
      return 1;
    } catch (Exception e) {
      return failed(c.name(), e, err);
    }
  }

  /**
   * What to do about a path this JVM cannot encode: under a POSIX or other non-UTF-8 locale the JVM encodes file names
   * in ASCII, so a folder named in any other script fails with "Malformed input or input contains unmappable
   * characters" and nothing else (dogX F8). Empty for any other failure.
   */
  static String unencodable(Throwable e) {
    if (!(e instanceof java.nio.file.InvalidPathException) || e.getMessage() == null
        || !e.getMessage().contains("unmappable characters")) {
      return "";
    }
    String encoding = System.getProperty("sun.jnu.encoding", "?");
    String locale = System.getenv().getOrDefault("LC_ALL", System.getenv().getOrDefault("LANG", ""));
    return " (this JVM encodes file names as " + encoding + ", from the locale" + (locale.isEmpty() ? "" : " " + locale)
        + ", which cannot hold this path's characters: run h2beam under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)";
  }

  /** Says on {@code err} why command {@code name} ended with {@code e}; returns the exit code, 1. */
  static int failed(String name, Exception e, PrintStream err) {
    // the stop was said as it came: the work it cancelled is no failure, and the exit keeps the signal's code
    if (StopRequest.requested()) return 1;
    // the exit that follows must not call a job whose submission failed running (dogAC F6)
    if (notSubmitted(e)) WriterLock.submissionFailed();
    // a full disk is no bug: one line naming the file, no trace (the user frees space and runs the command again);
    // a worker's refusal names the state it quotes ("Read-only file system") and which worker saw it itself
    java.util.Optional<String> full = refusedByWorker(e) ? java.util.Optional.empty() : DiskFull.line(e);
    if (full.isPresent()) {
      err.println("error: " + name + " " + full.get());
      return 1;
    }
    // a permission refused is no bug either: a teammate's files kept to them (umask 077) failed a resume with a
    // trace naming only the leaf (dogAB 4)
    java.util.Optional<String> denied = denied(e);
    if (denied.isPresent()) {
      err.println("error: " + name + ": " + denied.get());
      return 1;
    }
    // the trace for a report, then the line a user reads. A failure through Flink's client comes wrapped in the
    // runner's and the cluster's exceptions, 47 to 124 lines above its line (dogAC F9): its trace goes to a file the
    // line names, kept for a bug's report; a trace that cannot be written there is printed
    java.util.Optional<java.nio.file.Path> traced = fromFlink(e) ? traceFile(name, e) : java.util.Optional.empty();
    if (traced.isEmpty()) e.printStackTrace(err);
    err.println("error: " + name + " failed: " + innermost(e) + traced.map(f -> " (its Java trace: " + f + ")")
        .orElse(""));
    flinkAdvice(e).ifPresent(advice -> err.println("error: " + name + ": " + advice));
    // a runner's thread that ran out of memory ends the pipeline with no cause of its own ("ended RUNNING")
    String heap = HeapWatch.hint(e);
    if (!heap.isEmpty()) err.println("error: " + name + ": " + heap);
    return 1;
  }

  /**
   * The line for a failure whose cause is the system refusing this user a file (EACCES, EPERM): the file, whose it
   * is, and what to do; empty for any other failure.
   */
  static java.util.Optional<String> denied(Throwable e) {
    return Causes.find(e, java.nio.file.FileSystemException.class, f -> f.getFile() != null && Refusals.refused(f))
        .map(Main::deniedLine);
  }

  private static String deniedLine(java.nio.file.FileSystemException f) {
    java.nio.file.Path file = java.nio.file.Path.of(f.getFile()).toAbsolutePath();
    String owner = Refusals.owner(file, "");
    owner = owner.isEmpty() ? "" : ", " + owner + "'s";
    return "this user may not use " + file + owner + " ("
        + (f.getReason() == null ? "permission denied" : f.getReason()) + "): a teammate's files kept to them"
        + " (umask 077)? Its owner can open it to the group (chmod -R g+rwX), or run the command as a user who may"
        + " (README, \"A runs root shared by a team\"); finished work is kept: re-run the same command then";
  }

  /**
   * What to do after a Flink job ended by its cluster rather than by h2beam: its submission failed, the restart
   * strategy's last restart spent (lost TaskManagers), or the JobManager gone. The runner's trace said none of these,
   * nor that finished work is kept (dogAC F3, F4, F6). Empty for any other failure.
   */
  static java.util.Optional<String> flinkAdvice(Throwable e) {
    String kept = "re-run the same command to resume: finished work is kept, and the re-run takes over the job's"
        + " locks once the cluster says the job is not running";
    if (notSubmitted(e)) {
      return java.util.Optional.of("the submission of the Flink job failed: the cluster refused it or stopped"
          + " answering while this client sent it; once the cluster is up, " + kept);
    }
    boolean restartsSpent = Causes.any(e, t -> String.valueOf(t.getMessage()).contains("Recovery is suppressed by"));
    boolean unreachable = Causes.any(e, t -> t instanceof java.net.ConnectException || t.getClass().getSimpleName()
        .equals("RecipientUnreachableException"));
    if (restartsSpent) {
      return java.util.Optional.of("the Flink job failed after the last restart its restart strategy allows (workers"
          + " lost, or a task failing again and again: see the JobManager's log); once the cluster's TaskManagers"
          + " are up, " + kept);
    }
    if (unreachable && fromFlink(e)) {
      return java.util.Optional.of("the Flink cluster stopped answering (its JobManager lost, or a TaskManager it"
          + " could not reach); restart the cluster (scripts/flink-cluster.sh stop, then start; README \"Running on"
          + " Flink\") and " + kept);
    }
    return java.util.Optional.empty();
  }

  /** Whether {@code e} came through Flink: a class, a message or a frame of its chain is Flink's. */
  static boolean fromFlink(Throwable e) {
    return Causes.any(e, t -> t.getClass().getName().startsWith("org.apache.flink.")
        || String.valueOf(t.getMessage()).contains("org.apache.flink.")
        || Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("org.apache.flink.")));
  }

  /**
   * Writes {@code e}'s trace, without the keys h2beam holds, to a new file of this user's in the temporary folder and
   * returns it; empty when it cannot be written.
   */
  static java.util.Optional<java.nio.file.Path> traceFile(String name, Throwable e) {
    java.io.StringWriter trace = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(trace));
    try {
      java.nio.file.Path f = java.nio.file.Files.createTempFile("h2beam-" + name + "-", ".trace");
      java.nio.file.Files.writeString(f, dev.h2beam.adapters.config.KeyFree.text(trace.toString()));
      return java.util.Optional.of(f);
    } catch (java.io.IOException cannot) {
      return java.util.Optional.empty();
    }
  }

  /**
   * Whether {@code e} is a worker's refusal on Flink: h2beam throws those, and only those, inside Flink's {@code
   * SuppressRestartsException} ({@code WorkerRefusal}), with a message that says what to fix.
   */
  static boolean refusedByWorker(Throwable e) {
    return inChain(e, "org.apache.flink.runtime.execution.SuppressRestartsException");
  }

  /** Whether a throwable of class {@code name} (named, not loaded) is in {@code e}'s chain. */
  private static boolean inChain(Throwable e, String name) {
    return Causes.any(e, t -> t.getClass().getName().equals(name));
  }

  /**
   * Whether {@code e} is Flink's client giving up on sending a job to the JobManager (its {@code
   * JobSubmissionException}, named, not loaded: this class runs on the DirectRunner's classpath too).
   */
  static boolean notSubmitted(Throwable e) {
    return inChain(e, "org.apache.flink.runtime.client.JobSubmissionException");
  }

  /** The innermost cause of a failure: by its message alone where h2beam threw it, else as the JVM names it. */
  static String innermost(Throwable e) {
    Throwable t = Causes.innermost(e);
    StackTraceElement[] at = t.getStackTrace();
    boolean ours = t.getMessage() != null && at.length > 0 && at[0].getClassName().startsWith("dev.h2beam.");
    return ours ? t.getMessage() : t.toString();
  }

  /**
   * Refuses, before any option is read, a command line that asks for Flink on a classpath without Flink's runner:
   * the launcher leaves Flink's jars out unless an argument names Flink, so only a hand-made classpath gets here.
   */
  static void requireFlinkIfAsked(String[] args) {
    boolean asked = Arrays.stream(args).anyMatch(a -> a.startsWith("--runner=")
        && a.substring("--runner=".length()).toLowerCase(java.util.Locale.ROOT).contains("flink"));
    if (!asked) return;
    try {
      Class.forName("org.apache.beam.runners.flink.FlinkRunner", false, Main.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new UsageError("--runner=FlinkRunner needs Flink's runner on the classpath: run through ./h2beam, which"
          + " adds Flink's jars when an argument names Flink, or add beam-runners-flink-1.19 and its dependencies"
          + " to -cp");
    }
  }

  /**
   * Runner defaults for the command line, each unless asked otherwise: on the DirectRunner its immutability and
   * encodability checks are off (they re-encode every element to catch DoFns that mutate their input; none of ours
   * do, and the tests keep the checks on; they halve the judge's throughput); on Flink, {@code --fasterCopy}.
   */
  static String[] directDefaults(String[] args) {
    java.util.List<String> out = new java.util.ArrayList<>(Arrays.asList(args));
    boolean direct = out.stream().noneMatch(a -> a.startsWith("--runner=") && !a.equals("--runner=DirectRunner"));
    boolean flink = out.contains("--runner=FlinkRunner");
    if (direct) {
      if (out.stream().noneMatch(a -> a.startsWith("--enforceImmutability"))) out.add("--enforceImmutability=false");
      if (out.stream().noneMatch(a -> a.startsWith("--enforceEncodability"))) out.add("--enforceEncodability=false");
    }
    // no DoFn of ours mutates its input, so Flink may hand elements between chained operators without copying
    if (flink && out.stream().noneMatch(a -> a.startsWith("--fasterCopy"))) out.add("--fasterCopy=true");
    return out.toArray(new String[0]);
  }

  /** Lists every described option of the command's options interface with its default. */
  static void printHelp(Command c, PrintStream out) {
    out.println("h2beam " + c.name() + ": " + c.summary());
    out.println();
    TreeMap<String, String[]> opts = new TreeMap<>();
    for (Method m : c.options().getMethods()) {
      Description d = m.getAnnotation(Description.class);
      if (d == null || !(m.getName().startsWith("get") || m.getName().startsWith("is"))) continue;
      if (!m.getDeclaringClass().getName().startsWith("dev.h2beam")) continue;
      String name = m.getName().startsWith("get") ? m.getName().substring(3) : m.getName().substring(2);
      name = Character.toLowerCase(name.charAt(0)) + name.substring(1);
      if (c.hiddenOptions().contains(name)) continue;
      opts.put(name, new String[] {defaultOf(m, c.defaults().get(name)), c.descriptions().getOrDefault(name,
          d.value())});
    }
    for (Map.Entry<String, String[]> e : opts.entrySet()) {
      out.printf("  --%s%s%n      %s%n", e.getKey(), e.getValue()[0].isEmpty() ? "" : "  (default " + e.getValue()[0]
          + ")", e.getValue()[1]);
    }
    if (c.runsPipelines()) runnerHelp(out);
    out.println();
    out.println("exit codes: 0 done; 1 refused or failed (the error line says why); " + (c.exitCodes().isEmpty() ? ""
        : c.exitCodes() + "; ") + "130, 143 stopped by Ctrl-C or SIGTERM (README, \"Exit codes\")");
  }

  private static void runnerHelp(PrintStream out) {
    out.println();
    out.println("  --runner  (default DirectRunner)");
    out.println("      DirectRunner on this machine, or FlinkRunner with --flinkMaster=[local] or host:port.");
    out.println("  --flinkMaster, --parallelism, --filesToStage  (FlinkRunner only)");
    out.println("      The JobManager (host:port, or [local] for Flink in this process), the job's parallelism,");
    out.println("      and the cluster jar to stage (demo/target/h2beam-demo-<version>-cluster.jar);");
    out.println("      README, \"Running on Flink\".");
    out.println("  --targetParallelism  (DirectRunner)");
    out.println("      How many DoFn calls the DirectRunner runs at once; written files are the same for any value.");
  }

  private static String defaultOf(Method m, String override) {
    if (override != null) return override;
    Object declared = LazyOptions.declaredDefault(m);
    return declared == null ? "" : String.valueOf(declared);
  }
}
