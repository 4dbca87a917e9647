package dev.h2beam.transforms.beam;

import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskBases;
import dev.h2beam.transforms.sweep.TaskRef;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PCollection;

/** Spreads tasks over workers and rolls each task's k shared base rollouts (or resumes it). */
public final class RollBases extends PTransform<PCollection<TaskRef>, PCollection<TaskBases>> {
  private static final long serialVersionUID = 1L;
  private final SweepConfig config;

  public RollBases(SweepConfig config) {
    this.config = config;
  }

  @Override public PCollection<TaskBases> expand(PCollection<TaskRef> tasks) {
    return tasks
        .apply("SpreadTasks", Reshuffle.viaRandomKey())
        .apply("RollBaseRollouts", ParDo.of(new RollBasesFn(config)))
        .setCoder(JsonCoder.of(TaskBases.class));
  }

  static final class RollBasesFn extends DoFn<TaskRef, TaskBases> {
    private static final long serialVersionUID = 1L;
    private final SweepConfig config;
    private final BaseCounts counts = new BaseCounts();
    private transient SweepContext context;

    RollBasesFn(SweepConfig config) {
      this.config = config;
    }

    @Setup public void setup() {
      context = SweepContext.of(config);
    }

    @ProcessElement public void process(@Element TaskRef ref, OutputReceiver<TaskBases> out) throws Exception {
      TaskBases tb = SweepSteps.rollBases(context, ref);
      counts.count(context, tb);
      out.output(tb);
    }
  }
}
