package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Children start with one exec each (VFORK) on Linux before JDK 25, unless the user chose otherwise. */
class LaunchMechanismTest {
  @TempDir Path tmp;

  @Test
  void vforkOnLinuxBeforeJdk25Only() {
    assertEquals("VFORK", LaunchMechanism.choose(null, "Linux", 17));
    assertEquals("VFORK", LaunchMechanism.choose("", "Linux", 21));
    assertNull(LaunchMechanism.choose(null, "Linux", 25), "deprecated from 25, removed after");
    assertNull(LaunchMechanism.choose(null, "Mac OS X", 17), "no VFORK on macOS");
    assertNull(LaunchMechanism.choose("POSIX_SPAWN", "Linux", 17), "the user's choice stands");
  }

  /**
   * In a fresh JVM, running a program through {@link ProcessRunner} leaves the JDK's process class using VFORK (read
   * from its own field), and a mechanism given on the command line is kept.
   */
  @Test
  void theJdkLaunchesWithVforkUnlessTheCommandLineSaysOtherwise() throws Exception {
    if (!System.getProperty("os.name").toLowerCase().startsWith("linux") || Runtime.version().feature() >= 25) return;
    assertEquals("VFORK", child(List.of()));
    assertEquals("POSIX_SPAWN", child(List.of("-Djdk.lang.Process.launchMechanism=POSIX_SPAWN")));
  }

  private String child(List<String> flags) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.lang=ALL-UNNAMED"));
    cmd.addAll(flags);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName(), tmp.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).strip();
    assertEquals(0, p.waitFor(), out);
    String[] lines = out.split("\n");
    return lines[lines.length - 1];
  }

  /** Runs {@code true} through the runner, then prints the mechanism the JDK's process class settled on. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      Path dir = Path.of(args[0]);
      ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of("true"), dir, Map.of("PATH", "/usr/bin:/bin"),
          dir.resolve("out"), dir.resolve("err"), Duration.ofSeconds(30)));
      if (r.exit() == null || r.exit() != 0) throw new IllegalStateException("true failed: " + r);
      java.lang.reflect.Field f = Class.forName("java.lang.ProcessImpl").getDeclaredField("launchMechanism");
      f.setAccessible(true);
      System.out.println(f.get(null));
      Files.deleteIfExists(dir.resolve("out"));
    }
  }
}
