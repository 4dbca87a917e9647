package dev.h2beam.pipelines;

import dev.h2beam.adapters.exec.Shell;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How a command h2beam suggests ({@code next:} lines) names h2beam: {@code ./h2beam} where the user's folder holds
 * the launcher that started this process, else that launcher's absolute path, which pastes as it is from any folder
 * (dogAK F8). Without a launcher (a test, a jar run by hand) it is {@code ./h2beam}, the README's spelling.
 */
public final class Launcher {
  private Launcher() {}

  /** The system property the launcher sets to its own absolute path. */
  static final String PROPERTY = "h2beam.launcher";

  /** The launcher as a command word, for a user in the current working folder. */
  public static String command() {
    return command(System.getProperty(PROPERTY), Path.of("").toAbsolutePath());
  }

  static String command(String launcher, Path cwd) {
    if (launcher == null || launcher.isBlank()) return "./h2beam";
    Path own = Path.of(launcher);
    Path here = cwd.resolve("h2beam");
    try {
      if (Files.exists(here) && Files.isSameFile(here, own)) return "./h2beam";
    } catch (java.io.IOException e) {
      // not the same file as far as can be told: the absolute path works from here too
    }
    return Shell.word(own.toString());
  }
}
