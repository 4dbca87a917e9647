package dev.h2beam.pipelines.check;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** The options of {@code h2beam check}. */
public interface CheckOptions extends PipelineOptions {

  @Description("Benchmark to check, by name (e.g. folder, demo).")
  String getBench();

  void setBench(String value);

  @Description("The benchmark's folder.")
  String getBenchRoot();

  void setBenchRoot(String value);

  @Description("The configuration file (YAML or JSON) naming endpoints and roles.")
  String getConfig();

  void setConfig(String value);

  @Description("Substrate token: oc (OpenCode) or cx (Codex).")
  @Default.String("oc")
  String getSubstrate();

  void setSubstrate(String value);

  @Description("The benchmark's own settings as a JSON object, as for the sweep.")
  @Default.String("")
  String getBenchSettings();

  void setBenchSettings(String value);

  @Description("The sweep's --isolation to check: none (the default) or namespaces, which this machine must be able"
      + " to make (tried with a small program) and the benchmark's executor must run its agent in.")
  @Default.String("none")
  String getIsolation();

  void setIsolation(String value);

  @Description("Which tasks: all, or train / test from the benchmark's split file.")
  @Default.String("all")
  String getSplit();

  void setSplit(String value);

  @Description("The executor kind the sweep will use instead of the benchmark's (e.g. opencode, codex).")
  @Default.String("")
  String getExecutor();

  void setExecutor(String value);

  @Description("The session channel the sweep will use (e.g. opencode, codex); its CLI is checked too.")
  @Default.String("")
  String getChannel();

  void setChannel(String value);

  @Description("The OpenCode binary the sweep will run instead of the pinned install under --toolsDir.")
  String getOpencodeBin();

  void setOpencodeBin(String value);

  @Description("The Codex binary the sweep will run instead of the pinned install under --toolsDir.")
  String getCodexBin();

  void setCodexBin(String value);

  @Description("Where ./h2beam setup installed the agent CLIs; default $H2BEAM_TOOLS_DIR, else ~/.h2beam/tools.")
  String getToolsDir();

  void setToolsDir(String value);

  @Description("The grader h2beam judge will be given (its --grader, e.g. rubric); default: the one bench.json names."
      + " Its needs for every task and the reference egress it is granted in --config are checked.")
  @Default.String("")
  String getGrader();

  void setGrader(String value);

  @Description("Send one tiny request to every configured role's endpoint and model (false: only check settings).")
  @Default.Boolean(true)
  boolean getPing();

  void setPing(boolean value);
}
