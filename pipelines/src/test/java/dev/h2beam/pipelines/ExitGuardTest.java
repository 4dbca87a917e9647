package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dogY #5: a plug-in that calls {@code System.exit(0)} while a command runs ended a sweep with exit 0, no summaries
 * and no record, so a script chaining sweep, judge and report went on. In a real JVM started as the launcher starts
 * it ({@code Main}), with a plug-in command compiled here (on that JVM's class path only): the exit is said and ends
 * with 1; a command that returns 0 still exits 0.
 */
class ExitGuardTest {

  @Test
  void anExitAPlugInAsksForEndsWithOneAndSaysSo(@TempDir Path dir) throws Exception {
    Path classes = plugin(dir);
    Run quits = main(dir, classes, "quits-early");
    assertEquals(1, quits.code(), quits.output());
    assertTrue(quits.output().contains("h2beam: h2beam quits-early was ended by an exit h2beam did not ask for"
        + " (System.exit in a plug-in, or in a library it runs), before it finished; exit code 1. "
        + StopRequest.RESUME), quits.output());
    assertTrue(quits.output().contains("about to exit"), quits.output());

    Run fine = main(dir, classes, "returns-zero");
    assertEquals(0, fine.code(), fine.output());
    assertEquals("returned\n", fine.output());
  }

  private record Run(int code, String output) {}

  private static Run main(Path dir, Path plugin, String command) throws Exception {
    Path log = dir.resolve(command + ".log");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")
        + File.pathSeparator + plugin, Main.class.getName(), command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "ran past 2 minutes");
    return new Run(p.exitValue(), Files.readString(log));
  }

  /** Two commands, compiled into a class folder with their registration: one calls System.exit(0), one returns 0. */
  private static Path plugin(Path dir) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src/plug"));
    Path out = Files.createDirectories(dir.resolve("classes"));
    String common = " implements dev.h2beam.pipelines.Command { public String summary() { return \"test\"; }"
        + " public Class<? extends org.apache.beam.sdk.options.PipelineOptions> options() {"
        + " return org.apache.beam.sdk.options.PipelineOptions.class; }";
    Files.writeString(src.resolve("QuitsEarly.java"), "package plug; public class QuitsEarly" + common
        + " public String name() { return \"quits-early\"; } public int run(String[] a) {"
        + " System.err.println(\"about to exit\"); System.exit(0); return 0; } }");
    Files.writeString(src.resolve("ReturnsZero.java"), "package plug; public class ReturnsZero" + common
        + " public String name() { return \"returns-zero\"; } public int run(String[] a) {"
        + " System.out.println(\"returned\"); return 0; } }");
    assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-d",
        out.toString(), "-cp", System.getProperty("java.class.path"), src.resolve("QuitsEarly.java").toString(),
        src.resolve("ReturnsZero.java").toString()));
    Path services = Files.createDirectories(out.resolve("META-INF/services"));
    Files.writeString(services.resolve(Command.class.getName()), String.join("\n", List.of("plug.QuitsEarly",
        "plug.ReturnsZero")) + "\n");
    return out;
  }
}
