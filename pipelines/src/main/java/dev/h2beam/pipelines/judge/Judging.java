package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Judges one selection (spec §13.1): a selection that did not complete is never sent to the grader; a chosen run
 * that is gone, or whose evidence changed since its rollout ({@link EvidenceCheck}), is not graded; a grader that
 * throws, answers nothing,
 * answers something that is not a score, or does not answer in time gives an ungraded row with its reason.
 */
public final class Judging {
  private Judging() {}

  public static final String SELECTION_FAILED = "selection did not complete successfully";

  /** Judges one selection with no limit on the calls of its grader that are not in process. */
  public static JudgedRow judge(SelectionItem s, Grader grader, Duration timeout, ExecutorService pool) {
    return judge(s, grader, timeout, pool, UNLIMITED, seen -> {});
  }

  private static final Semaphore UNLIMITED = new Semaphore(Integer.MAX_VALUE);

  /** Whether the last chosen run this thread looked at had a marker that is a regular file. */
  private static final ThreadLocal<boolean[]> LAST_MARKED = ThreadLocal.withInitial(() -> new boolean[1]);

  /**
   * Judges one selection. A grader {@linkplain Grader#inProcess in process} is called on the caller's thread, under
   * whatever permit the caller holds; any other is called on a thread of {@code pool} under a permit of
   * {@code limit} that the call takes for itself and keeps until it really ends ({@link #start}), while the caller
   * waits for it up to {@code timeout} and then abandons it: so the caller must hold none of {@code limit}'s
   * permits, or it would wait for one while it holds one. {@code seen} is given what the checks saw of the chosen
   * run (nothing when the selection did not complete), for the metric vector.
   */
  static JudgedRow judge(SelectionItem s, Grader grader, Duration timeout, ExecutorService pool, Semaphore limit,
      Consumer<MetricVector.Seen> seen) {
    return judge(s, grader, timeout, pool, limit, seen, 0, null);
  }

  /**
   * As {@link #judge(SelectionItem, Grader, Duration, ExecutorService, Semaphore, Consumer)}, and, when
   * {@code served} is not null and the grader {@linkplain Grader#keepsGrades keeps its grades}, the grade of this
   * {@code repeat} is served from what a judge that stopped kept ({@link KeptGrades}), {@code served} then given the
   * repeat, or else kept as soon as it is graded.
   */
  static JudgedRow judge(SelectionItem s, Grader grader, Duration timeout, ExecutorService pool, Semaphore limit,
      Consumer<MetricVector.Seen> seen, int repeat, IntConsumer served) {
    if (s.unrun() != null) return absent(s, s.unrun(), s.mode() + ": " + s.unrunWhy());
    if (!s.ok()) return absent(s, Absence.SELECTION_FAILED, SELECTION_FAILED);
    Path runDir = Paths.get(s.runDir());
    Optional<String> changed;
    // a run h2beam made has a marker; for any other, the last run this thread looked at tells (runs of one namespace
    // are alike): only which probe goes first depends on it
    boolean[] lastMarked = LAST_MARKED.get();
    EvidenceCheck.Marker marker = EvidenceCheck.lookAtMarker(runDir, s.markerRequired() || lastMarked[0]);
    lastMarked[0] = marker == EvidenceCheck.Marker.FILE;
    if (marker == EvidenceCheck.Marker.NO_RUN_DIR) {
      seen.accept(MetricVector.Seen.NO_RUN_DIR);
      return absent(s, Absence.RUN_MISSING, "the chosen run directory " + runDir + " is missing");
    }
    JsonNode[] checked = new JsonNode[1];
    try {
      changed = EvidenceCheck.changed(s, runDir, marker, mark -> {
        checked[0] = mark;
        seen.accept(MetricVector.Seen.of(mark));
      });
    } catch (IOException e) {
      changed = Optional.of("its deliverables cannot be read: " + e.getMessage());
    }
    if (changed.isPresent()) return absent(s, Absence.EVIDENCE_CHANGED, changed.get());
    KeptGrades.Grade kept = served == null || !grader.keepsGrades() ? null
        : KeptGrades.of(s, KeptGrades.evidence(runDir, checked[0]), grader.identity(), repeat);
    Optional<Map<String, Object>> earlier = kept == null ? Optional.empty() : kept.served();
    if (earlier.isPresent()) {
      served.accept(repeat);
      return scored(s, earlier);
    }
    JudgedRow row = called(s, grader, runDir, timeout, pool, limit);
    // only a usable grade is kept: a failed one is tried again
    if (kept != null && row.graded()) kept.keep(row.raw());
    return row;
  }

  /** The row of one call of the grader, on the caller's thread or on one of {@code pool}'s ({@link #judge}). */
  private static JudgedRow called(SelectionItem s, Grader grader, Path runDir, Duration timeout, ExecutorService pool,
      Semaphore limit) {
    Optional<Map<String, Object>> score;
    if (grader.inProcess()) {
      try {
        score = grader.score(runDir, s.taskId());
      } catch (Exception e) {
        return failed(s, e);
      }
      return scored(s, score);
    }
    Future<Optional<Map<String, Object>>> f = null;
    try {
      f = start(() -> grader.score(runDir, s.taskId()), pool, limit);
      score = f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      return absent(s, Absence.JUDGE_TIMEOUT, "judge timed out after " + timeout.toSeconds() + "s");
    } catch (ExecutionException e) {
      return failed(s, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      // a call interrupted before it began was cancelled by start
      if (f != null) f.cancel(true);
      return absent(s, Absence.JUDGE_FAILED, "interrupted while waiting for the judge");
    }
    return scored(s, score);
  }

  /**
   * Starts {@code call} on a thread of {@code pool} under a permit of {@code limit}, which it waits for first, and
   * returns once the call has begun: the timeout is the grader's, so it counts from there (a call that a busy pool
   * had not begun yet would be given up unrun). The permit is given back when the call really ends (before its
   * result can be seen), or when it never runs (refused by the pool, or cancelled before it began because the caller
   * was interrupted): a call that is cancelled at the timeout but runs on keeps its permit, so the limit bounds the
   * calls that really run. {@code pool} must run every task it accepts.
   */
  private static <T> Future<T> start(Callable<T> call, ExecutorService pool, Semaphore limit)
      throws InterruptedException {
    limit.acquireUninterruptibly();
    AtomicBoolean given = new AtomicBoolean();
    Runnable giveBack = () -> {
      if (given.compareAndSet(false, true)) limit.release();
    };
    CountDownLatch begun = new CountDownLatch(1);
    FutureTask<T> task = new FutureTask<>(() -> {
      begun.countDown();
      try {
        return call.call();
      } finally {
        giveBack.run();
      }
    });
    boolean accepted = false;
    try {
      pool.execute(() -> {
        try {
          task.run();
        } finally {
          giveBack.run();
        }
      });
      accepted = true;
    } finally {
      if (!accepted) giveBack.run();
    }
    try {
      begun.await();
    } catch (InterruptedException e) {
      task.cancel(true);
      throw e;
    }
    return task;
  }

  /** The row of a grader's result: graded when it is a usable score, else an absence saying why. */
  private static JudgedRow scored(SelectionItem s, Optional<Map<String, Object>> score) {
    if (score == null || score.isEmpty() || score.get().isEmpty()) {
      return absent(s, Absence.JUDGE_FAILED, "judge returned nothing");
    }
    Map<String, Object> raw = score.get();
    Object passed = raw.get("n_passed");
    Object criteria = raw.get("n_criteria");
    if (!(passed instanceof Number p) || !(criteria instanceof Number c) || c.doubleValue() <= 0
        || p.doubleValue() < 0 || p.doubleValue() > c.doubleValue()) {
      return new JudgedRow(s.namespace(), s.taskId(), s.mode(), s.k(), s.label(), s.runId(), s.chosenIsBase(),
          null, null, false, raw, "judge returned no usable score (n_passed " + passed + ", n_criteria " + criteria
              + ")", Absence.JUDGE_FAILED.code);
    }
    boolean allPass = raw.containsKey("all_pass") ? truthy(raw.get("all_pass"))
        : p.doubleValue() == c.doubleValue();
    return new JudgedRow(s.namespace(), s.taskId(), s.mode(), s.k(), s.label(), s.runId(), s.chosenIsBase(), p, c,
        allPass, raw, "", null);
  }

  /**
   * Grades the selection {@code repeats} times (a stochastic judge disagrees with itself) and merges the repeats into
   * one row: {@code n_passed} and {@code n_criteria} the means over the graded repeats, {@code all_pass} when more
   * than half of them passed, and in {@code raw} every repeat's score ({@code repeat_scores}, null for one that
   * failed), their sample standard deviation ({@code repeat_sd}, null under two graded repeats) and every repeat's own
   * raw data. When no repeat is graded the row is the first repeat's absence, with every repeat's error, absence and
   * cost under {@code repeat_raw}. Each repeat is one call
   * ({@link #judge(SelectionItem, Grader, Duration, ExecutorService, Semaphore, Consumer)}), and {@code seen} is given
   * what each saw (the last one stands).
   */
  static JudgedRow repeated(SelectionItem s, Grader grader, Duration timeout, ExecutorService pool, Semaphore limit,
      int repeats, Consumer<MetricVector.Seen> seen) {
    return repeated(s, grader, timeout, pool, limit, repeats, seen, null);
  }

  /** The same, each repeat's grade served or kept as {@link #judge} serves or keeps it when {@code served} is given. */
  static JudgedRow repeated(SelectionItem s, Grader grader, Duration timeout, ExecutorService pool, Semaphore limit,
      int repeats, Consumer<MetricVector.Seen> seen, IntConsumer served) {
    if (repeats <= 1) return judge(s, grader, timeout, pool, limit, seen, 0, served);
    List<JudgedRow> rows = new ArrayList<>();
    for (int i = 0; i < repeats; i++) rows.add(judge(s, grader, timeout, pool, limit, seen, i, served));
    List<JudgedRow> graded = rows.stream().filter(JudgedRow::graded).toList();
    if (graded.isEmpty()) {
      // the first repeat's absence, with every repeat's own (what each cost, where it says)
      JudgedRow first = rows.get(0);
      Map<String, Object> raw = new LinkedHashMap<>();
      raw.put("repeats", repeats);
      raw.put("repeats_graded", 0);
      raw.put("repeat_raw", rows.stream().map(Judging::ungradedRaw).toList());
      return new JudgedRow(first.namespace(), first.taskId(), first.mode(), first.k(), first.label(), first.runId(),
          first.chosenIsBase(), null, null, false, raw, first.error(), first.absence());
    }
    double passed = 0;
    double criteria = 0;
    int passes = 0;
    for (JudgedRow r : graded) {
      passed += r.nPassed().doubleValue();
      criteria += r.nCriteria().doubleValue();
      if (Boolean.TRUE.equals(r.allPass())) passes++;
    }
    List<Object> scores = new ArrayList<>();
    List<Object> raws = new ArrayList<>();
    double mean = 0;
    for (JudgedRow r : rows) {
      scores.add(r.frac());
      raws.add(r.graded() ? r.raw() : ungradedRaw(r));
      if (r.graded()) mean += r.frac() / graded.size();
    }
    Double sd = null;
    if (graded.size() >= 2) {
      double ss = 0;
      for (JudgedRow r : graded) ss += (r.frac() - mean) * (r.frac() - mean);
      sd = Math.sqrt(ss / (graded.size() - 1));
    }
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("repeats", repeats);
    raw.put("repeats_graded", graded.size());
    raw.put("repeat_scores", scores);
    raw.put("repeat_sd", sd);
    raw.put("repeat_raw", raws);
    JudgedRow first = graded.get(0);
    return new JudgedRow(s.namespace(), s.taskId(), s.mode(), s.k(), s.label(), s.runId(), s.chosenIsBase(),
        passed / graded.size(), criteria / graded.size(), passes * 2 > graded.size(), raw,
        graded.size() < repeats ? (repeats - graded.size()) + " of " + repeats + " repeats failed: " + rows.stream()
            .filter(r -> !r.graded()).findFirst().map(JudgedRow::error).orElse("") : first.error(), null);
  }

  /** A repeat that was not graded, as {@code repeat_raw} keeps it: its error, absence and cost when known. */
  private static Map<String, Object> ungradedRaw(JudgedRow r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("error", r.error());
    m.put("absence", r.absence());
    if (r.raw().get("judge_cost_usd") instanceof Number cost) m.put("judge_cost_usd", cost);
    return m;
  }

  private static boolean truthy(Object o) {
    if (o instanceof Boolean b) return b;
    if (o instanceof Number n) return n.doubleValue() != 0;
    if (o instanceof String str) return !str.isEmpty();
    return o != null;
  }

  /** The row of a grade that failed: the grader's error, and what its model calls cost when it says. */
  private static JudgedRow failed(SelectionItem s, Throwable e) {
    String error = e.getClass().getSimpleName() + ": " + e.getMessage();
    if (!(e instanceof JudgeModelFailure f) || f.costUsd == null) return absent(s, Absence.JUDGE_FAILED, error);
    return new JudgedRow(s.namespace(), s.taskId(), s.mode(), s.k(), s.label(), s.runId(), s.chosenIsBase(), null,
        null, false, Map.of("judge_cost_usd", f.costUsd), error, Absence.JUDGE_FAILED.code);
  }

  static JudgedRow absent(SelectionItem s, Absence a, String error) {
    return JudgedRow.absent(s.namespace(), s.taskId(), s.mode(), s.k(), s.label(), s.runId(), s.chosenIsBase(), a,
        error);
  }
}
