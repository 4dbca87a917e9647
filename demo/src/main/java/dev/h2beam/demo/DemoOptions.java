package dev.h2beam.demo;

import dev.h2beam.pipelines.sweep.SweepOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/** The options of {@code h2beam demo}: the sweep's, plus where the demo writes everything. */
public interface DemoOptions extends SweepOptions {

  @Description("Folder the demo writes everything into: base/, sources/, executions/, runs/, library/, demo.json.")
  @Default.String("runs/demo")
  String getOutput();

  void setOutput(String value);
}
