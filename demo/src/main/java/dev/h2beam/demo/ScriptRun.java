package dev.h2beam.demo;

import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * One run of a harness script as a real subprocess through {@link ProcessRunner}: {@code sh <script> <args>} in a
 * working folder, stdin closed, the base environment only ({@link Env#BASE}: a rollout sees no key), stdout and stderr
 * captured in files there, and its whole process group killed when it outlives the timeout.
 */
final class ScriptRun {
  private ScriptRun() {}

  private static final int STDERR_TAIL = 300;

  /** The most an answer may be; the demo's answers are one line, so more means the script ran away. */
  private static final long STDOUT_CAP = 4L << 20;

  /**
   * Runs the script and returns its stdout.
   *
   * @throws TimeoutException the script outlived {@code timeout}; it and everything it started are dead on return
   * @throws IOException the script exited non-zero (the message carries the command, its status and its stderr
   *     tail), printed more than {@link #STDOUT_CAP} bytes, or could not start
   */
  static byte[] run(Path workDir, Path script, List<String> args, Duration timeout)
      throws IOException, InterruptedException, TimeoutException {
    Path out = workDir.resolve(".script.stdout");
    Path err = workDir.resolve(".script.stderr");
    List<String> command = new ArrayList<>(List.of("sh", script.toString()));
    command.addAll(args);
    try {
      ProcessResult r = ProcessRunner.run(ProcessSpec.of(command, workDir, Env.base(System.getenv()), out, err,
          timeout).withCapBytes(STDOUT_CAP));
      if (r.timedOut()) {
        throw new TimeoutException(script.getFileName() + " did not finish within " + timeout.toMillis()
            + " ms and was killed; the rollout stays unmarked, so the next request runs it again");
      }
      if (!r.succeeded()) {
        String tail = r.stderrTail(STDERR_TAIL);
        throw new IOException("sh " + script + " exited with " + r.exit() + ": "
            + (tail.isEmpty() ? "(no stderr)" : tail));
      }
      if (r.outputCut()) {
        throw new IOException("sh " + script + " exited with " + r.exit() + ", but " + r.cutReason()
            + "; the rollout stays unmarked, so the next request runs it again");
      }
      if (r.stdoutTruncated()) {
        throw new IOException("sh " + script + " printed " + r.stdoutBytes() + " bytes, more than the "
            + STDOUT_CAP + " an answer may hold; it should print the one answer line only");
      }
      return Files.readAllBytes(out);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
