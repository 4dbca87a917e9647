package dev.h2beam.pipelines.judge;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** The options of {@code h2beam judge}. */
public interface JudgeOptions extends PipelineOptions {
  /** The modes judged when {@code --modes} is not given. */
  String DEFAULT_MODES = dev.h2beam.pipelines.Modes.JUDGED_BY_DEFAULT;

  @Description("Comma list of namespace folders or globs to judge, e.g. runs/demo/runs/demo-oc-agg*.")
  String getNamespaces();

  void setNamespaces(String value);

  @Description("Comma list of modes to judge: parallel, sequential, gated, both (parallel and sequential), or several.")
  @Default.String(DEFAULT_MODES)
  String getModes();

  void setModes(String value);

  @Description("Grader by name; default: the benchmark named by each namespace (e.g. demo), or command.")
  @Default.String("")
  String getGrader();

  void setGrader(String value);

  @Description("For --grader=command: the shell command run in each chosen run dir; it prints"
      + " {\"n_passed\": .., \"n_criteria\": ..}.")
  @Default.String("")
  String getGraderCommand();

  void setGraderCommand(String value);

  @Description("The grader's own settings as a JSON object, e.g. for jobbench"
      + " '{\"judgeCommand\": \"python eval/judge.py --output-dir {run_dir} ...\"}' (see the README).")
  @Default.String("")
  String getGraderSettings();

  void setGraderSettings(String value);

  @Description("The configuration file (YAML or JSON) whose judge role serves --grader=rubric.")
  String getConfig();

  void setConfig(String value);

  @Description("For a folder benchmark's graders (expected, rubric): the benchmark folder; default: the bench_root"
      + " each namespace's config.json records.")
  String getBenchRoot();

  void setBenchRoot(String value);

  @Description("Seconds to wait for another h2beam process writing one of the namespaces (a judge, or a sweep of"
      + " it); 0 refuses at once.")
  @Default.Integer(0)
  int getLockWaitSeconds();

  void setLockWaitSeconds(int value);

  @Description("Judge every base rollout instead of the selections, into base_judged.json.")
  @Default.Boolean(false)
  boolean getBases();

  void setBases(boolean value);

  @Description("Grader calls at once per grader in one worker process.")
  @Default.Integer(8)
  int getGraderConcurrency();

  void setGraderConcurrency(int value);

  @Description("Seconds to wait for one grader call before the row is ungraded (judge-timeout); a call given up that"
      + " runs on still counts against --graderConcurrency until it ends. A grader that only reads files in the JVM"
      + " (expected, noop) is not timed.")
  @Default.Integer(1800)
  int getGraderTimeoutSeconds();

  void setGraderTimeoutSeconds(int value);

  @Description("Grade each chosen output this many times (a stochastic judge such as the rubric judge); the row keeps"
      + " the mean, each repeat's score and their spread, and counts as one row.")
  @Default.Integer(1)
  int getJudgeRepeats();

  void setJudgeRepeats(int value);

  @Description("Shards the rows to grade are spread over; each shard is graded on one worker, up to"
      + " --graderConcurrency calls at once. Unset: 16 on a cluster; on the DirectRunner one per "
      + JudgeCommand.TASKS_PER_SHARD + " tasks, at most 16, so that a small judge runs on one thread (its grader"
      + " calls still run --graderConcurrency at once).")
  Integer getJudgeShards();

  void setJudgeShards(Integer value);
}
