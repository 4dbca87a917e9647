package dev.h2beam.pipelines.sweep;

import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Whether the terminal's window was resized since last asked: the {@code SIGWINCH} a terminal sends its foreground
 * processes, heard through the JDK's signal handlers ({@code jdk.unsupported}, exported to every program). Where a
 * handler cannot be installed (a platform without the signal, or one the JVM keeps for itself) nothing is heard and
 * the bar keeps the size it started with. {@link #close} puts the previous handler back.
 */
final class WindowChanges implements AutoCloseable {
  private final AtomicBoolean changed = new AtomicBoolean();
  private final Signal signal;
  private final SignalHandler previous;

  private WindowChanges() {
    Signal s = null;
    SignalHandler p = null;
    try {
      s = new Signal("WINCH");
      p = Signal.handle(s, sig -> changed.set(true));
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      s = null; // not a signal here, or not one a program may handle: no resize is heard
    }
    this.signal = s;
    this.previous = p;
  }

  /** Starts listening. */
  static WindowChanges watch() {
    return new WindowChanges();
  }

  /** Whether a resize came that {@link #takeChanged} has not taken yet. */
  boolean pending() {
    return changed.get();
  }

  /** Whether a resize came since the last call (and forgets it). */
  boolean takeChanged() {
    return changed.getAndSet(false);
  }

  @Override public void close() {
    if (signal == null) return;
    try {
      Signal.handle(signal, previous);
    } catch (IllegalArgumentException e) {
      // installed once, it can be put back; nothing else to do if not
    }
  }
}
