package dev.h2beam.pipelines.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The comparison of one pair of modes over the objectives (seed 001's ComparisonSpec): one paired-difference/v1
 * verdict per objective, then the relation over the vector -- {@code favors-<mode>} when every decided objective
 * favours that mode, {@code trade-off} when decided objectives disagree, else {@code inconclusive}, or
 * {@code not-comparable} when a condition C1–C5 fails or no objective can be compared. Never collapsed into one
 * score; the claim stays exploratory. A replicate with a metric absent on any task has no run value for it, and then
 * the objective is undecided with the absences named; time metrics compare only under one declared timing
 * environment. Score and pass are read from the judged rows, by the same rule: an ungraded row (judge-failed,
 * run-missing, evidence-changed, ...) leaves its replicate without a run value, as the comparison above reads them.
 */
final class Objectives {
  private Objectives() {}

  /** One objective's verdict, with the absences that left replicates without a run value (empty when none). */
  record Verdict(Objective objective, Comparison.Metric metric, List<String> absences) {}

  record Result(int k, ModePair modes, List<Verdict> verdicts, String relation, List<String> failed) {}

  static Result compare(Comparison.Result c, List<Comparison.Replica> replicas, List<Objective> objectives,
      MetricTable table) {
    List<String> failed = c.conditions().stream().filter(x -> !x.holds()).map(Comparison.Condition::id).toList();
    List<Verdict> verdicts = new ArrayList<>();
    for (Objective o : objectives) {
      if (!failed.isEmpty()) {
        verdicts.add(new Verdict(o, none(o, "not-comparable", "failed " + String.join(", ", failed)), List.of()));
      } else verdicts.add(verdict(c.k(), c.modes(), replicas, o, table));
    }
    return new Result(c.k(), c.modes(), verdicts, failed.isEmpty() ? relation(verdicts) : "not-comparable", failed);
  }

  /**
   * One objective over the replicates, by one rule for every metric: each replicate's paired differences over the
   * tasks both modes have rows for, and no run value for a replicate where the metric is absent on any of them (an
   * ungraded row for score and pass, read from the judged rows; an absence in metrics.json for the others; {@code
   * table} is not read for score and pass and may be null then).
   */
  static Verdict verdict(int k, ModePair modes, List<Comparison.Replica> replicas, Objective o, MetricTable table) {
    if (o.timed()) {
      String env = oneTimingEnvironment(replicas);
      if (env != null) return new Verdict(o, none(o, "not-comparable", env), List.of());
    }
    Map<String, List<Double>> byReplicate = new LinkedHashMap<>();
    List<String> absences = new ArrayList<>();
    int without = 0;
    int paired = 0;
    boolean onlyNotApplicable = true;
    for (Comparison.Replica r : replicas) {
      if (r.first().isEmpty() || r.second().isEmpty()) continue;
      paired++;
      NamespaceRef unrecorded = o.fromJudgedRows() ? null : !table.recorded(r.namespace()) ? r.namespace()
          : !table.recorded(r.secondNamespace()) ? r.secondNamespace() : null;
      if (unrecorded != null) {
        absences.add(Comparison.where(unrecorded) + (r.versus() == null ? "" : " in " + unrecorded.dir())
            + ": no readable metrics.json (" + MetricTable.NO_FILE + ")" + (r.versus() == null ? ""
            : "; ./h2beam judge --namespaces=" + unrecorded.dir() + " --modes=gated writes it"));
        without++;
        onlyNotApplicable = false;
        continue;
      }
      Map<String, Scored> firstRows = byTask(r.first());
      Map<String, Scored> secondRows = byTask(r.second());
      TreeSet<String> tasks = new TreeSet<>(firstRows.keySet());
      tasks.retainAll(secondRows.keySet());
      // reason -> mode -> tasks, so that one line names every task absent for one reason in one mode
      Map<String, Map<String, TreeSet<String>>> absent = new TreeMap<>();
      List<Double> diffs = new ArrayList<>();
      for (String task : tasks) {
        MetricTable.Obs a = o.fromJudgedRows() ? MetricTable.judged(firstRows.get(task), o.metric())
            : table.obs(r.namespace(), task, modes.first(), k, o.metric());
        MetricTable.Obs b = o.fromJudgedRows() ? MetricTable.judged(secondRows.get(task), o.metric())
            : table.obs(r.secondNamespace(), task, modes.second(), k, o.metric());
        note(absent, modes.firstName(), task, a);
        note(absent, modes.secondName(), task, b);
        if (a.value() != null && b.value() != null) diffs.add(o.scale() * (a.value() - b.value()));
      }
      onlyNotApplicable &= absent.keySet().stream().allMatch("not-applicable"::equals);
      if (absent.isEmpty() && !diffs.isEmpty()) {
        byReplicate.put(r.namespace().dir(), diffs);
        continue;
      }
      without++;
      absent.forEach((reason, byMode) -> byMode.forEach((mode, ts) -> absences.add(Comparison.where(r.namespace())
          + " " + mode + " " + Comparison.list(ts) + ": " + reason + (reason.equals(MetricRow.OLDER_JUDGE)
              ? " (its metrics.json was written by an older judge, which did not record " + o.metric() + "; re-run"
              + " ./h2beam judge --namespaces=" + (r.versus() != null && mode.equals(modes.secondName())
              ? r.secondNamespace() : r.namespace()).dir() + " to rewrite it)" : ""))));
    }
    if (without == 0) {
      return new Verdict(o, Comparison.decide(o.metric(), modes, byReplicate, o.minEffect(), o.maximise(),
          o.places()), List.of());
    }
    String why = "no run value in " + without + " of " + paired + " replicate" + (paired == 1 ? "" : "s")
        + " (a metric absent on any task has no run value; zero never stands in)";
    // the replicates that do have a run value are counted, but no mean is taken over them: dropping the replicates
    // where something went missing would select the runs that went well
    int pairs = byReplicate.values().stream().mapToInt(List::size).sum();
    int fewest = byReplicate.values().stream().mapToInt(List::size).min().orElse(0);
    return new Verdict(o, new Comparison.Metric(o.metric(), byReplicate.size(), pairs, fewest, null, null,
        o.minEffect(), onlyNotApplicable ? "not-comparable" : "inconclusive", why), absences);
  }

  /** A mode's rows by task (the first row of a task). */
  private static Map<String, Scored> byTask(List<Scored> rows) {
    Map<String, Scored> out = new TreeMap<>();
    for (Scored r : rows) out.putIfAbsent(r.taskId(), r);
    return out;
  }

  /** Files an absent observation under its reason and mode. */
  private static void note(Map<String, Map<String, TreeSet<String>>> absent, String mode, String task,
      MetricTable.Obs x) {
    if (x.value() == null) {
      absent.computeIfAbsent(x.reason(), y -> new TreeMap<>()).computeIfAbsent(mode, y -> new TreeSet<>()).add(task);
    }
  }

  /**
   * Null when every replicate declares one and the same timing environment, else why time metrics cannot be compared
   * (one is undeclared, one was resumed in several environments, or they differ).
   */
  static String oneTimingEnvironment(List<Comparison.Replica> replicas) {
    List<String> why = new ArrayList<>();
    Map<String, List<String>> envs = new TreeMap<>();
    for (Comparison.Replica r : replicas) {
      if (r.first().isEmpty() && r.second().isEmpty()) continue;
      for (Comparison.Side side : r.sides()) {
        String name = r.name(side.namespace());
        RunIdentity id = side.identity();
        if (id == null || id.timing() == null) {
          why.add(name + " declares no timing environment (config.json has no timing)");
        } else if (id.timingMixed()) {
          why.add(name + " was resumed in different timing environments (timing is mixed)");
        } else envs.computeIfAbsent(id.timing(), x -> new ArrayList<>()).add(name);
      }
    }
    if (envs.size() > 1) {
      List<String> each = new ArrayList<>();
      envs.forEach((env, names) -> each.add(env + " (" + String.join(", ", names) + ")"));
      why.add("timing environments differ: " + String.join("; ", each));
    }
    return why.isEmpty() ? null : "time is compared only under one declared timing environment: "
        + String.join("; ", why);
  }

  private static Comparison.Metric none(Objective o, String verdict, String why) {
    return new Comparison.Metric(o.metric(), 0, 0, 0, null, null, o.minEffect(), verdict, why);
  }

  /**
   * The relation over the vector: never a weighted sum, only agreement or disagreement of decided objectives. An
   * objective left without a run value by absences is not known, and could go either way: beside it, the decided
   * objectives that agree make no claim ({@code inconclusive}; {@link #unknownBeside}), so that a mode whose outcome
   * is absent on every task is not favoured for what its failures did not spend.
   */
  static String relation(List<Verdict> verdicts) {
    TreeSet<String> favoured = new TreeSet<>();
    boolean anyComparable = false;
    for (Verdict v : verdicts) {
      String verdict = v.metric().verdict();
      if (verdict.startsWith("favors-")) favoured.add(verdict);
      if (!verdict.equals("not-comparable")) anyComparable = true;
    }
    if (favoured.size() > 1) return "trade-off";
    if (favoured.size() == 1) return unknown(verdicts).isEmpty() ? favoured.first() : "inconclusive";
    return anyComparable ? "inconclusive" : "not-comparable";
  }

  /** The objectives that absences left without a run value (not known, where a claim would need them). */
  private static List<String> unknown(List<Verdict> verdicts) {
    // not-comparable (a metric that does not apply to one side) is known not to apply, and makes no claim
    return verdicts.stream().filter(v -> !v.absences().isEmpty() && v.metric().verdict().equals("inconclusive"))
        .map(v -> v.objective().metric()).toList();
  }

  /**
   * Why a relation that some decided objectives would give is inconclusive: empty unless it is, else the decided
   * objectives and the unknown ones beside them.
   */
  static String unknownBeside(Result r, List<String> decided) {
    List<String> unknown = unknown(r.verdicts());
    if (decided.isEmpty() || unknown.isEmpty() || !r.relation().equals("inconclusive")) return "";
    return " (" + String.join("; ", decided) + ", but " + String.join(", ", unknown) + " ha"
        + (unknown.size() == 1 ? "s" : "ve") + " no run value in some replicate: not known, it could go either way)";
  }

  static List<String> lines(Result r, boolean aggregate) {
    List<String> lines = new ArrayList<>();
    lines.add("Objectives at k=" + r.k() + ": " + r.modes().firstName() + " vs " + r.modes().secondName()
        + " (paired-difference/v1 per objective, never collapsed into one score; claim: " + Comparison.CLAIM + ")");
    List<String> decided = new ArrayList<>();
    for (Verdict v : r.verdicts()) {
      Objective o = v.objective();
      lines.add("  " + o.label() + ": " + Comparison.figures(v.metric(), r.modes(), o.minEffect(), o.unit(),
          o.places(), aggregate));
      for (String a : v.absences()) lines.add("    absent: " + a);
      if (v.metric().verdict().startsWith("favors-")) decided.add(o.metric() + " " + v.metric().verdict());
    }
    // a favour over objectives says which objectives gave it: the score alone may be inconclusive (dogAK F13)
    String by = r.relation().startsWith("favors-") && !decided.isEmpty() ? " (decided by " + String.join(", ",
        decided.stream().map(d -> d.substring(0, d.indexOf(' '))).toList()) + ")" : "";
    lines.add("  relation over objectives: " + r.relation() + by
        + (r.relation().equals("trade-off") ? " (" + String.join("; ", decided) + ")" : unknownBeside(r, decided))
        + (r.failed().isEmpty() ? "" : " (failed: " + String.join(", ", r.failed()) + ")")
        + " | claim: " + Comparison.CLAIM);
    return lines;
  }

  /** Said once: the namespaces without metrics.json, whose metrics other than score and pass are all absent. */
  static List<String> unrecorded(List<NamespaceRef> reported, MetricTable table) {
    List<String> out = new ArrayList<>();
    for (NamespaceRef ns : reported) {
      if (!table.recorded(ns)) {
        out.add("Metric vector: " + ns.name() + " has no readable metrics.json; every metric but score and pass is"
            + " absent there (" + MetricTable.NO_FILE + "); ./h2beam judge writes it");
      }
    }
    return out;
  }
}
