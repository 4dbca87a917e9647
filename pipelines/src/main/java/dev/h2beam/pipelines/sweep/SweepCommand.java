package dev.h2beam.pipelines.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.Flags;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.judge.JudgeOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptions;

/** {@code h2beam sweep}: improve a benchmark's harness per task in the requested modes. */
public final class SweepCommand implements Command {

  @Override public String name() {
    return "sweep";
  }

  @Override public String summary() {
    return "run Harness² over a benchmark's task stream (base rollouts, modes, blind selection, libraries)";
  }

  @Override public Class<? extends PipelineOptions> options() {
    return SweepOptions.class;
  }

  @Override public int run(String[] args) throws Exception {
    // a resume that finds every task complete builds no pipeline: read the options without Beam's registry
    SweepOptions o = OptionArgs.parseLazily(name(), args, SweepOptions.class);
    Sweep.Plan plan = Sweep.plan(o, Instant.now());
    if (o.getDryRun()) {
      printDryRun(plan);
      return plan.taskCount() > 0 ? 0 : 1;
    }
    Namespace ns = plan.config().summaryNamespace();
    // printed once the folders are this sweep's: a sweep refused by another's lock prints the refusal alone
    Map<String, Object> record = Sweep.run(plan, o, () -> System.out.println("sweep " + ns + ": " + plan.taskCount()
        + " task(s) in " + plan.stream().size() + " domain(s); chains per mode and domain run in parallel, tasks"
        + " within a chain in stream order"));
    int[] df = Sweep.doneFailed(record);
    System.out.println();
    System.out.println("sweep " + ns + ": " + df[0] + " tasks ok, " + df[1] + " failed");
    Stages st = stages(plan, record);
    if (st.fellBack() > 0) {
      System.out.println("stages: " + st.fellBack() + " of " + st.stages() + " improver stages of the " + st.tasks()
          + " task(s) run now fell back to the harness they were to edit (their sessions failed or their edits were"
          + " refused; each stage's error is in its task's summary.json, e.g. " + st.example() + ")");
      if (st.fellBack() == st.stages()) {
        System.out.println("warning: every improver stage fell back, so no harness was improved: check the"
            + " improver role in --config (its endpoint, model and key) and the errors above");
      }
    }
    System.out.println("record: " + plan.recordPath());
    System.out.println(df[0] == 0 && df[1] > 0
        ? "next:   no task is ok: see the errors above; the same command again resumes, keeping what was done"
        : "next:   " + judgeCommand(plan, o.getConfig()));
    return df[1] > 0 ? 2 : 0;
  }

  /**
   * The judge's command line for this sweep's namespace, with the sweep's modes when they are not the judge's, and
   * the sweep's {@code --config} when it had one (a grader that calls a model, such as a rubric judge, needs its
   * roles; the others leave it unread).
   */
  public static String judgeCommand(Sweep.Plan plan, String config) {
    var c = plan.config();
    return "./h2beam judge --namespaces=" + c.runs().resolve(c.summaryNamespace().toString())
        + Flags.modesFlag(c.modes(), JudgeOptions.DEFAULT_MODES)
        + (config == null || config.isBlank() ? "" : " --config=" + config);
  }

  /** The same without a configuration file. */
  public static String judgeCommand(Sweep.Plan plan) {
    return judgeCommand(plan, null);
  }

  /**
   * What the summaries of the tasks this run finished say of their improver stages: how many there were, how many
   * fell back, of how many tasks, and one summary that holds a fallen-back stage. Tasks skipped as done before are
   * not read again (a large sweep's resume reads nothing); an unreadable summary is passed over.
   */
  public record Stages(int stages, int fellBack, int tasks, Path example) {}

  @SuppressWarnings("unchecked")
  public static Stages stages(Sweep.Plan plan, Map<String, Object> record) {
    var c = plan.config();
    Path ns = c.runs().resolve(c.summaryNamespace().toString());
    int stages = 0;
    int fellBack = 0;
    int tasks = 0;
    Path example = null;
    for (Object d : (List<Object>) record.getOrDefault("domains", List.of())) {
      for (Object t : (List<Object>) ((Map<String, Object>) d).getOrDefault("tasks", List.of())) {
        Map<String, Object> row = (Map<String, Object>) t;
        if (!"ok".equals(row.get("status"))) continue;
        Path summary = ns.resolve(Namespace.slug(String.valueOf(row.get("task")))).resolve("summary.json");
        JsonNode modes;
        try {
          modes = Json.readTree(summary).path("modes");
        } catch (IOException | RuntimeException e) {
          continue;
        }
        tasks++;
        for (JsonNode mode : modes) {
          for (JsonNode stage : mode.path("stages")) {
            stages++;
            if (stage.path("fell_back").asBoolean(false)) {
              fellBack++;
              if (example == null) example = summary;
            }
          }
        }
      }
    }
    return new Stages(stages, fellBack, tasks, example);
  }

  public static void printDryRun(Sweep.Plan plan) {
    var c = plan.config();
    System.out.println("# " + c.bench() + "-" + c.substrate() + " seed=" + c.seed() + " k=" + c.k() + " modes="
        + String.join(",", c.modes().stream().map(Namespace::modeName).toList()));
    for (String m : c.modes()) System.out.println("#   namespace[" + Namespace.modeName(m) + "]: " + c.namespace(m));
    System.out.println("#   summaries under: " + c.runs().resolve(c.summaryNamespace().toString()));
    System.out.println("#   library root:    " + c.libraryRoot());
    int i = 0;
    for (Map.Entry<String, List<String>> e : plan.stream().entrySet()) {
      for (String t : e.getValue()) System.out.printf("%4d  %-40s %s%n", ++i, e.getKey(), t);
    }
    System.out.println("# domains of this run, with task counts:");
    plan.stream().forEach((d, ts) -> System.out.printf("%4d  %s%n", ts.size(), d));
    System.out.println("# " + plan.taskCount() + (plan.taskCount() == 1 ? " task" : " tasks") + " over "
        + plan.stream().size() + (plan.stream().size() == 1 ? " domain" : " domains") + " (chains per mode and domain"
        + " in parallel, tasks within a chain sequential)");
    SweepBudget.lines(c.k(), c.modes().size(), plan.taskCount(), c.runConfig()).forEach(System.out::println);
    System.out.println("# a dry run writes nothing");
  }
}
