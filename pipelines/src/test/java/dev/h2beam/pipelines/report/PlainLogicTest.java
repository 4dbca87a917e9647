package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The report's logic is plain Java: only the pipeline, its options and its command import Beam (STYLE.md, 1). */
class PlainLogicTest {
  static final Set<String> WIRING = Set.of("ReportPipeline.java", "ReportOptions.java", "ReportCommand.java");

  @Test
  void onlyThePipelineOptionsAndCommandImportBeam() throws Exception {
    List<String> offenders = new ArrayList<>();
    int scanned = 0;
    try (Stream<Path> s = Files.list(Path.of("src/main/java/dev/h2beam/pipelines/report"))) {
      for (Path p : s.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        scanned++;
        if (!WIRING.contains(p.getFileName().toString()) && Files.readString(p).contains("org.apache.beam")) {
          offenders.add(p.getFileName().toString());
        }
      }
    }
    assertTrue(scanned > WIRING.size(), "scanned " + scanned + " files");
    assertEquals(List.of(), offenders);
  }
}
