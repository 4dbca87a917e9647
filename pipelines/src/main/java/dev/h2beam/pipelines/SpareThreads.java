package dev.h2beam.pipelines;

import dev.h2beam.transforms.beam.FinishedChains;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollectionView;

/**
 * The DirectRunner's threads held while a pipeline's last step writes on fewer threads than the runner has. That
 * runner's monitor is a task on its own fixed pool that resubmits itself with no wait (apache/beam#18070), so every
 * thread with no bundle to run spins it on a core ({@link DirectThreads}): while the report's one writing step built
 * and wrote the report, or the judge's wrote a namespace of 20,000 tasks, the pool's other threads took a core from
 * it and from the common pool's thread that makes the files' parts ahead of it. A writing step runs its work in
 * {@link #write}; {@link #hold} adds threads that, once {@code ready} is (a side input made from what the writers
 * read, so that they never take a thread from the work before), wait for the writing to start ({@link #GRACE} at
 * most), then until it ends. Writers of one step wait for each other the same way. Nothing is added on other runners.
 */
public final class SpareThreads {
  private SpareThreads() {}

  /**
   * How long a spare thread waits for the writing step to start before it lets its thread go: {@link #GRACE}, longer
   * only in a test that must see every spare thread hold on a loaded machine, where the runner may start the writer
   * more than a second after a spare thread (CI run 49).
   */
  static volatile Duration grace = Duration.ofSeconds(1);

  /** The grace of a spare thread unless a test set another ({@link #grace}). */
  static final Duration GRACE = Duration.ofSeconds(1);

  /** Each writing step's writers in this JVM, by the step's name. */
  private static final Map<String, FinishedChains> WRITERS = new ConcurrentHashMap<>();
  /** Each writing step's spare threads holding now, by the step's name. */
  private static final Map<String, AtomicInteger> HOLDING = new ConcurrentHashMap<>();

  /** The writers of {@code step} in this JVM (for {@link #write} and tests). */
  public static FinishedChains writers(String step) {
    return WRITERS.computeIfAbsent(step, s -> new FinishedChains());
  }

  /** The spare threads of {@code step} holding now in this JVM (for tests). */
  static int holding(String step) {
    AtomicInteger n = HOLDING.get(step);
    return n == null ? 0 : n.get();
  }

  /** Runs one writer's work of {@code step}, then holds its thread until the step's other writers have finished. */
  public static void write(String step, FinishedChains.Chain work) throws Exception {
    writers(step).hold(work);
  }

  /** The runner's threads less {@code writers} on the DirectRunner (none below 0); 0 on other runners. */
  public static int spare(PipelineOptions o, int writers) {
    return DirectThreads.isDirect(o) ? Math.max(0, o.as(DirectOptions.class).getTargetParallelism() - writers) : 0;
  }

  /** Adds {@code spare} threads held for {@code step}'s writers once {@code ready} is; nothing for none. */
  public static void hold(Pipeline p, String step, int spare, PCollectionView<?> ready) {
    if (spare < 1) return;
    List<Integer> each = new ArrayList<>();
    for (int i = 0; i < spare; i++) each.add(i);
    p.apply("SpareThreadsOf" + step, Create.of(each).withCoder(VarIntCoder.of()))
        .apply("HoldSpareThreadsOf" + step, ParDo.of(new HoldFn(step)).withSideInputs(ready));
  }

  /** One spare thread's wait; its side input is never read, only waited for by the runner. */
  static final class HoldFn extends DoFn<Integer, Void> {
    private static final long serialVersionUID = 1L;
    private final String step;

    HoldFn(String step) {
      this.step = step;
    }

    @ProcessElement public void process() {
      AtomicInteger holding = HOLDING.computeIfAbsent(step, s -> new AtomicInteger());
      holding.incrementAndGet();
      try {
        writers(step).idle(grace);
      } finally {
        holding.decrementAndGet();
      }
    }
  }
}
