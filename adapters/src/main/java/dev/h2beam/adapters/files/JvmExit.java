package dev.h2beam.adapters.files;

/**
 * Whether this JVM's exit has begun. A SIGTERM or {@code System.exit} runs the shutdown hooks, but the runner's
 * threads keep running meanwhile: while the exit waited for the records in progress ({@link Uninterruptible}), a
 * sweep's chains went on and started new rollouts and sessions, which the exit then left running. Whatever starts
 * work asks here first, and starts nothing once the exit has begun.
 *
 * <p>Asked of the JVM itself, not of a flag set by a hook of ours: a hook stays registered only while it is needed (a
 * registered hook holds its job's classes; see {@link Uninterruptible}), and the JVM refuses any new hook once its
 * exit has begun, which is the answer.
 */
public final class JvmExit {
  private JvmExit() {}

  /** Never started: only added and removed again, to ask whether hooks may still be added. */
  private static final Thread PROBE = new Thread(() -> { }, "h2beam-exit-probe");

  /** Set once the exit is seen: it never ends. */
  private static volatile boolean begun;

  /** True once this JVM's exit has begun (its shutdown hooks are running or about to). */
  public static boolean begun() {
    if (begun) return true;
    Runtime rt = Runtime.getRuntime();
    synchronized (PROBE) {
      try {
        rt.addShutdownHook(PROBE);
        rt.removeShutdownHook(PROBE);
      } catch (IllegalStateException exiting) {
        begun = true;
      }
    }
    return begun;
  }
}
