package dev.h2beam.pipelines;

import java.io.PrintStream;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * A stop on request: the Ctrl-C (SIGINT), SIGTERM or closed terminal (SIGHUP) that ends a command is said in one line
 * as it comes, and then handled as the JVM handles it (the shutdown hooks, which wait for the work in flight, then
 * exit 128 + the signal's number: 130, 143, 129). A sweep stopped with nothing in flight said nothing at all, and one
 * stopped mid-rollout printed "sweep failed" and the runner's stack trace for the work the stop cancelled; what the
 * stop cuts short is no failure ({@link #requested}). Heard through the JDK's signal handlers as the progress bar hears
 * a resize; a signal whose handler cannot be installed (one h2beam was started ignoring, as a background job of a
 * shell without job control is) is left as it was.
 */
final class StopRequest implements SignalHandler {
  /** What a stopped command leaves, and how to go on. */
  static final String RESUME = "finished work is kept: re-run the same command to resume";

  /** The signal that stopped this process, as {@code SIGTERM}; null until one came. */
  private static volatile String signal;

  private final PrintStream err;
  /** The JVM's own handler, which runs the exit. */
  private volatile SignalHandler previous;

  private StopRequest(PrintStream err) {
    this.err = err;
  }

  /** Says on {@code err} when a signal stops this process, before the JVM exits as it would. */
  static void listen(PrintStream err) {
    for (String name : List.of("INT", "TERM", "HUP")) {
      StopRequest handler = new StopRequest(err);
      try {
        handler.previous = Signal.handle(new Signal(name), handler);
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // not a signal here, or one the JVM keeps (-Xrs): the exit is as it was, unannounced
      }
    }
  }

  /** Whether a signal asked this process to stop: a failure after it is the work the stop cut short. */
  static boolean requested() {
    return signal != null;
  }

  @Override public void handle(Signal sig) {
    if (signal == null) {
      signal = "SIG" + sig.getName();
      err.println("h2beam: stopped on request (" + signal + "); " + RESUME);
    }
    SignalHandler exit = previous;
    if (exit != null && exit != SignalHandler.SIG_DFL && exit != SignalHandler.SIG_IGN) {
      exit.handle(sig);
    } else {
      System.exit(128 + sig.getNumber());
    }
  }
}
