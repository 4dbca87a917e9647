package dev.h2beam.adapters.files;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Which h2beam this is: the commit it was built from, as the build recorded it ({@code build.properties}, written by
 * the git-commit-id plug-in in adapters' pom). h2beam records it in the files it writes (config.json's
 * {@value #BUILDS}, each summary.json's {@value #BY_MODE}), so that a namespace that two versions of h2beam wrote on
 * shared storage says so, and the report can tell work an older h2beam did after this namespace's recorded builds.
 */
public final class Build {
  private Build() {}

  /** config.json's list (h2beam's own key) of the builds whose sweeps wrote the namespace, in the order they came. */
  public static final String BUILDS = "h2beam_builds";

  /**
   * The first entry of {@value #BUILDS} when the namespace already held work once a recording h2beam first came:
   * that work's h2beam (before 2026-12-06) recorded no build.
   */
  public static final String UNRECORDED = "unrecorded";

  /** summary.json's map (h2beam's own key) of each mode to the build that wrote the mode's result there. */
  public static final String BY_MODE = "h2beam_build";

  private static final String ID = read();

  /**
   * This build: its commit's 40 hex digits, with {@code +changes} when the working tree it was built from had
   * uncommitted changes; {@code unknown-commit} when it was built without git (from an archive).
   */
  public static String id() {
    return ID;
  }

  private static String read() {
    Properties p = new Properties();
    try (InputStream in = Build.class.getResourceAsStream("build.properties")) {
      if (in != null) p.load(in);
    } catch (IOException e) {
      // unreadable: as built without git
    }
    String commit = p.getProperty("git.commit.id", "").strip();
    if (!commit.matches("[0-9a-f]{40}")) return "unknown-commit";
    return commit + (Boolean.parseBoolean(p.getProperty("git.dirty", "false")) ? "+changes" : "");
  }
}
