package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher leaves Flink's jars off the classpath of a command that does not name Flink (./h2beam, issue 12): the
 * DirectRunner's paths (the demo's sweep, judge and report, a resume, the synthetic bench) must never touch a Flink
 * class. Each runs here in its own JVM on the classpath the launcher builds, with the same filter.
 */
class FlinkFreeClasspathTest {

  /** The test's classpath without Flink's jars, filtered as the launcher filters the runtime classpath. */
  static String withoutFlink() {
    List<String> all = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    List<String> kept = new ArrayList<>();
    for (String entry : all) {
      String e = entry.replace(File.separatorChar, '/');
      if (!e.contains("/org/apache/flink/") && !e.contains("/beam-runners-flink")) kept.add(entry);
    }
    assertTrue(kept.size() < all.size(), "the test's classpath holds Flink's jars, so the filter removes some");
    return String.join(File.pathSeparator, kept);
  }

  /** Runs h2beam's main class on {@code classpath}; returns its exit code and output. */
  static String[] run(String classpath, Path log, String... args) throws Exception {
    List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-cp", classpath, "dev.h2beam.pipelines.Main"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int exit = p.waitFor();
    return new String[] {String.valueOf(exit), Files.readString(log, StandardCharsets.UTF_8)};
  }

  @Test
  void theDemoAndItsResumeRunWithoutFlinksJars(@TempDir Path out) throws Exception {
    String cp = withoutFlink();
    String[] fresh = run(cp, out.resolve("fresh.log"), "demo", "--output=" + out.resolve("demo"), "--k=1");
    assertEquals("0", fresh[0], fresh[1]);
    assertFalse(fresh[1].contains("NoClassDefFoundError"), fresh[1]);
    assertTrue(Files.exists(out.resolve("demo/report/report.txt")), fresh[1]);
    String[] resumed = run(cp, out.resolve("resumed.log"), "sweep", "--bench=demo",
        "--benchRoot=" + out.resolve("demo"), "--k=1", "--modes=parallel,sequential");
    assertEquals("0", resumed[0], resumed[1]);
    assertTrue(resumed[1].contains("tasks_resumed=2"), resumed[1]);
  }

  @Test
  void theSyntheticBenchRunsWithoutFlinksJars(@TempDir Path out) throws Exception {
    // SyntheticBenchTest's small bench (k = 2) on one domain of two tasks: what is tested is the classpath
    List<String> args = new ArrayList<>(List.of("bench", "--output=" + out.resolve("bench"), "--domains=1"));
    for (String a : SyntheticBenchTest.SMALL) if (!a.startsWith("--domains=")) args.add(a);
    String[] bench = run(withoutFlink(), out.resolve("bench.log"), args.toArray(new String[0]));
    assertEquals("0", bench[0], bench[1]);
    assertTrue(bench[1].contains("(32 sessions run, 32 expected)"), bench[1]);
  }

  @Test
  void aCommandThatNeedsFlinkFailsClearlyWithoutItsJars(@TempDir Path out) throws Exception {
    // what the launcher prevents by keeping the jars for any argument naming Flink: the command says what is wrong
    String[] flink = run(withoutFlink(), out.resolve("flink.log"), "sweep", "--bench=demo",
        "--benchRoot=" + out.resolve("demo"), "--runner=FlinkRunner");
    assertEquals("1", flink[0], flink[1]);
    assertTrue(flink[1].contains("--runner=FlinkRunner needs Flink's runner on the classpath: run through ./h2beam"),
        flink[1]);
  }
}
