package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.config.ReferenceGrant;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The judge's own refusals, asked before a sweep spends anything ({@code h2beam check}): whether a task's rubric reads
 * as the rubric grader reads it, and whether the judge would be allowed to send a benchmark's references. The rules
 * stay the judge's ({@link RubricGrader#rubric}, {@link EgressGrants}); this only asks them early.
 */
public final class GraderPreflight {
  private GraderPreflight() {}

  /** Why the rubric grader cannot read {@code file} (a task's {@code grading/rubric.json}); empty when it can. */
  public static Optional<String> rubricProblem(Path file) {
    try {
      RubricGrader.rubric(file);
      return Optional.empty();
    } catch (IOException e) {
      // the grader's own messages name the file; a JSON syntax error from the parser does not
      String why = String.valueOf(e.getMessage());
      if (why.contains(file.toString())) return Optional.of(why);
      return Optional.of(file + ": not valid JSON: " + Json.syntaxProblem(e) + "; the rubric grader needs"
          + " {\"criteria\": [{\"id\": ..., \"text\": ..., \"weight\": ...}]}");
    }
  }

  /** Why the expected grader cannot grade against {@code file} (a task's grading/expected.txt); empty when it can. */
  public static Optional<String> expectedProblem(Path file) {
    return ExpectedGrader.keyProblem(file);
  }

  /**
   * Why {@code h2beam judge --grader=<grader> --config=<configFile>} would refuse to judge {@code benchmark} (named as
   * its namespaces name it) before sending anything: a missing or different reference egress grant, a grant its grader
   * has no use for, or a configuration the grader cannot use. Empty when the judge would go ahead.
   */
  public static List<String> egressProblems(String grader, String benchmark, String configFile) {
    Map<String, String> settings = new TreeMap<>();
    if (configFile != null && !configFile.isBlank()) settings.put("config", configFile);
    try {
      // no namespace exists before the sweep: the benchmark's name stands in for it, as the judge's messages name it
      Optional<ReferenceGrant> needed = GraderProvider.named(grader).referenceEgress(Paths.get(benchmark), benchmark,
          settings);
      return EgressGrants.problems(EgressGrants.config(settings), "--config=" + configFile,
          List.of(new EgressGrants.Judged(benchmark, benchmark, grader, needed)));
    } catch (IllegalArgumentException e) {
      return List.of(e.getMessage());
    } catch (Exception e) {
      return List.of("cannot ask grader " + grader + " what it sends for " + benchmark + ": " + e.getMessage());
    }
  }
}
