package dev.h2beam.pipelines.report;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/** The options of {@code h2beam report}. */
public interface ReportOptions extends PipelineOptions {

  @Description("Comma list of namespace folders or quoted globs (e.g. runs/demo-oc-agg2, 'runs/demo-oc-agg2*');"
      + " namespaces of one cell that differ only in seed are replicates. A sequential or gated namespace stands"
      + " for its agg sibling, where the judged rows live.")
  String getNamespaces();

  void setNamespaces(String value);

  @Description("Namespaces of a second runs root, as --namespaces takes them, whose gated mode ran another method or"
      + " policy on the same benchmark, tasks and seeds: adds a paired comparison of the two sides' gated modes, each"
      + " namespace paired with the --namespaces one of its name. Needs gated in --modes.")
  String getVersus();

  void setVersus(String value);

  @Description("Comma list of modes to report: parallel (agg), sequential (seq), gated (gat), both (parallel and"
      + " sequential), or several; every pair of them is compared on paired differences.")
  @Default.String("parallel,sequential")
  String getModes();

  void setModes(String value);

  @Description("Comma list of k to report, e.g. 1,2,3.")
  String getK();

  void setK(String value);

  @Description("Benchmark the figures are worded for: lab reports partial credit and pass rate, others one score.")
  String getBench();

  void setBench(String value);

  @Description("aggregate: per-task scores, single-task figures and successful-tasks slices are withheld and written"
      + " to report-restricted.json; per-task: they are released in the report.")
  @Default.String("aggregate")
  String getDisclosure();

  void setDisclosure(String value);

  @Description("Smallest mean paired difference, in percentage points, that can favour a mode (with at least 3"
      + " replicates it must also exceed 2 standard errors).")
  @Default.Double(5.0)
  double getMinEffect();

  void setMinEffect(double value);

  @Description("Comma list of objectives metric:max|min:minEffect every pair of modes is compared on, each with its"
      + " own paired-difference verdict (score, pass and quality in percentage points, tokens in tokens, cost in usd,"
      + " times in seconds, turns, tool calls and retries in counts). Unset: score:max:<--minEffect>,cost:min:0.01,"
      + "mode_tokens:min:1000.")
  String getObjectives();

  void setObjectives(String value);

  @Description("Seconds to wait for another report writing the same --output folder; 0 refuses at once.")
  @Default.Integer(0)
  int getLockWaitSeconds();

  void setLockWaitSeconds(int value);

  @Description("Folder for report.txt, report.html, report-restricted.json and report.json.")
  String getOutput();

  void setOutput(String value);
}
