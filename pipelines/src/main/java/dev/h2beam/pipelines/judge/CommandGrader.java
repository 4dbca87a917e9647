package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Scratch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Runs a user's scoring command ({@code sh -c <command>}) in the run dir, for benchmarks whose graders are external
 * programs: {@code --graderCommand}, or the command a folder benchmark's bench.json declares. It reads {@code
 * {"n_passed": .., "n_criteria": ..}} (and anything else, kept as raw) from the command's standard output; the task id
 * and run dir are in {@code H2BEAM_TASK} and {@code H2BEAM_RUN_DIR}. A non-zero exit or output that is not a JSON
 * object is an error; empty output is "nothing"; the timeout (or the judge cancelling the call) kills the command's
 * whole process group.
 *
 * <p>Environment: the command <em>inherits the judge's whole environment</em>, plus the two variables above. Unlike
 * an executor's agent, the grader is the user's own trusted program on the judge side, which may need its own keys
 * and settings (an LLM judge's key, a virtualenv); an allow-list would break such graders for no protection.
 */
public final class CommandGrader implements Grader {
  private static final int STDERR_TAIL = 300;
  private static final String NO_COMMAND = "the command grader has no command";
  private static final String FLAG = "--graderCommand='<command printing a score JSON>'";
  private static final String DECLARED = "\"grader\": {\"kind\": \"command\", \"command\": \"...\"}";

  /**
   * Why {@code benchJson}, a folder benchmark's file whose grader is {@code command}, cannot be judged as it stands:
   * its {@code grader.command} is missing, blank or not text. Empty when it has a command. Both ways to give one, as
   * the judge names them when it finds none.
   */
  public static Optional<String> missingCommand(Path benchJson, Object declared) {
    if (declared instanceof String c && !c.isBlank()) return Optional.empty();
    return Optional.of(benchJson.toAbsolutePath() + ": grader.command: " + NO_COMMAND + ": declare it there as "
        + DECLARED + ", or give h2beam judge " + FLAG);
  }

  private final String command;
  private final Duration timeout;
  private final Path scratch;

  public CommandGrader(String command, Duration timeout) {
    this(command, timeout, null);
  }

  /** @param scratch where the grader's output files go (the namespace's {@link Scratch} folder), or null for /tmp */
  CommandGrader(String command, Duration timeout, Path scratch) {
    if (command == null || command.isBlank()) {
      throw new IllegalArgumentException(NO_COMMAND + ": give " + FLAG + ", or declare it in the folder benchmark's"
          + " bench.json as " + DECLARED);
    }
    dev.h2beam.adapters.config.KeyFree.refuseIn("the grader's command (--graderCommand or bench.json's"
        + " grader.command)", command);
    this.command = command;
    this.timeout = timeout;
    this.scratch = scratch;
  }

  @Override public String identity() {
    // (a key held only after this grader was made is kept out of the records all the same)
    return dev.h2beam.adapters.config.KeyFree.text("command:" + command);
  }

  @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws Exception {
    // The output files live outside the run dir: a grader must not add files to the evidence it grades.
    Path io = Scratch.newDir(scratch, "h2beam-grader-");
    try {
      Map<String, String> env = Env.inherited(System.getenv(),
          Map.of("H2BEAM_TASK", task, "H2BEAM_RUN_DIR", runDir.toString()));
      ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of("sh", "-c", command), runDir, env,
          io.resolve("stdout"), io.resolve("stderr"), timeout));
      if (r.timedOut()) {
        throw new TimeoutException("grader command timed out after " + timeout.toSeconds()
            + "s; its process group was killed");
      }
      if (!r.succeeded()) {
        throw new IOException("grader command exited " + r.exit() + ": " + r.stderrTail(STDERR_TAIL));
      }
      if (r.outputCut()) throw new IOException("grader command exited " + r.exit() + ", but " + r.cutReason());
      if (r.stdoutTruncated()) {
        throw new IOException("grader command printed " + r.stdoutBytes() + " bytes, more than the "
            + ProcessSpec.DEFAULT_CAP_BYTES + " a score may hold (want one JSON object)");
      }
      String stdout = r.stdoutText();
      if (stdout.isEmpty()) return Optional.empty();
      try {
        return Optional.of(Json.readMap(stdout));
      } catch (IOException ex) {
        throw new IOException("grader command printed malformed output (want one JSON object): "
            + (stdout.length() > 120 ? stdout.substring(0, 120) + "…" : stdout));
      }
    } finally {
      Scratch.delete(io);
    }
  }

  /** {@code --grader=command}. */
  public static final class Provider implements GraderProvider {
    @Override public String name() {
      return "command";
    }

    @Override public Grader open(Path namespaceDir, Map<String, String> settings) throws IOException {
      return new CommandGrader(command(namespaceDir, settings), Duration.ofSeconds(Long.parseLong(
          settings.getOrDefault("timeoutSeconds", "1800"))), Scratch.of(namespaceDir));
    }

    /**
     * The command to run: {@code --graderCommand}, which overrides; else the one the namespace's folder benchmark
     * declares in bench.json ({@code "grader": {"kind": "command", "command": ...}}), so that the judge the sweep
     * prints runs as it is; else null (the grader names both).
     */
    static String command(Path namespaceDir, Map<String, String> settings) throws IOException {
      String flag = settings.get("command");
      if (flag != null && !flag.isBlank()) return flag;
      Optional<Path> root = GraderProvider.benchRoot(namespaceDir, settings);
      if (root.isEmpty() || !Files.isRegularFile(root.get().resolve("bench.json"))) return null;
      JsonNode grader = FolderGrading.of(namespaceDir, settings).grader();
      return "command".equals(grader.path("kind").asText()) && grader.path("command").isTextual()
          ? grader.get("command").asText() : null;
    }
  }
}
