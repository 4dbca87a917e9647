package dev.h2beam.demo;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.BeamRegistry;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.FolderFlags;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.judge.JudgeCommand;
import dev.h2beam.pipelines.sweep.WriterLocks;
import dev.h2beam.pipelines.judge.JudgeOptions;
import dev.h2beam.pipelines.report.ReportCommand;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepCommand;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.recursion.TaskScope;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * {@code h2beam demo}: the offline end-to-end demo. Two ledger tasks whose base harness drops credits; a scripted
 * improver fixes the script; both modes, blind selection, reflection and libraries run for real on the DirectRunner
 * (or any runner). Writes {@code demo.json} with the executions and improver calls this run made.
 */
public final class DemoCommand implements Command {

  @Override public String name() {
    return "demo";
  }

  @Override public String summary() {
    return "run the offline demo end to end (two ledger tasks, both modes, scripted improver)";
  }

  @Override public String exitCodes() {
    return "1 also when a task failed; 2 the judge's (rows not graded); 3 every task finished but every improver"
        + " stage fell back or every gated step's method failed";
  }

  @Override public Class<? extends PipelineOptions> options() {
    return DemoOptions.class;
  }

  @Override public Map<String, String> defaults() {
    return Map.of("k", "2", "modes", "parallel,sequential", "bench", "demo", "output", OUTPUT);
  }

  /** The sweep's options the demo refuses (its benchmark is always the demo's, in --output, on OpenCode's surface). */
  @Override public java.util.Set<String> hiddenOptions() {
    return java.util.Set.of("bench", "benchRoot", "substrate");
  }

  @Override public Map<String, String> descriptions() {
    return Map.of("runsRoot", "Where namespaces, summaries, audit trails and sweep records go; default <output>/runs.",
        "libraryRoot", "Where the per-mode experience libraries go; default <output>/library/k<k>[-s<seed>]"
        + " (harness2's demo layout; ./h2beam sweep --bench=demo defaults to library/k<k>-<substrate>[-s<seed>],"
        + " so resume a demo's output with ./h2beam demo).");
  }

  /** Where the demo writes by default. */
  static final String OUTPUT = "runs/demo";

  @Override public int run(String[] args) throws Exception {
    args = withDefaults(args);
    // the judge and the report after the sweep build pipelines whatever the sweep finds: Beam's registry is built
    // while the sweep plans and checks (its options read without it, as the sweep command reads them)
    BeamRegistry.ahead();
    DemoOptions o = OptionArgs.parseLazily(name(), args, DemoOptions.class);
    if (o.getBench() != null && !o.getBench().equals("demo")) {
      throw new UsageError("--bench is always demo for h2beam demo; use h2beam sweep for --bench=" + o.getBench());
    }
    Path output = rootsUnder(o, "demo");
    Sweep.Plan plan = Sweep.plan(o, Instant.now());
    if (o.getDryRun()) {
      SweepCommand.printDryRun(plan);
      return 0;
    }
    // the whole demo (sweep, demo.json, judge, report) is one writer of its output folder
    try (WriterLocks lock = WriterLocks.of(List.of(output), "demo in " + output, o.getLockWaitSeconds())) {
      return runLocked(o, args, plan, output);
    }
  }

  /**
   * Points the sweep at {@code --output}: the benchmark {@code bench} keeps its data there, the runs root and library
   * default to {@code runs/} and {@code library/k<k>[-s<seed>]} inside it. Returns the absolute output folder.
   */
  static Path rootsUnder(DemoOptions o, String bench) {
    if (o.getBenchRoot() != null) {
      throw new UsageError("--benchRoot: h2beam " + (bench.equals("demo") ? "demo" : "bench") + " keeps its benchmark"
          + " in --output; give --output=" + o.getBenchRoot() + " instead, or run h2beam sweep --bench=" + bench
          + " to choose the folders one by one");
    }
    FolderFlags.written(o, "--output", o.getOutput(), "runs/" + bench);
    // its namespaces go under it unless --runsRoot says elsewhere: the judge and the report name them in --namespaces
    if (o.getRunsRoot() == null) {
      FolderFlags.namespacesUnder("--output", o.getOutput(), "give --output a folder whose path has none of "
          + FolderFlags.NAMESPACES_CHARACTERS + " (or --runsRoot such a folder)");
    }
    Path output = Paths.get(o.getOutput()).toAbsolutePath().normalize();
    // refused here naming the flag the user gave (the sweep would name --benchRoot, which it sets from it)
    Sweep.writable("--output", output);
    o.setBench(bench);
    o.setBenchRoot(output.toString());
    if (o.getRunsRoot() == null) o.setRunsRoot(output.resolve("runs").toString());
    if (o.getLibraryRoot() == null) {
      o.setLibraryRoot(output.resolve("library")
          .resolve("k" + o.getK() + (o.getSeed() == null ? "" : "-s" + o.getSeed())).toString());
    }
    return output;
  }

  private static int runLocked(DemoOptions o, String[] args, Sweep.Plan plan, Path output) throws Exception {
    Path audit = TaskScope.auditDir(plan.config().runs(), plan.config().summaryNamespace());
    int executionsBefore = Journal.ranNow(audit.resolve("executions.jsonl"));
    int sessionsBefore = Journal.ranNow(audit.resolve("sessions.jsonl"));
    Map<String, Object> record = Sweep.run(plan, o);
    int executions = Journal.ranNow(audit.resolve("executions.jsonl")) - executionsBefore;
    int sessions = Journal.ranNow(audit.resolve("sessions.jsonl")) - sessionsBefore;

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> domains = (List<Map<String, Object>>) record.get("domains");
    Map<String, Object> demo = new LinkedHashMap<>(domains.isEmpty() ? Map.of() : domains.get(0));
    demo.put("execution_count", executions);
    demo.put("editor_calls", sessions);
    Path demoJson = output.resolve("demo.json");
    AtomicFiles.writeString(demoJson, Json.pretty(demo) + "\n");
    int[] df = Sweep.doneFailed(record);
    System.out.println("Demo: " + df[0] + " tasks completed; " + df[1] + " failed. " + demoJson);
    // what the sweep's end says of stages that fell back and gated methods that failed: a demo of a plug-in method
    // is where its author first runs it
    SweepCommand.Stages st = SweepCommand.stages(plan, record);
    st.lines().forEach(System.out::println);
    int judgedAndReported = judgeAndReport(o, args, plan, output, "demo");
    // judged and reported all the same (the author reads the report), but no script takes the run for a good one
    return df[1] > 0 ? 1 : judgedAndReported != 0 ? judgedAndReported : st.nothingImproved() ? 3 : 0;
  }

  /**
   * Judges the sweep's namespace with {@code grader} and writes the report to {@code <output>/report}, on the runner
   * the command line chose; returns the judge's exit code when it failed, else the report's.
   */
  static int judgeAndReport(DemoOptions o, String[] args, Sweep.Plan plan, Path output, String grader)
      throws Exception {
    Path namespace = plan.config().runs().resolve(plan.config().summaryNamespace().toString());
    List<String> judgeArgs = new ArrayList<>(List.of("--namespaces=" + namespace, "--modes=" + o.getModes(),
        "--grader=" + grader));
    for (String a : args) {
      if (a.startsWith("--runner=") || a.startsWith("--targetParallelism=") || a.startsWith("--flink")
          || a.startsWith("--parallelism=")) {
        judgeArgs.add(a);
      }
    }
    System.out.println();
    int judged = JudgeCommand.run(OptionArgs.parse("judge", judgeArgs.toArray(new String[0]),
        JudgeOptions.class), System.out, false); // the report follows here: no "next: report" line

    List<String> reportArgs = new ArrayList<>(judgeArgs);
    reportArgs.removeIf(a -> a.startsWith("--grader="));
    reportArgs.add("--output=" + output.resolve("report"));
    System.out.println();
    int reported = new ReportCommand().run(reportArgs.toArray(new String[0]), System.out, System.err);
    if (reported == 0) System.out.println("HTML report: " + output.resolve("report").resolve("report.html"));
    return judged != 0 ? judged : reported;
  }

  /** Applies the demo's own defaults (k = 2, both modes, its output folder) unless the flags were given. */
  static String[] withDefaults(String[] args) {
    return withDefaults(args, "2", OUTPUT);
  }

  /** The same with another default k and output folder. */
  static String[] withDefaults(String[] args, String defaultK, String defaultOutput) {
    List<String> out = new ArrayList<>();
    boolean k = false;
    boolean modes = false;
    boolean output = false;
    for (String a : args) {
      if (a.startsWith("--k=")) k = true;
      if (a.startsWith("--modes=")) modes = true;
      if (a.startsWith("--output=")) output = true;
      out.add(a);
    }
    if (!k) out.add("--k=" + defaultK);
    if (!modes) out.add("--modes=parallel,sequential");
    if (!output) out.add("--output=" + defaultOutput);
    return out.toArray(new String[0]);
  }
}
