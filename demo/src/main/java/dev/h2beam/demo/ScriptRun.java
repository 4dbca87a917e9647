package dev.h2beam.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One run of a harness script as a real subprocess: {@code sh <script> <args>} in a working folder, stdin closed,
 * stdout and stderr captured in files there (no pipes that a chatty script could fill), killed with its descendants
 * when it outlives the timeout.
 */
final class ScriptRun {
  private ScriptRun() {}

  private static final int STDERR_TAIL = 300;

  /**
   * Runs the script and returns its stdout.
   *
   * @throws TimeoutException the script outlived {@code timeout}; it and its descendants are dead on return
   * @throws IOException the script exited non-zero (the message carries its stderr tail) or could not start
   */
  static byte[] run(Path workDir, Path script, List<String> args, Duration timeout)
      throws IOException, InterruptedException, TimeoutException {
    Path out = workDir.resolve(".script.stdout");
    Path err = workDir.resolve(".script.stderr");
    List<String> command = new ArrayList<>(List.of("sh", script.toString()));
    command.addAll(args);
    Process p = new ProcessBuilder(command)
        .directory(workDir.toFile())
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
    try {
      p.getOutputStream().close();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(p);
        p.waitFor(); // return only once the script is really gone
        throw new TimeoutException(script.getFileName() + " did not finish within " + timeout.toMillis()
            + " ms and was killed; the rollout stays unmarked, so the next request runs it again");
      }
      if (p.exitValue() != 0) {
        throw new IOException("sh " + script + " exited with " + p.exitValue() + ": " + tail(err));
      }
      return Files.readAllBytes(out);
    } finally {
      if (p.isAlive()) kill(p); // interrupted while waiting: never leave the script running
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Kills the script and everything it started (descendants first, while they are still its children). */
  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  private static String tail(Path err) throws IOException {
    String text = new String(Files.readAllBytes(err), StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) return "(no stderr)";
    return text.length() <= STDERR_TAIL ? text : "…" + text.substring(text.length() - STDERR_TAIL);
  }
}
