package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

class DirectThreadsTest {

  static int fitted(String[] args, int atLeast, int widest) {
    PipelineOptions o = PipelineOptionsFactory.fromArgs(args).create();
    DirectThreads.fit(o, atLeast, widest);
    return o.as(DirectOptions.class).getTargetParallelism();
  }

  @Test
  void threadsNoBundleCouldUseAreCut() {
    // two tasks and two chains: Beam's default of max(cores, 3) would leave a thread to spin the monitor
    assertEquals(2, fitted(new String[] {"--targetParallelism=3"}, 2, 2));
    assertEquals(2, fitted(new String[] {"--targetParallelism=8"}, 2, 2), "an asked-for count is cut too");
    assertEquals(1, fitted(new String[] {"--targetParallelism=4"}, 1, 1));
  }

  @Test
  void everyLongHeldBundleGetsAThread() {
    // 16 chains of 40 tasks: every chain runs at once whatever the default
    assertEquals(16, fitted(new String[] {"--targetParallelism=3"}, 16, 40));
    assertEquals(20, fitted(new String[] {"--targetParallelism=20"}, 16, 40), "more, when asked, up to the widest");
    assertEquals(5, fitted(new String[] {"--targetParallelism=3"}, 5, 2), "never fewer than the long-held bundles");
  }

  @Test
  void anEmptyPipelineStillHasAThreadAndOtherRunnersAreLeftAlone() {
    assertEquals(1, fitted(new String[] {"--targetParallelism=3"}, 0, 0));
    PipelineOptions o = PipelineOptionsFactory.fromArgs("--targetParallelism=3").create();
    o.setRunner(NotDirect.class);
    DirectThreads.fit(o, 1, 1);
    assertEquals(3, o.as(DirectOptions.class).getTargetParallelism());
  }

  /** A runner that is not the DirectRunner, by name, as {@link DirectThreads} tells them apart. */
  abstract static class NotDirect extends org.apache.beam.sdk.PipelineRunner<org.apache.beam.sdk.PipelineResult> {}
}
