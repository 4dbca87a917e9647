package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's rebuild check, run for real ({@code bash h2beam}) on a copy in a tree of its own, on a PATH that has
 * no Maven: a check that finds the build stale stops there ("Maven (mvn) is needed to build"), one that does not goes
 * on to start Java. A source dated in the future made every command rebuild (38 s each; dogX F9): it is named and left
 * out until its date is past. A classpath entry it cannot read is named before Java is started.
 */
class LauncherStalenessTest {
  @Test
  void aSourceDatedInTheFutureIsNamedAndRebuildsNothingUntilItsDateIsPast(@TempDir Path tree, @TempDir Path bin)
      throws Exception {
    Files.copy(Path.of("..", "h2beam"), tree.resolve("h2beam"));
    for (String d : new String[] {"adapters", "transforms", "pipelines", "demo/target"}) {
      Files.createDirectories(tree.resolve(d));
    }
    Path pom = Files.writeString(tree.resolve("adapters/pom.xml"), "<project/>");
    Files.writeString(tree.resolve("pom.xml"), "<project/>");
    Path cp = Files.writeString(tree.resolve("demo/target/h2beam.classpath"), "/nowhere.jar");
    // the programs the launcher needs but Maven; java is found on this PATH as on the user's
    for (String tool : new String[] {"find", "java"}) {
      Path real = Path.of("/usr/bin", tool);
      if (tool.equals("java")) real = Path.of(System.getProperty("java.home"), "bin", "java");
      Files.createSymbolicLink(bin.resolve(tool), real.toRealPath());
    }
    Instant now = Instant.now();
    Files.setLastModifiedTime(tree.resolve("pom.xml"), FileTime.from(now.minus(Duration.ofMinutes(20))));
    Files.setLastModifiedTime(cp, FileTime.from(now.minus(Duration.ofMinutes(10))));

    Files.setLastModifiedTime(pom, FileTime.from(now.minus(Duration.ofMinutes(20))));
    String fresh = launch(tree, bin);
    assertFalse(fresh.contains("Maven (mvn) is needed"), "an up-to-date build is not rebuilt: " + fresh);
    // its classpath names a jar that is not there (a Maven repository cleaned, another user's): named, no Java trace
    assertTrue(fresh.contains("h2beam: cannot read /nowhere.jar, which the build's classpath"), fresh);

    Files.setLastModifiedTime(pom, FileTime.from(now.plus(Duration.ofDays(1))));
    String future = launch(tree, bin);
    assertTrue(future.contains("adapters/pom.xml is dated in the future") && future.contains("(touch it)"), future);
    assertFalse(future.contains("Maven (mvn) is needed"), "a future date alone rebuilds nothing: " + future);

    Files.setLastModifiedTime(pom, FileTime.from(now.minus(Duration.ofMinutes(1))));
    String changed = launch(tree, bin);
    assertTrue(changed.contains("Maven (mvn) is needed to build"), "a source newer than the build rebuilds: " + changed);
    assertFalse(changed.contains("dated in the future"), changed);
  }

  /**
   * A stale build in another user's checkout: git refuses to read that repository and the rebuild failed with only
   * Maven's and git's lines (dogAB 7). The launcher says whose checkout it is and who can build it, before Maven. Root
   * is the only user that can give a folder away, so the test runs where its tests run as root (CI).
   */
  @Test
  void aStaleBuildInAnotherUsersCheckoutNamesItsOwnerInsteadOfFailingInGit(@TempDir Path tree, @TempDir Path bin)
      throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "giving a folder to another user needs root");
    Files.copy(Path.of("..", "h2beam"), tree.resolve("h2beam"));
    for (String d : new String[] {"adapters", "transforms", "pipelines", "demo/target", ".git"}) {
      Files.createDirectories(tree.resolve(d));
    }
    Files.writeString(tree.resolve("pom.xml"), "<project/>");
    Path cp = Files.writeString(tree.resolve("demo/target/h2beam.classpath"), "/nowhere.jar");
    Files.setLastModifiedTime(cp, FileTime.from(Instant.now().minus(Duration.ofMinutes(10))));
    for (String tool : new String[] {"find", "stat"}) {
      Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool).toRealPath());
    }
    Path git = tree.resolve(".git");
    String own = launch(tree, bin);
    assertTrue(own.contains("Maven (mvn) is needed to build") && !own.contains("checkout, which"), own);

    Files.setOwner(git, git.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
    String others = launch(tree, bin);
    assertTrue(others.contains("needs a build") && others.contains("it is nobody's checkout, which this user may"
        + " not build: have nobody run `mvn -B -ntp -DskipTests package`"), others);
    assertFalse(others.contains("Maven (mvn) is needed"), "refused before Maven: " + others);
  }

  /** Runs {@code bash h2beam --help} in {@code tree} on the PATH {@code bin}; its output and errors. */
  private static String launch(Path tree, Path bin) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("/bin/bash", tree.resolve("h2beam").toString(), "--help")
        .directory(tree.toFile()).redirectErrorStream(true);
    pb.environment().put("PATH", bin.toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
    return out;
  }
}
