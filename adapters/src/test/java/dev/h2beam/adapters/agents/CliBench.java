package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.agents.AgentModel.Turn;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Measures real agent CLI runs (scripts/bench-agents.sh) against the scripted loopback model at zero model latency.
 * Not a test: its numbers go in BENCHMARKS.md, each table printed in markdown with the load average it ran under.
 *
 * <ul>
 *   <li>{@code runs <n> <agents>}: one run at a time, two tasks: a file write then a final answer, and a no-op (the
 *       model answers at once, no tool runs: the CLI's start-up and one trivial turn), each as h2beam runs it
 *       (through its endpoint relay, {@link Agent#run}); the file write also without the relay, alternating with the
 *       relayed runs, to show what the relay costs. Wall time (from the run's set-up to its end, the relay's start and
 *       stop included), CPU time (the CLI and everything it started, from this JVM's reaped-children counters), and
 *       resident memory sampled from /proc every 20 ms ({@link ProcessWatch}): the peak of the run's processes
 *       together and of the largest one.
 *   <li>{@code knee <n> <agents> <c1,c2,...>}: {@code n} file-write runs (relayed) at each concurrency: rollouts per
 *       second, CPU per rollout, and the peak resident memory of all the runs at once.
 * </ul>
 *
 * <p>Usage: {@code CliBench <work dir> runs <n> [opencode,codex]} or {@code CliBench <work dir> knee <n>
 * [opencode,codex] [1,2,3,4,6,8]}.
 */
public final class CliBench {
  private CliBench() {}

  /** The prompt of a no-op run; {@link #brain} answers it at once. */
  public static final String NOOP = "Reply with the single word Done. Do not use any tool.";

  /** The prompt of a working run: one file write, then a final answer. */
  public static final String WRITE = "Write the answer to output/answer.md";

  /** A no-op prompt is answered at once; any other is one file write then a final answer. */
  public static AgentModel.Brain brain(AgentModel.Brain otherwise) {
    return c -> c.prompt().contains(NOOP) ? new Turn.Say("Done.") : otherwise.next(c);
  }

  private static final AgentModel.Brain WRITER = c -> c.toolResults().isEmpty()
      ? new Turn.WriteFile("output/answer.md", "# Answer\n\n42\n") : new Turn.Say("Done.");

  /** One measured run. */
  public record Sample(double wallS, double cpuS, long peakTotalMb, long peakSingleMb) {}

  public static void main(String[] args) throws Exception {
    Path work = Paths.get(args[0]).toAbsolutePath();
    String mode = args[1];
    int n = Integer.parseInt(args[2]);
    List<String> agents = List.of((args.length > 3 ? args[3] : "opencode,codex").split(","));
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying(""))) {
      AgentModel.serve(server, brain(WRITER));
      ResolvedRole role = role(server);
      if (mode.equals("runs")) {
        runs(work, n, agents, role);
      } else if (mode.equals("knee")) {
        List<Integer> levels = new ArrayList<>();
        for (String c : (args.length > 4 ? args[4] : "1,2,3,4,6,8").split(",")) levels.add(Integer.parseInt(c));
        knee(work, n, agents, levels, role);
      } else {
        throw new IllegalArgumentException("mode is runs or knee, not " + mode);
      }
    }
  }

  /**
   * The executor role of the benchmarks: the scripted model, its key in BENCH_KEY, room for 64 calls at once (the
   * endpoint's limit is not what is measured).
   */
  public static ResolvedRole role(ScriptedModelServer server) {
    return new ResolvedRole("executor", new Endpoint("bench", server.baseUrl(), "BENCH_KEY", 64, 60, 1, 0, 0),
        "scripted-model", null, null);
  }

  /** The pinned binary of {@code agent} in the tools folder; refuses a missing or wrong one with its fix. */
  public static Path binary(String agent) {
    Path binary = AgentTools.binary(agent, AgentTools.defaultToolsDir(System.getenv()), Optional.empty());
    Optional<String> problem = AgentTools.problem(agent, binary);
    if (problem.isPresent()) throw new IllegalStateException(problem.get());
    return binary;
  }

  private static void runs(Path work, int n, List<String> agents, ResolvedRole role) throws Exception {
    System.out.println("| CLI | task | runs | median wall s | min–max wall s | median CPU s | median peak RSS of the"
        + " run MB | median largest process MB | load avg (1 min) before / after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (String agent : agents) {
      // the file write through the relay and straight to the endpoint alternate, so the host's drift touches both
      String load = loadAverage();
      List<Sample> relayed = new ArrayList<>();
      List<Sample> direct = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        relayed.add(measure(agent, binary(agent), work.resolve(agent + "-write-" + i), role, WRITE, true));
        direct.add(measure(agent, binary(agent), work.resolve(agent + "-direct-" + i), role, WRITE, false));
      }
      String after = loadAverage();
      row(agent, "file write + answer", relayed, load, after);
      row(agent, "file write + answer, no relay (alternating)", direct, load, after);
      load = loadAverage();
      List<Sample> noops = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        noops.add(measure(agent, binary(agent), work.resolve(agent + "-noop-" + i), role, NOOP, true));
      }
      row(agent, "no-op (start-up)", noops, load, loadAverage());
    }
  }

  private static void row(String agent, String task, List<Sample> samples, String load, String after) {
    int n = samples.size();
    List<Double> walls = sorted(samples.stream().map(Sample::wallS).toList());
    System.out.printf("| %s | %s | %d | %.2f | %.2f–%.2f | %.2f | %d | %d | %s / %s |%n", agent, task, n,
        walls.get(n / 2), walls.get(0), walls.get(n - 1),
        sorted(samples.stream().map(Sample::cpuS).toList()).get(n / 2),
        sorted(samples.stream().map(Sample::peakTotalMb).toList()).get(n / 2),
        sorted(samples.stream().map(Sample::peakSingleMb).toList()).get(n / 2), load, after);
  }

  /**
   * One run of {@code agent} with {@code prompt} in {@code dir} (fresh), one at a time, through the endpoint relay as
   * h2beam runs it or straight to the endpoint; fails when the run fails.
   */
  public static Sample measure(String agent, Path binary, Path dir, ResolvedRole role, String prompt, boolean relayed)
      throws Exception {
    AgentInvocation inv = invocation(binary, dir, role, prompt);
    double cpu = childrenCpuS();
    long started = System.nanoTime();
    try (ProcessWatch watch = ProcessWatch.start("HOME", inv.stateDir().resolve("home").toString())) {
      AgentRun r = relayed ? Agent.named(agent).run(inv) : Agent.named(agent).runDirect(inv);
      double wall = (System.nanoTime() - started) / 1e9;
      if (!r.succeeded()) throw new IllegalStateException(agent + " failed: " + r.process().stderrTail(1000));
      return new Sample(wall, childrenCpuS() - cpu, watch.peakTotalKb() / 1024, watch.peakSingleKb() / 1024);
    }
  }

  private static AgentInvocation invocation(Path binary, Path dir, ResolvedRole role, String prompt)
      throws IOException {
    return new AgentInvocation(binary, Files.createDirectories(dir.resolve("work")), dir.resolve("state"), role,
        prompt, Duration.ofMinutes(5), Map.of("PATH", System.getenv("PATH"), "BENCH_KEY", "bench-secret"),
        List.of());
  }

  private static void knee(Path work, int n, List<String> agents, List<Integer> levels, ResolvedRole role)
      throws Exception {
    System.out.println("| CLI | concurrent runs | rollouts | wall s | rollouts/s | CPU s per rollout | peak RSS of all"
        + " runs MB | load avg (1 min) before / after |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (String agent : agents) {
      Path binary = binary(agent);
      for (int c : levels) {
        Path batch = work.resolve("knee").resolve(agent).resolve("c" + c);
        String load = loadAverage();
        double cpu = childrenCpuS();
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(c);
        try (ProcessWatch watch = ProcessWatch.startPrefix("HOME", batch + "/")) {
          List<Future<AgentRun>> runs = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            AgentInvocation inv = invocation(binary, batch.resolve(String.valueOf(i)), role, WRITE);
            runs.add(pool.submit(() -> Agent.named(agent).run(inv)));
          }
          for (Future<AgentRun> f : runs) {
            AgentRun r = f.get();
            if (!r.succeeded()) throw new IllegalStateException(agent + " failed: " + r.process().stderrTail(1000));
          }
          double wall = (System.nanoTime() - started) / 1e9;
          System.out.printf("| %s | %d | %d | %.1f | %.2f | %.2f | %d | %s / %s |%n", agent, c, n, wall, n / wall,
              (childrenCpuS() - cpu) / n, watch.peakTotalKb() / 1024, load, loadAverage());
        } finally {
          pool.shutdown();
        }
      }
    }
  }

  /**
   * CPU seconds of this JVM's children that have ended and been reaped (utime and stime of everything they started
   * and reaped in turn), from /proc/self/stat; Linux counts them in 1/100 s.
   */
  public static double childrenCpuS() throws IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / 100.0;
  }

  /** CPU seconds of this JVM itself (all its threads). */
  public static double ownCpuS() throws IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
  }

  /** The 1-minute load average now. */
  public static String loadAverage() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
  }

  private static <T extends Comparable<T>> List<T> sorted(List<T> xs) {
    List<T> out = new ArrayList<>(xs);
    Collections.sort(out);
    return out;
  }
}
