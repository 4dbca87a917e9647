package dev.h2beam.transforms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.ClassRefs;
import java.nio.file.Files;
import java.nio.file.Path;
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
    ClassRefs.Found found = ClassRefs.scan(classes, classes, true, FORBIDDEN);
    assertTrue(found.scanned() > 50, "scanned only " + found.scanned() + " classes under " + classes.toAbsolutePath());
    assertEquals(List.of(), found.references());
  }

  @Test
  void theScanSeesTypeNamesAClassReferences() throws Exception {
    assertTrue(ClassRefs.refersTo(Path.of("target/classes/dev/h2beam/transforms/recursion/Roller.class"),
        "dev/h2beam/adapters/bench/Benchmark"), "the scan reads type names from class files");
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
