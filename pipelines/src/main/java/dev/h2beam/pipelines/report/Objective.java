package dev.h2beam.pipelines.report;

import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.judge.MetricVector;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One objective of the comparison (seed 001's ObjectiveMetric): a metric of the vector, the direction that is better
 * and the smallest mean paired difference that can favour a mode, in the metric's report unit. Score, pass and
 * quality are fractions or 0/1 in metrics.json and are compared in percentage points, as the report's score always
 * is; every other metric in its own unit (tokens, usd, seconds, count).
 */
record Objective(String metric, boolean maximise, double minEffect) implements Serializable {

  /**
   * The default {@code --objectives} with the score's minimum effect from {@code --minEffect}: what the output scores,
   * and what the mode spent for it in money and in tokens (the mode's every rollout and session: a free local model
   * costs a known $0, its tokens are then the cost that tells modes apart, and work that calls no model spends a
   * known 0 of them, where the chosen rollout's {@code total_tokens} of a script is not recorded at all).
   */
  static String defaults(double scoreMinEffect) {
    return "score:max:" + Disclosure.number(scoreMinEffect) + ",cost:min:0.01,mode_tokens:min:1000";
  }

  private static final Set<String> POINTS = Set.of("score", "pass", "quality");
  private static final Set<String> TIMES = Set.of("chosen_wall_s", "mode_wall_s");

  Objective {
    if (!MetricVector.METRICS.containsKey(metric)) throw new IllegalArgumentException("unknown metric " + metric);
    if (!(minEffect >= 0) || Double.isInfinite(minEffect)) throw new IllegalArgumentException("bad effect");
  }

  /**
   * Parses {@code --objectives}: a comma list of {@code metric:max|min:minEffect}, each metric at most once. Refused,
   * naming the flag and the entry, on an unknown metric, another direction, or an effect that is not a number >= 0.
   */
  static List<Objective> parse(String spec) {
    List<Objective> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (String entry : ReportPlan.split(spec)) {
      String[] p = entry.split(":", -1);
      if (p.length != 3) {
        throw refused(entry, "write it as metric:direction:minEffect, e.g. cost:min:0.01");
      }
      String metric = p[0].strip();
      if (!MetricVector.METRICS.containsKey(metric)) {
        throw refused(entry, "unknown metric '" + metric + "'; choose from " + String.join(", ",
            MetricVector.METRICS.keySet()));
      }
      String direction = p[1].strip();
      if (!direction.equals("max") && !direction.equals("min")) {
        throw refused(entry, "the direction must be max (higher is better) or min (lower is better), got '"
            + direction + "'");
      }
      double effect;
      try {
        effect = Double.parseDouble(p[2].strip());
      } catch (NumberFormatException e) {
        effect = Double.NaN;
      }
      if (!(effect >= 0) || Double.isInfinite(effect)) {
        throw refused(entry, "the minimum effect must be a number >= 0 in " + unit(metric) + ", got '" + p[2] + "'");
      }
      if (seen.contains(metric)) throw refused(entry, metric + " is named twice; give each metric once");
      seen.add(metric);
      out.add(new Objective(metric, direction.equals("max"), effect));
    }
    if (out.isEmpty()) {
      throw new UsageError("--objectives named no objective; give e.g. " + defaults(5.0) + " or omit it for that"
          + " default");
    }
    return List.copyOf(out);
  }

  private static UsageError refused(String entry, String why) {
    return new UsageError("--objectives entry '" + entry + "' is refused: " + why);
  }

  /** The unit the objective's differences, effect and se are reported in. */
  static String unit(String metric) {
    return POINTS.contains(metric) ? "pt" : MetricVector.METRICS.get(metric).get(0);
  }

  String unit() {
    return unit(metric);
  }

  /** Factor from metrics.json's value to the report unit: 100 for fractions and 0/1, else 1. */
  double scale() {
    return POINTS.contains(metric) ? 100.0 : 1.0;
  }

  /** A time metric: compared only under one declared timing environment. */
  boolean timed() {
    return timed(metric);
  }

  /** Whether {@code metric} is a wall-clock time (a measurement of the machine at that moment). */
  static boolean timed(String metric) {
    return TIMES.contains(metric);
  }

  /** Read from the judged rows as the comparison above does, rather than from metrics.json. */
  boolean fromJudgedRows() {
    return metric.equals("score") || metric.equals("pass");
  }

  String direction() {
    return maximise ? "max" : "min";
  }

  /** {@code cost (min, min effect 0.01 usd)}. */
  String label() {
    return metric + " (" + direction() + ", min effect " + Disclosure.number(minEffect) + " " + unit() + ")";
  }

  /** Decimal places of the objective's figures: dollars differ in cents' fractions, the rest in hundredths. */
  int places() {
    return unit().equals("usd") ? 4 : 2;
  }
}
