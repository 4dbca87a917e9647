package dev.h2beam.transforms.beam;

import dev.h2beam.transforms.sweep.ModeOutcome;
import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskRow;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/** Waits for every mode of a task, then writes its final status into summary.json and emits its row. */
public final class FinishTasks extends PTransform<PCollection<KV<String, ModeOutcome>>, PCollection<TaskRow>> {
  private static final long serialVersionUID = 1L;
  private final SweepConfig config;

  public FinishTasks(SweepConfig config) {
    this.config = config;
  }

  @Override public PCollection<TaskRow> expand(PCollection<KV<String, ModeOutcome>> outcomes) {
    return outcomes
        .apply("GroupModesByTask", GroupByKey.create())
        .apply("FinishTask", ParDo.of(new FinishTaskFn(config)))
        .setCoder(JsonCoder.of(TaskRow.class));
  }

  static final class FinishTaskFn extends DoFn<KV<String, Iterable<ModeOutcome>>, TaskRow> {
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

    @ProcessElement public void process(@Element KV<String, Iterable<ModeOutcome>> task, OutputReceiver<TaskRow> out)
        throws Exception {
      List<ModeOutcome> outcomes = new ArrayList<>();
      task.getValue().forEach(outcomes::add);
      TaskRow row = SweepSteps.finish(context, outcomes.get(0).ref(), outcomes);
      (row.done() ? done : failed).inc();
      out.output(row);
    }
  }
}
