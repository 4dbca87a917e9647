package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.ClassRefs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sweep command never refers to the judge or the report (dogAD F9): the method core has no way to them (its
 * module does not depend on this one; {@code NoScoringTest} there), and neither has the command that runs it. The
 * judge and the sweep share this module only to share one launcher. Checked on the class files' constant pools, as
 * the method core's test does: the sweep's package, the files and set-up it uses, and the commands' shared root.
 */
class SweepSeesNoJudgeTest {
  private static final List<String> JUDGE_SIDE = List.of("dev/h2beam/pipelines/judge/",
      "dev/h2beam/pipelines/report/");

  private static final Path CLASSES = Path.of("target/classes/dev/h2beam/pipelines");

  @Test
  void noClassOfTheSweepRefersToTheJudgeOrTheReport() throws Exception {
    List<String> offenders = new ArrayList<>();
    int scanned = 0;
    for (Path dir : List.of(CLASSES, CLASSES.resolve("sweep"), CLASSES.resolve("files"), CLASSES.resolve("setup"))) {
      ClassRefs.Found found = ClassRefs.scan(CLASSES, dir, false, JUDGE_SIDE);
      scanned += found.scanned();
      offenders.addAll(found.references());
    }
    assertTrue(scanned > 50, "scanned only " + scanned + " classes under " + CLASSES.toAbsolutePath());
    assertEquals(List.of(), offenders);
  }

  /** The scan would see such a reference: the check command, which reads the graders' inputs, has one. */
  @Test
  void theScanSeesAReferenceToTheJudge() throws Exception {
    assertTrue(ClassRefs.refersTo(CLASSES.resolve("check/CheckCommand.class"),
        "dev/h2beam/pipelines/judge/GraderPreflight"), "the scan reads type names");
  }
}
