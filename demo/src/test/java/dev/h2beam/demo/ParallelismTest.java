package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  /**
   * More chains than may run at once (2 domains x 2 modes, one at a time): they queue for the runner's thread, and the
   * files are those of every chain at once.
   */
  @Test
  void chainsQueuedOneAtATimeWriteWhatChainsAllAtOnceWrite(@TempDir Path a, @TempDir Path b) throws Exception {
    String one = SyntheticBenchTest.bench(a, "--chainsAtOnce=1");
    assertTrue(one.contains("targetParallelism 1"), one);
    String all = SyntheticBenchTest.bench(b);
    assertTrue(all.contains("targetParallelism 4"), all);
    FlinkDemoTest.assertSameFiles(a, b);
  }
}
