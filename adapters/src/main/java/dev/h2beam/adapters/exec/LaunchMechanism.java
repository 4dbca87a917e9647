package dev.h2beam.adapters.exec;

import java.util.Locale;

/**
 * How the JDK starts h2beam's children. On Linux, JDK 17's default ({@code POSIX_SPAWN}) execs a helper,
 * {@code jspawnhelper}, which then execs the program: a second exec for every rollout, script check and grader, about
 * a third of the children's CPU in the synthetic benchmark at no latency (BENCHMARKS.md, issue 11). {@code VFORK}
 * execs the program directly; it was the JDK's default on Linux up to JDK 11, is deprecated from JDK 25 and removed
 * after, so it is chosen only before 25. {@code FORK} also skips the helper but copies the JVM's page tables for every
 * child, several times slower here. A choice made with {@code -Djdk.lang.Process.launchMechanism} is never overridden.
 */
final class LaunchMechanism {
  private LaunchMechanism() {}

  static final String PROPERTY = "jdk.lang.Process.launchMechanism";

  /**
   * Sets the property when nobody has, before the first child starts ({@link ProcessRunner} calls this as it loads;
   * the JDK reads the property once, when its process class loads).
   */
  static void prefer() {
    String chosen = choose(System.getProperty(PROPERTY), System.getProperty("os.name", ""),
        Runtime.version().feature());
    if (chosen != null) System.setProperty(PROPERTY, chosen);
  }

  /** The mechanism to set, or null to leave the JDK's (or the user's) choice. */
  static String choose(String current, String osName, int javaFeature) {
    if (current != null && !current.isBlank()) return null;
    if (!osName.toLowerCase(Locale.ROOT).startsWith("linux") || javaFeature >= 25) return null;
    return "VFORK";
  }
}
