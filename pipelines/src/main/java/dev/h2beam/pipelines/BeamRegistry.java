package dev.h2beam.pipelines;

import java.util.function.BooleanSupplier;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Beam's option registry built ahead, on a thread of its own. The registry is built by {@link PipelineOptionsFactory}'s
 * class initialisation, the first time anything parses options: about 0.8 s of a cold JVM on one core, every
 * registered options interface checked against all the others (BENCHMARKS.md, issue 12). The demo, whose judge and
 * report build pipelines whatever its sweep finds, starts it here when it starts, and reads its own options without
 * it ({@link LazyOptions}): the sweep's plan and checks then run beside it, and the first parse waits for it as for any
 * class's initialisation. (A sweep builds its pipeline on a thread of its own instead, which builds the registry first:
 * {@code Sweep.buildAhead}.)
 *
 * <p>When the registry fails to build (a plug-in's malformed options interface), the JVM answers every later use of the
 * class with a bare {@code NoClassDefFoundError}; {@link #rethrowFailure} gives the parse the original error instead.
 */
public final class BeamRegistry {
  private BeamRegistry() {}

  private static final Object LOCK = new Object();
  private static boolean started;
  private static volatile Throwable failure;

  /** Starts building the registry now, on a daemon thread, once per process. */
  public static void ahead() {
    synchronized (LOCK) {
      if (started) return;
      started = true;
    }
    start(() -> true);
  }

  /**
   * A daemon thread that builds the registry when {@code needed} answers true there, started (every call starts one:
   * {@link #ahead} once per process, the tests as they need).
   */
  static Thread start(BooleanSupplier needed) {
    Thread t = new Thread(() -> {
      try {
        if (needed.getAsBoolean()) {
          Class.forName(PipelineOptionsFactory.class.getName(), true, BeamRegistry.class.getClassLoader());
        }
      } catch (Throwable e) {
        failure = e;
      }
    }, "h2beam-beam-registry");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Where the registry's class failed to initialise on the thread of {@link #ahead}, throws that thread's error (what
   * the parse would have thrown itself) in place of {@code e}; otherwise returns.
   */
  static void rethrowFailure(NoClassDefFoundError e) {
    Throwable f = failure;
    if (f == null) return;
    f.addSuppressed(e);
    if (f instanceof Error err) throw err;
    if (f instanceof RuntimeException r) throw r;
    throw new IllegalStateException(f);
  }

  /** For tests: forgets a recorded failure. */
  static void clearFailure() {
    failure = null;
  }
}
