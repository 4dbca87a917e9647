package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.Benchmarks;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.transforms.beam.FinishedChains;
import dev.h2beam.transforms.evidence.ShownLibrary;
import dev.h2beam.transforms.proposer.HeldPermits;
import dev.h2beam.transforms.proposer.Limits;
import dev.h2beam.transforms.proposer.Proposer;
import dev.h2beam.transforms.recursion.Faults;
import dev.h2beam.transforms.recursion.TaskScope;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * What one worker JVM opens from a {@link SweepConfig}: the benchmark, the proposer and selector, and the shared
 * concurrency limits. Opened once per JVM and configuration, so every DoFn instance on a worker shares them.
 */
public final class SweepContext {
  private static final ConcurrentHashMap<SweepConfig, SweepContext> OPEN = new ConcurrentHashMap<>();

  public final SweepConfig config;
  public final Benchmark bench;
  public final Proposer proposer;
  public final Proposer selector;
  public final Proposer reflector;
  public final Semaphore rollouts;
  public final Faults faults;
  /** This JVM's progress board for the client's live display. */
  public final ProgressBoard progress;
  /** The gated mode's method and policy, found by name in this JVM; null when the sweep runs no gated mode. */
  public final dev.h2beam.transforms.gated.GatedMethod method;
  public final dev.h2beam.transforms.gated.SelectionPolicy policy;
  /** Each task's base rollouts, where the chains roll them ({@link SweepSteps#runChainRollingBases}). */
  public final SharedBases bases;
  /** The chains of this sweep running in this JVM, where they roll their own bases (the DirectRunner). */
  public final FinishedChains chains = new FinishedChains();

  private SweepContext(SweepConfig c) throws Exception {
    this.config = c;
    try {
      RootToken.check(c.runs(), c.rootToken());
      requireKeys(c.workerRunConfig(), System.getenv());
    } catch (IllegalStateException refused) {
      throw WorkerRefusal.unrecoverable(refused);
    }
    this.bench = Benchmarks.named(c.bench()).open(Paths.get(c.benchRoot()), c.settings(), c.workerRunConfig());
    Path audit = TaskScope.auditDir(c.runs(), c.summaryNamespace());
    HeldPermits sessions = new HeldPermits(Limits.of("sessions", c.workerSessionLimit()));
    Duration wait = Duration.ofSeconds(c.retryWaitSeconds());
    Map<String, Proposer> open = new HashMap<>();
    this.proposer = proposer("improver", bench.spec().proposerChannel(), c, audit, sessions, wait, open);
    this.selector = proposer("selector", bench.spec().selectorChannel(), c, audit.resolve("selector"), sessions,
        wait, open);
    this.reflector = proposer("reflector", bench.spec().selectorChannel(), c, audit.resolve("selector"), sessions,
        wait, open);
    HeldPermits rollouts = new HeldPermits(Limits.of("rollouts", c.workerRolloutLimit()));
    this.rollouts = rollouts;
    this.faults = Faults.parse(c.faults());
    boolean gated = c.modes().contains("gat");
    this.method = gated ? c.gate().openMethod() : null;
    this.policy = gated ? c.gate().openPolicy() : null;
    this.bases = new SharedBases(ref -> SweepSteps.rollBases(this, ref), c.modes().size());
    this.progress = new ProgressBoard(c, sessions, rollouts);
    progress.open();
  }

  /**
   * Refuses a worker whose environment lacks a key variable the sweep's roles read. The client checked its own
   * environment before the job; a cluster's workers read the keys from theirs (a job carries no key), so a
   * TaskManager started without the variable would fail every task at its first call.
   */
  static void requireKeys(RunConfig config, Map<String, String> env) {
    Map<String, String> unset = config.unsetKeys(RunConfig.SWEEP_ROLES, env);
    if (unset.isEmpty()) return;
    throw new IllegalStateException(WriterLock.worker() + " has no " + RunConfig.named(unset)
        + " in its environment, which the client has: start every TaskManager with the key variables of the"
        + " --config file exported (in the environment of taskmanager.sh, or as containerized.taskmanager.env.<NAME>"
        + " on YARN and Kubernetes); the job sends no key to its workers");
  }

  /**
   * The proposer serving {@code role}: the configuration file's role when it has one (an {@code openai} session on
   * the role's endpoint and model), else the benchmark's channel, kind overridden by {@code --channel}. Roles served
   * by the same channel and model share one proposer, and so one reply cache.
   */
  private static Proposer proposer(String role, ChannelSpec benchChannel, SweepConfig c, Path audit,
      Semaphore sessions, Duration wait, Map<String, Proposer> open) throws Exception {
    Optional<ResolvedRole> configured = c.workerRunConfig().role(role);
    // a configured role brings its model; the channel kind is --channel's, else openai (a conversation)
    ChannelSpec spec = configured.isPresent()
        ? new ChannelSpec(c.channel().isBlank() ? "openai" : c.channel(), configured.get().model(),
            benchChannel.effort(), benchChannel.steps(), configured.get().endpoint().timeoutSeconds())
        : override(benchChannel, c.channel());
    // the key spelt out, not the record's toString: that links a call site on its first use in every JVM
    String key = String.join("\u0000", spec.kind(), spec.model(), spec.effort(), String.valueOf(spec.steps()),
        String.valueOf(spec.timeoutSeconds()), configured.map(ResolvedRole::identity).orElse(""));
    Proposer p = open.get(key);
    if (p == null) {
      ChannelProvider provider = ChannelProvider.forKind(spec.kind());
      p = new Proposer(configured.isPresent() ? provider.open(spec, configured.get(), channelSettings(c))
          : provider.open(spec), spec,
          audit, Scratch.of(c.runs()), 2, sessions, wait);
      open.put(key, p);
    }
    return p;
  }

  /**
   * The sweep's settings as a channel gets them: with {@code --isolation}, also the folders its sessions may not see
   * beside their own ({@code benchRoot}, {@code libraryRoot}; {@code runsRoot} is there already), so an agent-CLI
   * session can read neither the answer keys, nor the rollouts under their labels, nor another mode's library.
   */
  static Map<String, String> channelSettings(SweepConfig c) {
    if (!c.settings().containsKey("isolation")) return c.settings();
    Map<String, String> out = new java.util.TreeMap<>(c.settings());
    out.put("benchRoot", c.benchRoot());
    out.put("libraryRoot", c.libraryRoot());
    out.putIfAbsent("runsRoot", c.runsRoot());
    return out;
  }

  private static ChannelSpec override(ChannelSpec spec, String kind) {
    if (kind == null || kind.isBlank()) return spec;
    return new ChannelSpec(kind, spec.model(), spec.effort(), spec.steps(), spec.timeoutSeconds());
  }

  /**
   * Stops and waits for what the sweep of {@code config} still rolls ahead in this JVM ({@link SharedBases#settle});
   * nothing when no context of it is open here (the sweep ran on other JVMs).
   */
  public static void settle(SweepConfig config) {
    SweepContext c = OPEN.get(config);
    if (c != null && !c.bases.settle(java.time.Duration.ofMinutes(1))) {
      System.err.println("h2beam: base rollouts rolled ahead for the sweep were still running a minute after it"
          + " ended; they were interrupted");
    }
  }

  /** The context for {@code config} in this JVM, opened on first use. */
  public static SweepContext of(SweepConfig config) {
    return OPEN.computeIfAbsent(config, c -> {
      try {
        return new SweepContext(c);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("cannot open benchmark " + c.bench() + ": " + e.getMessage(), e);
      }
    });
  }

  public Namespace ns(String mode) {
    return config.namespace(mode);
  }

  public Path summaryPath(String task) {
    return config.summaryPath(task);
  }

  public Path executionsJournal() {
    return TaskScope.auditDir(config.runs(), config.summaryNamespace()).resolve("executions.jsonl");
  }

  public Path sessionsJournal() {
    return TaskScope.auditDir(config.runs(), config.summaryNamespace()).resolve("sessions.jsonl");
  }

  /** One mode of one task, with the library its improvers are shown, or null for none. */
  public TaskScope scope(String task, String mode, ShownLibrary library) {
    return new TaskScope(bench, task, config.k(), ns(mode), config.runs(), proposer, selector, reflector, rollouts,
        config.phaseWidth(), library, faults);
  }
}
