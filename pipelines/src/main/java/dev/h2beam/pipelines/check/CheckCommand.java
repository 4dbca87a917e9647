package dev.h2beam.pipelines.check;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.BenchmarkInvalid;
import dev.h2beam.adapters.bench.BenchmarkProvider;
import dev.h2beam.adapters.bench.Benchmarks;
import dev.h2beam.adapters.config.ConfigError;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.folder.BenchFile;
import dev.h2beam.adapters.folder.FolderBenchmark;
import dev.h2beam.adapters.llm.ChatClient;
import dev.h2beam.adapters.llm.ChatException;
import dev.h2beam.adapters.llm.ChatMessage;
import dev.h2beam.adapters.llm.ChatRequest;
import dev.h2beam.pipelines.Command;
import dev.h2beam.pipelines.Flags;
import dev.h2beam.pipelines.FolderFlags;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.judge.CommandGrader;
import dev.h2beam.pipelines.judge.FolderGrading;
import dev.h2beam.pipelines.judge.GraderPreflight;
import dev.h2beam.pipelines.sweep.BaseHarness;
import dev.h2beam.pipelines.sweep.TaskInputs;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * {@code h2beam check}: the preflight of harness2-check. The benchmark opens and validates (every problem named by
 * file), the base harness passes the rules every proposal meets, every role the benchmark needs is configured, every
 * named key variable is set (its value is never printed), every configured role's endpoint answers one tiny request
 * (unless {@code --ping=false}), and the grader has what it needs for every task. Prints {@code FAIL: <problem and
 * fix>} per problem, then {@code Ready: ...} (exit 0) or {@code Setup incomplete: N issue(s).} (exit 1).
 */
public final class CheckCommand implements Command {

  @Override public String name() {
    return "check";
  }

  @Override public String summary() {
    return "preflight a benchmark, its configuration, keys, endpoints and grader before spending anything";
  }

  @Override public boolean runsPipelines() {
    return false;
  }

  @Override public Class<? extends PipelineOptions> options() {
    return CheckOptions.class;
  }

  @Override public int run(String[] args) {
    CheckOptions o = OptionArgs.parse(name(), args, CheckOptions.class);
    return run(o, System.getenv(), System.out);
  }

  /** Runs the checks against {@code env} (where key variables are looked up); prints to {@code out}. */
  public static int run(CheckOptions o, Map<String, String> env, PrintStream out) {
    if (o.getBench() == null || o.getBench().isBlank()) {
      throw new UsageError("--bench is required; known benchmarks: " + Benchmarks.names());
    }
    BenchmarkProvider provider;
    try {
      provider = Benchmarks.named(o.getBench());
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
    FolderFlags.read(o, "--benchRoot", o.getBenchRoot(), "examples/folder-bench");
    List<String> fails = new ArrayList<>();
    RunConfig config = RunConfig.empty();
    boolean configRead = true;
    if (o.getConfig() != null && !o.getConfig().isBlank()) {
      try {
        config = RunConfig.read(Paths.get(o.getConfig()).toAbsolutePath());
      } catch (ConfigError e) {
        fails.add("--config=" + o.getConfig() + ": " + e.getMessage());
        configRead = false;
      }
    }
    Path root = Paths.get(o.getBenchRoot() == null ? "runs/" + o.getBench() : o.getBenchRoot())
        .toAbsolutePath().normalize();
    Map<String, String> settings = new TreeMap<>();
    settings.put("substrate", o.getSubstrate());
    settings.put("split", o.getSplit());
    // the settings as the sweep takes them from the same flags; a refused one is a FAIL line, as every problem here
    try {
      Flags.isolation(o.getBench(), provider.settingKeys(), o.getIsolation(), settings);
    } catch (UsageError e) {
      fails.add(e.getMessage());
    }
    Map<String, String> sources = Map.of();
    try {
      sources = Flags.benchSettings(o.getBench(), provider.settingKeys(), o.getBenchSettings(), Flags.BENCH_FLAGS,
          o.getExecutor(), o.getOpencodeBin(), o.getCodexBin(), o.getToolsDir(), settings);
    } catch (UsageError e) {
      fails.add(e.getMessage());
    }
    Benchmark bench = null;
    try {
      if (!provider.writesRoot() || Files.isDirectory(root)) {
        bench = provider.open(root, settings, config, sources);
        bench.prepare(); // as a sweep's first run would: the demo writes its own base harness where absent
      }
      else fails.add("--benchRoot=" + root + " does not exist yet; run the benchmark's setup first");
    } catch (BenchmarkInvalid e) {
      // a configuration that does not read configures no role: its failure is the one to fix, not an executor's
      // ("the chat executor needs roles.executor in --config") that the file may well configure
      for (String p : e.problems()) {
        if (configRead || !(p.contains("needs roles.") && p.contains("--config"))) fails.add(p);
      }
      // every problem at once: the base harness's too (a credential, a link, a file off the surface), which the
      // sweep would refuse next
      e.partial().ifPresent(partial -> fails.addAll(BaseHarness.problems(partial)));
    } catch (Exception e) {
      fails.add("--bench=" + o.getBench() + " at " + root + " cannot be opened: " + e.getMessage());
    }
    if (bench != null) {
      fails.addAll(BaseHarness.problems(bench));
      fails.addAll(TaskInputs.problems(bench));
      // a configuration that does not read configures no role: its failure above is the one to fix, not each role
      for (String role : configRead ? neededRoles(bench) : List.<String>of()) {
        if (config.role(role).isEmpty()) {
          fails.add("roles." + role + " is not configured: add it to the --config file (endpoint and model)");
        }
      }
      if (bench instanceof FolderBenchmark folder) {
        // the grader the judge will be given: a config granting the rubric judge egress failed the bench.json
        // grader's check, with no way to say which grader (dogAG A6)
        String grader = o.getGrader().isBlank() ? folder.file().graderKind() : o.getGrader();
        fails.addAll(graderProblems(folder, grader));
        // a configuration that does not read is already a failure, and the judge would only repeat it
        if (configRead) fails.addAll(judgeRefusals(folder, grader, o.getConfig()));
      } else if (!o.getGrader().isBlank()) {
        fails.add("--grader=" + o.getGrader() + ": check reads a grader's needs for folder benchmarks only; leave"
            + " --grader out");
      }
    }
    fails.addAll(agentProblems(o.getChannel(), settings, env));
    fails.addAll(keyProblems(config, env));
    if (o.getPing() && fails.stream().noneMatch(f -> f.contains("environment variable"))) {
      fails.addAll(ping(config, env));
    }
    for (String f : fails) out.println("FAIL: " + f);
    if (!fails.isEmpty()) {
      out.println("Setup incomplete: " + fails.size() + " issue(s). " + readmePointer(o.getBench(), fails));
      return 1;
    }
    out.println("Ready: " + bench.spec().name() + "/" + o.getSubstrate() + "; " + bench.tasks().size() + " tasks. "
        + (o.getPing() ? "Every configured role's endpoint answered one request." : "Model access was not exercised"
            + " (--ping=false).") + isolationLine(o.getIsolation()));
    return 0;
  }

  /** What the Ready line says of {@code --isolation}, which the benchmark checked: nothing when none was asked. */
  private static String isolationLine(String isolation) {
    if (isolation.equals(Isolation.NONE)) return "";
    return " This machine isolates rollouts (--isolation=" + isolation + ")"
        + (Isolation.inUserNamespace() ? ", each in a user namespace of its own." : ".");
  }

  /** The README section of each benchmark h2beam ships, by {@code --bench} name. */
  private static final Map<String, String> README_SECTIONS = Map.of("folder", "folder benchmark", "jobbench",
      "JobBench", "demo", "demo", "synthetic", "\"Measuring scheduling\"");

  /**
   * Where the README explains {@code bench} and the configuration; a plugin's benchmark is its jar's to explain. With
   * a failure of an agent CLI among {@code fails}, "Real agents" first (dogAK F12).
   */
  static String readmePointer(String bench, List<String> fails) {
    String section = README_SECTIONS.get(bench);
    String pointer = section == null
        ? "See the README's configuration section and the documentation of --bench=" + bench + "."
        : "See the README's " + section + " and configuration sections.";
    boolean agent = fails.stream().anyMatch(f -> f.contains("opencode") || f.contains("codex"));
    return agent ? "For OpenCode and Codex, see the README's \"Real agents: OpenCode and Codex\". " + pointer
        : pointer;
  }

  /** The session roles the benchmark's own channels need from the configuration (folder: all model roles). */
  static List<String> neededRoles(Benchmark bench) {
    List<String> roles = new ArrayList<>();
    if (bench.spec().proposerChannel().kind().equals("openai")) roles.add("improver");
    if (bench.spec().selectorChannel().kind().equals("openai")) roles.addAll(List.of("selector", "reflector"));
    return roles;
  }

  /**
   * What the grader the judge will be given ({@code kind}: --grader, else bench.json's) needs for every task in the
   * stream; a rubric is read as the judge reads it.
   */
  static List<String> graderProblems(FolderBenchmark bench, String kind) {
    List<String> fails = new ArrayList<>();
    if (kind.equals("command")) {
      CommandGrader.missingCommand(bench.root().resolve(BenchFile.FILE), bench.file().grader().get("command"))
          .ifPresent(fails::add);
    }
    for (String task : bench.tasks()) {
      Path grading = FolderGrading.gradingDir(bench.root(), task);
      if (kind.equals("expected")) {
        GraderPreflight.expectedProblem(grading.resolve("expected.txt")).ifPresent(fails::add);
      }
      if (kind.equals("rubric")) GraderPreflight.rubricProblem(grading.resolve("rubric.json")).ifPresent(fails::add);
    }
    return fails;
  }

  /**
   * What {@code h2beam judge} would refuse after the sweep, asked of the judge now: its grader's use of the
   * configuration (the rubric judge's role) and the reference egress grant it needs, in the judge's own words (a
   * grader it does not know among them, named with the known ones).
   */
  static List<String> judgeRefusals(FolderBenchmark bench, String grader, String configFile) {
    List<String> fails = new ArrayList<>();
    for (String p : GraderPreflight.egressProblems(grader, bench.spec().name(), configFile)) {
      fails.add("h2beam judge --grader=" + grader + " would refuse to grade this benchmark: " + p);
    }
    return fails;
  }

  /**
   * The session channel's agent CLI, when {@code --channel} names one: installed at its pinned version, else the
   * command that fixes it. (An agent executor's CLI is checked when the benchmark opens it.)
   */
  static List<String> agentProblems(String channel, Map<String, String> settings, Map<String, String> env) {
    if (!channel.equals("opencode") && !channel.equals("codex")) return List.of();
    try {
      dev.h2beam.adapters.agents.Agent.named(channel).binary(settings, env);
      return List.of();
    } catch (IllegalArgumentException e) {
      return List.of("--channel=" + channel + ": " + e.getMessage());
    }
  }

  /** Every key variable a configured role needs, set and non-empty (never printing a value). */
  static List<String> keyProblems(RunConfig config, Map<String, String> env) {
    List<String> fails = new ArrayList<>();
    config.unsetKeys(RunConfig.ROLES, env).forEach((var, endpoint) -> fails.add("environment variable " + var
        + " (the key of endpoint " + endpoint + ") " + RunConfig.unsetState(Map.of(var, endpoint), env) + "; export"
        + " it with the key before running (its value is never written anywhere)"));
    return fails;
  }

  /**
   * One tiny request per distinct configured (endpoint, model), one attempt each: a preflight answers at once, where
   * the endpoint's retries would make a user wait out every backoff to learn that a server is down. Sent with the
   * role's max_tokens, so that a reply cut off there says what the sweep's calls would meet.
   */
  static List<String> ping(RunConfig config, Map<String, String> env) {
    List<String> fails = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String role : RunConfig.ROLES) {
      ResolvedRole r = config.role(role).orElse(null);
      if (r == null || !seen.add(r.identity())) continue;
      Endpoint e = r.endpoint();
      Endpoint once = new Endpoint(e.name(), e.baseUrl(), e.apiKeyEnv(), 1, Math.min(e.timeoutSeconds(), 60), 1,
          e.priceInputPerMtok(), e.priceOutputPerMtok());
      try (ChatClient client = new ChatClient(once, env)) {
        // with the role's own max_tokens (none when it sets none): a reasoning model refuses max_tokens, or spends
        // a tiny one thinking, where the sweep's calls, sent with the role's settings, work
        client.complete(new ChatRequest(r.model(), List.of(ChatMessage.user("Reply with the word OK.")), null,
            r.maxTokens()));
      } catch (ChatException ex) {
        // one attempt, whatever max_attempts says: ChatClient's advice to raise it would change nothing here
        String who = "roles." + role + ": endpoint " + e.name() + " (" + e.baseUrl() + ", model " + r.model() + ")";
        fails.add(ex.lastFailure().map(last -> who + " did not answer check's one request: " + last + "; check that"
            + " the server is up and serves this model (check tries once; a sweep retries each call up to the"
            + " endpoint's max_attempts, " + e.maxAttempts() + ")")
            .orElse(who + " did not answer: " + ex.getMessage()));
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        fails.add("interrupted while pinging " + e.baseUrl());
        break;
      }
    }
    return fails;
  }
}
