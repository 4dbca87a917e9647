package dev.h2beam.transforms.beam;

import dev.h2beam.transforms.sweep.ChainRecord;
import dev.h2beam.transforms.sweep.FinishingGroups;
import dev.h2beam.transforms.sweep.ModeOutcome;
import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskBases;
import dev.h2beam.transforms.sweep.TaskRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
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
        .apply("KeyByModeAndDomain", ParDo.of(new KeyByChainFn<TaskBases>(config.modes(), chainKeys,
            tb -> tb.ref().domain())))
        .setCoder(KvCoder.of(VarIntCoder.of(), JsonCoder.of(TaskBases.class)))
        .apply("GroupChains", GroupByKey.create())
        .apply("RunChainInStreamOrder", ParDo.of(new RunChainFn(config, chainKeys)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), JsonCoder.of(ModeOutcome.class)));
  }

  /** Each element once per requested mode, under its (mode, domain) chain's key. */
  static final class KeyByChainFn<T> extends DoFn<T, KV<Integer, T>> {
    private static final long serialVersionUID = 1L;
    private final List<String> modes;
    private final Map<String, Integer> chainKeys;
    private final SerializableFunction<T, String> domain;

    KeyByChainFn(List<String> modes, Map<String, Integer> chainKeys, SerializableFunction<T, String> domain) {
      this.modes = modes;
      this.chainKeys = chainKeys;
      this.domain = domain;
    }

    @ProcessElement public void process(@Element T element, OutputReceiver<KV<Integer, T>> out) {
      String d = domain.apply(element);
      for (String mode : modes) {
        Integer key = chainKeys.get(chain(mode, d));
        if (key == null) throw new IllegalStateException("no placement key for chain " + mode + "/" + d);
        out.output(KV.of(key, element));
      }
    }
  }

  /** What both kinds of chain DoFn share: a chain's name from its key, the mode counters, the chain record. */
  private static final class Chains implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final SweepConfig config;
    private final Map<Integer, String> chainOfKey = new HashMap<>();
    private final Counter modesRun = Metrics.counter(RunChainFn.class, "modes_run");
    private final Counter modesReplayed = Metrics.counter(RunChainFn.class, "modes_replayed");
    private transient SweepContext context;

    Chains(SweepConfig config, Map<String, Integer> chainKeys) {
      this.config = config;
      chainKeys.forEach((chain, key) -> chainOfKey.put(key, chain));
    }

    void open() {
      context = SweepContext.of(config);
    }

    SweepContext context() {
      return context;
    }

    /** Runs the chain under {@code key} of {@code tasks} tasks through {@code body}, emitting each task's outcome. */
    void run(int key, int tasks, Body body, DoFn.OutputReceiver<KV<String, ModeOutcome>> out) throws Exception {
      String[] modeDomain = chainOfKey.get(key).split("\n", 2);
      Instant started = Instant.now();
      body.run(context, modeDomain[0], modeDomain[1], outcome -> {
        (outcome.skipped() ? modesReplayed : modesRun).inc();
        out.output(KV.of(FinishingGroups.of(outcome.ref()), outcome));
      });
      ChainRecord.write(config, modeDomain[0], modeDomain[1], tasks, started, Instant.now());
    }

    interface Body {
      void run(SweepContext context, String mode, String domain, java.util.function.Consumer<ModeOutcome> emit)
          throws Exception;
    }
  }

  static final class RunChainFn extends DoFn<KV<Integer, Iterable<TaskBases>>, KV<String, ModeOutcome>> {
    private static final long serialVersionUID = 1L;
    private final Chains chains;

    RunChainFn(SweepConfig config, Map<String, Integer> chainKeys) {
      this.chains = new Chains(config, chainKeys);
    }

    @Setup public void setup() {
      chains.open();
    }

    @ProcessElement public void process(@Element KV<Integer, Iterable<TaskBases>> chain,
        OutputReceiver<KV<String, ModeOutcome>> out) throws Exception {
      List<TaskBases> tasks = new ArrayList<>();
      chain.getValue().forEach(tasks::add);
      chains.run(chain.getKey(), tasks.size(),
          (context, mode, domain, emit) -> SweepSteps.runChain(context, mode, domain, tasks, emit), out);
    }
  }

  /**
   * The chains from the task stream itself, where every chain runs in one JVM (the DirectRunner): each chain takes its
   * tasks' bases as it reaches them ({@link SweepSteps#runChainRollingBases}), so no stage of every task's bases
   * stands before the first chain step. Counts the tasks as the base stage does, once per task.
   */
  public static PTransform<PCollection<TaskRef>, PCollection<KV<String, ModeOutcome>>> rollingBases(
      SweepConfig config, Map<String, Integer> chainKeys) {
    RunChains checked = new RunChains(config, chainKeys);
    return new PTransform<>() {
      private static final long serialVersionUID = 1L;

      @Override public PCollection<KV<String, ModeOutcome>> expand(PCollection<TaskRef> tasks) {
        return tasks
            .apply("KeyByModeAndDomain", ParDo.of(new KeyByChainFn<TaskRef>(config.modes(), checked.chainKeys,
                TaskRef::domain)))
            .setCoder(KvCoder.of(VarIntCoder.of(), JsonCoder.of(TaskRef.class)))
            .apply("GroupChains", GroupByKey.create())
            .apply("RunChainRollingBases", ParDo.of(new RunChainRollingBasesFn(config, checked.chainKeys,
                UUID.randomUUID().toString())))
            .setCoder(KvCoder.of(StringUtf8Coder.of(), JsonCoder.of(ModeOutcome.class)));
      }
    };
  }

  static final class RunChainRollingBasesFn extends DoFn<KV<Integer, Iterable<TaskRef>>, KV<String, ModeOutcome>> {
    private static final long serialVersionUID = 1L;
    private final Chains chains;
    private final BaseCounts counts = new BaseCounts();
    /** This pipeline's name for its chains' hold, and how many chains it has. */
    private final String job;
    private final int chainCount;

    RunChainRollingBasesFn(SweepConfig config, Map<String, Integer> chainKeys, String job) {
      this.chains = new Chains(config, chainKeys);
      this.job = job;
      this.chainCount = chainKeys.size();
    }

    @Setup public void setup() {
      chains.open();
    }

    @ProcessElement public void process(@Element KV<Integer, Iterable<TaskRef>> chain,
        OutputReceiver<KV<String, ModeOutcome>> out) throws Exception {
      List<TaskRef> tasks = new ArrayList<>();
      chain.getValue().forEach(tasks::add);
      // held after it ends, once every chain has started: this runner's free thread would spin its monitor on a core
      // the other chains need
      chains.context().chains.hold(job, chainCount, () -> chains.run(chain.getKey(), tasks.size(),
          (context, mode, domain, emit) -> SweepSteps.runChainRollingBases(context, mode, domain, tasks, taken -> {
            // once per task: the first of its chains to take its bases counts them
            if (taken.first()) counts.count(context, taken.bases());
          }, emit), out));
    }
  }
}
