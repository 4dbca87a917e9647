package dev.h2beam.demo;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.FlinkMaster;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.FlinkCluster;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepCommand;
import dev.h2beam.pipelines.sweep.WriterLocks;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.recursion.TaskScope;
import dev.h2beam.transforms.sweep.ProgressBoard;
import dev.h2beam.transforms.sweep.RootToken;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * {@code h2beam bench}: one sweep of the synthetic benchmark into {@code --output}, judged and reported like the
 * demo, that prints how close its wall time came to its lower bounds ({@link SweepBounds}), how busy the session and
 * rollout limits were ({@link InFlight}: in this JVM, and job-wide from every worker's journals), and what the sweep
 * cost (CPU per task, files per task, peak memory).
 * Nothing it measures is written into the run folders.
 */
public final class BenchCommand implements Command {

  @Override public String name() {
    return "bench";
  }

  @Override public String summary() {
    return "measure scheduling: a synthetic sweep (domains x tasksPerDomain, given latencies) against its bounds";
  }

  @Override public Class<? extends PipelineOptions> options() {
    return BenchOptions.class;
  }

  /** Where the bench writes by default: not the demo's folder, whose report it would replace. */
  static final String OUTPUT = "runs/bench";

  @Override public Map<String, String> defaults() {
    return Map.of("k", "3", "modes", "parallel,sequential", "bench", "synthetic",
        "targetParallelism", "modes x domains (DirectRunner)", "output", OUTPUT);
  }

  @Override public int run(String[] args) throws Exception {
    return run(args, System.out);
  }

  /** Runs the bench, printing its measurements to {@code out} (the judge and report print to the console). */
  int run(String[] args, PrintStream out) throws Exception {
    return run(args, out, System.err);
  }

  /** Runs the bench: measurements to {@code out}, the sweep's live progress ({@code --progress}) to {@code err}. */
  int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    args = DemoCommand.withDefaults(args, "3", OUTPUT);
    BenchOptions o = OptionArgs.parse(name(), args, BenchOptions.class);
    Map<String, String> settings = settings(o);
    Path output = DemoCommand.rootsUnder(o, "synthetic");
    o.setBenchSettings(Json.canonical(settings));
    Sweep.Plan plan = Sweep.plan(o, Instant.now());
    SweepBounds bounds = bounds(o, plan);
    if (o.getDryRun()) {
      SweepCommand.printDryRun(plan);
      printBounds(out, bounds);
      return 0;
    }
    try (WriterLocks lock = WriterLocks.of(List.of(output), "bench in " + output, o.getLockWaitSeconds())) {
      return runLocked(o, args, plan, output, bounds, out, err);
    }
  }

  /**
   * The benchmark's settings from the bench flags, each checked here so that a bad value is refused naming its flag.
   */
  static Map<String, String> settings(BenchOptions o) {
    if (o.getBench() != null && !o.getBench().equals("synthetic")) {
      throw new UsageError("--bench is always synthetic for h2beam bench; use h2beam sweep for --bench="
          + o.getBench());
    }
    if (!o.getBenchSettings().isBlank()) {
      throw new UsageError("--benchSettings: h2beam bench sets the synthetic benchmark's settings from its own flags"
          + " (--domains, --tasksPerDomain, --executorLatencyMs, --sessionLatencyMs, --latencySeed); drop it");
    }
    for (String[] f : new String[][] {{"domains", "" + o.getDomains()}, {"tasksPerDomain", "" + o.getTasksPerDomain()}}) {
      int n = Integer.parseInt(f[1]);
      if (n < 1 || n > SyntheticBenchmarkProvider.MAX_TASKS) {
        throw new UsageError("--" + f[0] + "=" + n + " is out of range; give a whole number from 1 to "
            + SyntheticBenchmarkProvider.MAX_TASKS + ", e.g. --" + f[0] + "=4");
      }
    }
    if ((long) o.getDomains() * o.getTasksPerDomain() > SyntheticBenchmarkProvider.MAX_TASKS) {
      throw new UsageError("--domains x --tasksPerDomain = " + (long) o.getDomains() * o.getTasksPerDomain()
          + " tasks is more than the " + SyntheticBenchmarkProvider.MAX_TASKS + " a synthetic sweep may generate");
    }
    for (String[] f : new String[][] {{"--executorLatencyMs", o.getExecutorLatencyMs()},
        {"--sessionLatencyMs", o.getSessionLatencyMs()}}) {
      try {
        Latency.parse(f[0], f[1], o.getLatencySeed());
      } catch (IllegalArgumentException e) {
        throw new UsageError(e.getMessage());
      }
    }
    Map<String, String> s = new LinkedHashMap<>();
    s.put("domains", String.valueOf(o.getDomains()));
    s.put("tasksPerDomain", String.valueOf(o.getTasksPerDomain()));
    s.put("executorLatencyMs", o.getExecutorLatencyMs().strip());
    s.put("sessionLatencyMs", o.getSessionLatencyMs().strip());
    s.put("latencySeed", String.valueOf(o.getLatencySeed()));
    return s;
  }

  static SweepBounds bounds(BenchOptions o, Sweep.Plan plan) {
    int maxPerDomain = plan.stream().values().stream().mapToInt(List::size).max().orElse(1);
    return new SweepBounds(plan.taskCount(), maxPerDomain, o.getK(), plan.config().modes(), o.getPhaseWidth(),
        o.getSessionLimit(), o.getRolloutLimit(),
        Latency.parse("--executorLatencyMs", o.getExecutorLatencyMs(), o.getLatencySeed()).meanMs(),
        Latency.parse("--sessionLatencyMs", o.getSessionLatencyMs(), o.getLatencySeed()).meanMs());
  }

  private static int runLocked(BenchOptions o, String[] args, Sweep.Plan plan, Path output, SweepBounds bounds,
      PrintStream out, PrintStream err) throws Exception {
    Path audit = TaskScope.auditDir(plan.config().runs(), plan.config().summaryNamespace());
    int executionsBefore = Journal.ranNow(audit.resolve("executions.jsonl"));
    int sessionsBefore = Journal.ranNow(audit.resolve("sessions.jsonl"));
    ProcessStats.FileCount filesBefore = ProcessStats.files(output);
    // a cluster's JobManager works for the job too (submission, the jar's upload, scheduling, the client's polling)
    String master = FlinkMaster.remote(o);
    FlinkCluster.JobManagerCpu managerBefore = master == null ? null
        : FlinkCluster.jobManagerCpu(master, METRICS_WAIT);
    ProcessStats before = ProcessStats.now();
    InFlight.SESSIONS.reset();
    InFlight.ROLLOUTS.reset();
    Instant from = Instant.now();
    long started = System.nanoTime();
    Map<String, Object> record = Sweep.run(plan, o, err);
    double wallS = (System.nanoTime() - started) / 1e9;
    InFlight.Snapshot sessions = InFlight.SESSIONS.snapshot();
    InFlight.Snapshot rollouts = InFlight.ROLLOUTS.snapshot();
    ProcessStats after = ProcessStats.now();
    FlinkCluster.JobManagerCpu managerAfter = master == null ? null
        : FlinkCluster.jobManagerCpu(master, METRICS_WAIT);
    ProcessStats.FileCount filesAfter = ProcessStats.files(output);
    long names = filesAfter.names() - filesBefore.names();
    long files = filesAfter.newFiles(filesBefore);
    int executions = Journal.ranNow(audit.resolve("executions.jsonl")) - executionsBefore;
    int sessionsRun = Journal.ranNow(audit.resolve("sessions.jsonl")) - sessionsBefore;
    // every worker's journals: the job-wide peak, which this JVM's counts miss when the workers are other processes
    List<String> sessionRecords = new ArrayList<>(Journal.lines(audit.resolve("sessions.jsonl")));
    sessionRecords.addAll(Journal.lines(audit.resolve("selector").resolve("sessions.jsonl")));
    // a folder resumed from an older h2beam holds records without intervals: they predate this run
    List<Instant[]> sessionsHeld = InFlight.held(sessionRecords, from, false);
    List<Instant[]> rolloutsHeld = InFlight.held(Journal.lines(audit.resolve("executions.jsonl")), from, false);
    int sessionsPeak = InFlight.peak(sessionsHeld);
    int rolloutsPeak = InFlight.peak(rolloutsHeld);
    Instant to = Instant.now();
    // on a cluster whose workers are other processes, this JVM is only the client: the workers' boards tell the rest
    // (its own board, from a finished sweep it replayed itself, is not a worker's)
    WorkerUsage workers = Sweep.runsLocally(o) ? null : WorkerUsage.read(
        ProgressBoard.folder(plan.config().runs(), plan.config().summaryNamespace().summary().toString()),
        RootToken.read(plan.config().runs()), Journal.writer());
    int[] df = Sweep.doneFailed(record);
    out.println("Synthetic sweep: " + df[0] + " tasks completed; " + df[1] + " failed.");
    int judged = DemoCommand.judgeAndReport(o, args, plan, output, "synthetic");
    ProcessStats end = ProcessStats.now();

    int n = plan.taskCount();
    out.println();
    out.printf(Locale.ROOT,
        "bench: %d domains x %d tasks = %d tasks, k=%d, modes %s, executor latency %s ms, session latency %s"
        + " ms, latency seed %d%n", o.getDomains(), o.getTasksPerDomain(), n, o.getK(),
        String.join(",", plan.config().modes()), o.getExecutorLatencyMs(), o.getSessionLatencyMs(),
        o.getLatencySeed());
    // a resume of a finished sweep runs no pipeline (the client replays it): no runner setting, no ratio to a bound
    boolean ranNothing = sessionsRun == 0 && executions == 0;
    out.printf(Locale.ROOT, "  runner %s, sessionLimit %d, rolloutLimit %d, phaseWidth %d, %s%n",
        o.getRunner() == null ? "DirectRunner" : o.getRunner().getSimpleName(), o.getSessionLimit(),
        o.getRolloutLimit(), o.getPhaseWidth(), ranNothing ? "nothing ran (every task resumed)" : parallelism(o));
    printBounds(out, bounds);
    out.printf(Locale.ROOT,
        "  wall               %9.2f s  (the sweep, from plan to record; judge and report not included)%n",
        wallS);
    out.printf(Locale.ROOT, "  wall / max(bounds) %9s    wall / harness2's form %s%n", ranNothing ? "n/a (nothing ran)"
        : ratio(wallS, bounds.maxMs()), (ranNothing ? "n/a (nothing ran)" : ratio(wallS, bounds.harness2FormMs()))
        .strip());
    double jvm = after.cpuSeconds() - before.cpuSeconds();
    double children = after.childCpuSeconds() - before.childCpuSeconds();
    if (workers != null && workers.any()) {
      printOnWorkers(out, workers, n, jvm, sessionsHeld, rolloutsHeld, from, to, sessionsRun, executions, bounds);
      if (master != null) printJobManager(out, managerBefore, managerAfter, n);
    } else {
      out.printf(Locale.ROOT,
          "  sessions in flight: peak %d, mean %.2f (%d sessions run, %d expected); job-wide peak %d from the"
          + " journals%n", sessions.peak(), sessions.mean(), sessionsRun, bounds.sessions(), sessionsPeak);
      out.printf(Locale.ROOT,
          "  rollouts in flight: peak %d, mean %.2f (%d rollouts run, %d expected); job-wide peak %d from the"
          + " journals%n", rollouts.peak(), rollouts.mean(), executions, bounds.rollouts(), rolloutsPeak);
      out.printf(Locale.ROOT,
          "  CPU in the sweep   %9.2f s = h2beam (JVM) %.2f + rollout scripts %.2f; per task %.3f (h2beam %.3f)"
          + "%n", jvm + children, jvm, children, (jvm + children) / n, jvm / n);
    }
    out.printf(Locale.ROOT,
        "  CPU of the process %9.2f s since start, judge and report included (JVM %.2f + children %.2f)%s%n",
        end.cpuSeconds() + end.childCpuSeconds(), end.cpuSeconds(), end.childCpuSeconds(),
        workers == null ? "" : "; this client's only, the cluster's workers ran the pipelines");
    out.printf(Locale.ROOT,
        "  files written      %9d under %s by the sweep = %.1f per task (new files; hard links to shared"
        + " evidence are not files written)%n", files, output, (double) files / n);
    out.printf(Locale.ROOT,
        "  file names         %9d = %.1f per task (names added less names removed, hard links included; a"
        + " file written in place of one it replaces adds none)%n", names, (double) names / n);
    out.printf(Locale.ROOT,
        "  peak memory        %9.1f MiB resident (VmHWM) at the sweep's end; heap peak %.1f MiB%s%n",
        after.peakRssKb() / 1024.0, heapPeakBytes() / 1048576.0, workers == null || !workers.any() ? ""
            : "; this client's, the workers' (each process's VmHWM in its life so far, from its board): "
            + workers.peaks());
    out.printf(Locale.ROOT, "  load average       %s at start, %s at end (1, 5, 15 min)%n", before.loadAverage(),
        after.loadAverage());
    return df[1] > 0 ? 1 : judged;
  }

  /**
   * The in-flight and CPU lines of a sweep that ran on a cluster's workers, other processes: the in-flight counts
   * from the journals every worker writes, the CPU from the workers' boards and this client's own.
   */
  static void printOnWorkers(PrintStream out, WorkerUsage workers, int n, double clientCpu, List<Instant[]> sessions,
      List<Instant[]> rollouts, Instant from, Instant to, int sessionsRun, int executions, SweepBounds bounds) {
    out.printf(Locale.ROOT,
        "  sessions in flight: peak %d, mean %.2f from the journals (%d sessions run, %d expected); the"
        + " cluster's workers ran them, not this client%n", InFlight.peak(sessions), InFlight.mean(sessions, from, to),
        sessionsRun, bounds.sessions());
    out.printf(Locale.ROOT,
        "  rollouts in flight: peak %d, mean %.2f from the journals (%d rollouts run, %d expected)%n",
        InFlight.peak(rollouts), InFlight.mean(rollouts, from, to), executions, bounds.rollouts());
    if (!workers.known()) {
      out.printf(Locale.ROOT,
          "  CPU in the sweep   unknown: the board of %s does not tell its CPU (an older h2beam or a platform"
          + " without /proc); this client %.2f s%n", String.join(", ", workers.unknown()), clientCpu);
      return;
    }
    double jvm = workers.cpuSeconds() + clientCpu;
    double children = workers.childCpuSeconds();
    out.printf(Locale.ROOT,
        "  CPU in the sweep   %9.2f s = h2beam (JVMs) %.2f + rollout scripts %.2f; per task %.3f (h2beam %.3f)"
        + "; h2beam = %d workers' %.2f (from their boards, each since it opened the sweep, the runner's threads"
        + " included) + this client's %.2f%n", jvm + children, jvm, children, (jvm + children) / n, jvm / n,
        workers.workers().size(), workers.cpuSeconds(), clientCpu);
  }

  /** How long the JobManager's metrics are waited for to refresh (Flink refreshes them every 10 s by default). */
  static final Duration METRICS_WAIT = Duration.ofSeconds(15);

  /**
   * The JobManager's CPU in the sweep: the difference of its CPU time read fresh before and after. It is the whole
   * JobManager's (another job's at the same time included), so it is shown beside h2beam's CPU, not in it.
   */
  static void printJobManager(PrintStream out, FlinkCluster.JobManagerCpu before, FlinkCluster.JobManagerCpu after,
      int n) {
    String unknown = !before.known() ? before.unknown() : !after.known() ? after.unknown() : null;
    if (unknown != null) {
      out.printf(Locale.ROOT, "  JobManager CPU     unknown: %s%n", unknown);
      return;
    }
    double s = after.seconds() - before.seconds();
    out.printf(Locale.ROOT,
        "  JobManager CPU     %9.2f s in the sweep = %.3f per task (Status.JVM.CPU.Time before and after,"
        + " each read after its refresh; the whole JobManager's: the job's submission, jar and scheduling, this"
        + " client's polling, and any other job's at the same time); not in h2beam's CPU above%n", s, s / n);
  }

  static void printBounds(PrintStream out, SweepBounds b) {
    String longest = b.longestMode();
    out.printf(Locale.ROOT,
        "  critical path      %9.2f s  = base phase %.2f s + %d tasks x %s %.2f s (Sweep's schedule)%n",
        b.criticalPathMs() / 1000, b.baseMs() / 1000, b.maxTasksPerDomain(), longest, b.modeMs(longest) / 1000);
    out.printf(Locale.ROOT,
        "  harness2's form    %9.2f s  = %d tasks x (base %.2f s + %s %.2f s)%n", b.harness2FormMs() / 1000,
        b.maxTasksPerDomain(), b.baseMs() / 1000, longest, b.modeMs(longest) / 1000);
    out.printf(Locale.ROOT, "  session bound      %9.2f s  = %d sessions x %.1f ms / %d%n", b.sessionLimitMs() / 1000,
        b.sessions(), b.sessionMs(), b.sessionLimit());
    out.printf(Locale.ROOT, "  rollout bound      %9.2f s  = %d rollouts x %.1f ms / %d%n", b.rolloutLimitMs() / 1000,
        b.rollouts(), b.executorMs(), b.rolloutLimit());
  }

  private static String parallelism(BenchOptions o) {
    String runner = o.getRunner() == null ? "DirectRunner" : o.getRunner().getSimpleName();
    if (runner.equals("DirectRunner")) return "targetParallelism " + o.as(DirectOptions.class).getTargetParallelism();
    if (runner.equals("FlinkRunner")) {
      return "parallelism " + o.as(org.apache.beam.runners.flink.FlinkPipelineOptions.class).getParallelism();
    }
    return "runner parallelism not known";
  }

  /** wall / bound, or "n/a (no latency)" when the bound is 0 (L = 0): the ratio does not exist, it is not NaN. */
  private static String ratio(double wallS, double boundMs) {
    return boundMs <= 0 ? "n/a (no latency)" : String.format(Locale.ROOT, "%.2f", wallS / (boundMs / 1000));
  }

  private static long heapPeakBytes() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) sum += p.getPeakUsage().getUsed();
    }
    return sum;
  }
}
