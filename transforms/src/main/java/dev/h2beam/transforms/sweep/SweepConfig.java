package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.transforms.selection.AnonIds;
import java.io.Serializable;
import java.math.BigInteger;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Everything a sweep's workers need to reopen the benchmark and proposers and find the runs root: plain values only,
 * so the DoFns that carry it serialise the same on every runner.
 *
 * @param benchRoot the folder the benchmark keeps its data and executions in
 * @param runsRoot where namespaces, summaries, audit trails and sweep records go
 * @param libraryRoot where the per-mode libraries go ({@code <libraryRoot>/<mode>/<domain>})
 * @param modes mode tokens in the fixed order agg, seq, gat
 * @param channel a proposer channel kind replacing the benchmark's own for every session, or "" for its own
 * @param bench the benchmark provider's name ({@code --bench}), used to reopen it on every worker
 * @param benchName the benchmark's own name, which names the namespaces (the provider's name for the demo, the
 *     {@code name} of bench.json for a folder benchmark)
 * @param runConfig the configuration file's endpoints and roles (no key values), empty without {@code --config}
 * @param workers the worker processes the job runs on (1 on the DirectRunner and an embedded Flink); the job's limits
 *     (sessions, rollouts, each endpoint's calls in flight and rates) are divided among them, so that they hold for
 *     the whole job
 * @param rootToken a value the client wrote under the runs root before the job started; every worker reads it back
 *     before it does anything, so a worker that sees another folder at that path refuses ({@link RootToken})
 * @param gate the gated mode's method, policy and margin (its defaults when null)
 * @param anonIds how the blind selector's anonymous ids are shuffled: {@link AnonIds#TASK} (harness2's rule, the
 *     default when null) or {@link AnonIds#REPLICATE} (the seed too, which it then needs)
 * @param retryFailedSessions whether a resume runs again the finished tasks whose improver or reflector sessions
 *     failed ({@code --retryFailedSessions}, {@link dev.h2beam.transforms.summary.SummaryFile#failedSessions}); not
 *     part of the run's identity: it decides which finished results stand, not what a result is
 */
public record SweepConfig(
    String bench, String benchRoot, Map<String, String> settings, String substrate, String runsRoot,
    String libraryRoot, int k, List<String> modes, BigInteger seed, int sessionLimit, int rolloutLimit,
    int phaseWidth, int retryWaitSeconds, String faults, String channel, String benchName, RunConfig runConfig,
    int workers, String rootToken, GateSettings gate, String anonIds, boolean retryFailedSessions)
    implements Serializable {

  public SweepConfig {
    settings = new TreeMap<>(settings);
    modes = List.copyOf(modes);
    benchName = benchName == null || benchName.isBlank() ? bench : benchName;
    runConfig = runConfig == null ? RunConfig.empty() : runConfig;
    if (workers < 1) throw new IllegalArgumentException("workers must be at least 1, got " + workers);
    rootToken = rootToken == null ? "" : rootToken;
    gate = gate == null ? GateSettings.DEFAULT : gate;
    anonIds = anonIds == null ? AnonIds.TASK : anonIds;
  }

  /** A configuration whose resume keeps every finished task's result ({@code retryFailedSessions} false). */
  public SweepConfig(
      String bench, String benchRoot, Map<String, String> settings, String substrate, String runsRoot,
      String libraryRoot, int k, List<String> modes, BigInteger seed, int sessionLimit, int rolloutLimit,
      int phaseWidth, int retryWaitSeconds, String faults, String channel, String benchName, RunConfig runConfig,
      int workers, String rootToken, GateSettings gate, String anonIds) {
    this(bench, benchRoot, settings, substrate, runsRoot, libraryRoot, k, modes, seed, sessionLimit, rolloutLimit,
        phaseWidth, retryWaitSeconds, faults, channel, benchName, runConfig, workers, rootToken, gate, anonIds, false);
  }

  /** A configuration whose selector ids follow harness2's rule. */
  public SweepConfig(
      String bench, String benchRoot, Map<String, String> settings, String substrate, String runsRoot,
      String libraryRoot, int k, List<String> modes, BigInteger seed, int sessionLimit, int rolloutLimit,
      int phaseWidth, int retryWaitSeconds, String faults, String channel, String benchName, RunConfig runConfig,
      int workers, String rootToken, GateSettings gate) {
    this(bench, benchRoot, settings, substrate, runsRoot, libraryRoot, k, modes, seed, sessionLimit, rolloutLimit,
        phaseWidth, retryWaitSeconds, faults, channel, benchName, runConfig, workers, rootToken, gate, null, false);
  }

  /** What the selector's id shuffle adds to harness2's seed: the sweep's seed under --anonIds=replicate, else null. */
  public String idSalt() {
    if (anonIds.equals(AnonIds.TASK)) return null;
    // the sweep's plan refuses both, naming --anonIds
    if (!anonIds.equals(AnonIds.REPLICATE) || seed == null) {
      throw new IllegalStateException("anonymous ids are shuffled by " + AnonIds.TASK + ", or by "
          + AnonIds.REPLICATE + " with a seed; got " + anonIds + (seed == null ? " without a seed" : ""));
    }
    return seed.toString();
  }

  /**
   * The record's hash, written out: the one a record derives links a call site on its first use, about 10 ms of a
   * cold JVM for these twenty components, and every sweep's first look-up of its context ({@link SweepContext#of})
   * pays it on the main thread, a resume's included. Equal configurations hash equally, as {@code equals} (the
   * record's) needs.
   */
  @Override public int hashCode() {
    return Objects.hash(bench, benchRoot, settings, substrate, runsRoot, libraryRoot, k, modes, seed,
        sessionLimit, rolloutLimit, phaseWidth, retryWaitSeconds, faults, channel, benchName, runConfig, workers,
        rootToken, gate, anonIds, retryFailedSessions);
  }

  /**
   * The record's equality, written out for the same reason as its hash: a runner thread's look-up of its context
   * ({@link SweepContext#of}) compares configurations, and the record's own equality linked a call site on its first
   * use there, once per process (a fifth of a percent of a sweep's CPU at L = 0, BENCHMARKS.md, issue 11).
   */
  @Override public boolean equals(Object o) {
    if (this == o) return true;
    return o instanceof SweepConfig c && k == c.k && sessionLimit == c.sessionLimit && rolloutLimit == c.rolloutLimit
        && phaseWidth == c.phaseWidth && retryWaitSeconds == c.retryWaitSeconds && workers == c.workers
        && Objects.equals(bench, c.bench) && Objects.equals(benchRoot, c.benchRoot)
        && Objects.equals(settings, c.settings) && Objects.equals(substrate, c.substrate)
        && Objects.equals(runsRoot, c.runsRoot) && Objects.equals(libraryRoot, c.libraryRoot)
        && Objects.equals(modes, c.modes) && Objects.equals(seed, c.seed) && Objects.equals(faults, c.faults)
        && Objects.equals(channel, c.channel) && Objects.equals(benchName, c.benchName)
        && Objects.equals(runConfig, c.runConfig) && Objects.equals(rootToken, c.rootToken) && gate.equals(c.gate)
        && anonIds.equals(c.anonIds) && retryFailedSessions == c.retryFailedSessions;
  }

  /** This configuration with the runs root's token the workers must read back. */
  public SweepConfig withRootToken(String token) {
    return new SweepConfig(bench, benchRoot, settings, substrate, runsRoot, libraryRoot, k, modes, seed, sessionLimit,
        rolloutLimit, phaseWidth, retryWaitSeconds, faults, channel, benchName, runConfig, workers, token, gate,
        anonIds, retryFailedSessions);
  }

  /** One worker's share of {@code --sessionLimit}. */
  public int workerSessionLimit() {
    return share("--sessionLimit", sessionLimit);
  }

  /** One worker's share of {@code --rolloutLimit}. */
  public int workerRolloutLimit() {
    return share("--rolloutLimit", rolloutLimit);
  }

  /** The configuration with one worker's share of the limits of every endpoint the sweep's roles call. */
  public RunConfig workerRunConfig() {
    return runConfig.shareAmong(workers, RunConfig.SWEEP_ROLES);
  }

  private int share(String flag, int limit) {
    if (limit < workers) {
      throw new IllegalArgumentException(flag + "=" + limit + " is fewer than the job's " + workers + " workers, each"
          + " of which needs a share of at least 1: raise it to " + workers + " or more, or run on fewer workers");
    }
    return limit / workers;
  }

  public Namespace namespace(String mode) {
    return new Namespace(benchName, substrate, mode, k, seed, "");
  }

  public Namespace summaryNamespace() {
    return namespace("agg");
  }

  public Path runs() {
    return Paths.get(runsRoot);
  }

  /** A task's summary.json (in the summary namespace, which holds every mode's result). */
  public Path summaryPath(String task) {
    return summaryNamespace().taskDir(runs(), task).resolve("summary.json");
  }
}
