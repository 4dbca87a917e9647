package dev.h2beam.demo;

import java.util.List;

/**
 * Lower bounds on a sweep's wall time when every rollout waits {@code executorMs} and every session
 * {@code sessionMs}, derived from how the sweep schedules its work (ARCHITECTURE.md, the sweep pipeline):
 *
 * <ul>
 *   <li>A chain starts after its first task's k base rollouts, rolled {@code w} (the phase width) at a time: on the
 *       DirectRunner the chain rolls them, and each later task's while the task before it runs; on a cluster
 *       RollBases rolls every task's before any chain starts (a GroupByKey stands between them). Either way the
 *       base phase takes {@code B = ⌈k/w⌉·Le} however many tasks run in parallel.
 *   <li>A (mode, domain) chain then runs its T tasks one after another. One task's mode is a fixed sequence of
 *       phases, each {@code ⌈n/w⌉} steps for n stages or rollouts, then a selection session (none at k = 1, where
 *       the one final is chosen without asking) and a reflection session, {@code E = (k ≥ 2 ? 2 : 1)·Ls}:
 *       parallel {@code S_agg = (⌈2k/w⌉ + ⌈k/w⌉)·(Ls + Le) + E} (2k proposals and their rollouts, k compositions
 *       and theirs); sequential {@code S_seq = k·(⌈2/w⌉ + 1)·(Ls + Le) + E} (per round INV and DOM and their
 *       rollouts, then a composition and its rollout); gated {@code S_gat = 3k·(Ls + Le) + Ls} (3k steps of one
 *       session and one rollout each, then the reflection: no selection).
 *   <li>critical path {@code = B + T_max · max over the requested modes of S_mode}, with T_max the largest domain.
 *   <li>harness2's form of it, where each task rolls its bases inside its chain:
 *       {@code T_max · (⌈k/w⌉·Le + max S_mode)}; with w ≥ 2 and Ls = Le = L, k = 3, both modes: 15·L per task.
 *   <li>session limit bound {@code = N·M·(3k + E/Ls)·Ls / sessionLimit} (3k stages, the selection and the
 *       reflection per task and mode); rollout limit bound {@code = N·(k + 3k·M)·Le / rolloutLimit}.
 * </ul>
 *
 * A session that is retried or a stage asked twice adds work the bounds do not count, so they stay lower bounds.
 */
record SweepBounds(int tasks, int maxTasksPerDomain, int k, List<String> modes, int phaseWidth, int sessionLimit,
    int rolloutLimit, double executorMs, double sessionMs) {

  SweepBounds {
    modes = List.copyOf(modes);
    if (tasks < 1 || maxTasksPerDomain < 1 || k < 1 || modes.isEmpty() || phaseWidth < 1 || sessionLimit < 1
        || rolloutLimit < 1 || executorMs < 0 || sessionMs < 0) {
      throw new IllegalArgumentException("bounds need positive counts and non-negative latencies: " + this);
    }
  }

  /** Steps a phase of {@code n} items takes at the phase width. */
  int steps(int n) {
    return (n + phaseWidth - 1) / phaseWidth;
  }

  /** Milliseconds of one task's mode ({@code agg} or {@code seq}) inside its chain. */
  double modeMs(String mode) {
    double both = sessionMs + executorMs;
    double end = closingSessions(mode) * sessionMs;
    return switch (mode) {
      case "agg" -> (steps(2 * k) + steps(k)) * both + end;
      case "seq" -> k * (steps(2) + 1) * both + end;
      case "gat" -> 3 * k * both + end;
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    };
  }

  /**
   * Sessions after a mode's stages: the selection (from k = 2; never in the gated mode, which keeps one harness) and
   * the reflection.
   */
  int closingSessions(String mode) {
    return k >= 2 && !mode.equals("gat") ? 2 : 1;
  }

  /** The mode whose chain is longest (the first of equals, in the requested order). */
  String longestMode() {
    String best = modes.get(0);
    for (String m : modes) if (modeMs(m) > modeMs(best)) best = m;
    return best;
  }

  double baseMs() {
    return steps(k) * executorMs;
  }

  double criticalPathMs() {
    return baseMs() + maxTasksPerDomain * modeMs(longestMode());
  }

  double harness2FormMs() {
    return maxTasksPerDomain * (baseMs() + modeMs(longestMode()));
  }

  long sessions() {
    long perTask = 0;
    for (String m : modes) perTask += 3L * k + closingSessions(m);
    return tasks * perTask;
  }

  long rollouts() {
    return (long) tasks * (k + 3L * k * modes.size());
  }

  double sessionLimitMs() {
    return sessions() * sessionMs / sessionLimit;
  }

  double rolloutLimitMs() {
    return rollouts() * executorMs / rolloutLimit;
  }

  /** The largest of the critical path and the two limit bounds. */
  double maxMs() {
    return Math.max(criticalPathMs(), Math.max(sessionLimitMs(), rolloutLimitMs()));
  }
}
