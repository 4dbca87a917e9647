package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.junit.jupiter.api.Test;

/** The DirectRunner's spare threads held while a last step writes, on the real runner. */
class SpareThreadsTest {
  /** The most spare threads a writer saw holding, by step. */
  static final java.util.Map<String, AtomicInteger> SEEN = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * A writer that waits (up to 60 s: the runner hands the spare threads their bundles late on a loaded machine; one
   * run beside two other builds saw one of two after 20 s) until {@code want} spare threads hold, and records how
   * many it saw.
   */
  static final class WriterFn extends DoFn<String, Void> {
    private static final long serialVersionUID = 1L;
    private final String step;
    private final int want;

    WriterFn(String step, int want) {
      this.step = step;
      this.want = want;
    }

    @ProcessElement public void process() throws Exception {
      SpareThreads.write(step, () -> {
        long end = System.nanoTime() + 60_000_000_000L;
        while (SpareThreads.holding(step) < want && System.nanoTime() < end) Thread.sleep(5);
        SEEN.computeIfAbsent(step, s -> new AtomicInteger()).accumulateAndGet(SpareThreads.holding(step), Math::max);
      });
    }
  }

  private static PipelineResult.State run(String step, int threads, int spare) {
    PipelineOptions o = PipelineOptionsFactory.fromArgs("--targetParallelism=" + threads).create();
    Pipeline p = Pipeline.create(o);
    p.apply("Once", Create.of("x").withCoder(StringUtf8Coder.of())).apply(step, ParDo.of(new WriterFn(step, spare)));
    SpareThreads.hold(p, step, SpareThreads.spare(o, 1), p.apply("Ready", Create.of(1).withCoder(VarIntCoder.of()))
        .apply("AsList", View.asList()));
    return p.run().waitUntilFinish();
  }

  /**
   * Every thread of the runner's but the writer's waits while it writes (so none spins the runner's monitor), and all
   * are let go when it ends: the pipeline finishes, no thread still holding.
   */
  @Test
  void everySpareThreadHoldsWhileTheStepWritesAndIsLetGoWhenItEnds() {
    // what is tested is the hold, not the grace: on a loaded machine the runner started the writer more than the
    // grace after a spare thread, which then let its thread go, as it should (CI run 49)
    SpareThreads.grace = Duration.ofSeconds(60);
    try {
      assertEquals(PipelineResult.State.DONE, run("WriteA", 3, 2));
    } finally {
      SpareThreads.grace = SpareThreads.GRACE;
    }
    assertEquals(2, SEEN.get("WriteA").get(), "spare threads seen holding while writing");
    assertEquals(0, SpareThreads.holding("WriteA"));
  }

  /** The spare threads are the runner's less the writers, none below none, and none on another runner. */
  @Test
  void spareThreadsAreTheRunnersLessTheWritersAndNoneElsewhere() {
    PipelineOptions o = PipelineOptionsFactory.fromArgs("--targetParallelism=3").create();
    assertEquals(2, SpareThreads.spare(o, 1));
    assertEquals(0, SpareThreads.spare(o, 5));
    o.setRunner(DirectThreadsTest.NotDirect.class);
    assertEquals(0, SpareThreads.spare(o, 1));
    Pipeline p = Pipeline.create(PipelineOptionsFactory.create());
    SpareThreads.hold(p, "None", 0, null);
    List<String> transforms = new java.util.ArrayList<>();
    p.traverseTopologically(new Pipeline.PipelineVisitor.Defaults() {
      @Override public void visitPrimitiveTransform(org.apache.beam.sdk.runners.TransformHierarchy.Node node) {
        transforms.add(node.getFullName());
      }
    });
    assertTrue(transforms.isEmpty(), "no thread to hold adds nothing: " + transforms);
  }
}
