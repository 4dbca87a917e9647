package dev.h2beam.adapters.exec;

import dev.h2beam.adapters.files.Causes;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystemException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A rollout or a session that could not even start because of the host: the system refused to start its program
 * ({@link ProcessRunner.StartException#refusedByHost}: {@code fork}/{@code exec} failed, e.g. EMFILE "Too many open
 * files", ENOMEM, EAGAIN), or h2beam could not open the files or sockets around it for the same reasons. Nothing of
 * the harness or of the agent ran, so it is not the method's outcome: never a dead rollout nor a failed session
 * attempt of a finished task, but a failure of the task's mode, which is recorded as failed, reported at the end
 * (exit 2), and run again by the same command once the host is fixed. A program that started and then failed, timed
 * out or wrote nothing is not one of these: that is the method's outcome, as in harness2.
 */
public final class HostFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The system's messages for a host out of open files, memory or processes (EMFILE, ENFILE, ENOMEM, EAGAIN). */
  static final List<String> REASONS = List.of(dev.h2beam.adapters.files.DiskFull.TOO_MANY_FILES,
      "Cannot allocate memory", "Resource temporarily unavailable");

  /** How a {@link #recorded} failure's text starts: a dead rollout's error is {@code <exception class>: <message>}. */
  public static final String PREFIX = HostFailure.class.getSimpleName() + ": ";

  private HostFailure(String message, Throwable cause) {
    super(message, cause);
  }

  /** A failure whose whole message is {@code message} (one {@link #recorded} in a dead rollout's error). */
  public static HostFailure recorded(String error) {
    return new HostFailure(error.startsWith(PREFIX) ? error.substring(PREFIX.length()) : error, null);
  }

  /** Whether a dead rollout's error records a host failure (its text made by {@code Type: message} from one). */
  public static boolean isRecorded(String error) {
    return error != null && error.startsWith(PREFIX);
  }

  /**
   * The host failure {@code e} is, or holds among its causes, {@code what} saying what failed ("rollout agg2 could not
   * start"); empty
   * for any other failure. Only what the JDK reports for the host counts, never a program's own words: a refused start,
   * or a file system or socket failure whose whole reason is one of {@link #REASONS}.
   */
  public static Optional<HostFailure> of(String what, Throwable e) {
    return Causes.find(e, t -> t instanceof HostFailure || hostCause(t) != null).map(t -> {
      if (t instanceof HostFailure h) return h;
      String cause = hostCause(t);
      return new HostFailure(what + " (" + cause + "): the host's failure, not the method's"
          + " outcome, so the task is not finished; " + advice(cause)
          + " and re-run the same command, which runs the task again", e);
    });
  }

  /** What the JDK reports for the host in {@code t} itself (not its causes), for a message; null for anything else. */
  private static String hostCause(Throwable t) {
    if (t instanceof ProcessRunner.StartException s && s.refusedByHost()) return s.getMessage();
    if (t instanceof FileSystemException f && f.getReason() != null && REASONS.contains(f.getReason())) {
      return f.getMessage();
    }
    if (t instanceof java.io.IOException && t.getMessage() != null && REASONS.contains(t.getMessage())) {
      return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
    return null;
  }

  /** What to do about {@code cause}: raise the limit it hit, naming the limit h2beam runs under when it can. */
  static String advice(String cause) {
    if (cause.contains(dev.h2beam.adapters.files.DiskFull.TOO_MANY_FILES)) {
      long max = maxOpenFiles();
      return "raise the open-files limit (ulimit -n" + (max > 0 ? String.format(Locale.ROOT, ", %d now", max) : "")
          + ")";
    }
    if (cause.contains("Cannot allocate memory")) return "free memory (or run fewer rollouts at once)";
    if (cause.contains("Resource temporarily unavailable")) {
      return "raise the process limit (ulimit -u) or free memory";
    }
    return "fix what kept the program from starting";
  }

  /** This JVM's open-files limit, or -1 where the platform does not say it. */
  private static long maxOpenFiles() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u) {
      return u.getMaxFileDescriptorCount();
    }
    return -1;
  }
}
