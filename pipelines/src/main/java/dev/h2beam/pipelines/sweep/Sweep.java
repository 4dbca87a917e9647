package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkInvalid;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.bench.Benchmarks;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Build;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.plugin.PluginCode;
import dev.h2beam.pipelines.DirectThreads;
import dev.h2beam.pipelines.Flags;
import dev.h2beam.pipelines.FlinkMaster;
import dev.h2beam.pipelines.FolderFlags;
import dev.h2beam.pipelines.LazyOptions;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.transforms.beam.FinishTasks;
import dev.h2beam.transforms.beam.JsonCoder;
import dev.h2beam.transforms.beam.RollBases;
import dev.h2beam.transforms.beam.RunChains;
import dev.h2beam.transforms.beam.WriteSweepRecord;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.GatedMethods;
import dev.h2beam.transforms.gated.Policies;
import dev.h2beam.transforms.library.Library;
import dev.h2beam.transforms.recursion.Faults;
import dev.h2beam.transforms.resume.Leftovers;
import dev.h2beam.transforms.resume.StoredCredentials;
import dev.h2beam.transforms.selection.AnonIds;
import dev.h2beam.transforms.stream.TaskStream;
import dev.h2beam.transforms.summary.SummaryFile;
import dev.h2beam.transforms.sweep.ClientReplay;
import dev.h2beam.transforms.sweep.GateSettings;
import dev.h2beam.transforms.sweep.ModeOutcome;
import dev.h2beam.transforms.sweep.RootToken;
import dev.h2beam.transforms.sweep.SweepConfig;
import dev.h2beam.transforms.sweep.SweepContext;
import dev.h2beam.transforms.sweep.SweepRecord;
import dev.h2beam.transforms.sweep.SweepSteps;
import dev.h2beam.transforms.sweep.TaskRef;
import dev.h2beam.transforms.sweep.TaskRow;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * The sweep: validates every option before anything runs, resolves the task stream, checks the run identity, then
 * runs tasks → RollBases → RunChains (one ordered chain per mode and domain) → FinishTasks → the sweep record.
 */
public final class Sweep {
  private Sweep() {}

  /**
   * The gated mode's settings, checked before anything runs: the method and policy are known, and when the method
   * scores episodes with the tasks' checks, every task of the stream has a {@code checks/} folder.
   */
  static GateSettings gate(SweepOptions o, List<String> modes, Benchmark bench,
      LinkedHashMap<String, List<String>> stream) {
    GateSettings gate;
    try {
      // an empty --method= or --policy= is a slip, not a choice of the default
      if (o.getMethod() != null && o.getMethod().isBlank()) {
        throw new IllegalArgumentException("--method= names no method; known: " + GatedMethods.all().keySet()
            + " (leave the flag out for " + GatedMethods.DEFAULT + ")");
      }
      if (o.getPolicy() != null && o.getPolicy().isBlank()) {
        throw new IllegalArgumentException("--policy= names no policy; known: " + Policies.all().keySet()
            + " (leave the flag out for " + GateSettings.DEFAULT.policy() + ")");
      }
      gate = new GateSettings(o.getMethod(), o.getPolicy(), o.getMinWinMargin() == null ? 0 : o.getMinWinMargin());
      if (!modes.contains("gat")) return gate;
      gate.openPolicy();
      GatedMethod method = gate.openMethod();
      if (!method.needsChecks()) return gate;
      List<String> without = new ArrayList<>();
      for (List<String> tasks : stream.values()) {
        for (String t : tasks) if (bench.checks(t).isEmpty()) without.add(t);
      }
      if (!without.isEmpty()) {
        throw new IllegalArgumentException("--modes includes gated, but benchmark " + bench.spec().name() + " gives"
            + " its method no signal of its own: " + without.size() + " task(s) have no checks/ folder (first: "
            + without.get(0) + "). --method=" + method.name() + " scores episodes with each task's checks/"
            + dev.h2beam.transforms.gated.Checks.SCRIPT + " (method-visible, unlike grading/): add one to every"
            + " task, choose a --method that needs none, or run --modes=parallel,sequential");
      }
      return gate;
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
  }

  /** A validated sweep, ready to build. */
  public record Plan(SweepConfig config, Benchmark bench, LinkedHashMap<String, List<String>> stream,
      Path recordPath, Map<String, Object> header) {
    public int taskCount() {
      return stream.values().stream().mapToInt(List::size).sum();
    }
  }

  /** Validates the options and resolves everything a run needs; a {@link UsageError} names the bad flag. */
  public static Plan plan(SweepOptions o, Instant now) {
    if (o.getBench() == null || o.getBench().isBlank()) {
      throw new UsageError("--bench is required; known benchmarks: " + Benchmarks.names());
    }
    BenchmarkProvider provider;
    try {
      provider = Benchmarks.named(o.getBench());
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    SweepBudget.checkK(o.getK());
    for (String[] w : new String[][] {{"sessionLimit", "" + o.getSessionLimit()},
        {"rolloutLimit", "" + o.getRolloutLimit()}, {"phaseWidth", "" + o.getPhaseWidth()}}) {
      if (Integer.parseInt(w[1]) < 1) throw new UsageError("--" + w[0] + " must be at least 1 (got " + w[1] + ")");
    }
    if (o.getSessionRetryWaitSeconds() < 0) throw new UsageError("--sessionRetryWaitSeconds must be >= 0");
    if (o.getChainsAtOnce() < 0) {
      throw new UsageError("--chainsAtOnce must be at least 1, or 0 for as many as the limits keep busy (got "
          + o.getChainsAtOnce() + ")");
    }
    ProgressView.style(o.getProgress(), false, false);
    if (o.getProgressSeconds() < 1) {
      throw new UsageError("--progressSeconds must be at least 1 (got " + o.getProgressSeconds() + ")");
    }
    List<String> modes = Flags.modes(o.getModes());
    if (!List.of(AnonIds.TASK, AnonIds.REPLICATE).contains(o.getAnonIds())) {
      throw new UsageError("--anonIds must be " + AnonIds.TASK + " (harness2's rule, the default) or "
          + AnonIds.REPLICATE + " (got '" + o.getAnonIds() + "')");
    }
    if (o.getAnonIds().equals(AnonIds.REPLICATE) && o.getSeed() == null) {
      throw new UsageError("--anonIds=" + AnonIds.REPLICATE + " shuffles the selector's ids with the replicate's"
          + " --seed, and none is given: add --seed=N (each replicate its own), or leave --anonIds at "
          + AnonIds.TASK);
    }
    Faults faults;
    try {
      faults = Faults.parse(o.getInject());
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    if (!o.getChannel().isBlank()) {
      try {
        dev.h2beam.adapters.proposer.ChannelProvider.forKind(o.getChannel());
      } catch (IllegalArgumentException e) {
        throw new UsageError("--channel: " + e.getMessage());
      }
    }
    String sub = o.getSubstrate();
    if (!sub.equals("oc") && !sub.equals("cx")) {
      throw new UsageError("--substrate must be oc (OpenCode) or cx (Codex), got '" + sub + "'");
    }
    if (!runsLocally(o)) {
      // a default folder is relative to the client's working folder, which no worker shares
      for (String[] f : new String[][] {{"--benchRoot", o.getBenchRoot()}, {"--runsRoot", o.getRunsRoot()}}) {
        if (f[1] == null) {
          throw new UsageError(f[0] + " is required with a runner whose workers run in other processes: give an"
              + " absolute path on a file system that every worker mounts");
        }
      }
    }
    if (provider.writesRoot()) {
      FolderFlags.written(o, "--benchRoot", o.getBenchRoot(), "runs/" + o.getBench());
    } else if (o.getBenchRoot() == null) {
      // runs/<bench> is a default only for a benchmark h2beam makes; this one is the user's own folder
      throw new UsageError("--benchRoot is required for --bench=" + o.getBench() + ": give the folder that holds your"
          + " tasks (the folder benchmark's example: --benchRoot=examples/folder-bench)");
    } else {
      FolderFlags.read(o, "--benchRoot", o.getBenchRoot(), "examples/folder-bench");
    }
    FolderFlags.written(o, "--runsRoot", o.getRunsRoot(), "runs/" + o.getBench() + "/runs");
    FolderFlags.written(o, "--libraryRoot", o.getLibraryRoot(), "runs/" + o.getBench() + "/library");
    // the namespaces are judged and reported through --namespaces: the folder they go under must be one it can name
    String plain = "give --runsRoot a folder whose path has none of " + FolderFlags.NAMESPACES_CHARACTERS;
    if (o.getRunsRoot() != null) {
      FolderFlags.namespacesUnder("--runsRoot", o.getRunsRoot(), plain);
    } else if (o.getBenchRoot() != null) {
      FolderFlags.namespacesUnder("--benchRoot", o.getBenchRoot(), "the runs root defaults to its runs/ folder: "
          + plain);
    } else {
      FolderFlags.namespacesUnder("--runsRoot", null, plain);
    }
    RunConfig runConfig = readConfig(o.getConfig());
    Path benchRoot = absolute(o.getBenchRoot() == null ? "runs/" + o.getBench() : o.getBenchRoot());
    Path runsRoot = absolute(o.getRunsRoot() == null ? benchRoot.resolve("runs").toString() : o.getRunsRoot());
    String variant = "k" + o.getK() + "-" + sub + (o.getSeed() == null ? "" : "-s" + o.getSeed());
    // a benchmark whose root is the user's input folder gets nothing written beside its tasks but the runs root
    Path writableRoot = provider.writesRoot() ? benchRoot : runsRoot.resolve("_library");
    Path libraryRoot = absolute(o.getLibraryRoot() == null
        ? (provider.writesRoot() ? benchRoot.resolve("library") : writableRoot).resolve(variant).toString()
        : o.getLibraryRoot());
    if (provider.writesRoot()) writable("--benchRoot", benchRoot, o.getBenchRoot() != null);
    writable("--runsRoot", runsRoot, o.getRunsRoot() != null);
    writable("--libraryRoot", libraryRoot, o.getLibraryRoot() != null);

    Map<String, String> settings = new TreeMap<>();
    settings.put("substrate", sub);
    if (!o.getSplit().equals("all")) settings.put("split", o.getSplit());
    if (!provider.writesRoot()) settings.put("executions", runsRoot.resolve("_executions").toString());
    Flags.isolation(o.getBench(), provider.settingKeys(), o.getIsolation(), settings);
    if (settings.containsKey(Isolation.CONFIG_KEY)) settings.put("runsRoot", runsRoot.toString());
    Map<String, String> owned = new TreeMap<>(Flags.BENCH_FLAGS);
    owned.put("executions", "--runsRoot (rollouts go to <runsRoot>/_executions)");
    Map<String, String> sources = Flags.benchSettings(o.getBench(), provider.settingKeys(), o.getBenchSettings(),
        owned, o.getExecutor(), o.getOpencodeBin(), o.getCodexBin(), o.getToolsDir(), settings);
    Benchmark bench;
    try {
      bench = provider.open(benchRoot, settings, runConfig, sources);
    } catch (BenchmarkInvalid e) {
      // every problem at once, as check lists them: the base harness's too (a link, a file too large or off the
      // surface, a credential), which this refusal would otherwise name only once the tasks' were fixed
      List<String> problems = new ArrayList<>(e.problems());
      e.partial().filter(b -> Files.isDirectory(b.baseHarness()))
          .ifPresent(b -> problems.addAll(BaseHarness.problems(b)));
      throw new UsageError("--bench=" + o.getBench() + " at " + benchRoot + " has " + problems.size()
          + " problem(s):\n  " + String.join("\n  ", problems));
    } catch (Exception e) {
      throw new UsageError("cannot open --bench=" + o.getBench() + " at " + benchRoot + ": " + e.getMessage());
    }
    // a base harness the benchmark has yet to write (the demo's, on its first run) is checked once run() wrote it
    if (Files.exists(bench.baseHarness())) BaseHarness.require(bench, o.getBench());
    List<String> missingRoles = missingRoles(bench, runConfig, o.getChannel());
    if (!missingRoles.isEmpty()) {
      throw new UsageError("--bench=" + o.getBench() + " talks to a model for its improver, selector and reflector"
          + " sessions: --config" + (o.getConfig() == null ? " is required and" : "=" + o.getConfig())
          + " must configure roles " + missingRoles + " (see the README's configuration file)");
    }
    // a key the sweep's sessions and rollouts would miss fails every task at its first call: refused before anything
    // runs (each worker checks its own environment too, SweepContext)
    Map<String, String> unset = runConfig.unsetKeys(RunConfig.SWEEP_ROLES, System.getenv());
    if (!unset.isEmpty()) throw new UsageError(unsetKeys(unset, System.getenv(), o.getConfig(), !runsLocally(o)));
    LinkedHashMap<String, List<String>> stream;
    try {
      LinkedHashMap<String, List<String>> grouped = TaskStream.group(bench.tasks(), bench::domainOf);
      grouped = TaskStream.onlyDomains(grouped, Flags.split(o.getOnlyDomains()));
      stream = TaskStream.order(grouped, o.getSeed(), bench.referenceDomainOrder());
      if (o.getMaxTasks() != null) stream = TaskStream.maxTasks(stream, o.getMaxTasks());
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    try {
      List<String> tasks = new ArrayList<>();
      stream.values().forEach(tasks::addAll);
      faults.requireIn(tasks, modes);
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    GateSettings gate = gate(o, modes, bench, stream);
    // on a cluster, the job's limits are divided among its worker processes (the TaskManagers its JobManager reports)
    int workers = runsLocally(o) ? 1 : FlinkCluster.shape(o).workers();
    SweepConfig config = new SweepConfig(o.getBench(), benchRoot.toString(), settings, sub, runsRoot.toString(),
        libraryRoot.toString(), o.getK(), modes, o.getSeed(), o.getSessionLimit(), o.getRolloutLimit(),
        o.getPhaseWidth(), o.getSessionRetryWaitSeconds(), o.getInject(), o.getChannel(), bench.spec().name(),
        runConfig, workers, "", gate, o.getAnonIds(), o.getRetryFailedSessions());
    try {
      config.workerSessionLimit();
      config.workerRolloutLimit();
      config.workerRunConfig();
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    Namespace ns = config.summaryNamespace();
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(now);
    Path record = runsRoot.resolve("_sweeps").resolve(ns + "-" + stamp + ".json");
    for (int i = 1; Files.exists(record); i++) {
      record = runsRoot.resolve("_sweeps").resolve(ns + "-" + stamp + "-" + i + ".json");
    }
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("benchmark", bench.spec().name());
    header.put("substrate", sub);
    header.put("k", o.getK());
    // the modes as harness2's CLI records them (its on-disk tokens: agg, seq), and no task filter as an empty list
    header.put("modes", new ArrayList<>(modes));
    header.put("seed", o.getSeed());
    header.put("tag", "");
    header.put("domain_order", new ArrayList<>(stream.keySet()));
    header.put("max_tasks", o.getMaxTasks());
    header.put("only_tasks", new ArrayList<>());
    header.put("started_at", now.toString());
    header.put(Build.BY_MODE, Build.id()); // h2beam's own key: which h2beam ran this sweep
    return new Plan(config, bench, stream, record, header);
  }

  /**
   * The improver identity of config.json when the configuration serves the sessions: {@code openai:<url>#<model>}
   * of the improver, then {@code |selector:...} and {@code |reflector:...} where those roles use another endpoint or
   * model, so the report's C4 condition tells apart runs whose selector or reflector differed.
   */
  static String sessionIdentity(String kind, RunConfig rc) {
    String improver = rc.role("improver").orElseThrow().identity();
    StringBuilder sb = new StringBuilder(kind).append(':').append(improver);
    for (String role : List.of("selector", "reflector")) {
      rc.role(role).filter(r -> !r.identity().equals(improver))
          .ifPresent(r -> sb.append('|').append(role).append(':').append(r.identity()));
    }
    return sb.toString();
  }

  /** Why a sweep whose configuration names key variables {@code unset} (variable → endpoint) cannot start. */
  static String unsetKeys(Map<String, String> unset, Map<String, String> env, String configFile, boolean cluster) {
    String them = unset.size() == 1 ? "it" : "them";
    return "--config=" + configFile + ": environment variable" + (unset.size() == 1 ? " " : "s ")
        + RunConfig.named(unset) + " " + RunConfig.unsetState(unset, env) + "; export " + them + " with the"
        + " endpoint's key before the sweep (a value is never written anywhere)"
        + (cluster ? "; every TaskManager needs " + them + " in its environment too" : "");
  }

  /** The configuration file, or an empty configuration without {@code --config}. */
  static RunConfig readConfig(String file) {
    try {
      return RunConfig.ofFlag(file);
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
  }

  /**
   * The session roles a benchmark whose own channel talks to a model ({@code openai}) needs from the configuration
   * and does not get; empty when {@code --channel} replaces its channel or nothing is missing.
   */
  static List<String> missingRoles(Benchmark bench, RunConfig config, String channel) {
    List<String> missing = new ArrayList<>();
    String improver = channel.isBlank() ? bench.spec().proposerChannel().kind() : channel;
    String selector = channel.isBlank() ? bench.spec().selectorChannel().kind() : channel;
    if (MODEL_CHANNELS.contains(improver) && config.role("improver").isEmpty()) missing.add("improver");
    if (MODEL_CHANNELS.contains(selector)) {
      for (String r : List.of("selector", "reflector")) if (config.role(r).isEmpty()) missing.add(r);
    }
    return missing;
  }

  /** Channel kinds that talk to a model and so take their endpoint and model from a configured role. */
  static final java.util.Set<String> MODEL_CHANNELS = java.util.Set.of("openai", "opencode", "codex");

  /**
   * The timing environment a sweep declares (runner, machine kind, workers and concurrency limits): time metrics of
   * two namespaces are compared only when their environments are equal.
   */
  static Map<String, Object> timing(Plan plan, SweepOptions o) {
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("runner", o.getRunner() == null ? "DirectRunner" : o.getRunner().getSimpleName());
    Runtime rt = Runtime.getRuntime();
    t.put("machine", System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ", "
        + rt.availableProcessors() + " cores, "
        + Math.round(((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
            .getOperatingSystemMXBean()).getTotalMemorySize() / (double) (1L << 30)) + " GiB");
    t.put("workers", plan.config().workers());
    t.put("session_limit", plan.config().sessionLimit());
    t.put("rollout_limit", plan.config().rolloutLimit());
    t.put("phase_width", plan.config().phaseWidth());
    return t;
  }

  /**
   * The timing recorded once a namespace was swept in {@code now} after {@code before}: unchanged when equal, else
   * {@code {"mixed": true, "environments": [...]}} listing each distinct one, so its times compare with nothing.
   */
  @SuppressWarnings("unchecked")
  static Object mergedTiming(Object before, Object now) {
    if (before == null) return now;
    if (Json.canonical(before).equals(Json.canonical(now))) return before;
    List<Object> envs = new ArrayList<>();
    if (before instanceof Map && Boolean.TRUE.equals(((Map<String, Object>) before).get("mixed"))) {
      envs.addAll((List<Object>) ((Map<String, Object>) before).get("environments"));
    } else {
      envs.add(before);
    }
    boolean known = false;
    for (Object e : envs) known |= Json.canonical(e).equals(Json.canonical(now));
    if (!known) envs.add(now);
    Map<String, Object> mixed = new LinkedHashMap<>();
    mixed.put("mixed", true);
    mixed.put("environments", envs);
    return mixed;
  }

  /**
   * Writes or checks the namespace's run identity (config.json, spec §3.6), with h2beam's own keys beside harness2's:
   * among them the digests of the benchmark's inputs ({@link RunInputs}) and the roles' settings ({@link
   * RoleSettings}), so a resume over edited inputs or other settings is refused naming what changed, and the builds
   * of h2beam that wrote the namespace ({@link Build#BUILDS}).
   */
  public static void checkIdentity(Plan plan, SweepOptions o) {
    writeOrCheck(identityFile(plan), identity(plan, o, true), plan, o, taskIds(plan));
  }

  /** The plan's task ids in stream order (a loop: a lambda's first use costs a resume a millisecond). */
  private static List<String> taskIds(Plan plan) {
    List<String> ids = new ArrayList<>();
    for (List<String> ts : plan.stream().values()) ids.addAll(ts);
    return ids;
  }

  /**
   * Before the benchmark prepares its files (a benchmark h2beam writes adds the tasks it lacks): refuses a resume of
   * another experiment by what is known without them, so that a refused sweep writes nothing into the benchmark.
   */
  static void refuseOtherIdentity(Plan plan, SweepOptions o) {
    Path file = identityFile(plan);
    Map<String, Object> old = recordedIdentity(file);
    if (old == null || !old.containsKey("method_version")) return;
    compareIdentity(file, old, identity(plan, o, false), plan, o, taskIds(plan));
  }

  /**
   * config.json's record of which code the gated method and policy are ({@link PluginCode}): a resume with another
   * jar under the same name is refused, so one namespace never holds two versions of a method.
   */
  public static final String GATE_CODE = "gate_code";

  /** The refusal of a resume whose gated method or policy is other code than the run began with. */
  @SuppressWarnings("unchecked")
  static String gateCodeRefusal(Path file, Object before, Object now, String elsewhere) {
    List<String> parts = new ArrayList<>();
    Map<String, Object> b = before instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    Map<String, Object> n = now instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    for (String role : List.of("method", "policy")) {
      if (!Json.canonical(b.get(role)).equals(Json.canonical(n.get(role)))) {
        parts.add("the " + role + " was " + codeOf(b.get(role)) + " when this run began, now " + codeOf(n.get(role)));
      }
    }
    return file + ": " + String.join("; ", parts) + ". A resume would mix two versions' results in one namespace:"
        + " put the earlier jar back on H2BEAM_EXTRA_CLASSPATH to resume, or use " + elsewhere + " for the new version";
  }

  private static String codeOf(Object entry) {
    if (!(entry instanceof Map<?, ?> m)) return String.valueOf(entry);
    Object code = m.get("code");
    return m.get("class") + " (" + (PluginCode.BUILT_IN.equals(code) ? "h2beam's own" : code
        + (m.get("from") == null ? "" : " from " + m.get("from"))) + ")";
  }

  /** The identity keys h2beam began to record after config.json existed: a resume records them where they lack. */
  private static final List<String> RECORDED_LATER = List.of(RunInputs.KEY, RoleSettings.KEY, RoleSettings.PRICES);

  /**
   * What {@code --retryFailedSessions} would run again: the finished tasks whose summaries record improver or
   * reflector sessions that failed ({@link SummaryFile#failedSessions}), counted with the first few named; null
   * without the flag. Read without writing (a task with a part still to merge is left to the sweep, which merges it
   * first).
   */
  static String retryNote(Plan plan) {
    if (!plan.config().retryFailedSessions()) return null;
    List<String> tasks = new ArrayList<>();
    int stages = 0;
    for (List<String> ts : plan.stream().values()) {
      for (String t : ts) {
        Path summary = plan.config().summaryPath(t);
        if (!Files.isRegularFile(summary)) continue;
        Map<String, List<String>> failed;
        try {
          failed = SummaryFile.failedSessions(SummaryFile.read(summary), plan.config().modes());
        } catch (IOException | RuntimeException e) {
          continue;
        }
        if (failed.isEmpty()) continue;
        tasks.add(t);
        stages += failed.values().stream().mapToInt(List::size).sum();
      }
    }
    if (tasks.isEmpty()) {
      return "--retryFailedSessions: no finished task records an improver or reflector session that failed; nothing to"
          + " run again";
    }
    List<String> some = tasks.subList(0, Math.min(5, tasks.size()));
    return "--retryFailedSessions would run again " + tasks.size() + (tasks.size() == 1 ? " task" : " tasks") + " for "
        + stages + " session(s) that failed: " + String.join(", ", some)
        + (tasks.size() > some.size() ? " and " + (tasks.size() - some.size()) + " more" : "");
  }

  /**
   * What a sweep of this plan would do that its dry run can tell without writing anything: a refusal of its
   * benchmark folder or its library (another runs root's), the tasks {@code --retryFailedSessions} would run again
   * ({@link #retryNote}), and what it would record, once and for good, in a
   * config.json an older h2beam wrote (the keys it lacks, unverified when that h2beam did work there, and that
   * h2beam as "unrecorded").
   */
  public static List<String> dryRunNotes(Plan plan) {
    List<String> out = new ArrayList<>();
    if (Benchmarks.named(plan.config().bench()).writesRoot()) {
      String refused = BenchRootClaim.refusal(Path.of(plan.config().benchRoot()), plan.config().runs());
      if (refused != null) out.add("the sweep would be refused: " + refused);
    }
    String library = libraryRefusal(plan);
    if (library != null) out.add("the sweep would be refused: " + library);
    String retry = retryNote(plan);
    if (retry != null) out.add(retry);
    Path file = identityFile(plan);
    Map<String, Object> old = recordedIdentity(file);
    if (old == null || !old.containsKey("method_version")) return out;
    List<String> missing = new ArrayList<>();
    for (String key : RECORDED_LATER) {
      // the role keys are in the identity only with a configuration (identity())
      boolean recorded = key.equals(RunInputs.KEY) || !plan.config().runConfig().isEmpty();
      if (recorded && !old.containsKey(key)) missing.add(key);
    }
    if (old.get(RunInputs.KEY) instanceof Map<?, ?> digests && !digests.containsKey(RunInputs.PROMPTS)) {
      missing.add(RunInputs.KEY + "." + RunInputs.PROMPTS);
    }
    boolean worked;
    try {
      worked = workDone(file.getParent());
    } catch (IOException e) {
      worked = true;
    }
    if (!missing.isEmpty()) {
      out.add(file + " predates " + String.join(", ", missing) + ": the sweep records them in it now" + (worked
          ? " and lists them as \"" + UNVERIFIED + "\", since an older h2beam did work here that nothing checked"
          + " against them (the report then compares no replicate on them)" : ""));
    }
    if (plan.config().modes().contains("gat") && !old.containsKey(GATE_CODE)) {
      boolean gatedBefore;
      try {
        gatedBefore = anySummaryHas(file.getParent(), "gat");
      } catch (IOException e) {
        gatedBefore = true;
      }
      out.add(file + " predates " + GATE_CODE + ": the sweep records which code the gated method and policy are"
          + (gatedBefore ? " and lists it as \"" + UNVERIFIED + "\", since gated results are already here" : ""));
    }
    if (!old.containsKey(Build.BUILDS) && worked) {
      out.add(file + " records no h2beam build although one worked here: the sweep records it as \""
          + Build.UNRECORDED + "\" before this build in " + Build.BUILDS);
    }
    return out;
  }

  private static Path identityFile(Plan plan) {
    return plan.config().runs().resolve(plan.config().summaryNamespace().toString()).resolve("config.json");
  }

  /**
   * The run identity of this sweep; the input digests and the timing only when {@code digests} (the digests read the
   * prepared files).
   */
  private static Map<String, Object> identity(Plan plan, SweepOptions o, boolean digests) {
    Map<String, Object> id = new LinkedHashMap<>();
    id.put("method_version", 2);
    String executor = plan.bench().executorIdentity();
    id.put("executor", plan.bench().spec().name() + "/" + plan.config().substrate()
        + (executor.isEmpty() ? "" : ":" + executor));
    RunConfig rc = plan.config().runConfig();
    String kind = plan.config().channel().isBlank() ? plan.bench().spec().proposerChannel().kind()
        : plan.config().channel();
    id.put("improver", rc.role("improver").isPresent() && MODEL_CHANNELS.contains(kind)
        ? sessionIdentity(kind, rc) : kind + ":" + plan.bench().spec().proposerChannel().model());
    id.put("judge", "");
    id.put("split", o.getSplit());
    if (!rc.isEmpty()) {
      id.put("roles", rc.identity());
      id.put(RoleSettings.KEY, rc.settings());
      id.put(RoleSettings.PRICES, rc.prices());
    }
    id.put("bench_provider", plan.config().bench());
    id.put("bench_root", plan.config().benchRoot());
    List<Object> tasks = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    plan.stream().forEach((d, ts) -> ts.forEach(t -> {
      tasks.add(List.of(d, t));
      ids.add(t);
    }));
    id.put("tasks", tasks);
    if (digests) {
      try {
        id.put(RunInputs.KEY, RunInputs.of(plan.bench(), ids, plan.config().modes().contains("gat")));
      } catch (UncheckedIOException e) {
        throw new UsageError(e.getMessage());
      }
    }
    id.put("max_tasks", o.getMaxTasks());
    List<String> domains = new ArrayList<>(Flags.split(o.getOnlyDomains()));
    domains.sort(null);
    id.put("domains", domains);
    id.put("seed", o.getSeed());
    // written only when it is not harness2's rule, which every config.json that records none followed
    if (!o.getAnonIds().equals(AnonIds.TASK)) id.put(AnonIds.CONFIG_KEY, o.getAnonIds());
    // the same: recorded only when not none
    if (!o.getIsolation().equals(Isolation.NONE)) id.put(Isolation.CONFIG_KEY, o.getIsolation());
    if (digests) id.put("timing", timing(plan, o)); // never compared; read from the machine
    if (digests) id.put(Build.BUILDS, new ArrayList<>(List.of(Build.id()))); // never compared: added to (below)
    if (plan.config().modes().contains("gat")) {
      Map<String, Object> gate = new LinkedHashMap<>();
      gate.put("method", plan.config().gate().method());
      gate.put("policy", plan.config().gate().policy());
      gate.put("min_win_margin", plan.config().gate().minWinMargin());
      id.put("gate", gate);
      // which code those names are: a plug-in's jar, digested, or h2beam's own (whose build h2beam_builds records)
      Map<String, Object> code = new LinkedHashMap<>();
      code.put("method", PluginCode.of(plan.config().gate().openMethod().getClass(), GatedMethod.class));
      code.put("policy", PluginCode.of(plan.config().gate().openPolicy().getClass(), GatedMethod.class));
      id.put(GATE_CODE, code);
    }
    return id;
  }

  /**
   * What a refused resume is told to use for a different experiment: a new runs root. A benchmark that keeps its
   * rollouts under its own folder serves one runs root, so for it (the demo's, the synthetic one) that means a new
   * {@code --output}, or with {@code h2beam sweep} a new {@code --benchRoot} as well.
   */
  static String elsewhere(String bench) {
    return dev.h2beam.adapters.bench.Benchmarks.named(bench).writesRoot()
        ? "a new --output (with h2beam sweep, a new --benchRoot and --runsRoot)" : "a new --runsRoot";
  }

  /**
   * Whether no task of the namespace folder {@code ns} has a summary yet, whole or a mode's part ({@code
   * summary.<mode>.json}): none finished, in any mode.
   */
  static boolean finishedNone(Path ns) {
    try (java.util.stream.Stream<Path> tasks = Files.list(ns)) {
      for (Path t : tasks.filter(Files::isDirectory).toList()) {
        try (java.util.stream.Stream<Path> files = Files.list(t)) {
          boolean summary = files.map(f -> f.getFileName().toString())
              .anyMatch(n -> n.startsWith("summary") && n.endsWith(".json"));
          if (summary) return false;
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The namespace's recorded run identity, or null when there is none yet. */
  private static Map<String, Object> recordedIdentity(Path file) {
    if (!Files.isRegularFile(file)) return null;
    try {
      return Json.readMap(file);
    } catch (IOException e) {
      throw new UsageError(file + " is unreadable (" + e.getMessage() + "); move it aside or use a new --runsRoot");
    }
  }

  /**
   * Refuses a resume whose {@code key} differs from the recorded one, either taken as {@code absent} where it is not
   * recorded (a key written only when it is not its default); {@code why} says what the file records and what this
   * sweep asks for, from the two values.
   */
  private static void sameOrRefused(Path file, Map<String, Object> old, Map<String, Object> id, String key,
      Object absent, java.util.function.BinaryOperator<String> why) {
    String was = String.valueOf(old.getOrDefault(key, absent));
    String now = String.valueOf(id.getOrDefault(key, absent));
    if (!was.equals(now)) throw new UsageError(file + " records " + why.apply(was, now));
  }

  /**
   * Refuses a resume whose run identity {@code id} differs from {@code old}, the recorded one, in a key both record
   * (the input digests only when {@code id} has them).
   */
  @SuppressWarnings("unchecked")
  private static void compareIdentity(Path file, Map<String, Object> old, Map<String, Object> id, Plan plan,
      SweepOptions o, List<String> ids) {
    // a namespace that finished no task (an endpoint's wrong port, say) loses nothing elsewhere: said (dogAK F6)
    String elsewhere = elsewhere(plan.config().bench()) + (finishedNone(file.getParent()) ? " (no task of "
        + file.getParent().getFileName() + " has finished yet, so nothing of it is lost)" : "");
    // compared whether or not either records it: none recorded is harness2's rule, and an agent run as it is
    sameOrRefused(file, old, id, AnonIds.CONFIG_KEY, AnonIds.TASK, (was, now) -> "the selector's ids shuffled by "
        + was + " and this sweep shuffles them by " + now + ": its selections would not be one experiment. Resume"
        + " with --anonIds=" + was + ", or use " + elsewhere + " for the other");
    sameOrRefused(file, old, id, Isolation.CONFIG_KEY, Isolation.NONE, (was, now) -> "rollouts run with --isolation="
        + was + " and this sweep asks for --isolation=" + now + ": agents that could read the answer keys and agents"
        + " that could not would be one experiment. Resume with --isolation=" + was + ", or use " + elsewhere
        + " for the other");
    for (String key : id.keySet()) {
      // the judge is recorded later; where the benchmark lives may move; the timing environment may change
      // (then times stop being comparable, below); keys an older h2beam did not write are not compared
      if (key.equals("judge") || key.equals("bench_root") || key.equals("timing") || key.equals(Build.BUILDS)
          || !old.containsKey(key)) {
        continue;
      }
      if (key.equals(GATE_CODE) && !Json.canonical(id.get(key)).equals(Json.canonical(old.get(key)))) {
        throw new UsageError(gateCodeRefusal(file, old.get(key), id.get(key), elsewhere));
      }
      if (key.equals(RunInputs.KEY)) {
        List<String> changes = RunInputs.changes(old.get(key), (Map<String, Object>) id.get(key), plan.bench(), ids);
        if (!changes.isEmpty()) throw new UsageError(RunInputs.refusal(file, changes, elsewhere));
        continue;
      }
      if (key.equals(RoleSettings.KEY) || key.equals(RoleSettings.PRICES)) {
        List<String> changes = RoleSettings.changes(old.get(key), (Map<String, Map<String, Object>>) id.get(key),
            key.equals(RoleSettings.PRICES) ? "price_per_mtok of its endpoint" : "");
        if (!changes.isEmpty()) throw new UsageError(RoleSettings.refusal(file, key, o.getConfig(), changes, elsewhere));
        // and compared whole below, so a recorded value of another shape is refused too
      }
      if (!Json.canonical(id.get(key)).equals(Json.canonical(old.get(key)))) {
        throw new UsageError(file + " records a different run identity (" + key + ": "
            + Json.canonical(old.get(key)) + " now " + Json.canonical(id.get(key))
            + "); use " + elsewhere + " for a different experiment");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void writeOrCheck(Path file, Map<String, Object> id, Plan plan, SweepOptions o, List<String> ids) {
    try {
      Map<String, Object> old = recordedIdentity(file);
      if (old != null) {
        if (!old.containsKey("method_version")) {
          // written by a judge before any sweep of this namespace: complete it, keeping the recorded judge
          id.put("judge", old.getOrDefault("judge", ""));
          id.put(Build.BUILDS, builds(old, file.getParent()));
          AtomicFiles.writeString(file, Json.pretty(id) + "\n");
          return;
        }
        compareIdentity(file, old, id, plan, o, ids);
        boolean changed = false;
        List<String> recorded = new ArrayList<>();
        for (String key : RECORDED_LATER) {
          // written before h2beam recorded them: nothing to check against; they are recorded from this run on
          if (id.containsKey(key) && !old.containsKey(key)) {
            old.put(key, id.get(key));
            recorded.add(key);
          }
        }
        if (recordPart(old, id, RunInputs.PROMPTS)) recorded.add(RunInputs.KEY + "." + RunInputs.PROMPTS);
        Object prompts = ((Map<String, Object>) id.get(RunInputs.KEY)).get(RunInputs.PROMPTS);
        if (old.get(RunInputs.KEY) instanceof Map<?, ?> digests && !prompts.equals(digests.get(RunInputs.PROMPTS))
            && RunInputs.legacyPrompts(digests.get(RunInputs.PROMPTS), plan.bench(), ids)) {
          // recorded in the stream's order, which follows the seed: the same inputs, recorded now in the form that
          // is the same for every seed, so that this namespace's replicates agree on it
          Map<String, Object> renewed = new LinkedHashMap<>((Map<String, Object>) digests);
          renewed.put(RunInputs.PROMPTS, prompts);
          old.put(RunInputs.KEY, renewed);
          changed = true;
          System.err.println("note: " + file + " recorded " + RunInputs.KEY + "." + RunInputs.PROMPTS + " in the"
              + " seed's task order (an earlier h2beam); the same inputs, recorded now in the form every seed shares");
        }
        // the gated mode's first run in this namespace: the checks it reads are recorded as they are now; a gated
        // mode an older h2beam ran here read checks nobody recorded
        boolean gatedBefore = !(((Map<String, Object>) old.getOrDefault(RunInputs.KEY, Map.of()))
            .containsKey(RunInputs.CHECKS)) && id.get(RunInputs.KEY) instanceof Map<?, ?> now
            && now.containsKey(RunInputs.CHECKS) && anySummaryHas(file.getParent(), "gat");
        if (recordPart(old, id, RunInputs.CHECKS)) {
          changed = true;
          if (gatedBefore) recorded.add(RunInputs.KEY + "." + RunInputs.CHECKS);
        }
        if (!recorded.isEmpty()) {
          changed = true;
          String named = recorded.size() == 1 ? recorded.get(0) : String.join(", ", recorded.subList(0,
              recorded.size() - 1)) + " and " + recorded.get(recorded.size() - 1);
          boolean worked = workDone(file.getParent());
          if (worked) old.put(UNVERIFIED, unverified(old.get(UNVERIFIED), recorded));
          System.err.println("note: " + file + " predates " + named + ", which are not checked this run; recorded"
              + " now, so a later re-run is refused when they change" + (worked ? "; the tasks it finished before"
              + " may have run with others, so they are listed under \"" + UNVERIFIED + "\" and the report does not"
              + " take them as that work's" : ""));
        }
        if (id.containsKey("gate") && !old.containsKey("gate")) {
          // the gated mode joins a namespace whose earlier sweeps ran only the others: record its settings now
          old.put("gate", id.get("gate"));
          changed = true;
        }
        if (id.containsKey(GATE_CODE) && !old.containsKey(GATE_CODE)) {
          // recorded from now on; gated results an older h2beam wrote here came from code nobody recorded
          old.put(GATE_CODE, id.get(GATE_CODE));
          changed = true;
          if (anySummaryHas(file.getParent(), "gat")) {
            old.put(UNVERIFIED, unverified(old.get(UNVERIFIED), List.of(GATE_CODE)));
            System.err.println("note: " + file + " predates " + GATE_CODE + " (which code the gated method and"
                + " policy are), recorded now; the gated results already here may come from other code, so it is"
                + " listed under \"" + UNVERIFIED + "\"");
          }
        }
        List<String> builds = builds(old, file.getParent());
        if (!builds.equals(old.get(Build.BUILDS))) {
          old.put(Build.BUILDS, builds);
          changed = true;
        }
        Object timing = mergedTiming(old.get("timing"), id.get("timing"));
        if (!Json.canonical(timing).equals(Json.canonical(old.get("timing")))) {
          old.put("timing", timing);
          changed = true;
        }
        if (changed) AtomicFiles.writeString(file, Json.pretty(old) + "\n");
        return;
      }
      AtomicFiles.writeString(file, Json.pretty(id) + "\n");
    } catch (IOException e) {
      throw new UsageError("cannot write " + file + ": " + e.getMessage() + "; choose a writable --runsRoot");
    }
  }

  /**
   * config.json's list (h2beam's own key, which harness2 reads past) of the identity keys a resume recorded without
   * being able to check them against the work already done; the report compares no replicate on them.
   */
  public static final String UNVERIFIED = "unverified";

  /**
   * The builds that wrote {@code namespace} ({@link Build#BUILDS}), this one last unless recorded already: those
   * {@code old} records, or, when it records none and the namespace already holds work, {@link Build#UNRECORDED}
   * first, for the h2beam (before 2026-12-06) that did that work.
   */
  private static List<String> builds(Map<String, Object> old, Path namespace) throws IOException {
    List<String> out = new ArrayList<>();
    if (old.get(Build.BUILDS) instanceof List<?> l) {
      for (Object b : l) out.add(String.valueOf(b));
    } else if (workDone(namespace)) {
      out.add(Build.UNRECORDED);
    }
    if (!out.contains(Build.id())) out.add(Build.id());
    return out;
  }

  /** {@code before}'s names (a list, or none) and {@code more}, sorted, each once. */
  private static List<String> unverified(Object before, List<String> more) {
    TreeSet<String> all = new TreeSet<>(more);
    if (before instanceof List<?> l) l.forEach(x -> all.add(String.valueOf(x)));
    return new ArrayList<>(all);
  }

  /**
   * Whether an earlier sweep did work in {@code namespace} (a summary namespace): a summary or a part of one, or,
   * for a sweep killed before any task finished, a journalled rollout or session or a stored reply in its audit
   * folder, which a resume reuses as its own.
   */
  private static boolean workDone(Path namespace) throws IOException {
    if (anySummaryHas(namespace, null)) return true;
    Path audit = namespace.getParent().resolve("_audit").resolve(namespace.getFileName().toString());
    if (!Files.isDirectory(audit)) return false;
    try (java.util.stream.Stream<Path> files = Files.list(audit)) {
      return files.anyMatch(f -> {
        String name = f.getFileName().toString();
        boolean journal = (name.startsWith("executions") || name.startsWith("sessions")) && name.endsWith(".jsonl");
        try {
          return journal ? Files.size(f) > 0 : name.endsWith(".meta.json");
        } catch (IOException e) {
          return true; // there, but unreadable: taken as work, which only says less is verified
        }
      });
    }
  }

  /**
   * Whether a task folder of {@code namespace} holds a summary, or a mode's part of one, that records {@code mode}
   * (any mode when null).
   */
  private static boolean anySummaryHas(Path namespace, String mode) throws IOException {
    if (!Files.isDirectory(namespace)) return false;
    try (java.util.stream.Stream<Path> tasks = Files.list(namespace)) {
      for (Path task : (Iterable<Path>) tasks.sorted()::iterator) {
        if (!Files.isDirectory(task)) continue;
        Path summary = task.resolve("summary.json");
        if (mode == null ? Files.isRegularFile(summary) || anyPart(summary)
            : Files.isRegularFile(SummaryFile.part(summary, mode))) {
          return true;
        }
        if (mode != null && Files.isRegularFile(summary)) {
          try {
            if (SummaryFile.read(summary).get("modes") instanceof Map<?, ?> m && m.containsKey(mode)) return true;
          } catch (IOException e) {
            // unreadable: its task re-runs, and says so
          }
        }
      }
    }
    return false;
  }

  private static boolean anyPart(Path summary) {
    for (String m : SummaryFile.MODE_ORDER) if (Files.isRegularFile(SummaryFile.part(summary, m))) return true;
    return false;
  }

  /**
   * Adds {@code part} of the input digests in {@code id} to the digests recorded in {@code old} when they lack it
   * (recorded by an earlier h2beam, or before the mode that reads it ran); true when it did.
   */
  @SuppressWarnings("unchecked")
  private static boolean recordPart(Map<String, Object> old, Map<String, Object> id, String part) {
    Object now = ((Map<String, Object>) id.get(RunInputs.KEY)).get(part);
    if (now == null || !(old.get(RunInputs.KEY) instanceof Map<?, ?> digests) || digests.containsKey(part)) {
      return false;
    }
    Map<String, Object> completed = new LinkedHashMap<>((Map<String, Object>) digests);
    completed.put(part, now);
    old.put(RunInputs.KEY, completed);
    return true;
  }

  /** The plan's tasks in stream order, each with its place in its domain and in the stream. */
  static List<TaskRef> refs(Plan plan) {
    List<TaskRef> refs = new ArrayList<>();
    int index = 0;
    for (Map.Entry<String, List<String>> e : plan.stream().entrySet()) {
      int position = 0;
      for (String t : e.getValue()) {
        refs.add(new TaskRef(e.getKey(), t, ++position, e.getValue().size(), index++));
      }
    }
    return refs;
  }

  /**
   * Whether every task of the plan is complete as it stands (found by reading, stopping at the first that is not),
   * so that a run has nothing to do but replay them.
   */
  public static boolean complete(Plan plan) {
    for (TaskRef ref : refs(plan)) {
      if (!SweepSteps.complete(plan.config(), plan.bench(), ref)) return false;
    }
    return true;
  }

  /**
   * {@link #build} on a daemon thread of its own. Building a pipeline only constructs objects (Beam's option registry,
   * the options' parse, the transforms and their serialised functions): it reads and writes no file, so it may run
   * while the client's checks do, and a pipeline whose checks fail is dropped unrun.
   */
  static CompletableFuture<Pipeline> buildAhead(Plan plan, SweepOptions o) {
    CompletableFuture<Pipeline> f = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        f.complete(build(plan, o));
      } catch (Throwable e) {
        f.completeExceptionally(e);
      }
    }, "h2beam-pipeline-build");
    t.setDaemon(true);
    t.start();
    return f;
  }

  /** The pipeline built ahead; what its building threw is thrown here as it was (a refused option stays a refusal). */
  public static Pipeline joined(CompletableFuture<Pipeline> built) {
    try {
      return built.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) throw r;
      if (cause instanceof Error err) throw err;
      throw new IllegalStateException(cause);
    }
  }

  /**
   * The tasks of the plan whose summary.json is there, or every mode's part of it: a job that ended before its
   * finishing steps (a lost JobManager) leaves only the parts, which the next run merges and then skips the task.
   */
  static Set<String> summarized(Plan plan) {
    Set<String> found = new java.util.HashSet<>();
    for (TaskRef ref : refs(plan)) {
      Path summary = plan.config().summaryPath(ref.task());
      if (Files.isRegularFile(summary)
          || plan.config().modes().stream().allMatch(m -> Files.isRegularFile(SummaryFile.part(summary, m)))) {
        found.add(ref.task());
      }
    }
    return found;
  }

  /**
   * What the counters of a restarted job leave unsaid: they are its last attempt's, which skipped as resumed the
   * tasks this command finished before the restart. Empty for a job that did not restart.
   */
  static String restarted(int restarts, Plan plan, Set<String> doneBefore) {
    if (restarts == 0) return "";
    long earlier = plan.stream().values().stream().flatMap(List::stream).filter(doneBefore::contains).count();
    return " (the job's last attempt's, after " + restarts + (restarts == 1 ? " restart" : " restarts")
        + ": its tasks_resumed counts the tasks this command finished before a restart; resumed from an earlier"
        + " command: " + earlier + ")";
  }

  /** Whether some task of the plan has no summary.json yet (it is then not complete: a cheap sign, not the test). */
  static boolean anySummaryMissing(Plan plan) {
    for (TaskRef ref : refs(plan)) {
      if (!Files.isRegularFile(plan.config().summaryPath(ref.task()))) return true;
    }
    return false;
  }

  /**
   * The chains one process runs at once on the DirectRunner: {@code --chainsAtOnce}, or for 0 enough to keep every
   * session and rollout slot busy (a chain waits on one or a few at a time), at least 64.
   */
  static int chainsAtOnce(SweepOptions o) {
    if (o.getChainsAtOnce() > 0) return o.getChainsAtOnce();
    return Math.max(64, 2 * (o.getSessionLimit() + o.getRolloutLimit()));
  }

  /** Builds the sweep pipeline. */
  public static Pipeline build(Plan plan, SweepOptions o) {
    List<TaskRef> refs = refs(plan);
    int slots = 1;
    if (FlinkMaster.isFlink(o)) {
      // the slots the job runs on, set as its parallelism so that the runner uses the count the placement assumes
      slots = FlinkCluster.shape(o).slots();
      o.as(FlinkPipelineOptions.class).setParallelism(slots);
    }
    Map<String, Integer> chainKeys = ChainPlacement.keys(plan.config().modes(), plan.stream(), slots);
    // the DirectRunner runs max(cores, 3) bundles at once and a chain holds its thread from its first task to its
    // last: give every chain a thread, or chains queue behind one another while their sessions wait on a model, up
    // to --chainsAtOnce (each running chain holds a thread, its DoFns and its task's evidence: 800 chains at once
    // took 1.3 GB); and no more threads than the widest stage (a chain per bundle), since a thread no bundle uses
    // spins the runner's monitor
    int atOnce = Math.min(chainKeys.size(), chainsAtOnce(o));
    DirectThreads.fit(o, atOnce, atOnce);
    Pipeline p = Pipeline.create(LazyOptions.beam(o));
    PCollection<TaskRef> tasks = p.apply("TaskStream", Create.of(refs).withCoder(JsonCoder.of(TaskRef.class)));
    // in one JVM the chains roll their own tasks' bases, each task's once, and start after their first task's; where
    // chains may run in different JVMs, every task's bases are rolled by a stage of their own before any chain
    // starts (a grouping step stands between), so that no two workers roll the same base rollouts
    PCollection<KV<String, ModeOutcome>> outcomes = DirectThreads.isDirect(o)
        ? tasks.apply("RunChains", RunChains.rollingBases(plan.config(), chainKeys))
        : tasks.apply("RollBases", new RollBases(plan.config()))
            .apply("RunChains", new RunChains(plan.config(), chainKeys));
    outcomes.apply("FinishTasks", new FinishTasks(plan.config()))
        .apply("WriteSweepRecord", new WriteSweepRecord(plan.recordPath().toString(), plan.header()));
    return p;
  }

  /**
   * Runs a planned sweep to completion and returns its record. When every task is complete already, the client
   * replays them ({@link ClientReplay}) instead of building a pipeline: the same files, the same lines, without a
   * runner's start-up.
   */
  public static Map<String, Object> run(Plan plan, SweepOptions o) throws IOException {
    return run(plan, o, System.err, true);
  }

  /** Runs a planned sweep, showing its live progress ({@code --progress}) on {@code progress}. */
  public static Map<String, Object> run(Plan plan, SweepOptions o, PrintStream progress) throws IOException {
    return run(plan, o, progress, true);
  }

  /**
   * The same, with the choice: {@code replayOnClient} false builds the pipeline even when every task is complete
   * (what a resume did before the client replay, kept to show that both write the same files).
   */
  public static Map<String, Object> run(Plan plan, SweepOptions o, boolean replayOnClient) throws IOException {
    return run(plan, o, System.err, replayOnClient);
  }

  /**
   * The same, calling {@code locked} once the sweep holds its folders' writer locks, before anything runs: the
   * command's opening line is printed then, so that a sweep refused by another's lock prints the refusal alone.
   */
  public static Map<String, Object> run(Plan plan, SweepOptions o, Runnable locked) throws IOException {
    return run(plan, o, System.err, true, locked);
  }

  private static Map<String, Object> run(Plan plan, SweepOptions o, PrintStream progress, boolean replayOnClient)
      throws IOException {
    return run(plan, o, progress, replayOnClient, () -> { });
  }

  private static Map<String, Object> run(Plan plan, SweepOptions o, PrintStream progress, boolean replayOnClient,
      Runnable locked) throws IOException {
    Instant asked = Instant.now();
    List<Path> made = FolderFlags.missing(WriterLocks.folders(plan));
    try (WriterLocks locks = WriterLocks.forSweep(plan, o)) {
      // a sweep that waited for another's lock (--lockWaitSeconds) starts once it holds them: the record's start is
      // then, not when it was asked for
      Instant held = Instant.now();
      if (Duration.between(asked, held).toMillis() >= 1000) plan.header().put("started_at", held.toString());
      locked.run();
      return runLocked(plan, o, progress, replayOnClient);
    } catch (UsageError refused) {
      // refused once its locks made its folders: the ones this sweep made are left out of the user's tree again when
      // nothing was written in them (dogAB 10); a folder that holds anything is kept
      FolderFlags.removeEmpty(made);
      throw refused;
    }
  }

  private static Map<String, Object> runLocked(Plan plan, SweepOptions o, PrintStream progressOut,
      boolean replayOnClient)
      throws IOException {
    if (plan.taskCount() == 0) throw new UsageError("the task stream is empty: no task to run");
    // the token the runs root will hold, chosen now (it is in the pipeline's configuration) and written once the
    // checks below pass
    String token = RootToken.fresh();
    plan = new Plan(plan.config().withRootToken(token), plan.bench(), plan.stream(), plan.recordPath(), plan.header());
    // a task without a summary needs the pipeline: it is built (Beam's registry first, when this process has not
    // built it yet) on a thread of its own while the checks below run; building it writes nothing
    CompletableFuture<Pipeline> built = !replayOnClient || anySummaryMissing(plan) ? buildAhead(plan, o) : null;
    // the lock is ours: what a killed sweep left in the scratch folder is nobody's now
    Scratch.clean(plan.config().runs());
    List<Path> leftovers = Leftovers.remove(plan.config());
    AtomicFiles.removedMessage(leftovers, "run").ifPresent(System.err::println);
    refuseStoredCredentials(plan);
    // a benchmark folder that keeps its rollouts under itself serves one runs root; its claim and the library's are
    // both looked at before either is taken, so that a sweep refused one of them writes neither
    boolean benchClaimed = dev.h2beam.adapters.bench.Benchmarks.named(plan.config().bench()).writesRoot();
    if (benchClaimed) {
      String refused = BenchRootClaim.refusal(Path.of(plan.config().benchRoot()), plan.config().runs());
      if (refused != null) throw new UsageError(refused);
    }
    refuseOthersLibrary(plan);
    String library = libraryRefusal(plan);
    if (library != null) throw new UsageError(library);
    if (benchClaimed) BenchRootClaim.claim(Path.of(plan.config().benchRoot()), plan.config().runs());
    // another experiment's resume is refused before the benchmark writes the tasks it lacks
    refuseOtherIdentity(plan, o);
    plan.bench().prepare();
    BaseHarness.require(plan.bench(), plan.config().bench(), Scratch.of(plan.config().runs()));
    TaskInputs.require(plan.bench(), plan.config().bench());
    checkIdentity(plan, o);
    LibraryClaim.claim(Path.of(plan.config().libraryRoot()), plan.config().runs(), executions(plan),
        plan.config().modes(), plan.bench().surface());
    RootToken.write(plan.config().runs(), token);
    String counters;
    if (built == null && replayOnClient && complete(plan)) {
      counters = replay(plan);
    } else {
      PipelineResult result;
      PipelineResult.State state;
      // before the job runs: a task the job skips later and that is not among these, it ran before a restart
      Set<String> doneBefore = summarized(plan);
      int restarts = 0;
      try (ProgressView progress = ProgressView.start(plan, o, progressOut, doneBefore)) {
        if (DirectThreads.isDirect(o)) basesAhead(plan);
        Pipeline p = built == null ? build(plan, o) : joined(built);
        try (JobWatch watch = JobWatch.of(p.getOptions())) {
          if (watch == null) {
            result = FlinkMaster.runToEnd(p);
          } else {
            progress.watch(watch);
            result = watch.await(() -> FlinkMaster.runToEnd(p));
            restarts = watch.status().restarts();
          }
        }
        state = result.waitUntilFinish();
      } finally {
        // a failed sweep may have left a task's bases rolling ahead on the DirectRunner: stop them before returning
        SweepContext.settle(plan.config());
      }
      if (state != PipelineResult.State.DONE) throw new IllegalStateException("the sweep pipeline ended " + state);
      counters = counters(result);
      if (!counters.isEmpty()) counters += restarted(restarts, plan, doneBefore);
      // the record's writer printed each task's line where it ran: on a remote cluster, a TaskManager's log
      if (FlinkMaster.remote(o) != null) {
        taskLines(plan, ranBeforeRestart(plan, doneBefore)).forEach(System.out::println);
      }
    }
    Scratch.clean(plan.config().runs());
    if (!counters.isEmpty()) System.out.println("counters: " + counters);
    return Json.readMap(plan.recordPath());
  }

  /**
   * Each task's line as the record's writer prints it ({@link SweepSteps#line}), in stream order, from the record:
   * what a client shows of a sweep whose writer ran on a remote worker.
   */
  @SuppressWarnings("unchecked")
  public static List<String> taskLines(Plan plan, Map<String, Object> record) {
    Map<String, Map<String, Object>> byTask = new HashMap<>();
    for (Object d : (List<Object>) record.getOrDefault("domains", List.of())) {
      for (Object t : (List<Object>) ((Map<String, Object>) d).getOrDefault("tasks", List.of())) {
        Map<String, Object> row = (Map<String, Object>) t;
        byTask.put(String.valueOf(row.get("task")), row);
      }
    }
    List<String> lines = new ArrayList<>();
    for (TaskRef ref : refs(plan)) {
      Map<String, Object> row = byTask.get(ref.task());
      if (row == null) continue;
      lines.add(SweepSteps.line(new TaskRow(ref, String.valueOf(row.get("status")),
          row.get("error") == null ? "" : String.valueOf(row.get("error")), Map.of())));
    }
    return lines;
  }

  /**
   * The sweep record, its rows of the tasks this command ran before a restart of its job made what the DirectRunner's
   * writer, which never restarts, makes of them; rewritten when any changed. The job's last attempt found such a task
   * done and wrote "skipped", which its line and the record took for a task an earlier command ran, and the stages'
   * summary left out (dogAC F7). A task skipped and among {@code doneBefore} (done before this command) stays skipped.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> ranBeforeRestart(Plan plan, Set<String> doneBefore) throws IOException {
    Map<String, Object> record = Json.readMap(plan.recordPath());
    Map<String, TaskRef> refs = new HashMap<>();
    for (TaskRef ref : refs(plan)) refs.put(ref.task(), ref);
    boolean changed = false;
    for (Object d : (List<Object>) record.getOrDefault("domains", List.of())) {
      Map<String, Object> domain = (Map<String, Object>) d;
      int done = 0;
      int failed = 0;
      List<Object> tasks = (List<Object>) domain.getOrDefault("tasks", List.of());
      for (int i = 0; i < tasks.size(); i++) {
        Map<String, Object> row = (Map<String, Object>) tasks.get(i);
        TaskRef ref = refs.get(String.valueOf(row.get("task")));
        if (ref != null && "skipped".equals(row.get("status")) && !doneBefore.contains(ref.task())) {
          TaskRow ran = SweepSteps.row(ref, SummaryFile.mergeParts(plan.config().summaryPath(ref.task())), Map.of());
          // the writer's keys in its order: task, status, an error unless done, then the rest as they were
          Map<String, Object> fixed = new LinkedHashMap<>();
          fixed.put("task", ref.task());
          fixed.put("status", ran.status());
          if (!ran.done()) fixed.put("error", ran.error());
          row.forEach(fixed::putIfAbsent);
          tasks.set(i, fixed);
          row = fixed;
          changed = true;
        }
        if ("ok".equals(row.get("status")) || "skipped".equals(row.get("status"))) {
          done++;
        } else {
          failed++;
        }
      }
      if (domain.containsKey("done")) domain.put("done", done);
      if (domain.containsKey("failed")) domain.put("failed", failed);
    }
    if (changed) AtomicFiles.writeString(plan.recordPath(), Json.pretty(record) + "\n");
    return record;
  }

  /**
   * Starts rolling each domain's first task's bases now, where the chains roll their own bases in this JVM (the
   * DirectRunner, {@link dev.h2beam.transforms.sweep.SharedBases}): they then roll while the pipeline is built and
   * the runner starts, about a second that every chain otherwise spends before its first rollout. The chain that
   * reaches the task takes them as if another mode's chain had rolled them: the same rollouts, under the same
   * rollout limit, the same files. A sweep that fails before its chains take them stops them ({@link
   * SweepContext#settle}).
   */
  public static void basesAhead(Plan plan) {
    Map<String, TaskRef> first = new TreeMap<>();
    for (TaskRef r : refs(plan)) first.merge(r.domain(), r, (a, b) -> a.index() <= b.index() ? a : b);
    SweepContext context = SweepContext.of(plan.config());
    for (TaskRef r : first.values()) context.bases.ahead(r);
  }

  /**
   * Replays a complete plan on the client and writes its sweep record; returns the counters the pipeline would have
   * reported (in name order, those above zero).
   */
  private static String replay(Plan plan) throws IOException {
    List<TaskRow> rows;
    try {
      rows = ClientReplay.run(SweepContext.of(plan.config()), refs(plan));
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("the replay of the complete sweep failed: " + e, e);
    }
    SweepRecord.write(plan.recordPath(), Json.pretty(plan.header()), rows);
    long done = rows.stream().filter(TaskRow::done).count();
    TreeMap<String, Long> values = new TreeMap<>();
    values.put("modes_replayed", (long) rows.size() * plan.config().modes().size());
    values.put("tasks_done", done);
    values.put("tasks_failed", rows.size() - done);
    values.put("tasks_resumed", (long) rows.size());
    return line(values);
  }

  /**
   * Refuses a library root that holds another run's entries (a {@code --libraryRoot} naming another run's library):
   * this sweep would cut and replace them, and its tasks would start from lessons its own run never learned.
   */
  static void refuseOthersLibrary(Plan plan) {
    List<String> found = new ArrayList<>();
    for (String m : plan.config().modes()) {
      // a gated mode that rejects every candidate delivers a base rollout, which lives in the summaries' namespace
      found.addAll(Library.othersEntries(Path.of(plan.config().libraryRoot()).resolve(m),
          new TreeSet<>(List.of(plan.config().namespace(m).toString(), plan.config().summaryNamespace().toString())),
          plan.bench().surface()));
    }
    if (found.isEmpty()) return;
    throw new UsageError("--libraryRoot=" + plan.config().libraryRoot() + " holds the entries of another run:\n  "
        + String.join("\n  ", found) + "\nA library belongs to the run that wrote it: this sweep would replace them,"
        + " and its tasks would read lessons their own run never learned. Give this run a library of its own (a new"
        + " folder, or leave --libraryRoot out for the default)");
  }

  /** Why this sweep may not write its library, another runs root's ({@link LibraryClaim}), or null. */
  static String libraryRefusal(Plan plan) {
    return LibraryClaim.refusal(Path.of(plan.config().libraryRoot()), plan.config().runs(), executions(plan),
        plan.config().modes(), plan.bench().surface());
  }

  /** Where this sweep's rollouts go: under its runs root, or under a benchmark folder that keeps its own. */
  private static Path executions(Plan plan) {
    return Benchmarks.named(plan.config().bench()).writesRoot()
        ? Path.of(plan.config().benchRoot()).resolve("executions") : plan.config().runs().resolve("_executions");
  }

  /**
   * Refuses to resume over stored state (harnesses, recorded lessons, library entries) that holds a literal
   * credential, naming each file and field: reusing it would store the key again and show it to later improvers.
   */
  static void refuseStoredCredentials(Plan plan) {
    List<String> found = StoredCredentials.findings(plan.config(), plan.bench().surface());
    if (found.isEmpty()) return;
    throw new UsageError("cannot resume: the stored state of this sweep holds " + found.size() + " literal"
        + " credential(s):\n  " + String.join("\n  ", found) + "\nRotate each of these keys first (they were"
        + " written to disk and may have reached a model), then delete the named harness folder or library entry, or"
        + " edit the field out, and sweep again");
  }

  /**
   * The run's h2beam counters (tasks resumed, rolled and base-failed; modes run and replayed; tasks done and failed),
   * as {@code name=value} in name order; empty when the runner reports no metrics.
   */
  static String counters(PipelineResult result) {
    TreeMap<String, Long> values = new TreeMap<>();
    try {
      for (MetricResult<Long> c : result.metrics().queryMetrics(MetricsFilter.builder().build()).getCounters()) {
        if (!c.getName().getNamespace().startsWith("dev.h2beam")) continue;
        values.merge(c.getName().getName(), c.getAttempted(), Long::sum);
      }
    } catch (RuntimeException e) {
      return "";
    }
    return line(values);
  }

  /** {@code name=value} of each counter above zero, in name order. */
  private static String line(TreeMap<String, Long> values) {
    StringBuilder sb = new StringBuilder();
    values.forEach((k, v) -> {
      if (v > 0) sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v);
    });
    return sb.toString();
  }

  static Path absolute(String p) {
    return Paths.get(p).toAbsolutePath().normalize();
  }

  /**
   * Whether the pipeline runs in this process: the DirectRunner, or Flink embedded ({@code [local]}, or {@code [auto]}
   * outside a cluster's client: {@link FlinkMaster#remote}); only then may folders be relative. Every other runner's
   * workers are taken for other processes. (Flink's {@code [collection]} executor is refused when options are parsed.)
   */
  public static boolean runsLocally(PipelineOptions o) {
    if (o.getRunner() == null || o.getRunner().getSimpleName().equals("DirectRunner")) return true;
    return FlinkMaster.isFlink(o) && FlinkMaster.remote(o) == null;
  }

  /**
   * Refuses a relative folder with a runner whose workers are other processes: each worker would resolve it against
   * its own working directory and see a different runs root. Workers must share the runs root, the libraries and
   * the evidence folders through one absolute path on a shared file system.
   */
  public static void requireAbsoluteOnCluster(PipelineOptions o, String flag, String value) {
    if (value == null || Paths.get(value).isAbsolute() || runsLocally(o)) return;
    throw new UsageError(flag + "=" + value + " is relative, but this runner's workers run in other processes and"
        + " would each resolve it differently: give an absolute path on a file system that every worker mounts");
  }

  /**
   * Refuses a folder that could not be created or written, or names the flag; writes nothing (a dry run and a refused
   * option leave no folder behind): its nearest existing ancestor must be a folder this user may write to.
   */
  public static void writable(String flag, Path dir) {
    writable(flag, dir, true);
  }

  /**
   * {@link #writable(String, Path)} for a folder that is the flag's value if {@code given}, else its default: then the
   * message says so, as the user named no such folder (dogAB 8).
   */
  static void writable(String flag, Path dir, boolean given) {
    Path existing = FolderFlags.nearestExisting(dir);
    if (existing != null && Files.isDirectory(existing) && Files.isWritable(existing)) return;
    throw new UsageError((given ? flag + "=" + dir : dir + ", the default of " + flag + " (not given),")
        + " cannot be written (" + (existing == null ? "no part of it exists"
        : !Files.isDirectory(existing) ? existing + " is a file, not a folder" : readOnly(existing)
        ? existing + " is on a read-only file system" : "this user may not write to " + existing)
        + (given ? "); choose a folder you can write to" : "); give " + flag + " a folder you can write to"));
  }

  /** Whether {@code dir}'s file system is mounted read-only (then no permission would help). */
  private static boolean readOnly(Path dir) {
    try {
      return Files.getFileStore(dir).isReadOnly();
    } catch (IOException e) {
      return false;
    }
  }

  /** Counts of a record's task rows. */
  @SuppressWarnings("unchecked")
  public static int[] doneFailed(Map<String, Object> record) {
    int done = 0;
    int failed = 0;
    for (Object d : (List<Object>) record.getOrDefault("domains", List.of())) {
      Map<String, Object> m = (Map<String, Object>) d;
      done += ((Number) m.get("done")).intValue();
      failed += ((Number) m.get("failed")).intValue();
    }
    return new int[] {done, failed};
  }
}
