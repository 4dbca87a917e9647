package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.adapters.files.DiskFull;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a harness script for real (validation rule 5): {@code .py} with {@code python3 -m py_compile}, {@code .sh}
 * with {@code sh -n} ({@code bash -n} when its shebang names bash). Each check runs on a private temporary copy through
 * the one process runner (stdin closed, base environment, a timeout that kills it), so a check can neither touch the
 * tree nor hang. A checker parses and starts nothing, so it runs {@linkplain ProcessSpec#alone alone}: without a
 * session of its own, one program fewer per check (a quarter of the programs a sweep starts are checks).
 */
final class ScriptCheck {
  static final Duration TIMEOUT = Duration.ofSeconds(20);
  /** A checker's report is a few lines; the cap only guards against a runaway program. */
  private static final long OUTPUT_CAP = 1L << 20;
  private static volatile ScriptCheck system;

  /**
   * Checks already made by this process: a harness keeps most of its scripts from one stage to the next, so the same
   * text was checked again before every rollout (73 checks for 84 rollouts in a 4-task synthetic sweep). The checkers
   * are deterministic (same program, text and name, same report), so a finished check is reused; one that could not
   * run or timed out is not. Keyed by the command, the name and a SHA-256 of the text; the most recent
   * {@value #REMEMBERED} kept.
   */
  private static final int REMEMBERED = 512;

  private static final Map<String, Result> DONE = new LinkedHashMap<>(64, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Result> eldest) {
      return size() > REMEMBERED;
    }
  };

  /** {@code python3} resolved on PATH, or null when it is not installed. */
  private final Path python3;
  private final Duration timeout;
  /** Where the private copies are made; null for the system's temporary folder. */
  private final Path scratch;

  ScriptCheck(Path python3, Duration timeout) {
    this(python3, timeout, null);
  }

  private ScriptCheck(Path python3, Duration timeout, Path scratch) {
    this.python3 = python3;
    this.timeout = timeout;
    this.scratch = scratch;
  }

  /** This checker making its copies in {@code scratch} (see {@link Scratch}); null for the system's temporary folder. */
  ScriptCheck in(Path scratch) {
    return new ScriptCheck(python3, timeout, scratch);
  }

  /** The checker for this process's PATH, resolved once. */
  static ScriptCheck system() {
    ScriptCheck s = system;
    if (s == null) {
      s = new ScriptCheck(ProcessRunner.onPath(System.getenv("PATH"), "python3"), TIMEOUT);
      system = s;
    }
    return s;
  }

  /** The problem with script {@code rel}, or null when it parses. */
  String problem(String rel, String text) {
    if (rel.endsWith(".sh")) return shellProblem(rel, text);
    if (rel.endsWith(".py")) return pythonProblem(rel, text);
    return null;
  }

  private String shellProblem(String rel, String text) {
    String shell = text.startsWith("#!") && firstLine(text).contains("bash") ? "bash" : "sh";
    Result r = run(rel, text, List.of(shell, "-n", rel));
    if (r.failure != null) return rel + " cannot be checked: " + shell + " " + r.failure;
    if (r.exit == 0) return null;
    String first = firstLine(r.output.strip());
    return rel + " does not parse: " + (first.isEmpty() ? shell + " -n exited with status " + r.exit : first);
  }

  private String pythonProblem(String rel, String text) {
    if (python3 == null) {
      return rel + " cannot be checked: python3 is not installed; install python3 or ship the script as "
          + rel.substring(0, rel.length() - ".py".length()) + ".sh";
    }
    Result r = run(rel, text, List.of(python3.toString(), "-m", "py_compile", rel));
    if (r.failure != null) return rel + " cannot be checked: python3 " + r.failure;
    if (r.exit == 0) return null;
    return rel + " does not compile: " + Py.head(compileDetail(r.output), 160);
  }

  private static final Pattern SORRY = Pattern.compile("^Sorry: (\\w+): (.*?)(?: \\(.*, line (\\d+)\\))?$");
  private static final Pattern ERROR_LINE = Pattern.compile("^(\\w+): (.*)$");
  private static final Pattern FILE_LINE = Pattern.compile("^\\s*File \".*\", line (\\d+)");

  /**
   * {@code <ErrorType>: <msg> (line <n>)} from py_compile's report, as Python's own {@code compile()} would describe
   * the error. py_compile prints a SyntaxError as a traceback excerpt and its subclasses as {@code Sorry: ...}.
   */
  static String compileDetail(String output) {
    List<String> lines = Py.splitlines(output.strip(), false);
    if (lines.isEmpty()) return "py_compile failed without a message";
    String last = lines.get(lines.size() - 1).strip();
    Matcher sorry = SORRY.matcher(last);
    if (sorry.matches()) {
      return sorry.group(1) + ": " + sorry.group(2) + (sorry.group(3) == null ? "" : " (line " + sorry.group(3) + ")");
    }
    String lineNo = null;
    for (String l : lines) {
      Matcher f = FILE_LINE.matcher(l);
      if (f.find()) {
        lineNo = f.group(1);
        break;
      }
    }
    Matcher e = ERROR_LINE.matcher(last);
    if (!e.matches()) return last;
    return e.group(1) + ": " + e.group(2) + (lineNo == null ? "" : " (line " + lineNo + ")");
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /** A finished check: the exit status and combined output, or why it could not run. */
  private record Result(int exit, String output, String failure) {}

  /**
   * Runs {@code command} through {@link ProcessRunner} in a fresh scratch folder holding {@code text} at
   * {@code rel}, with the base environment only; the output is standard output then standard error (where both
   * checkers report).
   */
  private Result run(String rel, String text, List<String> command) {
    String key = String.join("\0", command) + "\0"
        + Hashes.hex(Hashes.digest("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    synchronized (DONE) {
      Result known = DONE.get(key);
      if (known != null) return known;
    }
    Result r = check(rel, text, command);
    if (r.failure == null) {
      synchronized (DONE) {
        DONE.put(key, r);
      }
    }
    return r;
  }

  /** How many checker programs this process has started (tests see the reuse by it). */
  static final java.util.concurrent.atomic.AtomicLong STARTED = new java.util.concurrent.atomic.AtomicLong();

  private Result check(String rel, String text, List<String> command) {
    STARTED.incrementAndGet();
    Path dir = null;
    try {
      dir = Scratch.newDir(scratch, "h2beam-script-check-");
      Path copy = dir.resolve(rel);
      Files.createDirectories(copy.getParent());
      Files.writeString(copy, text, StandardCharsets.UTF_8);
      ProcessSpec spec = ProcessSpec.of(command, dir,
          Env.child(System.getenv(), List.of(), Map.of("PYTHONIOENCODING", "utf-8")), dir.resolve(".check-stdout"),
          dir.resolve(".check-stderr"), timeout).withCapBytes(OUTPUT_CAP).runAlone();
      ProcessResult r;
      try {
        r = ProcessRunner.run(spec);
      } catch (ProcessRunner.StartException e) {
        // out of file handles is this process's state, not a missing interpreter
        return new Result(-1, "", String.valueOf(e.getMessage()).contains(DiskFull.TOO_MANY_FILES)
            ? "could not be started: this process ran out of file handles (" + e.getMessage() + "); raise the limit"
            + " (ulimit -n, 4096 or more) and run the command again"
            : "is not installed or could not be started (" + e.getMessage() + ")");
      }
      if (r.timedOut()) return new Result(-1, "", "did not finish within " + timeout.toSeconds() + " s");
      if (r.outputCut()) return new Result(-1, "", "exited with " + r.exit() + ", but " + r.cutReason());
      String out = r.stdoutText();
      String err = r.stderrText();
      return new Result(r.exit(), out.isEmpty() ? err : out + "\n" + err, null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check " + rel + " in a temporary directory", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking " + rel, e);
    } finally {
      if (dir != null) Scratch.delete(dir);
    }
  }
}
