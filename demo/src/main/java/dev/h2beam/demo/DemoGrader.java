package dev.h2beam.demo;

import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.pipelines.judge.Grader;
import dev.h2beam.pipelines.judge.GraderProvider;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's exact-match grader, on the judge side only: it computes each task's correct total from the task's
 * source ledger (the method is never shown it) and checks the chosen {@code answer.txt} against two criteria: the
 * answer is one {@code Total: <amount with 2 decimals>} line, and the amount is the signed total.
 */
public final class DemoGrader implements Grader {
  private static final Pattern ANSWER = Pattern.compile("Total: (-?\\d+\\.\\d{2})\\n?");
  private final Path root;
  private final String identity;

  /** @param root the demo's output folder, which holds {@code sources/} */
  public DemoGrader(Path root) {
    this(root, "demo:exact-total");
  }

  private DemoGrader(Path root, String identity) {
    this.root = root;
    this.identity = identity;
  }

  @Override public String identity() {
    return identity;
  }

  /** Reads files only (see {@link Grader#inProcess}). */
  @Override public boolean inProcess() {
    return true;
  }

  @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws IOException {
    Path ledger = root.resolve("sources").resolve(task).resolve("ledger.csv");
    if (!Files.isRegularFile(ledger)) throw new IOException("no source ledger for " + task + " at " + ledger);
    Path answerFile = runDir.resolve("answer.txt");
    if (!Files.isRegularFile(answerFile)) return Optional.empty();
    BigDecimal expected = LedgerAmounts.signedTotal(ledger);
    // lenient: an answer that is not UTF-8 is simply not a total, and scores as such
    String answer = TextFiles.readCapped(answerFile, DemoBenchmark.MAX_TEXT_CHARS);
    Matcher m = ANSWER.matcher(answer);
    boolean format = m.matches();
    boolean value = format && new BigDecimal(m.group(1)).compareTo(expected) == 0;
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("n_passed", (format ? 1 : 0) + (value ? 1 : 0));
    raw.put("n_criteria", 2);
    raw.put("all_pass", format && value);
    raw.put("metric", "exact");
    raw.put("criteria", Map.of("format", format, "value", value));
    return Optional.of(raw);
  }

  /**
   * The folder holding a namespace's {@code sources/}: {@code --benchRoot}, else the {@code bench_root} the sweep
   * recorded (a runs root given apart from the benchmark's folder, as on a cluster), else two levels above the
   * namespace ({@code <output>/runs/<ns>}, the demo's own layout, for a namespace swept before bench_root was kept).
   */
  static Path root(Path namespaceDir, Map<String, String> settings) throws IOException {
    return GraderProvider.benchRoot(namespaceDir, settings)
        .orElse(namespaceDir.toAbsolutePath().getParent().getParent());
  }

  /** {@code --grader=demo}: finds the demo's sources in the folder the namespace was swept on ({@link #root}). */
  public static final class Provider implements GraderProvider {
    @Override public String name() {
      return "demo";
    }

    @Override public Grader open(Path namespaceDir, Map<String, String> settings) throws IOException {
      return new DemoGrader(root(namespaceDir, settings));
    }
  }

  /**
   * {@code --grader=synthetic}: the same exact-total check for the synthetic benchmark's generated ledgers, which
   * the sweep keeps in the same place ({@code <benchRoot>/sources}; found as {@link #root} finds the demo's).
   */
  public static final class SyntheticProvider implements GraderProvider {
    @Override public String name() {
      return "synthetic";
    }

    @Override public Grader open(Path namespaceDir, Map<String, String> settings) throws IOException {
      return new DemoGrader(root(namespaceDir, settings), "synthetic:exact-total");
    }
  }
}
