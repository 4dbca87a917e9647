package dev.h2beam.demo;

import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A count of the synthetic benchmark's rollouts or sessions in flight in this JVM, with its peak and its time-weighted
 * mean since the last {@link #reset}: the benchmark command's view of how busy the limits kept the sweep. Exact, not
 * sampled: the integral is advanced at every entry and exit, under one lock, which costs far less than the sleep and
 * the script it brackets. It is diagnostic only and reaches no file the sweep writes. One per JVM, because it measures
 * the JVM (the DirectRunner, or an embedded Flink cluster); on a multi-process cluster the journals' {@code held}
 * intervals, which every worker writes, give the job-wide peak ({@link #peak}).
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

  /**
   * The most intervals that overlap at one instant. Intervals are half-open, {@code [start, end)}: one that ends when
   * another starts does not overlap it (a slot given back and taken again at the same clock reading).
   */
  public static int peak(List<Instant[]> intervals) {
    List<Step> steps = new ArrayList<>();
    for (Instant[] i : intervals) {
      if (i[1].isBefore(i[0])) throw new IllegalArgumentException("an interval ends before it starts: " + List.of(i));
      steps.add(new Step(i[0], 1));
      steps.add(new Step(i[1], -1));
    }
    steps.sort(Comparator.comparing(Step::at).thenComparingInt(Step::change)); // at one instant, ends first
    int now = 0;
    int peak = 0;
    for (Step step : steps) {
      now += step.change();
      peak = Math.max(peak, now);
    }
    return peak;
  }

  private record Step(Instant at, int change) {}

  /**
   * The intervals open at the first instant at which the most are ({@link #peak}), by their index in
   * {@code intervals}, in the order they started: which ones made the peak, for a message that says so. Empty for
   * none.
   */
  public static List<Integer> atPeak(List<Instant[]> intervals) {
    List<int[]> steps = new ArrayList<>(); // {index, change}
    for (int i = 0; i < intervals.size(); i++) {
      steps.add(new int[] {i, 1});
      steps.add(new int[] {i, -1});
    }
    // as in peak: by instant, ends before starts at one instant
    steps.sort(Comparator.<int[], Instant>comparing(s -> intervals.get(s[0])[s[1] > 0 ? 0 : 1])
        .thenComparingInt(s -> s[1]));
    java.util.Set<Integer> open = new java.util.LinkedHashSet<>();
    List<Integer> most = List.of();
    for (int[] step : steps) {
      if (step[1] > 0) open.add(step[0]);
      else open.remove(step[0]);
      if (open.size() > most.size()) most = List.copyOf(open);
    }
    return most;
  }

  /**
   * The time-weighted mean of how many intervals are open between {@code from} and {@code to}: the time they held
   * within that window over its length. Where every unit in flight enters a journal, as on a cluster whose workers
   * are other processes, this is the mean the JVM's own count gives in one process. NaN for an empty window.
   */
  public static double mean(List<Instant[]> intervals, Instant from, Instant to) {
    long window = Duration.between(from, to).toNanos();
    if (window <= 0) return Double.NaN;
    double held = 0;
    for (Instant[] i : intervals) {
      Instant start = i[0].isBefore(from) ? from : i[0];
      Instant end = i[1].isAfter(to) ? to : i[1];
      if (end.isAfter(start)) held += Duration.between(start, end).toNanos();
    }
    return held / window;
  }

  /**
   * Every interval in which a record of a journal ({@code Journal.lines}) held a slot of its limit and that started
   * at or after {@code since}; a record without its intervals (an older h2beam wrote it) is refused.
   */
  public static List<Instant[]> held(List<String> journal, Instant since) throws IOException {
    return held(journal, since, true);
  }

  /**
   * The same; with {@code strict} false a record without its intervals is passed over instead: this h2beam always
   * writes them, so such a record was written by an older one, before any run of this one (a resumed folder).
   */
  public static List<Instant[]> held(List<String> journal, Instant since, boolean strict) throws IOException {
    List<Instant[]> out = new ArrayList<>();
    for (String line : journal) {
      if (!(Json.readMap(line).get("held") instanceof List<?> held)) {
        if (!strict) continue;
        throw new IOException("a journal record says not when it held its slot: " + line);
      }
      for (Object i : held) {
        Instant[] interval = interval((Map<?, ?>) i);
        if (!interval[0].isBefore(since)) out.add(interval);
      }
    }
    return out;
  }

  /** A record's {@code started_at} and {@code ended_at}. */
  public static Instant[] interval(Map<?, ?> m) {
    return new Instant[] {Instant.parse((String) m.get("started_at")), Instant.parse((String) m.get("ended_at"))};
  }

  /** Peak and time-weighted mean in flight, and how many entered. */
  public record Snapshot(int peak, double mean, long entries) {}

  /** Leaves flight when closed. */
  @FunctionalInterface
  interface Entry extends AutoCloseable {
    @Override void close();
  }
}
