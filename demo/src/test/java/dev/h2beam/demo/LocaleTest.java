package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's locale changes no file: under Turkish the labels stayed {@code inv1} (its lower case of {@code I} is a
 * dotless {@code ı}, which renamed every INV folder and made a resume in another locale run that work again), and
 * under Arabic the report's counts stayed in ASCII digits ({@code n=  ٦} beside {@code final 6}).
 */
class LocaleTest {
  private static int run(Path log, String language, String country, String... args) throws Exception {
    List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-Duser.language=" + language, "-Duser.country=" + country, "-cp",
        System.getProperty("java.class.path"), "dev.h2beam.pipelines.Main"));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start().waitFor();
  }

  @Test
  void aTurkishHostWritesTheSameFiles(@TempDir Path out, @TempDir Path logs) throws Exception {
    Path log = logs.resolve("tr.log");
    assertEquals(0, run(log, "tr", "TR", "demo", "--output=" + out), Files.readString(log));
    FlinkDemoTest.assertSameFiles(DemoRuns.cleanDemo(), out);
    assertEquals(Files.readString(DemoRuns.cleanDemo().resolve("report/report.txt")),
        Files.readString(out.resolve("report/report.txt")));
  }

  @Test
  void anArabicHostWritesTheSameReport(@TempDir Path out, @TempDir Path logs) throws Exception {
    Path clean = DemoRuns.cleanDemo();
    Path log = logs.resolve("ar.log");
    assertEquals(0, run(log, "ar", "SA", "report", "--namespaces=" + clean.resolve("runs/demo-oc-agg2"),
        "--modes=parallel,sequential", "--output=" + out), Files.readString(log));
    assertEquals(Files.readString(clean.resolve("report/report.txt")), Files.readString(out.resolve("report.txt")));
  }

  /**
   * Under a POSIX locale the JVM encodes file names in ASCII: a folder named in another script was refused with the
   * JDK's "Malformed input or input contains unmappable characters" alone (dogX F8); the line now says what to do.
   */
  @Test
  void aPathThePosixLocaleCannotEncodeIsRefusedSayingToUseUtf8(@TempDir Path dir, @TempDir Path logs)
      throws Exception {
    Path root = dir.resolve("ünïcödé").resolve("b");
    java.util.List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.h2beam.pipelines.Main", "sweep",
        "--bench=demo", "--k=1", "--benchRoot=" + root));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(logs.resolve("log").toFile());
    pb.environment().remove("LANG");
    pb.environment().remove("LC_CTYPE");
    pb.environment().put("LC_ALL", "POSIX");
    assertEquals(1, pb.start().waitFor());
    String said = Files.readString(logs.resolve("log"));
    org.junit.jupiter.api.Assertions.assertTrue(said.contains("unmappable characters")
        && said.contains("run h2beam under a UTF-8 locale, e.g. LC_ALL=C.UTF-8"), said);
    org.junit.jupiter.api.Assertions.assertFalse(Files.exists(dir.resolve("ünïcödé")), "nothing written");
  }
}
