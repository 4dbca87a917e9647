package dev.h2beam.transforms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The method never sees a score: no compiled class of {@code transforms} refers to the grader contract or to any
 * judge-side package. Checked on the class files' constant pools, where every referenced type name appears.
 */
class NoScoringTest {

  /** Type-name prefixes only the judge side may use. */
  static final List<String> FORBIDDEN = List.of("dev/h2beam/pipelines/",
      "dev/h2beam/demo/");

  @Test
  void noTransformsClassReferencesAnythingThatScores() throws Exception {
    Path classes = Path.of("target/classes");
    List<String> offenders = new ArrayList<>();
    int scanned = 0;
    try (Stream<Path> s = Files.walk(classes)) {
      for (Path p : s.filter(f -> f.toString().endsWith(".class")).toList()) {
        scanned++;
        String pool = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
        for (String f : FORBIDDEN) if (pool.contains(f)) offenders.add(classes.relativize(p) + " -> " + f);
      }
    }
    assertTrue(scanned > 50, "scanned only " + scanned + " classes under " + classes.toAbsolutePath());
    assertEquals(List.of(), offenders);
  }

  @Test
  void theScanSeesTypeNamesAClassReferences() throws Exception {
    Path grader = Path.of("target/classes/dev/h2beam/transforms/recursion/Roller.class");
    String pool = new String(Files.readAllBytes(grader), StandardCharsets.ISO_8859_1);
    assertTrue(pool.contains("dev/h2beam/adapters/bench/Benchmark"), "the scan reads type names from class files");
  }

  @Test
  void noTransformsSourceImportsAGrader() throws Exception {
    try (Stream<Path> s = Files.walk(Path.of("src/main/java"))) {
      for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
        String text = Files.readString(p);
        assertFalse(text.contains("judge.Grader") || text.contains("dev.h2beam.pipelines"), p.toString());
      }
    }
  }
}
