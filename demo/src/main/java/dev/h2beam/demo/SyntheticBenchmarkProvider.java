package dev.h2beam.demo;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.model.ChannelSpec;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Provides the synthetic benchmark under the name {@code synthetic}: the demo's ledger method over
 * {@code domains × tasksPerDomain} generated tasks, whose rollouts wait the executor latency and whose scripted
 * sessions wait the session latency, so a sweep's wall time measures how h2beam schedules waiting work. Its settings
 * ({@code --benchSettings}, or the flags of {@code h2beam bench}) are {@link #SETTINGS}.
 */
public final class SyntheticBenchmarkProvider implements BenchmarkProvider {

  /** The benchmark's settings, each also a flag of {@code h2beam bench}. */
  public static final Set<String> SETTINGS = Set.of("domains", "tasksPerDomain", "executorLatencyMs",
      "sessionLatencyMs", "latencySeed");

  @Override public String name() {
    return "synthetic";
  }

  @Override public String description() {
    return "generated ledger tasks (domains x tasksPerDomain) with executor and session latencies, for measuring"
        + " scheduling; offline";
  }

  @Override public Optional<Set<String>> settingKeys() {
    Set<String> keys = new TreeSet<>(SETTINGS);
    keys.addAll(Set.of("substrate", "split"));
    return Optional.of(Set.copyOf(keys));
  }

  @Override public Benchmark open(Path root, Map<String, String> settings) {
    String substrate = settings.getOrDefault("substrate", "oc");
    if (!substrate.equals("oc")) {
      throw new IllegalArgumentException("the synthetic benchmark runs on the OpenCode surface only: use substrate"
          + " oc, not '" + substrate + "'");
    }
    Set<String> unknown = new TreeSet<>(settings.keySet());
    unknown.removeAll(SETTINGS);
    unknown.removeAll(Set.of("substrate", "split"));
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown synthetic setting(s) " + unknown + "; known: "
          + new TreeSet<>(SETTINGS));
    }
    int domains = count(settings, "domains", 2);
    int tasksPerDomain = count(settings, "tasksPerDomain", 2);
    if ((long) domains * tasksPerDomain > MAX_TASKS) {
      throw new IllegalArgumentException("domains x tasksPerDomain = " + (long) domains * tasksPerDomain
          + " tasks, more than the " + MAX_TASKS + " a synthetic sweep may generate");
    }
    long seed = seed(settings.getOrDefault("latencySeed", "0"));
    Latency executor = Latency.parse("executorLatencyMs", settings.getOrDefault("executorLatencyMs", "0"), seed);
    Latency session = Latency.parse("sessionLatencyMs", settings.getOrDefault("sessionLatencyMs", "0"), seed);
    ChannelSpec channel = ChannelSpec.of(ScriptedSyntheticChannel.KIND, ScriptedSyntheticChannel.model(session));
    return new DemoBenchmark(root, DemoBenchmark.spec(name(), channel),
        LedgerTasks.synthetic(domains, tasksPerDomain), executor, DemoBenchmark.DEFAULT_TIMEOUT, Clock.systemUTC());
  }

  /** The most tasks a synthetic sweep may generate; ten times the largest workload. */
  static final int MAX_TASKS = 20_000;

  private static int count(Map<String, String> settings, String key, int fallback) {
    String v = settings.getOrDefault(key, String.valueOf(fallback)).strip();
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n < 1 || n > MAX_TASKS) {
      throw new IllegalArgumentException(key + "=" + v + " must be a whole number from 1 to " + MAX_TASKS);
    }
    return n;
  }

  private static long seed(String v) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("latencySeed=" + v + " must be a whole number, e.g. 7");
    }
  }
}
