package dev.h2beam.demo;

/**
 * A count of the synthetic benchmark's rollouts or sessions in flight in this JVM, with its peak and its time-weighted
 * mean since the last {@link #reset}: the benchmark command's view of how busy the limits kept the sweep. Exact, not
 * sampled: the integral is advanced at every entry and exit, under one lock, which costs far less than the sleep and
 * the script it brackets. It is diagnostic only and reaches no file the sweep writes. One per JVM, because it measures
 * the JVM (the DirectRunner, or an embedded Flink cluster); on a multi-process cluster the journals' {@code held}
 * intervals, which every worker writes, give the job-wide count.
 */
public final class InFlight {

  /** Improver, selector and reflector sessions of the synthetic channel, from after the session limit to the reply. */
  public static final InFlight SESSIONS = new InFlight();

  /** Rollouts of a ledger benchmark actually executed (not reused): latency and script. */
  public static final InFlight ROLLOUTS = new InFlight();

  private int current;
  private int peak;
  private long entries;
  private long since = System.nanoTime();
  private long last = since;
  private double area;

  private InFlight() {}

  /** One unit in flight until the returned entry is closed. */
  Entry enter() {
    synchronized (this) {
      advance();
      current++;
      entries++;
      peak = Math.max(peak, current);
    }
    return this::exit;
  }

  private synchronized void exit() {
    advance();
    current--;
  }

  private void advance() {
    long now = System.nanoTime();
    area += (double) current * (now - last);
    last = now;
  }

  /** Starts a new measurement: peak and entries from what is in flight now, the mean from now. */
  public synchronized void reset() {
    advance();
    since = last;
    area = 0;
    peak = current;
    entries = 0;
  }

  /** The measurement since the last {@link #reset}. */
  public synchronized Snapshot snapshot() {
    advance();
    double span = last - since;
    return new Snapshot(peak, span <= 0 ? 0 : area / span, entries);
  }

  /** Peak and time-weighted mean in flight, and how many entered. */
  public record Snapshot(int peak, double mean, long entries) {}

  /** Leaves flight when closed. */
  @FunctionalInterface
  interface Entry extends AutoCloseable {
    @Override void close();
  }
}
