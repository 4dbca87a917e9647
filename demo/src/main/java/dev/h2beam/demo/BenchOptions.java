package dev.h2beam.demo;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/** The options of {@code h2beam bench}: the demo's (a sweep into one output folder), plus the synthetic workload. */
public interface BenchOptions extends DemoOptions {

  @Description("Domains of generated tasks; each (mode, domain) is one chain.")
  @Default.Integer(2)
  int getDomains();

  void setDomains(int value);

  @Description("Generated tasks per domain; they run one after another inside their chain.")
  @Default.Integer(2)
  int getTasksPerDomain();

  void setTasksPerDomain(int value);

  @Description("What each rollout waits before its script runs: milliseconds (500), uniform:MIN:MAX or exp:MEAN.")
  @Default.String("0")
  String getExecutorLatencyMs();

  void setExecutorLatencyMs(String value);

  @Description("What each improver, selector and reflector session waits before it answers: milliseconds (500),"
      + " uniform:MIN:MAX or exp:MEAN.")
  @Default.String("0")
  String getSessionLatencyMs();

  void setSessionLatencyMs(String value);

  @Description("Seed of the latencies drawn from a distribution; a fixed latency ignores it.")
  @Default.Long(0)
  long getLatencySeed();

  void setLatencySeed(long value);
}
