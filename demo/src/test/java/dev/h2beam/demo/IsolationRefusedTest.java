package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.check.CheckCommand;
import dev.h2beam.pipelines.check.CheckOptions;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --isolation} on the benchmarks whose rollouts h2beam runs in its own JVM (the demo's and the synthetic
 * bench's scripted executors): refused by the sweep before anything is written, and by {@code check}, naming the
 * benchmark, rather than taken and not honoured.
 */
class IsolationRefusedTest {
  @TempDir Path tmp;

  @Test
  void theSweepRefusesIt() {
    for (String bench : new String[] {"demo", "synthetic"}) {
      SweepOptions o = PipelineOptionsFactory.fromArgs("--bench=" + bench, "--benchRoot=" + tmp.resolve(bench),
          "--k=1", "--isolation=namespaces").as(SweepOptions.class);
      UsageError e = assertThrows(UsageError.class, () -> Sweep.plan(o, Instant.EPOCH));
      assertEquals("--isolation=namespaces: --bench=" + bench + " does not run its rollouts isolated (folder"
          + " and JobBench benchmarks do); leave --isolation out", e.getMessage());
      assertFalse(Files.exists(tmp.resolve(bench + "/runs")), "nothing written");
    }
  }

  @Test
  void checkRefusesIt() {
    CheckOptions o = PipelineOptionsFactory.fromArgs("--bench=demo", "--benchRoot=" + tmp.resolve("demo"),
        "--ping=false", "--isolation=namespaces").as(CheckOptions.class);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(1, CheckCommand.run(o, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8)));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("FAIL: --isolation=namespaces: --bench=demo does not run its rollouts isolated"), text);
  }
}
