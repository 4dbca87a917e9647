package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.files.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a user's scoring command ({@code sh -c <command>}) in the run dir, for benchmarks whose graders are external
 * programs. It reads {@code {"n_passed": .., "n_criteria": ..}} (and anything else, kept as raw) from the command's
 * standard output; the task id and run dir are in {@code H2BEAM_TASK} and {@code H2BEAM_RUN_DIR}. A non-zero exit or
 * output that is not a JSON object is an error; empty output is "nothing"; the timeout kills the command.
 */
public final class CommandGrader implements Grader {
  private final String command;
  private final Duration timeout;

  public CommandGrader(String command, Duration timeout) {
    if (command == null || command.isBlank()) {
      throw new IllegalArgumentException("--grader=command needs --graderCommand='<command printing a score JSON>'");
    }
    this.command = command;
    this.timeout = timeout;
  }

  @Override public String identity() {
    return "command:" + command;
  }

  @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("sh", "-c", command).directory(runDir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().put("H2BEAM_TASK", task);
    pb.environment().put("H2BEAM_RUN_DIR", runDir.toString());
    Process p = pb.start();
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Thread o = drain(p.getInputStream(), out);
      Thread e = drain(p.getErrorStream(), err);
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new TimeoutException("grader command timed out after " + timeout.toSeconds() + "s");
      }
      o.join();
      e.join();
      String stdout = out.toString(StandardCharsets.UTF_8).strip();
      if (p.exitValue() != 0) {
        String tail = err.toString(StandardCharsets.UTF_8).strip();
        tail = tail.length() > 300 ? tail.substring(tail.length() - 300) : tail;
        throw new IOException("grader command exited " + p.exitValue() + ": " + tail);
      }
      if (stdout.isEmpty()) return Optional.empty();
      try {
        return Optional.of(Json.readMap(stdout));
      } catch (IOException ex) {
        throw new IOException("grader command printed malformed output (want one JSON object): "
            + (stdout.length() > 120 ? stdout.substring(0, 120) + "…" : stdout));
      }
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private static Thread drain(InputStream in, ByteArrayOutputStream to) {
    Thread t = new Thread(() -> {
      try (in) {
        in.transferTo(to);
      } catch (IOException ignored) {
        // the process was killed
      }
    }, "h2beam-grader-io");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** {@code --grader=command}. */
  public static final class Provider implements GraderProvider {
    @Override public String name() {
      return "command";
    }

    @Override public Grader open(Path namespaceDir, Map<String, String> settings) {
      return new CommandGrader(settings.get("command"),
          Duration.ofSeconds(Long.parseLong(settings.getOrDefault("timeoutSeconds", "1800"))));
    }
  }
}
