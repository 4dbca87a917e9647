package dev.h2beam.transforms.beam;

import dev.h2beam.transforms.sweep.FinishingGroups;
import dev.h2beam.transforms.sweep.ModeOutcome;
import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskRow;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VoidCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Waits for every mode of a task, then writes its final status into summary.json and emits its row, keyed for
 * {@link WriteSweepRecord} to gather with every other (one key for all). Keyed here, not by a step of its own: on
 * the DirectRunner each key's group is a bundle of its own, and a step that only keyed them cost a translation of
 * that step per bundle, about a percent of a sweep's CPU at L = 0 (BENCHMARKS.md, issue 11).
 *
 * <p>The modes' outcomes arrive keyed by their task's finishing group ({@link FinishingGroups}), not by task; a group
 * waits for its tasks' every mode as a task did for its own, and every group still finishes when the last chain does,
 * on bounded input.
 */
public final class FinishTasks
    extends PTransform<PCollection<KV<String, ModeOutcome>>, PCollection<KV<Void, TaskRow>>> {
  private static final long serialVersionUID = 1L;
  private final SweepConfig config;

  public FinishTasks(SweepConfig config) {
    this.config = config;
  }

  @Override public PCollection<KV<Void, TaskRow>> expand(PCollection<KV<String, ModeOutcome>> outcomes) {
    return outcomes
        .apply("GroupModesByTask", GroupByKey.create())
        .apply("FinishTask", ParDo.of(new FinishTaskFn(config)))
        .setCoder(KvCoder.of(VoidCoder.of(), JsonCoder.of(TaskRow.class)));
  }

  static final class FinishTaskFn extends DoFn<KV<String, Iterable<ModeOutcome>>, KV<Void, TaskRow>> {
    private static final long serialVersionUID = 1L;
    private final SweepConfig config;
    private final Counter done = Metrics.counter(FinishTaskFn.class, "tasks_done");
    private final Counter failed = Metrics.counter(FinishTaskFn.class, "tasks_failed");
    private transient SweepContext context;

    FinishTaskFn(SweepConfig config) {
      this.config = config;
    }

    @Setup public void setup() {
      context = SweepContext.of(config);
    }

    @ProcessElement public void process(@Element KV<String, Iterable<ModeOutcome>> group,
        OutputReceiver<KV<Void, TaskRow>> out) throws Exception {
      for (List<ModeOutcome> outcomes : FinishingGroups.tasks(group.getValue())) {
        TaskRow row = SweepSteps.finish(context, outcomes.get(0).ref(), outcomes);
        (row.done() ? done : failed).inc();
        out.output(KV.of((Void) null, row));
      }
      // this worker's board, with its usage, follows its last step of the sweep (a bench on a cluster reads it)
      context.progress.stepDone();
    }
  }
}
