package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.Endpoint;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many model calls of each endpoint this process has waiting for their turn (a slot of {@code max_concurrency},
 * then the rate window) and how many it has sent and not yet finished: the chat channel's calls and the agent CLIs'
 * calls through their relays alike. The progress boards carry it, so a sweep held back by an endpoint's limits shows
 * it while it runs ("waiting" grows while "sending" stays at the limit). It also keeps totals of the calls that
 * ended: how many, how many got no good answer (no reply, a status other than a success, a reply cut off or
 * unusable, a call dropped), and the time all of them waited for their turn, which is what the endpoint's limits
 * cost. Counted per endpoint name, for every sweep the process runs with these classes (a board counts from its own
 * start: {@link Counts#since}). A view: no limit is enforced here.
 */
public final class EndpointLoad {
  private static final Map<String, EndpointLoad> BY_NAME = new ConcurrentHashMap<>();

  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger sending = new AtomicInteger();
  private final LongAdder ended = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder waitedNanos = new LongAdder();

  /**
   * An endpoint's calls in this process: waiting and sending now, and of those that ended, how many, how many failed,
   * and the milliseconds they waited for their turn in all.
   */
  public record Counts(int waiting, int sending, long calls, long failed, long waitedMs) {
    /** These counts with the totals taken from {@code start} on (the counts of a board's sweep); null: all. */
    public Counts since(Counts start) {
      if (start == null) return this;
      return new Counts(waiting, sending, calls - start.calls, failed - start.failed, waitedMs - start.waitedMs);
    }

    /** These counts and {@code o}'s together (two workers' counts of one endpoint). */
    public Counts plus(Counts o) {
      return new Counts(waiting + o.waiting, sending + o.sending, calls + o.calls, failed + o.failed,
          waitedMs + o.waitedMs);
    }
  }

  private EndpointLoad() {}

  /** The counts of the endpoint's calls in this process. */
  static EndpointLoad of(Endpoint e) {
    return BY_NAME.computeIfAbsent(e.name(), k -> new EndpointLoad());
  }

  /** A call arrived: it counts as waiting until {@link ModelCall#sent()}, and no more once closed. */
  ModelCall arrive(String method, String path) {
    waiting.incrementAndGet();
    return new ModelCall(this, method, path);
  }

  /** A waiting call was sent. */
  void sending() {
    waiting.decrementAndGet();
    sending.incrementAndGet();
  }

  /** A call ended, sent or still waiting. */
  void ended(boolean sent) {
    (sent ? sending : waiting).decrementAndGet();
  }

  /**
   * A call's record is final ({@link ModelCall#finish}): it counts in the totals, {@link ModelCall#failed} or not,
   * with the time from its arrival to its sending (to its end, if it was never sent; never less than none, should the
   * clock be set back meanwhile).
   */
  void finished(ModelCall c) {
    ended.increment();
    if (c.failed()) failed.increment();
    waitedNanos.add(Math.max(0, java.time.Duration.between(c.arrived, c.sent != null ? c.sent : c.done).toNanos()));
  }

  /**
   * Every endpoint this process has called, by name, with its {@link Counts}. Endpoints with nothing in flight are
   * listed too, so that a display can tell an idle endpoint from one never called.
   */
  public static Map<String, Counts> now() {
    Map<String, Counts> m = new TreeMap<>();
    BY_NAME.forEach((name, l) -> m.put(name, new Counts(l.waiting.get(), l.sending.get(), l.ended.sum(),
        l.failed.sum(), l.waitedNanos.sum() / 1_000_000)));
    return m;
  }
}
