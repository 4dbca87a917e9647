package dev.h2beam.transforms.ledger;

import dev.h2beam.adapters.model.Tokens;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The budget ledger of one mode of one task (spec §2.8): an append-only list of rollout and session entries. Entries
 * are recorded in list order after each concurrent phase drains, so the ledger is the same whatever the thread timing.
 */
public final class Ledger {

  /**
   * One spend: a rollout or an improver session; {@code known} false when {@code usd} is only part of it, and the
   * model tokens it spent ({@link Tokens}, with its own mark of whether they are all of it).
   */
  public record Entry(String kind, String label, double usd, boolean cached, int attempts, boolean known,
      Tokens tokens) {}

  /** A session's attempts when they are not known (it ended in an exception that reported none). */
  public static final int ATTEMPTS_UNKNOWN = -1;

  private final String mode;
  private final String taskId;
  private final int k;
  private final List<Entry> entries = new ArrayList<>();

  public Ledger(String mode, String taskId, int k) {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, got " + k);
    this.mode = mode;
    this.taskId = taskId;
    this.k = k;
  }

  /** A rollout and the executor's spend on it (0 for executors that spend nothing measurable). */
  public synchronized void rollout(String label, double usd) {
    rollout(label, usd, true);
  }

  /** A rollout whose spend may be only partly known ({@code known} false: {@code usd} is what is known of it). */
  public synchronized void rollout(String label, double usd, boolean known) {
    rollout(label, usd, known, Tokens.UNKNOWN);
  }

  /** A rollout with the model tokens it spent. */
  public synchronized void rollout(String label, double usd, boolean known, Tokens tokens) {
    entries.add(new Entry("rollout", label, usd, false, 1, known, tokens));
  }

  public synchronized void session(String label, double usd, boolean cached, int attempts) {
    session(label, usd, cached, attempts, true);
  }

  /** A session whose spend may be only partly known ({@code known} false: {@code usd} is what is known of it). */
  public synchronized void session(String label, double usd, boolean cached, int attempts, boolean known) {
    session(label, usd, cached, attempts, known, Tokens.UNKNOWN);
  }

  /** A session with the model tokens it spent (a cached one: those of the session that made its reply). */
  public synchronized void session(String label, double usd, boolean cached, int attempts, boolean known,
      Tokens tokens) {
    entries.add(new Entry("session", label, usd, cached, attempts, known, tokens));
  }

  /** The labels of {@code kind} whose spend is not all known, in recording order. */
  public synchronized List<String> unknownCost(String kind) {
    return labels(kind, e -> !e.known);
  }

  /** The labels of {@code kind} whose model tokens are not all known, in recording order. */
  public synchronized List<String> unknownTokens(String kind) {
    return labels(kind, e -> !e.tokens.known());
  }

  /** The model tokens of every entry: what was counted, known only when every entry's are. */
  public synchronized Tokens tokens() {
    Tokens sum = Tokens.NONE;
    for (Entry e : entries) sum = sum.plus(e.tokens);
    return sum;
  }

  public synchronized List<String> labels(String kind) {
    return labels(kind, e -> true);
  }

  private List<String> labels(String kind, Predicate<Entry> which) {
    List<String> out = new ArrayList<>();
    for (Entry e : entries) if (e.kind.equals(kind) && which.test(e)) out.add(e.label);
    return out;
  }

  /**
   * {@code {"rollouts": [labels], "sessions": [labels]}} of the entries {@code notKnown} picks, in recording order, or
   * null when it picks none.
   */
  private Map<String, Object> notKnown(Predicate<Entry> notKnown) {
    List<String> rollouts = labels("rollout", notKnown);
    List<String> sessions = labels("session", notKnown);
    if (rollouts.isEmpty() && sessions.isEmpty()) return null;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("rollouts", rollouts);
    m.put("sessions", sessions);
    return m;
  }

  public int rolloutCount() {
    return labels("rollout").size();
  }

  public int sessionCount() {
    return labels("session").size();
  }

  public int expectedRollouts() {
    return rollouts(k);
  }

  public int expectedSessions() {
    return sessions(k);
  }

  /** The rollouts every mode spends per task at {@code k}: R = 4k. */
  public static int rollouts(int k) {
    return 4 * k;
  }

  /** The improver sessions every mode spends per task at {@code k}: P = 3k. */
  public static int sessions(int k) {
    return 3 * k;
  }

  /**
   * Fails unless R == 4k, P == 3k and no label repeats within a kind. Duplicates are checked first, because
   * duplicates could otherwise satisfy the counts.
   */
  public synchronized void assertIdentity() {
    List<String> rollouts = labels("rollout");
    List<String> sessions = labels("session");
    Set<String> dups = new LinkedHashSet<>();
    dups.addAll(duplicates(rollouts));
    dups.addAll(duplicates(sessions));
    boolean countsOk = rollouts.size() == expectedRollouts() && sessions.size() == expectedSessions();
    if (!dups.isEmpty() || !countsOk) {
      throw new BudgetError(String.format(
          "%s ledger of %s at k=%d is off budget: R=%d (want %d), P=%d (want %d); rollouts %s; sessions %s;"
              + " duplicate labels %s",
          mode, taskId, k, rollouts.size(), expectedRollouts(), sessions.size(), expectedSessions(), rollouts,
          sessions, new ArrayList<>(dups)));
    }
  }

  private static List<String> duplicates(List<String> labels) {
    Set<String> seen = new LinkedHashSet<>();
    List<String> dups = new ArrayList<>();
    for (String l : labels) if (!seen.add(l) && !dups.contains(l)) dups.add(l);
    return dups;
  }

  /**
   * The ledger's JSON in the key order of spec §2.8. The sums are what is known; when an entry's spend is not all
   * known, {@code cost_unknown} follows: {@code {"rollouts": [labels], "sessions": [labels]}}, so that a reader never
   * takes the sums for the whole (absent when every spend is known, as in harness2's files). Then h2beam's own
   * {@code tokens}: {@code {"input": n, "output": n}}, the model tokens every entry spent as far as they were counted
   * (0 and 0 for work that calls no model), and when some entry's are not all counted, {@code tokens_unknown} with
   * the same shape as {@code cost_unknown}: the sums are then only part, never the whole.
   *
   * <p>{@code session_attempts} sums the attempts of the sessions whose attempts are known ({@link #ATTEMPTS_UNKNOWN}
   * marks the others, listed in h2beam's {@code attempts_unknown}). Its readers take {@code session_attempts - P} for
   * the retries, which holds only while every session made at least one attempt; when one made none (a step that
   * asked for no session, a stage whose evidence could not be built), h2beam's {@code session_retries} follows with
   * the attempts beyond each session's first, so that a ledger that needs it says it and the others stay as they were.
   */
  public synchronized Map<String, Object> toJson() {
    double usd = 0;
    double rolloutUsd = 0;
    double sessionUsd = 0;
    int attempts = 0;
    int retries = 0;
    boolean noAttempt = false;
    for (Entry e : entries) {
      usd += e.usd;
      if (e.kind.equals("rollout")) rolloutUsd += e.usd;
      else {
        sessionUsd += e.usd;
        if (e.attempts == ATTEMPTS_UNKNOWN) continue;
        attempts += e.attempts;
        retries += Math.max(0, e.attempts - 1);
        noAttempt |= e.attempts == 0;
      }
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", mode);
    m.put("task_id", taskId);
    m.put("k", k);
    m.put("R", labels("rollout").size());
    m.put("expected_R", expectedRollouts());
    m.put("P", labels("session").size());
    m.put("session_attempts", attempts);
    m.put("expected_P", expectedSessions());
    m.put("usd", round6(usd));
    m.put("rollout_usd", round6(rolloutUsd));
    m.put("session_usd", round6(sessionUsd));
    m.put("rollouts", labels("rollout"));
    m.put("sessions", labels("session"));
    Map<String, Object> costUnknown = notKnown(e -> !e.known);
    if (costUnknown != null) m.put("cost_unknown", costUnknown);
    m.put("tokens", tokens().toJson());
    Map<String, Object> tokensUnknown = notKnown(e -> !e.tokens.known());
    if (tokensUnknown != null) m.put("tokens_unknown", tokensUnknown);
    if (noAttempt) m.put("session_retries", retries);
    List<String> attemptsUnknown = labels("session", e -> e.attempts == ATTEMPTS_UNKNOWN);
    if (!attemptsUnknown.isEmpty()) m.put("attempts_unknown", attemptsUnknown);
    return m;
  }

  /** Rounds to 6 decimals as Python's round(v, 6) does: half-even on the exact binary value. */
  public static double round6(double v) {
    return new BigDecimal(v).setScale(6, RoundingMode.HALF_EVEN).doubleValue();
  }
}
