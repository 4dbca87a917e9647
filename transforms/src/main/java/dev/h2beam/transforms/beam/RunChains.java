package dev.h2beam.transforms.beam;

import dev.h2beam.transforms.sweep.ModeOutcome;
import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskBases;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Runs one ordered chain per (mode, domain): a task's improvers read the library of the earlier tasks of the same
 * mode and domain, so inside a chain tasks run one after another in stream order, while chains run in parallel.
 * Emits each task's mode outcome keyed by task id.
 */
public final class RunChains extends PTransform<PCollection<TaskBases>, PCollection<KV<String, ModeOutcome>>> {
  private static final long serialVersionUID = 1L;
  private final SweepConfig config;

  public RunChains(SweepConfig config) {
    this.config = config;
  }

  @Override public PCollection<KV<String, ModeOutcome>> expand(PCollection<TaskBases> bases) {
    return bases
        .apply("KeyByModeAndDomain", ParDo.of(new KeyByChainFn(config.modes())))
        .setCoder(KvCoder.of(KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of()), JsonCoder.of(TaskBases.class)))
        .apply("GroupChains", GroupByKey.create())
        .apply("RunChainInStreamOrder", ParDo.of(new RunChainFn(config)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), JsonCoder.of(ModeOutcome.class)));
  }

  static final class KeyByChainFn extends DoFn<TaskBases, KV<KV<String, String>, TaskBases>> {
    private static final long serialVersionUID = 1L;
    private final List<String> modes;

    KeyByChainFn(List<String> modes) {
      this.modes = modes;
    }

    @ProcessElement public void process(@Element TaskBases tb, OutputReceiver<KV<KV<String, String>, TaskBases>> out) {
      for (String mode : modes) out.output(KV.of(KV.of(mode, tb.ref().domain()), tb));
    }
  }

  static final class RunChainFn extends DoFn<KV<KV<String, String>, Iterable<TaskBases>>, KV<String, ModeOutcome>> {
    private static final long serialVersionUID = 1L;
    private final SweepConfig config;
    private final Counter modesRun = Metrics.counter(RunChainFn.class, "modes_run");
    private final Counter modesReplayed = Metrics.counter(RunChainFn.class, "modes_replayed");
    private transient SweepContext context;

    RunChainFn(SweepConfig config) {
      this.config = config;
    }

    @Setup public void setup() {
      context = SweepContext.of(config);
    }

    @ProcessElement public void process(@Element KV<KV<String, String>, Iterable<TaskBases>> chain,
        OutputReceiver<KV<String, ModeOutcome>> out) throws Exception {
      List<TaskBases> tasks = new ArrayList<>();
      chain.getValue().forEach(tasks::add);
      SweepSteps.runChain(context, chain.getKey().getKey(), chain.getKey().getValue(), tasks, outcome -> {
        (outcome.skipped() ? modesReplayed : modesRun).inc();
        out.output(KV.of(outcome.ref().task(), outcome));
      });
    }
  }
}
