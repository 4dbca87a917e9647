package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shaded jar runs the whole demo (sweep, judge, report) with {@code java -jar}, on embedded Flink. */
class ShadedJarIT {

  static Path jar() throws Exception {
    try (Stream<Path> s = Files.list(Path.of("target"))) {
      return s.filter(p -> p.getFileName().toString().endsWith("-all.jar")).findFirst()
          .orElseThrow(() -> new AssertionError("no shaded jar under target/: run mvn verify"));
    }
  }

  @Test
  void theShadedJarRunsTheDemoOnEmbeddedFlink(@TempDir Path out) throws Exception {
    List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-Xmx512m", "-jar", jar().toString(), "demo", "--output=" + out, "--k=1",
        "--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.resolve("console.log").toFile())
        .start();
    int code = p.waitFor();
    String console = Files.readString(out.resolve("console.log"));
    assertEquals(0, code, console);
    assertTrue(console.contains("Demo: 2 tasks completed; 0 failed."), console);
    assertTrue(console.contains("demo-oc-agg1: judged.json: 4 row(s), 4 graded, 0 ungraded"), console);
    assertTrue(Files.isRegularFile(out.resolve("report/report.html")));
    for (String t : List.of("ledger-1", "ledger-2")) {
      assertTrue(Files.isRegularFile(out.resolve("runs/demo-oc-agg1/" + t + "/summary.json")), t);
    }
  }
}
