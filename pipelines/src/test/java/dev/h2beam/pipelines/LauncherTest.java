package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dogAK F8: the commands h2beam suggests name the launcher so that they paste from the user's folder. */
class LauncherTest {
  @Test
  void theLauncherIsDotSlashBesideItAndItsAbsolutePathElsewhere(@TempDir Path tmp) throws Exception {
    Path checkout = Files.createDirectories(tmp.resolve("h2beam checkout"));
    Path launcher = Files.writeString(checkout.resolve("h2beam"), "#!/bin/sh\n");
    assertEquals("./h2beam", Launcher.command(launcher.toString(), checkout));
    Path elsewhere = Files.createDirectories(tmp.resolve("my-bench"));
    assertEquals("'" + launcher + "'", Launcher.command(launcher.toString(), elsewhere));
    // without a launcher (a test, a jar run by hand): the README's spelling
    assertEquals("./h2beam", Launcher.command(null, elsewhere));
  }
}
