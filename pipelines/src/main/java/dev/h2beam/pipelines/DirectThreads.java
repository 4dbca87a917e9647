package dev.h2beam.pipelines;

import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The DirectRunner's thread count fitted to a pipeline. The runner keeps a fixed pool of {@code --targetParallelism}
 * threads and schedules itself on it: a monitor task that, whenever a thread is free, runs and resubmits itself with
 * no wait (Beam 2.70's {@code ExecutorServiceParallelExecutor}; apache/beam#18070, open). A thread that no bundle
 * can use therefore does not idle: it spins the monitor on a core. A pipeline that never has more than {@code widest}
 * bundles to run at once gains nothing from more threads than that and loses a core to each run's monitor, so the
 * pool is cut to it; on a 2-core machine that was a fifth of the demo sweep's wall time.
 */
public final class DirectThreads {
  private DirectThreads() {}

  /**
   * Sets the DirectRunner's thread count to at least {@code atLeast} (work that holds a thread for long and must not
   * queue behind other such work) and at most {@code widest} (the most bundles any stage can have at once); no
   * effect on another runner.
   */
  public static void fit(PipelineOptions o, int atLeast, int widest) {
    if (!isDirect(o)) return;
    DirectOptions d = o.as(DirectOptions.class);
    int threads = Math.min(Math.max(d.getTargetParallelism(), atLeast), Math.max(widest, atLeast));
    d.setTargetParallelism(Math.max(1, threads));
  }

  /** Whether {@code o} runs on the DirectRunner. */
  public static boolean isDirect(PipelineOptions o) {
    return o.getRunner() != null && o.getRunner().getSimpleName().equals("DirectRunner");
  }
}
