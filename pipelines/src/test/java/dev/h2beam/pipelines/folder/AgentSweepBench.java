package dev.h2beam.pipelines.folder;

import dev.h2beam.adapters.agents.AgentModel;
import dev.h2beam.adapters.agents.CliBench;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.transforms.proposer.Journal;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The share of an agent sweep's wall time spent in CLI start-up (scripts/bench-agents.sh startup), measured rather
 * than estimated: the worked example is swept twice against the scripted model at zero latency, once as it is and
 * once with every CLI run preceded by a no-op run of the same CLI with the same arguments and state (a wrapper given
 * as {@code --opencodeBin}/{@code --codexBin}). A no-op run is start-up plus one trivial turn ({@link CliBench#NOOP}),
 * so the second sweep pays one extra start-up per run, placed where the sweep's own schedule puts each run; the wall
 * time it adds, over the first sweep's wall time, is the start-up share (a warm-up sweep comes first, and the two
 * kinds alternate in order over the repeats). Also printed: the no-op run's own wall and
 * CPU time, the runs counted from the journals, the sweep's CPU split into this JVM's and the CLIs', and the CPU
 * view (runs × no-op CPU ÷ the CLIs' CPU). Not a test.
 *
 * <p>Usage: {@code AgentSweepBench <work dir> <opencode,codex> <k> <modes> <repeats>}.
 */
public final class AgentSweepBench {
  private AgentSweepBench() {}

  public static void main(String[] args) throws Exception {
    Path work = Paths.get(args[0]).toAbsolutePath();
    List<String> agents = List.of(args[1].split(","));
    int k = Integer.parseInt(args[2]);
    String modes = args[3];
    int repeats = Integer.parseInt(args[4]);
    System.out.println("| CLI | sweep | CLI runs | wall s | wall s, each run after a no-op run | start-up share of"
        + " wall | no-op run wall s / CPU s | sweep CPU s: JVM + CLIs = total | runs × no-op CPU ÷ CLI CPU |"
        + " load avg (1 min) before / after |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    try (ScriptedModelServer server = ScriptedModelServer.start(new SignedSumsModel())) {
      AgentModel.serve(server, CliBench.brain(new SignedSumsAgent()));
      Path config = work.resolve("config.yaml");
      Files.createDirectories(work);
      Files.writeString(config, "endpoints:\n  local: {base_url: \"" + server.baseUrl() + "\", api_key_env:"
          + " BENCH_KEY, max_concurrency: 8, timeout_seconds: 300, max_attempts: 2}\nroles:\n"
          + "  executor: {endpoint: local, model: e}\n  improver: {endpoint: local, model: i}\n"
          + "  selector: {endpoint: local, model: s}\n  reflector: {endpoint: local, model: s}\n");
      for (String agent : agents) {
        Path real = CliBench.binary(agent);
        String load = CliBench.loadAverage();
        List<CliBench.Sample> noops = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          noops.add(CliBench.measure(agent, real, work.resolve("noop-" + agent + "-" + i),
              CliBench.role(server), CliBench.NOOP, true));
        }
        double noopWall = median(noops.stream().map(CliBench.Sample::wallS).toList());
        double noopCpu = median(noops.stream().map(CliBench.Sample::cpuS).toList());
        Path wrapper = wrapper(work, agent, real);
        List<Double> plain = new ArrayList<>();
        List<Double> doubled = new ArrayList<>();
        List<Double> jvm = new ArrayList<>();
        List<Double> clis = new ArrayList<>();
        int runs = 0;
        // a first sweep loads and compiles what every later one uses; then the two kinds alternate in order
        sweep(work.resolve(agent + "-warm-up"), config, agent, k, modes, real);
        for (int r = 0; r < repeats; r++) {
          Result b = r % 2 == 0 ? null : sweep(work.resolve(agent + "-doubled-" + r), config, agent, k, modes, wrapper);
          Result a = sweep(work.resolve(agent + "-plain-" + r), config, agent, k, modes, real);
          if (b == null) b = sweep(work.resolve(agent + "-doubled-" + r), config, agent, k, modes, wrapper);
          plain.add(a.wallS);
          doubled.add(b.wallS);
          jvm.add(a.jvmCpuS);
          clis.add(a.cliCpuS);
          runs = a.runs;
        }
        double w = median(plain);
        double w2 = median(doubled);
        double j = median(jvm);
        double c = median(clis);
        System.out.printf("| %s | k = %d, %s, 1 task | %d | %.1f | %.1f | %.0f%% | %.2f / %.2f | %.1f + %.1f = %.1f"
            + " | %.0f%% | %s / %s |%n", agent, k, modes, runs, w, w2, 100 * (w2 - w) / w, noopWall, noopCpu, j, c,
            j + c, 100 * runs * noopCpu / c, load, CliBench.loadAverage());
      }
    }
  }

  record Result(double wallS, double jvmCpuS, double cliCpuS, int runs) {}

  /** One sweep of the ledgers domain's first task: wall, CPU of this JVM and of its reaped children, CLI runs. */
  static Result sweep(Path root, Path config, String agent, int k, String modes, Path binary) throws Exception {
    Path runs = root.resolve("runs");
    double jvm = CliBench.ownCpuS();
    double clis = CliBench.childrenCpuS();
    long started = System.nanoTime();
    PrintStream table = System.out;
    Map<String, Object> record;
    try {
      System.setOut(System.err); // the sweep's progress lines stay out of the table
      record = FolderSweepTest.sweepAt(runs, config, k, modes, "--onlyDomains=ledgers", "--maxTasks=1",
          "--executor=" + agent, "--channel=" + agent, "--substrate=" + (agent.equals("codex") ? "cx" : "oc"),
          "--" + agent + "Bin=" + binary);
    } finally {
      System.setOut(table);
    }
    double wall = (System.nanoTime() - started) / 1e9;
    jvm = CliBench.ownCpuS() - jvm;
    clis = CliBench.childrenCpuS() - clis;
    if (Sweep.doneFailed(record)[0] != 1) throw new IllegalStateException("the sweep did not finish: " + record);
    int count = 0;
    Path audit = runs.resolve("_audit");
    try (var namespaces = Files.list(audit)) {
      for (Path ns : namespaces.toList()) {
        count += Journal.lines(ns.resolve("executions.jsonl")).size();
        for (String line : Journal.lines(ns.resolve("sessions.jsonl"))) {
          count += Json.readTree(line).path("attempts").asInt(1);
        }
      }
    }
    return new Result(wall, jvm, clis, count);
  }

  /**
   * A stand-in for the CLI that runs it once with the no-op prompt (same arguments, environment and state), then
   * hands over to the real run; {@code --version} and other commands pass straight through.
   */
  static Path wrapper(Path work, String agent, Path real) throws Exception {
    Path bin = work.resolve(agent + "-after-noop");
    String q = "'" + real + "'";
    String noop = agent.equals("codex")
        ? "if [ \"$1\" = exec ]; then " + q + " \"${@:1:$#-1}\" '" + CliBench.NOOP + "' </dev/null >/dev/null 2>&1; fi"
        : "if [ \"$1\" = run ]; then printf '%s\\n' '" + CliBench.NOOP + "' | " + q
            + " \"$@\" >/dev/null 2>&1; fi";
    Files.writeString(bin, "#!/bin/bash\n" + noop + "\nexec " + q + " \"$@\"\n");
    Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
    return bin;
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
