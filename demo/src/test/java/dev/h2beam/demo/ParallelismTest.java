package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files a sweep writes do not depend on the runner's parallelism (ARCHITECTURE.md, determinism). */
class ParallelismTest {

  @Test
  void targetParallelismOneAndEightWriteIdenticalSummariesSelectionsAndLibraries(@TempDir Path a, @TempDir Path b)
      throws Exception {
    assertEquals(0, DemoRuns.demo(a, "--targetParallelism=1", "--phaseWidth=1"));
    assertEquals(0, DemoRuns.demo(b, "--targetParallelism=8", "--phaseWidth=4", "--sessionLimit=4",
        "--rolloutLimit=4"));
    FlinkDemoTest.assertSameFiles(a, b);
  }
}
