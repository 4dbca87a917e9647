package dev.h2beam.demo;

import dev.h2beam.pipelines.sweep.SweepOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/**
 * The options of {@code h2beam demo}: the sweep's, plus where the demo writes everything. {@code h2beam bench} shares
 * them and gives {@code --output} a default of its own ({@link DemoCommand#withDefaults}).
 */
public interface DemoOptions extends SweepOptions {

  @Description("Folder the command writes everything into: base/, sources/, executions/, runs/, library/, report/"
      + " (and the demo's demo.json); it is also the benchmark's folder, so --benchRoot is not given.")
  @Default.String("runs/demo")
  String getOutput();

  void setOutput(String value);
}
