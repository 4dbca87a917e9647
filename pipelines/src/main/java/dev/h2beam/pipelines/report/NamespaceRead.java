package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.pipelines.judge.JudgeIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What reading one namespace gave: its facts, packed ({@link PackedFacts}; null when no file of it could be read),
 * a failure record per file that is unreadable or malformed, and how many files were read.
 */
record NamespaceRead(PackedFacts facts, List<ReadFailure> failures, int filesRead) {
  NamespaceRead {
    failures = List.copyOf(failures);
  }

  /**
   * Reads the namespace folder {@code dir}: its judged.json, config.json, metrics.json, {@value JudgeIdentity#FILE}
   * and every {@code <task>/summary.json}. The facts are packed here: the runner holds every namespace's output until
   * the report is written, and as objects (over a million of them on 100 namespaces x 500 tasks) they outlived young
   * collections while the namespaces were read, each of which copied them again.
   */
  static NamespaceRead of(String dir) {
    Path ns = Path.of(dir).toAbsolutePath().normalize();
    List<ReadFailure> failures = new ArrayList<>();
    List<Path> files = new ArrayList<>(List.of(ns.resolve("judged.json"), ns.resolve("config.json"),
        ns.resolve("metrics.json"), ns.resolve(JudgeIdentity.FILE)));
    // every entry, not only the folders: a look at each entry cost as much as reading its summary; an entry that
    // is not a folder has no summary.json to read (below)
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(ns)) {
      for (Path t : tasks) files.add(t.resolve("summary.json"));
    } catch (IOException | UncheckedIOException e) {
      failures.add(ReadFailure.of(ns.toString(), "list namespace", e));
    }
    int read = 0;
    boolean judged = false;
    // when judged.json was written: a summary written after it holds a result its rows did not grade
    java.nio.file.attribute.FileTime judgedAt = null;
    List<Scored> rows = new ArrayList<>();
    List<TaskSummary> summaries = new ArrayList<>();
    RunIdentity identity = null;
    String judgedBy = null;
    List<MetricRow> metrics = new ArrayList<>();
    boolean metricsRead = false;
    // the task modes whose result records no build that wrote it (an older h2beam's)
    List<String> unstamped = new ArrayList<>();
    for (Path f : files) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(f);
      } catch (IOException e) {
        // what is not a regular file (missing, a folder, under an entry that is not a folder) is not an input; a
        // file that is there and cannot be read is a failure record (below). Looked at only when the read fails.
        if (!Files.isRegularFile(f)) continue;
        bytes = null;
      }
      String path = f.toString();
      InputFiles.Kind kind = InputFiles.kindOf(path);
      try {
        byte[] utf8 = bytes == null ? Files.readAllBytes(f) : bytes;
        // strict: bytes that are not UTF-8 are an error, not U+FFFD without a word (judged.json and metrics.json are
        // checked where they are read)
        switch (kind) {
          case JUDGED -> {
            int k = NamespaceRef.parse(ns).map(NamespaceRef::k).orElse(0);
            rows.addAll(InputFiles.judged(path, utf8, k).rows());
            judged = true;
            judgedAt = Files.getLastModifiedTime(f);
          }
          case SUMMARY -> {
            TaskSummary t = InputFiles.summary(path, TextFiles.utf8(utf8, path), unstamped);
            // looked at for a retried task alone, the only one the report asks it of (a look per summary on 50,000)
            summaries.add(t.retried() > 0 && judgedAt != null && Files.getLastModifiedTime(f).compareTo(judgedAt) > 0
                ? t.writtenAfterJudged() : t);
          }
          case CONFIG -> identity = InputFiles.config(path, TextFiles.utf8(utf8, path));
          case JUDGE -> judgedBy = InputFiles.judge(TextFiles.utf8(utf8, path));
          case METRICS -> {
            metrics.addAll(InputFiles.metrics(path, utf8));
            metricsRead = true;
          }
          default -> throw new IllegalStateException("unhandled input kind " + kind);
        }
        read++;
      } catch (IOException | UncheckedIOException e) {
        // bad data is a failure record; anything else is a bug and fails the run
        failures.add(ReadFailure.of(path, "parse " + kind.name().toLowerCase(Locale.ROOT), e));
      }
    }
    // h2beam's record of the judge it graded a harness2 namespace with names the instrument of its judged.json
    if (judgedBy != null && identity != null) identity = identity.withJudge(judgedBy);
    if (identity != null) identity = Writers.of(identity, unstamped);
    PackedFacts facts = read == 0 ? null : PackedFacts.pack(new NamespaceFacts(ns.toString(), judged, rows,
        summaries, identity, metricsRead, metrics));
    return new NamespaceRead(facts, failures, read);
  }
}
