package dev.h2beam.transforms.beam;

import dev.h2beam.transforms.recursion.Roller;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.TaskBases;
import java.io.Serializable;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * How a task came out of its base rollouts (resumed, rolled, every base reused from its mark, or base-failed),
 * counted once per task in the sweep's counters and its progress board. The base stage ({@link RollBases}) and the
 * chains that roll their own bases ({@link RunChains#rollingBases}) both count here, under the base stage's names, so
 * a sweep reports the same counts whichever shape ran it.
 */
final class BaseCounts implements Serializable {
  private static final long serialVersionUID = 1L;
  private final Counter resumed = Metrics.counter(RollBases.RollBasesFn.class, "tasks_resumed");
  private final Counter rolled = Metrics.counter(RollBases.RollBasesFn.class, "tasks_rolled");
  // a task whose every base rollout was complete already (their marks reused: a resume after a kill, a retry)
  private final Counter reused = Metrics.counter(RollBases.RollBasesFn.class, "tasks_bases_reused");
  private final Counter baseFailed = Metrics.counter(RollBases.RollBasesFn.class, "tasks_base_failed");

  void count(SweepContext context, TaskBases tb) {
    (tb.skipped() ? resumed : tb.baseFailed() ? baseFailed : Roller.reusedAll(tb.base()) ? reused : rolled).inc();
    context.progress.baseDone(tb.skipped(), tb.baseFailed());
  }
}
