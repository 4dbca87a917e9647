package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench's own flags are checked before anything runs, and a refusal names the flag. */
class BenchOptionsTest {

  private static String refused(Path out, String... flags) {
    String[] args = new String[flags.length + 1];
    args[0] = "--output=" + out.resolve("b");
    System.arraycopy(flags, 0, args, 1, flags.length);
    UsageError e = assertThrows(UsageError.class, () -> new BenchCommand().run(args));
    assertFalse(Files.exists(out.resolve("b")), "nothing was written for " + String.join(" ", flags));
    return e.getMessage();
  }

  @Test
  void aBadLatencyNamesItsFlag(@TempDir Path out) {
    assertTrue(refused(out, "--executorLatencyMs=fast").startsWith("--executorLatencyMs=fast is not a latency"));
    assertTrue(refused(out, "--sessionLatencyMs=uniform:80:20").startsWith("--sessionLatencyMs=uniform:80:20 is"));
    assertTrue(refused(out, "--sessionLatencyMs=exp:-3").startsWith("--sessionLatencyMs=exp:-3 is not a latency"));
  }

  @Test
  void countsBelowOneNameTheirFlag(@TempDir Path out) {
    assertTrue(refused(out, "--domains=0").startsWith("--domains=0 is out of range"));
    assertTrue(refused(out, "--tasksPerDomain=-2").startsWith("--tasksPerDomain=-2 is out of range"));
    assertTrue(refused(out, "--domains=200", "--tasksPerDomain=200").startsWith("--domains x --tasksPerDomain"));
    assertTrue(refused(out, "--latencySeed=x").startsWith("--latencySeed=x is not valid"));
  }

  @Test
  void anotherBenchmarkOrItsSettingsAreRefused(@TempDir Path out) {
    assertTrue(refused(out, "--bench=demo").startsWith("--bench is always synthetic"));
    assertTrue(refused(out, "--benchSettings={\"domains\": 3}").startsWith("--benchSettings: h2beam bench sets"));
  }

  /** Without --output the bench writes into runs/bench, never into the demo's runs/demo (whose report it replaced). */
  @Test
  void itsDefaultOutputIsItsOwnFolder() {
    String[] args = DemoCommand.withDefaults(new String[] {"--k=1"}, "3", BenchCommand.OUTPUT);
    assertTrue(java.util.Arrays.asList(args).contains("--output=runs/bench"), String.join(" ", args));
    assertEquals("runs/bench", new BenchCommand().defaults().get("output"), "what --help shows");
    String[] given = DemoCommand.withDefaults(new String[] {"--output=/x"}, "3", BenchCommand.OUTPUT);
    assertEquals(1, java.util.Arrays.stream(given).filter(a -> a.startsWith("--output=")).count());
    assertTrue(java.util.Arrays.asList(DemoCommand.withDefaults(new String[0])).contains("--output=runs/demo"));
  }

  @Test
  void theSweepRefusesABadSyntheticSettingNamingIt(@TempDir Path out) {
    UsageError e = assertThrows(UsageError.class, () -> new dev.h2beam.pipelines.sweep.SweepCommand().run(
        new String[] {"--bench=synthetic", "--benchRoot=" + out.resolve("s"), "--dryRun",
            "--benchSettings={\"sessionLatencyMs\": \"soon\"}"}));
    assertTrue(e.getMessage().contains("sessionLatencyMs=soon is not a latency"), e.getMessage());
  }
}
