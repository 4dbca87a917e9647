package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.exec.Env;
import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.adapters.exec.Shell;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.jobbench.JobBenchLayout;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --grader=jobbench}: JobBench's own judging (spec §12.3) around the dataset's judge, which the user brings as
 * a shell command ({@code judgeCommand}). For one chosen run:
 *
 * <ol>
 *   <li>complete judge details cached for it are served; details recording a failed judge are quarantined (renamed
 *       {@code *.judge_failed}) and partial ones are left for the judge to resume, neither read as a score;
 *   <li>a run that delivered nothing is a real zero on the rubric weights ({@code no_output: true});
 *   <li>otherwise the judge command runs, with {@code {run_dir}}, {@code {task_folder}}, {@code {rubrics}},
 *       {@code {details}} and {@code {label}} replaced by single-quoted values (also in {@code H2BEAM_RUN_DIR},
 *       {@code H2BEAM_TASK_FOLDER}, {@code H2BEAM_RUBRICS}, {@code H2BEAM_DETAILS}, {@code H2BEAM_LABEL}, with the
 *       task id in {@code H2BEAM_TASK}). It writes its report to {@code {details}} (the dataset's
 *       {@code eval/judge.py --details-file}) or prints it as one JSON object, which is then cached there.
 * </ol>
 *
 * <p>Any failure of the judge (a non-zero exit, a timeout, no report, a report of a failed or unfinished judge) makes
 * the row ungraded with its reason, never a zero. So does a run whose work products changed since their rollout. The
 * command runs in the judge's own folder ({@code eval_result/eval_<label>/}, which no model ever sees), keeps its
 * output there, and inherits the judge's environment (its key, its interpreter), as {@link CommandGrader} does.
 */
final class JobBenchGrader implements Grader {
  private static final Logger LOG = LoggerFactory.getLogger(JobBenchGrader.class);
  private static final int STDERR_TAIL = 300;

  private final Path root;
  private final String command;
  private final Duration timeout;
  /** Names this judge's files, so details of another judge command are never served as this one's. */
  private final String key;

  JobBenchGrader(Path root, String command, Duration timeout) {
    this.root = root;
    this.command = command;
    this.timeout = timeout;
    this.key = "h2beam-" + Hashes.sha1Hex(command).substring(0, 12);
  }

  @Override public String identity() {
    return "jobbench:" + command;
  }

  /** No: the judge's complete reports are kept and served already ({@link #detailsFile}). */
  @Override public boolean keepsGrades() {
    return false;
  }

  /** Where this judge's report of a run is cached. */
  Path detailsFile(Path runDir) {
    return JobBenchLayout.judgeDirOf(runDir).resolve(key + "_judge.json");
  }

  @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws Exception {
    if (Runmark.readMark(JobBenchLayout.trajectoryOf(runDir)) != null && !JobBenchLayout.intact(runDir)) {
      throw new IOException(runDir + ": its work products no longer match the digests its completion marker"
          + " recorded; resume the sweep to roll it again rather than judge changed files");
    }
    Path details = detailsFile(runDir);
    Optional<JsonNode> cached = usable(details);
    if (cached.isPresent()) return JobBenchDetails.parse(cached.get());
    if (!JobBenchLayout.delivered(runDir)) {
      return Optional.of(JobBenchDetails.noOutput(JobBenchLayout.rubrics(root, task)));
    }
    runJudge(runDir, task, details);
    JsonNode got = usable(details).orElseThrow(() -> new IOException("the judge command's report " + details
        + " records a failed or unfinished judge (kept as " + details.getFileName() + ".judge_failed when failed);"
        + " judge again to resume it"));
    return JobBenchDetails.parse(got);
  }

  /** Runs the judge command; returns once {@code details} holds its report, throws on any failure. */
  private void runJudge(Path runDir, String task, Path details) throws IOException, InterruptedException,
      TimeoutException {
    Path dir = details.getParent();
    Files.createDirectories(dir);
    Path taskFolder = JobBenchLayout.taskFolder(root, task);
    Path rubrics = JobBenchLayout.rubrics(root, task);
    String label = runDir.getFileName().toString();
    Map<String, String> values = Map.of("run_dir", runDir.toString(), "task_folder", taskFolder.toString(),
        "rubrics", rubrics.toString(), "details", details.toString(), "label", label);
    String cmd = Shell.substitute(command, values);
    // a partial report may already be there for the judge to resume: only a report this run wrote or changed counts
    byte[] before = Files.isRegularFile(details) ? Files.readAllBytes(details) : null;
    Map<String, String> env = Env.inherited(System.getenv(), Map.of("H2BEAM_TASK", task,
        "H2BEAM_RUN_DIR", runDir.toString(), "H2BEAM_TASK_FOLDER", taskFolder.toString(),
        "H2BEAM_RUBRICS", rubrics.toString(), "H2BEAM_DETAILS", details.toString(), "H2BEAM_LABEL", label));
    ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of("sh", "-c", cmd), dir, env,
        dir.resolve(key + ".stdout.txt"), dir.resolve(key + ".stderr.txt"), timeout));
    if (r.timedOut()) {
      throw new TimeoutException("the judge command timed out after " + timeout.toSeconds()
          + " s; its process group was killed");
    }
    if (!r.succeeded()) {
      throw new IOException("the judge command exited " + r.exit() + ": " + r.stderrTail(STDERR_TAIL));
    }
    if (r.outputCut()) throw new IOException("the judge command exited " + r.exit() + ", but " + r.cutReason());
    if (Files.isRegularFile(details) && !Arrays.equals(before, Files.readAllBytes(details))) return;
    String stdout = r.stdoutText().strip();
    Map<String, Object> printed;
    try {
      printed = stdout.isEmpty() || r.stdoutTruncated() ? null : Json.readMap(stdout);
    } catch (IOException e) {
      printed = null;
    }
    if (printed == null) {
      throw new IOException("the judge command wrote no new report to " + details + " and printed no JSON object"
          + " (its output is in " + r.stdout() + ")");
    }
    AtomicFiles.writeString(details, Json.pretty(printed) + "\n");
  }

  /**
   * The cached report when it is complete and not a failed judge's; a failed one is quarantined, a partial one left
   * for the judge to resume, an unreadable one left as it is.
   */
  static Optional<JsonNode> usable(Path details) {
    if (!Files.isRegularFile(details)) return Optional.empty();
    JsonNode d;
    try {
      d = Json.readTree(details);
    } catch (IOException e) {
      LOG.warn("judge details {} are unreadable ({}); not served", details, e.getMessage());
      return Optional.empty();
    }
    if (d == null || !d.isObject()) return Optional.empty();
    if (JobBenchDetails.judgeFailed(d)) {
      Path q = details.resolveSibling(details.getFileName() + ".judge_failed");
      try {
        try {
          Files.move(details, q, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(details, q, StandardCopyOption.REPLACE_EXISTING);
        }
      } catch (IOException e) {
        LOG.warn("could not quarantine the failed judge's details {}: {}", details, e.getMessage());
      }
      return Optional.empty();
    }
    if (JobBenchDetails.partial(d)) {
      LOG.info("partial judge details ({} of {} rubrics) at {}; not served, the judge resumes them",
          d.path("rubrics").size(), d.path("total_count").asInt(), details);
      return Optional.empty();
    }
    return Optional.of(d);
  }

  /** {@code --grader=jobbench}; settings {@code judgeCommand} (from {@code --graderSettings}) and the dataset root. */
  public static final class Provider implements GraderProvider {
    @Override public String name() {
      return "jobbench";
    }

    @Override public Grader open(Path namespaceDir, Map<String, String> settings) throws IOException {
      String command = settings.getOrDefault("judgeCommand", "");
      if (command.isBlank()) {
        throw new IllegalArgumentException("--grader=jobbench needs the dataset's judge as a command:"
            + " --graderSettings='{\"judgeCommand\": \"python eval/judge.py --output-dir {run_dir} --rubrics-file"
            + " {rubrics} --details-file {details} ...\"}' (see the README's JobBench section)");
      }
      Path root = FolderGrading.benchRoot(namespaceDir, settings);
      if (!Files.isDirectory(JobBenchLayout.dataset(root))) {
        throw new IOException(JobBenchLayout.dataset(root) + " is missing; --benchRoot must name the JobBench"
            + " checkout the namespace was swept on");
      }
      return new JobBenchGrader(root, command,
          Duration.ofSeconds(Long.parseLong(settings.getOrDefault("timeoutSeconds", "1800"))));
    }
  }
}
