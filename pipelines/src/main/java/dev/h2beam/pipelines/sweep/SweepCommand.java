package dev.h2beam.pipelines.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.exec.Shell;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.Flags;
import dev.h2beam.pipelines.Launcher;
import dev.h2beam.pipelines.Modes;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.options.PipelineOptions;

/** {@code h2beam sweep}: improve a benchmark's harness per task in the requested modes. */
public final class SweepCommand implements Command {

  @Override public String name() {
    return "sweep";
  }

  @Override public String summary() {
    return "run Harness² over a benchmark's task stream (base rollouts, modes, blind selection, libraries)";
  }

  @Override public String exitCodes() {
    return "2 some tasks failed (the same command again runs them); 3 every task finished but every improver stage"
        + " fell back or every gated step's method failed (after the fix: the same command with --retryFailedSessions"
        + " when their sessions failed, else sweep into a new --runsRoot)";
  }

  @Override public Class<? extends PipelineOptions> options() {
    return SweepOptions.class;
  }

  /** The gated mode's method and policy, with the names this classpath has (a plug-in's jar adds its own). */
  @Override public java.util.Map<String, String> descriptions() {
    return java.util.Map.of("method", described("getMethod") + " Found on this classpath: "
        + dev.h2beam.transforms.gated.GatedMethods.all().keySet() + " (a method's jar is added with"
        + " H2BEAM_EXTRA_CLASSPATH=<jar>).", "policy", described("getPolicy") + " Found on this classpath: "
        + dev.h2beam.transforms.gated.Policies.all().keySet() + ".");
  }

  private static String described(String getter) {
    try {
      return SweepOptions.class.getMethod(getter).getAnnotation(org.apache.beam.sdk.options.Description.class)
          .value();
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
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
    st.lines().forEach(System.out::println);
    System.out.println("record: " + plan.recordPath());
    System.out.println(df[0] == 0 && df[1] > 0
        ? "next:   no task is ok: see the errors above; the same command again resumes, keeping what was done"
        : st.nothingImproved() && st.retryable()
        ? "next:   once the endpoints answer again (see the warning above), run the same command with"
            + " --retryFailedSessions: it asks the failed sessions again and reuses the rest at no cost"
        : st.nothingImproved()
        ? "next:   fix what the warning above names, then sweep into a new --runsRoot: a resume here keeps these"
            + " finished tasks as they are"
        : "next:   " + judgeCommand(plan, o.getConfig()) + OptionArgs.whereFlags(args));
    return exitCode(df[1], st);
  }

  /**
   * The sweep's exit code: 2 when a task failed (it runs again on a resume); else 3 when every improver stage fell
   * back or every gated step's method failed, so the run finished but its results are not the method's (a script
   * that judges on exit 0 stops there); else 0.
   */
  public static int exitCode(int failed, Stages st) {
    return failed > 0 ? 2 : st.nothingImproved() ? 3 : 0;
  }

  /**
   * The judge's command line for this sweep's namespace, with the sweep's modes when they are not the judge's, and
   * the sweep's {@code --config} when it had one (a grader that calls a model, such as a rubric judge, needs its
   * roles; the others leave it unread).
   */
  public static String judgeCommand(Sweep.Plan plan, String config) {
    var c = plan.config();
    // absolute, as the namespace is: the line pastes from any folder (dogAK F8)
    return Launcher.command() + " judge --namespaces=" + Shell.word(c.runs().resolve(c.summaryNamespace().toString())
        .toString()) + Flags.modesFlag(c.modes(), Modes.JUDGED_BY_DEFAULT)
        + (config == null || config.isBlank() ? "" : " --config="
        + Shell.word(java.nio.file.Path.of(config).toAbsolutePath().normalize().toString()));
  }

  /** The same without a configuration file. */
  public static String judgeCommand(Sweep.Plan plan) {
    return judgeCommand(plan, null);
  }

  /**
   * What the summaries of the tasks this run finished say of their improver stages: how many there were, how many
   * fell back, how many of those because their edits were refused (the session answered: {@code "refused": true})
   * with the first such stage's error, of how many tasks, and one summary that holds a fallen-back stage; and of
   * the gated mode's steps, in how many the method failed (threw, returned null, scored NaN), with the first such
   * error and its task. Beside tasks run now, those skipped as done before are not read again; a resume that ran
   * none ({@code resumed}) reads the tasks it found done, so that its end and exit code say what those runs did. An
   * unreadable summary is passed over. Also the reflections of the selections that chose, how many of them failed
   * ({@code reflection_error}: a lesson lost) with the first such error, and, for a {@code --retryFailedSessions}
   * run, how many of the tasks run now had a result replaced ({@code retriedNow}) and the later tasks of their
   * chains that were kept as done before ({@code keptLater}), made with the library as it was.
   */
  public record Stages(int stages, int fellBack, int refused, String firstRefusal, int tasks, Path example,
      int gatedSteps, int methodFailed, String firstMethodError, boolean resumed, int reflections,
      int reflectionsFailed, String firstReflectionError, int retriedNow, List<String> keptLater) {

    public Stages {
      keptLater = List.copyOf(keptLater);
    }

    /** Of a sweep that ran no task again for --retryFailedSessions. */
    public Stages(int stages, int fellBack, int refused, String firstRefusal, int tasks, Path example,
        int gatedSteps, int methodFailed, String firstMethodError, boolean resumed, int reflections,
        int reflectionsFailed, String firstReflectionError) {
      this(stages, fellBack, refused, firstRefusal, tasks, example, gatedSteps, methodFailed, firstMethodError,
          resumed, reflections, reflectionsFailed, firstReflectionError, 0, List.of());
    }

    /** Of a sweep whose reflector sessions all answered. */
    public Stages(int stages, int fellBack, int refused, String firstRefusal, int tasks, Path example,
        int gatedSteps, int methodFailed, String firstMethodError, boolean resumed) {
      this(stages, fellBack, refused, firstRefusal, tasks, example, gatedSteps, methodFailed, firstMethodError,
          resumed, 0, 0, "");
    }

    /** Of a sweep whose gated steps' methods all worked, or that ran no gated mode. */
    public Stages(int stages, int fellBack, int refused, String firstRefusal, int tasks, Path example) {
      this(stages, fellBack, refused, firstRefusal, tasks, example, 0, 0, "");
    }

    /** Of tasks run now. */
    public Stages(int stages, int fellBack, int refused, String firstRefusal, int tasks, Path example,
        int gatedSteps, int methodFailed, String firstMethodError) {
      this(stages, fellBack, refused, firstRefusal, tasks, example, gatedSteps, methodFailed, firstMethodError,
          false);
    }

    /** Which tasks these are: those run now, or, for a resume that ran none, those it found done. */
    private String whose() {
      return tasks + " task(s) " + (resumed ? "resumed (as the run that did them left them)" : "run now");
    }

    /** Whether some of the stages fell back because their sessions failed, which --retryFailedSessions asks again. */
    public boolean retryable() {
      return fellBack > refused || reflectionsFailed > 0;
    }

    /**
     * Whether the tasks run now improved nothing: they had improver stages and every one fell back, or gated steps
     * and the method failed in every one.
     */
    public boolean nothingImproved() {
      return (stages > 0 && fellBack == stages) || (gatedSteps > 0 && methodFailed == gatedSteps);
    }

    /**
     * The sweep's end lines on them: how many fell back and why, and, when every stage did, a warning that points
     * at the improver role in --config only when sessions failed (a refused edit came from an endpoint that
     * answered); then how many gated steps' methods failed, since a step whose method failed still ends as a
     * cautious one would (a re-roll, or the worst score), and the run would otherwise look fine. None for neither.
     */
    public List<String> lines() {
      List<String> out = new java.util.ArrayList<>();
      if (fellBack > 0) fellBackLines(out);
      if (!keptLater.isEmpty()) {
        out.add("library: " + retriedNow + " task(s) ran again for --retryFailedSessions, which may have changed the"
            + " lessons their (mode, domain) chains pass on; " + keptLater.size() + " later task(s) of those chains"
            + " kept the results they made with the library as it was: " + String.join(", ", keptLater.subList(0,
            Math.min(5, keptLater.size()))) + (keptLater.size() > 5 ? " and " + (keptLater.size() - 5) + " more" : "")
            + " (to make one again with the lessons as they are now, move its summary.json aside and run the same"
            + " command again: what did not change is reused at no cost)");
      }
      if (reflectionsFailed > 0) {
        out.add("lessons: " + reflectionsFailed + " of " + reflections + " reflections of the " + whose() + " failed,"
            + " so no lesson of theirs reached the (mode, domain) library and the later tasks of its chain ran without"
            + " it (each is selections.<mode>.reflection_error in its task's summary.json), e.g. "
            + firstReflectionError);
      }
      // one line for either failure: the flag asks every failed session of a task again
      if (retryable()) {
        out.add("retry: once the endpoints answer again, the same sweep command with --retryFailedSessions"
            + " runs again the tasks whose sessions failed (each task's summary.json kept beside it; what did"
            + " not change reused at no cost); without it a resume keeps them as they are");
      }
      if (methodFailed > 0) {
        out.add("methods: in " + methodFailed + " of " + gatedSteps + " gated steps of the " + whose()
            + " the --method failed (it threw, returned null or gave a score that is not a number; each step's"
            + " method_errors are in its task's summary.json), e.g. " + firstMethodError);
        if (methodFailed == gatedSteps) {
          out.add("warning: the gated method failed in every step, so the gated mode's results are not the method's:"
              + " fix the method (its errors are above and on stderr), then run into a new --runsRoot: a resume keeps"
              + " these finished tasks as they are");
        }
      }
      return out;
    }

    private void fellBackLines(List<String> out) {
      int failed = fellBack - refused;
      out.add("stages: " + fellBack + " of " + stages + " improver stages of the " + whose() + " fell"
          + " back to the harness they were to edit (" + (refused == 0 ? "their sessions failed"
          : failed == 0 ? "their edits were refused" : failed + " because their sessions failed, " + refused
          + " because their edits were refused") + "; each stage's error is in its task's summary.json, e.g. "
          + example + ")");
      if (refused > 0) out.add("refused: " + refused + " stage(s)' edits were refused: " + firstRefusal);
      if (fellBack == stages) {
        out.add("warning: every improver stage fell back, so no harness was improved: " + (failed == 0
            ? "the improver answered, and its edits were refused (above); see what the refusals say"
            : "check the improver role in --config (its endpoint, model and key) and the stages' errors (each in its"
            + " task's summary.json, the stages: line above names one)"
            + (refused == 0 ? "" : "; the other " + refused + " stage(s)' edits were refused (above)")));
      }
    }
  }

  @SuppressWarnings("unchecked")
  public static Stages stages(Sweep.Plan plan, Map<String, Object> record) {
    var c = plan.config();
    Path ns = c.runs().resolve(c.summaryNamespace().toString());
    int stages = 0;
    int fellBack = 0;
    int refused = 0;
    String firstRefusal = "";
    int tasks = 0;
    Path example = null;
    int gatedSteps = 0;
    int methodFailed = 0;
    String firstMethodError = "";
    int reflections = 0;
    int reflectionsFailed = 0;
    String firstReflectionError = "";
    // the tasks run now whose summary lists a result --retryFailedSessions replaced, and each task's status
    Set<String> retriedNow = new HashSet<>();
    Map<String, String> status = new HashMap<>();
    // the tasks run now; a resume that ran none reads those it found done, so that a run whose every stage fell
    // back says so, and exits 3, however often it is resumed
    boolean resumed = true;
    for (Object d : (List<Object>) record.getOrDefault("domains", List.of())) {
      for (Object t : (List<Object>) ((Map<String, Object>) d).getOrDefault("tasks", List.of())) {
        resumed &= !"ok".equals(((Map<String, Object>) t).get("status"));
      }
    }
    String counted = resumed ? "skipped" : "ok";
    for (Object d : (List<Object>) record.getOrDefault("domains", List.of())) {
      for (Object t : (List<Object>) ((Map<String, Object>) d).getOrDefault("tasks", List.of())) {
        Map<String, Object> row = (Map<String, Object>) t;
        status.put(String.valueOf(row.get("task")), String.valueOf(row.get("status")));
        if (!counted.equals(row.get("status"))) continue;
        Path summary = ns.resolve(Namespace.slug(String.valueOf(row.get("task")))).resolve("summary.json");
        JsonNode modes;
        JsonNode selections;
        try {
          JsonNode root = Json.readTree(summary);
          modes = root.path("modes");
          selections = root.path("selections");
          if (!resumed && !root.path(SummaryFile.RETRIED).isEmpty()) retriedNow.add(String.valueOf(row.get("task")));
        } catch (IOException | RuntimeException e) {
          continue;
        }
        tasks++;
        for (JsonNode sel : selections) {
          // a selection that chose is reflected on (its record always holds an experience, empty or not)
          if (!sel.path("ok").asBoolean(false)) continue;
          reflections++;
          String error = sel.path("reflection_error").asText("");
          if (!error.isEmpty() && reflectionsFailed++ == 0) firstReflectionError = row.get("task") + ": " + error;
        }
        for (JsonNode mode : modes) {
          for (JsonNode stage : mode.path("stages")) {
            stages++;
            if (stage.path("fell_back").asBoolean(false)) {
              fellBack++;
              if (example == null) example = summary;
              if (stage.path("refused").asBoolean(false) && refused++ == 0) {
                firstRefusal = stage.path("error").asText("");
              }
            }
          }
          for (JsonNode step : mode.path("gate").path("steps")) {
            gatedSteps++;
            JsonNode errors = step.path("method_errors");
            if (errors.isArray() && !errors.isEmpty() && methodFailed++ == 0) {
              firstMethodError = row.get("task") + ": " + errors.get(0).asText("");
            }
          }
        }
      }
    }
    // the later tasks of a chain one of those tasks is in, kept as done before: made with the library before the retry
    List<String> keptLater = new ArrayList<>();
    for (List<String> chain : plan.stream().values()) {
      boolean after = false;
      for (String task : chain) {
        if (retriedNow.contains(task)) after = true;
        else if (after && "skipped".equals(status.get(task))) keptLater.add(task);
      }
    }
    return new Stages(stages, fellBack, refused, firstRefusal, tasks, example, gatedSteps, methodFailed,
        firstMethodError, resumed, reflections, reflectionsFailed, firstReflectionError, retriedNow.size(), keptLater);
  }

  public static void printDryRun(Sweep.Plan plan) {
    var c = plan.config();
    System.out.println("# " + c.bench() + "-" + c.substrate() + " seed=" + (c.seed() == null ? "none" : c.seed())
        + " k=" + c.k() + " modes=" + String.join(",", c.modes().stream().map(Namespace::modeName).toList()));
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
    SweepBudget.lines(c.k(), c.modes(), plan.taskCount(), c.runConfig(), c.retryFailedSessions())
        .forEach(System.out::println);
    for (String note : Sweep.dryRunNotes(plan)) System.out.println("# " + note);
    System.out.println("# a dry run writes nothing");
  }
}
