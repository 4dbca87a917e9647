package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.Benchmarks;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.transforms.proposer.Limits;
import dev.h2beam.transforms.proposer.Proposer;
import dev.h2beam.transforms.recursion.Faults;
import dev.h2beam.transforms.recursion.TaskScope;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
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
  public final Semaphore rollouts;
  public final Faults faults;

  private SweepContext(SweepConfig c) throws Exception {
    this.config = c;
    this.bench = Benchmarks.named(c.bench()).open(Paths.get(c.benchRoot()), c.settings());
    Path audit = TaskScope.auditDir(c.runs(), c.summaryNamespace());
    Semaphore sessions = Limits.of("sessions", c.sessionLimit());
    Duration wait = Duration.ofSeconds(c.retryWaitSeconds());
    ChannelSpec ps = override(bench.spec().proposerChannel(), c.channel());
    this.proposer = new Proposer(ChannelProvider.forKind(ps.kind()).open(ps), ps, audit, 2, sessions, wait);
    ChannelSpec ss = override(bench.spec().selectorChannel(), c.channel());
    this.selector = ss.equals(ps) ? proposer
        : new Proposer(ChannelProvider.forKind(ss.kind()).open(ss), ss, audit.resolve("selector"), 2, sessions, wait);
    this.rollouts = Limits.of("rollouts", c.rolloutLimit());
    this.faults = Faults.parse(c.faults());
  }

  private static ChannelSpec override(ChannelSpec spec, String kind) {
    if (kind == null || kind.isBlank()) return spec;
    return new ChannelSpec(kind, spec.model(), spec.effort(), spec.steps(), spec.timeoutSeconds());
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
    return config.summaryNamespace().taskDir(config.runs(), task).resolve("summary.json");
  }

  public Path executionsJournal() {
    return TaskScope.auditDir(config.runs(), config.summaryNamespace()).resolve("executions.jsonl");
  }

  public Path sessionsJournal() {
    return TaskScope.auditDir(config.runs(), config.summaryNamespace()).resolve("sessions.jsonl");
  }

  public TaskScope scope(String task, String mode, Path libraryDir) {
    return new TaskScope(bench, task, config.k(), ns(mode), config.runs(), proposer, selector, rollouts,
        config.phaseWidth(), libraryDir, faults);
  }
}
