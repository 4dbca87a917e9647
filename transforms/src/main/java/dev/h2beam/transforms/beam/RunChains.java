package dev.h2beam.transforms.beam;

import dev.h2beam.transforms.sweep.ChainRecord;
import dev.h2beam.transforms.sweep.ModeOutcome;
import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskBases;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
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
 * Each chain is grouped under the integer key its placement gives it (the runner decides where a key runs, and the
 * caller chooses keys that spread chains evenly over the worker slots). Emits each task's mode outcome keyed by task
 * id.
 */
public final class RunChains extends PTransform<PCollection<TaskBases>, PCollection<KV<String, ModeOutcome>>> {
  private static final long serialVersionUID = 1L;
  private final SweepConfig config;
  private final Map<String, Integer> chainKeys;

  /**
   * @param chainKeys a distinct key per chain, by {@link #chain}; every chain of the stream must have one
   */
  public RunChains(SweepConfig config, Map<String, Integer> chainKeys) {
    this.config = config;
    this.chainKeys = new HashMap<>(chainKeys);
    if (this.chainKeys.size() != this.chainKeys.values().stream().distinct().count()) {
      throw new IllegalArgumentException("two chains share a placement key: " + chainKeys);
    }
  }

  /** The name a chain's placement key is given under. */
  public static String chain(String mode, String domain) {
    return mode + "\n" + domain;
  }

  @Override public PCollection<KV<String, ModeOutcome>> expand(PCollection<TaskBases> bases) {
    return bases
        .apply("KeyByModeAndDomain", ParDo.of(new KeyByChainFn(config.modes(), chainKeys)))
        .setCoder(KvCoder.of(VarIntCoder.of(), JsonCoder.of(TaskBases.class)))
        .apply("GroupChains", GroupByKey.create())
        .apply("RunChainInStreamOrder", ParDo.of(new RunChainFn(config, chainKeys)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), JsonCoder.of(ModeOutcome.class)));
  }

  static final class KeyByChainFn extends DoFn<TaskBases, KV<Integer, TaskBases>> {
    private static final long serialVersionUID = 1L;
    private final List<String> modes;
    private final Map<String, Integer> chainKeys;

    KeyByChainFn(List<String> modes, Map<String, Integer> chainKeys) {
      this.modes = modes;
      this.chainKeys = chainKeys;
    }

    @ProcessElement public void process(@Element TaskBases tb, OutputReceiver<KV<Integer, TaskBases>> out) {
      for (String mode : modes) {
        Integer key = chainKeys.get(chain(mode, tb.ref().domain()));
        if (key == null) throw new IllegalStateException("no placement key for chain " + mode + "/" + tb.ref().domain());
        out.output(KV.of(key, tb));
      }
    }
  }

  static final class RunChainFn extends DoFn<KV<Integer, Iterable<TaskBases>>, KV<String, ModeOutcome>> {
    private static final long serialVersionUID = 1L;
    private final SweepConfig config;
    private final Map<Integer, String> chainOfKey = new HashMap<>();
    private final Counter modesRun = Metrics.counter(RunChainFn.class, "modes_run");
    private final Counter modesReplayed = Metrics.counter(RunChainFn.class, "modes_replayed");
    private transient SweepContext context;

    RunChainFn(SweepConfig config, Map<String, Integer> chainKeys) {
      this.config = config;
      chainKeys.forEach((chain, key) -> chainOfKey.put(key, chain));
    }

    @Setup public void setup() {
      context = SweepContext.of(config);
    }

    @ProcessElement public void process(@Element KV<Integer, Iterable<TaskBases>> chain,
        OutputReceiver<KV<String, ModeOutcome>> out) throws Exception {
      List<TaskBases> tasks = new ArrayList<>();
      chain.getValue().forEach(tasks::add);
      String[] modeDomain = chainOfKey.get(chain.getKey()).split("\n", 2);
      Instant started = Instant.now();
      SweepSteps.runChain(context, modeDomain[0], modeDomain[1], tasks, outcome -> {
        (outcome.skipped() ? modesReplayed : modesRun).inc();
        out.output(KV.of(outcome.ref().task(), outcome));
      });
      ChainRecord.write(config, modeDomain[0], modeDomain[1], tasks.size(), started, Instant.now());
    }
  }
}
