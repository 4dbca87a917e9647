package dev.h2beam.pipelines.sweep;

import java.math.BigInteger;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** The options of {@code h2beam sweep}. */
public interface SweepOptions extends PipelineOptions {

  @Description("Benchmark to sweep, by name (e.g. demo).")
  String getBench();

  void setBench(String value);

  @Description("The benchmark's folder. Your tasks for --bench=folder or jobbench (only read; required). For a"
      + " benchmark h2beam makes (demo, synthetic), where it keeps its data and executions; default runs/<bench>.")
  String getBenchRoot();

  void setBenchRoot(String value);

  @Description("Where namespaces, summaries, audit trails and sweep records go; default <benchRoot>/runs.")
  String getRunsRoot();

  void setRunsRoot(String value);

  @Description("Where the per-mode experience libraries go; default <benchRoot>/library/k<k>-<substrate>[-s<seed>],"
      + " or <runsRoot>/_library/k<k>-<substrate>[-s<seed>] for a benchmark h2beam only reads (folder, jobbench).")
  String getLibraryRoot();

  void setLibraryRoot(String value);

  @Description("Substrate token: oc (OpenCode) or cx (Codex).")
  @Default.String("oc")
  String getSubstrate();

  void setSubstrate(String value);

  @Description("Task-level budget k: each mode spends R = 4k rollouts and P = 3k improver stages per task.")
  @Default.Integer(1)
  int getK();

  void setK(int value);

  @Description("Comma list of modes: parallel (agg), sequential (seq), gated (gat; see --method), or both (parallel"
      + " and sequential).")
  @Default.String("parallel")
  String getModes();

  void setModes(String value);

  @Description("Shuffle seed of the task stream, a whole number of any size as harness2's; enters the namespace as"
      + " -s<seed>. Unset: the reference order.")
  BigInteger getSeed();

  void setSeed(BigInteger value);

  @Description("How the blind selector's anonymous ids (A, B, ...) are shuffled: task (harness2's rule: by task, k"
      + " and mode alone, so every replicate of a task lists the same candidate first) or replicate (the --seed too,"
      + " which it needs: each replicate lists the candidates in an order of its own, so a selector's preference for"
      + " a place is not the same bias in every replicate). Recorded in config.json; a resume must keep it.")
  @Default.String("task")
  String getAnonIds();

  void setAnonIds(String value);

  @Description("What a rollout's agent may see of the file system: none (everything its user may read, the default)"
      + " or namespaces (Linux mount and process namespaces through unshare: its own run folder and nothing else of"
      + " the benchmark folder or the runs root, so no task's grading/, no other rollout and no judged.json, and no"
      + " process of h2beam's; needs root or unprivileged user namespaces, and a built-in executor). Folder and"
      + " JobBench benchmarks. Recorded in config.json; a resume must keep it.")
  @Default.String("none")
  String getIsolation();

  void setIsolation(String value);

  @Description("Comma list of domains to run (default: every domain).")
  @Default.String("")
  String getOnlyDomains();

  void setOnlyDomains(String value);

  @Description("Run at most this many tasks per domain, first in stream order (default: all).")
  Integer getMaxTasks();

  void setMaxTasks(Integer value);

  @Description("Live progress while the sweep runs, read from the run folders: bar (redrawn on the terminal), lines"
      + " (a plain line every --progressSeconds), off, or auto: bar on a terminal, lines when a cluster runs the sweep"
      + " and the output is not a terminal, off otherwise.")
  @Default.String("auto")
  String getProgress();

  void setProgress(String value);

  @Description("Seconds between two plain progress lines (--progress=lines).")
  @Default.Integer(15)
  int getProgressSeconds();

  void setProgressSeconds(int value);

  @Description("Improver/selector/reflector sessions at once in the whole job (on a cluster of W workers, each holds"
      + " a W-th, rounded down).")
  @Default.Integer(2)
  int getSessionLimit();

  void setSessionLimit(int value);

  @Description("Executor rollouts at once in the whole job (on a cluster of W workers, each holds a W-th, rounded"
      + " down).")
  @Default.Integer(2)
  int getRolloutLimit();

  void setRolloutLimit(int value);

  @Description("Chains run at once in one process on the DirectRunner; more queue for a thread (a running chain holds"
      + " a runner thread and its task's evidence, so this bounds a sweep's memory whatever its number of domains)."
      + " 0: max(64, 2 x (sessionLimit + rolloutLimit)), enough chains to keep every session and rollout slot busy.")
  @Default.Integer(0)
  int getChainsAtOnce();

  void setChainsAtOnce(int value);

  @Description("Stages or rollouts of one task's phase started at once (within the session and rollout limits).")
  @Default.Integer(2)
  int getPhaseWidth();

  void setPhaseWidth(int value);

  @Description("Seconds to wait before retrying a failed session attempt (times the attempt number).")
  @Default.Integer(10)
  int getSessionRetryWaitSeconds();

  void setSessionRetryWaitSeconds(int value);

  @Description("On a resume, run again the finished tasks whose improver sessions failed (their stages fell back to"
      + " the harness they were to edit) or whose reflector session failed (no lesson reached the library): an"
      + " endpoint down or out of quota, not an edit that was refused. Each such task's summary.json is kept beside it"
      + " as summary.retried-<n>.json, what did not change is reused at no cost, the failed sessions are asked again"
      + " and what depends on them runs anew. Later tasks of the same chain keep their results.")
  @Default.Boolean(false)
  boolean getRetryFailedSessions();

  void setRetryFailedSessions(boolean value);

  @Description("Deliberate faults for testing the guards: kind@task/mode,... (kinds: ledger-duplicate, crash-once;"
      + " mode: parallel, sequential or gated, or agg, seq, gat; the task and mode must be in the run).")
  @Default.String("")
  String getInject();

  void setInject(String value);

  @Description("The gated mode's method, by name (found on the classpath like benchmarks): improver (the default)"
      + " proposes one edit per step with the improver role and scores episodes with each task's checks/.")
  @Default.String("improver")
  String getMethod();

  void setMethod(String value);

  @Description("The gated mode's selection policy: score_comparison (the candidate wins more paired comparisons"
      + " than it loses), always, or pareto (no pair regressed and one improved).")
  @Default.String("score_comparison")
  String getPolicy();

  void setPolicy(String value);

  @Description("For --policy=score_comparison: wins must exceed losses by more than this many (0 when unset).")
  @Default.Double(0.0)
  Double getMinWinMargin();

  void setMinWinMargin(Double value);

  @Description("Proposer channel kind to use for every improver, selector and reflector session instead of the"
      + " benchmark's own (e.g. opencode); empty keeps the benchmark's.")
  @Default.String("")
  String getChannel();

  void setChannel(String value);

  @Description("The configuration file (YAML or JSON): endpoints and the endpoint and model serving each role"
      + " (executor, improver, selector, reflector, judge). Keys come from the environment variables it names.")
  String getConfig();

  void setConfig(String value);

  @Description("The benchmark's own settings as a JSON object, e.g. for jobbench"
      + " '{\"executor\": {\"kind\": \"command\", \"command\": \"my-agent {workspace} {output}\"},"
      + " \"splitFile\": \"splits/jb.json\"}' (see the README).")
  @Default.String("")
  String getBenchSettings();

  void setBenchSettings(String value);

  @Description("Which tasks: all, or train / test from the benchmark's split file.")
  @Default.String("all")
  String getSplit();

  void setSplit(String value);

  @Description("Seconds to wait for another h2beam process writing the same runs root, library or benchmark folder,"
      + " or judging the namespace this sweep writes, to finish; 0 refuses at once, naming the holder.")
  @Default.Integer(0)
  int getLockWaitSeconds();

  void setLockWaitSeconds(int value);

  @Description("Executor kind replacing the benchmark file's (chat, command, opencode, codex); opencode runs the"
      + " oc substrate, codex the cx one. Empty keeps the benchmark's.")
  @Default.String("")
  String getExecutor();

  void setExecutor(String value);

  @Description("The OpenCode binary to run instead of the pinned install under --toolsDir.")
  String getOpencodeBin();

  void setOpencodeBin(String value);

  @Description("The Codex binary to run instead of the pinned install under --toolsDir.")
  String getCodexBin();

  void setCodexBin(String value);

  @Description("Where ./h2beam setup installed the agent CLIs; default $H2BEAM_TOOLS_DIR, else ~/.h2beam/tools.")
  String getToolsDir();

  void setToolsDir(String value);

  @Description("Print the task stream and where everything would go, then stop without running anything.")
  @Default.Boolean(false)
  boolean getDryRun();

  void setDryRun(boolean value);
}
