package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.files.TextFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --grader=expected}: compares a folder benchmark's deliverable with the task's {@code grading/expected.txt}.
 * Exact comparison ignores only trailing line breaks; with {@code normalize} (bench.json {@code grader.normalize}),
 * runs of white space count as one space, leading and trailing space is dropped and case is ignored. One criterion:
 * {@code n_passed}/{@code n_criteria} is 1/1 or 0/1. A run that delivered nothing is a real 0/1
 * ({@code no_output: true}), as harness2's JobBench adapter scores a run with no output (spec §12.3); a run whose
 * deliverable lies at its root rather than in {@code output/} was written in another layout, not left undelivered,
 * so it is a judge failure naming both places, as is a missing expected.txt: an absence, never a zero.
 */
final class ExpectedGrader implements Grader {
  static final int MAX_CHARS = 1_000_000;
  private final FolderGrading folder;
  private final boolean normalize;
  private final String identity;

  ExpectedGrader(FolderGrading folder, boolean normalize) throws IOException {
    this(folder, normalize, null);
  }

  /**
   * The grader of a namespace that ran {@code tasks} (null: every task of the benchmark): the answer keys of those
   * tasks are the instrument, so grades against edited ones are other grades (dogAK F2), and a task added to the
   * benchmark since is not (dogAM F3).
   */
  ExpectedGrader(FolderGrading folder, boolean normalize, java.util.Set<String> tasks) throws IOException {
    this.folder = folder;
    this.normalize = normalize;
    this.identity = metric() + ":" + folder.digest("expected.txt", tasks);
  }

  /** The comparison each row's raw {@code metric} names: {@code expected:normalized} or {@code expected:exact}. */
  String metric() {
    return "expected:" + (normalize ? "normalized" : "exact");
  }

  /**
   * The comparison and a digest of the {@code grading/expected.txt} of each task the namespace ran (of every task
   * when its config.json does not say which): a namespace's grades never mix answer keys, an edited key grades
   * kept runs anew, and replicates judged against other keys fail the report's judge condition. An earlier h2beam
   * recorded the comparison alone ({@link JudgeIdentity#sameInstrument}).
   */
  @Override public String identity() {
    return identity;
  }

  /** Reads files only (see {@link Grader#inProcess}). */
  @Override public boolean inProcess() {
    return true;
  }

  @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws IOException {
    String expected = key(folder.gradingDir(task).resolve("expected.txt"));
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("n_criteria", 1);
    raw.put("metric", metric());
    Path answer = folder.deliverable(runDir);
    if (!Files.isRegularFile(answer)) {
      Path atRoot = runDir.resolve(folder.deliverable());
      if (Files.isRegularFile(atRoot)) {
        throw new IOException(answer + " is missing, but " + atRoot + " is there: a folder benchmark's run keeps its"
            + " deliverable in output/, so this run was written in another layout; move the file into output/ to"
            + " grade it (not graded as a zero)");
      }
      raw.put("n_passed", 0);
      raw.put("all_pass", false);
      raw.put("no_output", true);
      return Optional.of(raw);
    }
    boolean same = comparable(expected).equals(comparable(TextFiles.readCapped(answer, MAX_CHARS)));
    raw.put("n_passed", same ? 1 : 0);
    raw.put("all_pass", same);
    return Optional.of(raw);
  }

  /**
   * Why {@code file} cannot be graded against: missing, or empty or white space only, which would grade every output
   * a real 0 against no answer (dogAK F3); such a row is an absence, never a zero. Empty when it can.
   */
  static Optional<String> keyProblem(Path file) {
    try {
      key(file);
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** The answer key in {@code file}, read once; an {@link IOException} saying {@link #keyProblem why} it is none. */
  private static String key(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + ": missing; the expected grader compares the deliverable with it, for every task");
    }
    String text;
    try {
      text = TextFiles.readCapped(file, MAX_CHARS);
    } catch (IOException e) {
      throw new IOException(file + ": cannot be read (" + e.getMessage() + ")", e);
    }
    if (text.isBlank()) {
      throw new IOException(file + ": empty (white space only); write the answer the deliverable must match, or"
          + " grade the task with another grader");
    }
    return text;
  }

  String comparable(String text) {
    if (normalize) return text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    return text.replaceAll("[\\r\\n]+$", "");
  }

  /** {@code --grader=expected}. */
  public static final class Provider implements GraderProvider {
    @Override public String name() {
      return "expected";
    }

    @Override public Grader open(Path namespaceDir, Map<String, String> settings) throws IOException {
      FolderGrading folder = FolderGrading.of(namespaceDir, settings);
      boolean normalize = folder.grader().path("normalize").asBoolean(false)
          || Boolean.parseBoolean(settings.getOrDefault("normalize", "false"));
      return new ExpectedGrader(folder, normalize, FolderGrading.tasksOf(namespaceDir));
    }
  }
}
