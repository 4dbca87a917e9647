package dev.h2beam.pipelines.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One pair of modes at one k (parallel versus sequential, parallel versus gated, ...), after seed document 001: the
 * comparability conditions C1–C5 first (every failed one is listed and makes the relation {@code not-comparable}),
 * then paired-difference/v1 on each metric. Differences are paired per task and seed; with R ≥ 3 replicates a mode is
 * favoured when the mean paired difference exceeds max(minEffect, 2·se); fewer replicates are always inconclusive.
 * The claim is always exploratory.
 */
final class Comparison {
  private Comparison() {}

  static final int MIN_REPLICATES = 3;
  static final double SE_MULTIPLIER = 2.0;
  static final String CLAIM = "exploratory";

  /**
   * One replicate (a summary namespace, which holds every mode's rows) at this k: the two compared modes' rows and
   * the task summaries whose ledgers declare each mode's budget.
   */
  record Replica(NamespaceRef namespace, List<Scored> first, List<Scored> second, RunIdentity identity,
      List<TaskSummary> summaries, Side versus) {
    /** Both modes of one namespace. */
    Replica(NamespaceRef namespace, List<Scored> first, List<Scored> second, RunIdentity identity,
        List<TaskSummary> summaries) {
      this(namespace, first, second, identity, summaries, null);
    }

    /** The namespace the second side's rows are from: this one, or another runs root's ({@code --versus}). */
    NamespaceRef secondNamespace() {
      return versus == null ? namespace : versus.namespace();
    }

    /** The task summaries that declare the second side's budget. */
    List<TaskSummary> secondSummaries() {
      return versus == null ? summaries : versus.summaries();
    }

    /** Each side's namespace and identity, once: one for two modes of a namespace, two for two runs roots. */
    List<Side> sides() {
      Side own = new Side(namespace, identity, summaries);
      return versus == null ? List.of(own) : List.of(own, versus);
    }

    /** How a message names a side's namespace: by its folder when two runs roots hold namespaces of one name. */
    String name(NamespaceRef ns) {
      return versus == null ? ns.name() : ns.dir();
    }
  }

  /**
   * A side of a replicate: a namespace, its declared identity and its task summaries. The second side of a replicate
   * whose sides are two runs roots' namespaces of one name ({@code report --versus}), null in {@link Replica} else.
   */
  record Side(NamespaceRef namespace, RunIdentity identity, List<TaskSummary> summaries) {}

  /**
   * A comparability condition and every reason it fails (none when it holds).
   *
   * @param unchecked what the condition could not be checked on (it is not counted against the pair), or ""
   * @param compared false when nothing it compares was recorded: the condition is not compared, never failed
   */
  record Condition(String id, String title, List<String> failures, String unchecked, boolean compared) {
    Condition(String id, String title, List<String> failures, String unchecked) {
      this(id, title, failures, unchecked, true);
    }

    Condition(String id, String title, List<String> failures) {
      this(id, title, failures, "");
    }

    /** A condition on declared identities ({@link #sameIdentity}): what differs fails it, what is unknown does not. */
    static Condition of(String id, String title, IdentityCheck check) {
      return new Condition(id, title, check.differs(), String.join("; ", check.unknown()), check.compared());
    }

    boolean holds() {
      return failures.isEmpty();
    }
  }

  /** A task graded in both modes of one replicate: the first mode minus the second, in points. */
  record Pair(int k, ModePair modes, NamespaceRef namespace, String taskId, double score, double pass) {}

  /**
   * paired-difference/v1 on one metric.
   *
   * @param replicates replicates with at least one pair
   * @param fewestPairs the fewest pairs any of those replicates has (1: a replicate's mean is one task's difference)
   * @param se standard error of the replicate means; null (unknown) below two replicates
   * @param threshold max(minEffect, 2·se), or minEffect when se is unknown
   */
  record Metric(String name, int replicates, int pairs, int fewestPairs, Double meanDiff, Double se, double threshold,
      String verdict, String why) {}

  record Result(int k, ModePair modes, List<Condition> conditions, List<Metric> metrics, List<Pair> pairs,
      String relation) {
    boolean comparable() {
      return conditions.stream().allMatch(Condition::holds);
    }
  }

  static Result compare(int k, ModePair modes, List<Replica> replicas, double minEffect) {
    List<Condition> conditions = List.of(
        new Condition("C1", "same task set", sameTasks(modes, replicas)),
        new Condition("C2", "matched seeds, one replicate per seed on both sides", matchedSeeds(modes, replicas)),
        Condition.of("C3", "same judge identity", sameIdentity(replicas, "judge", RunIdentity::judge)),
        Condition.of("C4", "same declared executor and improver identity",
            sameIdentity(replicas, "executor", RunIdentity::executor)
                .and(sameIdentity(replicas, "improver", RunIdentity::improver))),
        budget("C5", k, modes, replicas));
    return compare(k, modes, conditions, replicas, minEffect);
  }

  /** The budget condition: R = 4k rollouts and P = 3k sessions per task in each side's ledger. */
  static Condition budget(String id, int k, ModePair modes, List<Replica> replicas) {
    List<String> unchecked = new ArrayList<>();
    String each = modes.versus() ? "side" : "mode";
    return new Condition(id, "equal budget, R = 4k = " + TaskSummary.Budget.at(k).rollouts() + " rollouts and P = 3k = "
        + TaskSummary.Budget.at(k).sessions() + " improver sessions per task in each " + each + "'s ledger",
        equalBudget(k, modes, replicas, unchecked), String.join("; ", unchecked));
  }

  /** The pair under the given comparability conditions: not comparable when one fails, else its metrics decided. */
  static Result compare(int k, ModePair modes, List<Condition> conditions, List<Replica> replicas, double minEffect) {
    if (!conditions.stream().allMatch(Condition::holds)) {
      return new Result(k, modes, conditions, List.of(), List.of(), "not-comparable");
    }
    List<Pair> pairs = pairs(k, modes, replicas);
    // by the objectives' one rule: a replicate with a task ungraded in either mode has no run value
    List<Metric> metrics = new ArrayList<>();
    for (String name : List.of("score", "pass")) {
      metrics.add(Objectives.verdict(k, modes, replicas, new Objective(name, true, minEffect), null).metric());
    }
    TreeSet<String> favoured = new TreeSet<>();
    for (Metric m : metrics) if (m.verdict().startsWith("favors-")) favoured.add(m.verdict());
    String relation = favoured.size() > 1 ? "trade-off" : favoured.isEmpty() ? "inconclusive" : favoured.first();
    return new Result(k, modes, conditions, metrics, pairs, relation);
  }

  static List<String> sameTasks(ModePair modes, List<Replica> replicas) {
    List<String> out = new ArrayList<>();
    for (Replica r : replicas) {
      if (r.first().isEmpty() || r.second().isEmpty()) continue;
      TreeSet<String> p = tasks(r.first());
      TreeSet<String> s = tasks(r.second());
      if (p.equals(s)) continue;
      TreeSet<String> onlyP = new TreeSet<>(p);
      onlyP.removeAll(s);
      TreeSet<String> onlyS = new TreeSet<>(s);
      onlyS.removeAll(p);
      out.add(where(r.namespace()) + ": tasks only in " + modes.firstName() + ": " + list(onlyP) + "; only in "
          + modes.secondName() + ": " + list(onlyS));
    }
    return out;
  }

  /**
   * C2. A seed with one mode's replicate only is named with what fixes it: when its task summaries record the other
   * mode, that run exists and was not judged in it (the judge command to run); else the seed did not run it.
   */
  static List<String> matchedSeeds(ModePair modes, List<Replica> replicas) {
    Map<String, List<String>> first = new TreeMap<>();
    Map<String, List<String>> second = new TreeMap<>();
    Map<String, List<Replica>> bySeed = new TreeMap<>();
    for (Replica r : replicas) {
      String seed = r.namespace().seedLabel();
      bySeed.computeIfAbsent(seed, x -> new ArrayList<>()).add(r);
      if (!r.first().isEmpty()) first.computeIfAbsent(seed, x -> new ArrayList<>()).add(r.namespace().name());
      if (!r.second().isEmpty()) second.computeIfAbsent(seed, x -> new ArrayList<>()).add(r.namespace().name());
    }
    List<String> out = new ArrayList<>();
    TreeSet<String> seeds = new TreeSet<>(first.keySet());
    seeds.addAll(second.keySet());
    for (String seed : seeds) {
      List<String> p = first.getOrDefault(seed, List.of());
      List<String> s = second.getOrDefault(seed, List.of());
      if (p.isEmpty() || s.isEmpty()) {
        String has = p.isEmpty() ? modes.secondName() : modes.firstName();
        String lacks = p.isEmpty() ? modes.firstName() : modes.secondName();
        String lacking = p.isEmpty() ? modes.first() : modes.second();
        List<String> unjudged = new ArrayList<>();
        boolean unselected = false;
        for (Replica r : bySeed.getOrDefault(seed, List.of())) {
          if (TaskSummary.ran(r.summaries(), lacking)) unjudged.add(r.namespace().dir());
          unselected |= TaskSummary.failedBeforeSelection(r.summaries(), lacking);
        }
        String head = "seed " + seed + " has a " + has + " replicate (" + String.join(", ", p.isEmpty() ? s : p) + ")";
        String why = unselected ? " but no " + lacks + " one: every task of its " + lacks + " run failed before"
            + " selection (see the summaries' errors); an unpaired design is refused: re-run the " + lacks
            + " mode for seed " + seed + " once the cause is fixed, or leave the seed out of --namespaces"
            : " but no " + lacks + " one; an unpaired design is refused: run the " + lacks + " mode for seed " + seed
            + ", or leave the seed out of --namespaces";
        out.add(unjudged.isEmpty() ? head + why
            : head + " and its " + lacks + " run, which its summaries record, is not judged: run ./h2beam judge"
            + " --namespaces=" + String.join(",", unjudged) + " --modes=" + lacks);
      }
      if (p.size() > 1) out.add(extra(seed, modes.firstName(), p));
      if (s.size() > 1) out.add(extra(seed, modes.secondName(), s));
    }
    if (seeds.isEmpty()) out.add("neither mode has a replicate at this k");
    return out;
  }

  private static String extra(String seed, String mode, List<String> names) {
    return "seed " + seed + " has " + names.size() + " " + mode + " replicates (" + String.join(", ", names)
        + "); pairing needs exactly one per seed";
  }

  /**
   * C5: on every task both modes ran in a replicate, each mode's ledger counted R = 4k rollouts and P = 3k sessions.
   * A task whose summary records neither mode's counts (a hand-written or pre-ledger file) cannot show a difference;
   * it is named in {@code unchecked}, not counted against the pair. So is a task on which a mode failed before it
   * selected (it records no ledger, and its judged row is a {@code mode-failed} absence, which leaves the replicate
   * without a run value): a failure of the run, not a budget of the design; and a task whose every base rollout
   * failed, on which no mode ran ({@code base-failed}). One side recorded and the other not,
   * with both modes' finals recorded, is a failure.
   */
  static List<String> equalBudget(int k, ModePair modes, List<Replica> replicas, List<String> unchecked) {
    TaskSummary.Budget want = TaskSummary.Budget.at(k);
    List<String> out = new ArrayList<>();
    int unknown = 0;
    int modeFailed = 0;
    int baseFailed = 0;
    for (Replica r : replicas) {
      if (r.first().isEmpty() || r.second().isEmpty()) continue;
      Map<String, TaskSummary> byTask = TaskSummary.byTask(r.summaries());
      Map<String, TaskSummary> secondByTask = r.versus() == null ? byTask : TaskSummary.byTask(r.secondSummaries());
      TreeSet<String> both = tasks(r.first());
      both.retainAll(tasks(r.second()));
      for (String task : both) {
        TaskSummary t = byTask.get(task);
        TaskSummary u = secondByTask.get(task);
        TaskSummary.Budget a = t == null ? null : t.mode(modes.first()).budget();
        TaskSummary.Budget b = u == null ? null : u.mode(modes.second()).budget();
        // one namespace's two modes share its bases; two runs roots' sides each rolled their own
        if ((a == null && t != null && t.deadBases() != null) || (b == null && u != null && u.deadBases() != null)) {
          baseFailed++;
        } else if (a == null && b == null) unknown++;
        else if ((a == null && t != null && t.failedBeforeSelecting(modes.first()))
            || (b == null && u != null && u.failedBeforeSelecting(modes.second()))) {
          modeFailed++;
        } else if (!want.equals(a) || !want.equals(b)) {
          out.add(where(r.namespace()) + " " + task + ": " + modes.firstName() + " " + counted(a) + ", "
              + modes.secondName() + " " + counted(b));
        }
      }
    }
    if (unknown > 0) unchecked.add(unknown + " task pair" + (unknown == 1 ? "" : "s") + " whose summaries record no"
        + " ledger counts");
    if (baseFailed > 0) unchecked.add(baseFailed + " task pair" + (baseFailed == 1 ? "" : "s") + " whose every base"
        + " rollout failed, so neither mode ran (base-failed: an absence, so that replicate has no run value)");
    if (modeFailed > 0) unchecked.add(modeFailed + " task pair" + (modeFailed == 1 ? "" : "s") + " on which a mode"
        + " failed before selecting (mode-failed: an absence, so that replicate has no run value)");
    return out;
  }

  private static String counted(TaskSummary.Budget b) {
    return b == null ? "records no ledger counts" : b.toString();
  }

  /**
   * What {@link #sameIdentity} found: the values that differ (a failure), the replicates that record none (an
   * absence, not compared: the two modes of one namespace share one config.json, so they cannot differ within a
   * replicate, and an unrecorded value across replicates is unknown, not different), and whether any was compared.
   */
  record IdentityCheck(List<String> differs, List<String> unknown, boolean compared) {
    IdentityCheck and(IdentityCheck other) {
      return new IdentityCheck(concat(differs, other.differs), concat(unknown, other.unknown),
          compared || other.compared);
    }
  }

  /** One declared identity across every replicate: every value recorded is the same; an unrecorded one is unknown. */
  static IdentityCheck sameIdentity(List<Replica> replicas, String what, Function<RunIdentity, String> field) {
    List<String> unknown = new ArrayList<>();
    Map<String, List<String>> values = new TreeMap<>();
    for (Replica r : replicas) {
      if (r.first().isEmpty() && r.second().isEmpty()) continue;
      for (Side side : r.sides()) {
        String name = r.name(side.namespace());
        if (side.identity() == null) {
          unknown.add(what + " identity unknown: " + name + " has no config.json");
          continue;
        }
        String v = field.apply(side.identity());
        if (v == null) unknown.add(what + " identity unknown: the config.json of " + name + " records no " + what);
        else values.computeIfAbsent(v, x -> new ArrayList<>()).add(name);
      }
    }
    List<String> differs = new ArrayList<>();
    if (values.size() > 1) {
      List<String> each = new ArrayList<>();
      values.forEach((v, ns) -> each.add(v + " (" + String.join(", ", ns) + ")"));
      differs.add(what + " differs across replicates: " + String.join("; ", each));
    }
    return new IdentityCheck(differs, unknown, !values.isEmpty());
  }

  static List<Pair> pairs(int k, ModePair modes, List<Replica> replicas) {
    List<Pair> out = new ArrayList<>();
    for (Replica r : replicas) {
      Map<String, Scored> p = graded(r.first());
      Map<String, Scored> s = graded(r.second());
      for (Map.Entry<String, Scored> e : p.entrySet()) {
        Scored q = s.get(e.getKey());
        if (q == null) continue;
        out.add(new Pair(k, modes, r.namespace(), e.getKey(), 100 * (e.getValue().frac() - q.frac()),
            100.0 * ((e.getValue().allPass() ? 1 : 0) - (q.allPass() ? 1 : 0))));
      }
    }
    return out;
  }

  /**
   * paired-difference/v1 over per-replicate paired differences (first minus second, in the metric's unit): the mean
   * over replicates of each replicate's mean favours a mode when it exceeds max(minEffect, 2·se) in that mode's
   * direction ({@code higherIsBetter}: a positive difference favours the first mode, else a negative one does).
   */
  static Metric decide(String name, ModePair modes, Map<String, List<Double>> byReplicate, double minEffect,
      boolean higherIsBetter, int places) {
    List<Double> means = new ArrayList<>();
    for (List<Double> d : byReplicate.values()) means.add(PyFormat.mean(d));
    int r = means.size();
    int pairs = byReplicate.values().stream().mapToInt(List::size).sum();
    int fewest = byReplicate.values().stream().mapToInt(List::size).min().orElse(0);
    if (r == 0) {
      return new Metric(name, 0, 0, 0, null, null, minEffect, "inconclusive", "no task is graded in both modes");
    }
    double mean = PyFormat.mean(means);
    Double se = PyFormat.standardError(means);
    double threshold = se == null ? minEffect : Math.max(minEffect, SE_MULTIPLIER * se);
    if (r < MIN_REPLICATES) {
      return new Metric(name, r, pairs, fewest, mean, se, threshold, "inconclusive", r + " replicate"
          + (r == 1 ? "" : "s") + "; paired-difference/v1 needs at least " + MIN_REPLICATES);
    }
    double better = higherIsBetter ? mean : -mean;
    String verdict = better > threshold ? "favors-" + modes.firstName() : better < -threshold
        ? "favors-" + modes.secondName() : "inconclusive";
    return new Metric(name, r, pairs, fewest, mean, se, threshold, verdict, verdict.equals("inconclusive")
        ? "|" + PyFormat.signed(mean, places) + "| " + NOT_OVER : "");
  }

  /** Why a difference is inconclusive, after the difference itself (which is left out where it is withheld). */
  private static final String NOT_OVER = "does not exceed the threshold";

  /** The comparison's section of the text report, of a pair whose gated method (if any) is not known here. */
  static List<String> lines(Result c, double minEffect, boolean aggregate) {
    return lines(c, minEffect, aggregate, List.of());
  }

  /**
   * The comparison's section of the text report; {@code gated}: the method and policy the gated side's replicates
   * ran ({@link GateSetup#groups}), named before what differs by design; empty for a pair without gated.
   */
  static List<String> lines(Result c, double minEffect, boolean aggregate, List<GateSetup.Group> gated) {
    List<String> disclosed = new ArrayList<>(GateSetup.lines(gated, "  ", false));
    disclosed.addAll(byDesign(c.modes(), GateSetup.methods(gated)));
    return lines(c, minEffect, aggregate, "Comparison", disclosed);
  }

  /**
   * The section under its {@code heading} ({@code Comparison}, or {@code Methods} for two runs roots' gated modes),
   * with the {@code disclosed} lines (what each side ran, what differs by design) after the conditions.
   */
  static List<String> lines(Result c, double minEffect, boolean aggregate, String heading, List<String> disclosed) {
    List<String> lines = new ArrayList<>();
    lines.add(heading + " at k=" + c.k() + ": " + c.modes().firstName() + " vs " + c.modes().secondName()
        + " (paired-difference/v1; claim: " + CLAIM + ")");
    List<String> failed = new ArrayList<>();
    for (Condition cond : c.conditions()) {
      if (cond.holds() && !cond.compared()) {
        // an absence is not a failure: said as what it is, and the pair is compared on the other conditions
        lines.add("  " + cond.id() + " " + cond.title() + ": not compared -- " + cond.unchecked());
      } else if (cond.holds()) {
        lines.add("  " + cond.id() + " " + cond.title() + ": holds"
            + (cond.unchecked().isEmpty() ? "" : " (not checked on " + cond.unchecked() + ")"));
      } else {
        failed.add(cond.id());
        lines.add("  " + cond.id() + " " + cond.title() + ": FAILS -- " + String.join("; ", cond.failures()));
      }
    }
    lines.addAll(disclosed);
    for (Metric m : c.metrics()) lines.add("  " + m.name() + ": " + figures(m, c.modes(), minEffect, "pt", 2,
        aggregate));
    lines.add("  relation: " + c.relation() + (failed.isEmpty() ? "" : " (failed: " + String.join(", ", failed) + ")")
        + " | claim: " + CLAIM);
    return lines;
  }

  /**
   * What differs between the two modes by design, beside the conditions (none fails for it, and none is hidden): the
   * gated mode sees scores the blind modes never see (with h2beam's {@code improver} method, its tasks' checks, run
   * on each episode, shown to its improver and deciding its gate; with any other of {@code methods}, the scores that
   * method's own {@code evaluate} gives), and runs no last selection, while its ledger's P counts the sessions its
   * method may decline to call. Empty for parallel against sequential, which differ only in how they spend one
   * budget.
   *
   * @param methods the gated methods the replicates record ({@link GateSetup#methods}); none recorded is the default
   */
  static List<String> byDesign(ModePair modes, List<String> methods) {
    if (!modes.first().equals("gat") && !modes.second().equals("gat")) return List.of();
    String blind = ModeK.human(modes.first().equals("gat") ? modes.second() : modes.first());
    String scores = GateSetup.improver(methods)
        ? "  by design (disclosed; no condition fails for it): gated's improver is shown each episode's score from the"
        + " task's checks (checks/), and its gate keeps a step only when those scores win; " + blind + " sees no"
        + " score. Where a task's checks apply the grader's rule, gated selects with the signal the judge grades by."
        : "  by design (disclosed; no condition fails for it): gated's method " + String.join(" or ", methods)
        + " scores each episode itself (its evaluate), and gated keeps a step only when those scores win; " + blind
        + " sees no score. What those scores rest on is the method's own: this report cannot say whether they apply"
        + " the grader's rule.";
    return List.of(scores,
        "  by design: gated runs no last selection (it delivers its latest kept episode), where " + blind + " runs a"
        + " selector session per task; P counts improver sessions budgeted, and a gated method may call fewer (its"
        + " ledger's session_attempts say how many it made).");
  }

  /**
   * A metric's figures after its name: the mean paired difference in {@code unit}, replicates and pairs, se and
   * threshold, verdict. Under aggregate disclosure a replicate of a single task pair withholds the mean and its spread
   * (the mean would be that task's difference).
   */
  static String figures(Metric m, ModePair modes, double minEffect, String unit, int places, boolean aggregate) {
    StringBuilder b = new StringBuilder();
    boolean hidden = aggregate && m.fewestPairs() == 1;
    if (m.meanDiff() == null && m.replicates() > 0) {
      b.append("no mean paired difference (it would leave out the replicates without a run value)");
    } else if (m.meanDiff() == null) b.append("no paired difference");
    else if (hidden) b.append("mean paired difference withheld (a replicate has a single task pair)");
    else b.append("mean paired difference ").append(PyFormat.signed(m.meanDiff(), places)).append(' ').append(unit)
        .append(" (").append(modes.difference()).append(")");
    b.append(" | ").append(m.replicates()).append(" replicate").append(m.replicates() == 1 ? "" : "s").append(", ")
        .append(m.pairs()).append(" task pair").append(m.pairs() == 1 ? "" : "s");
    if (m.meanDiff() != null && !hidden) {
      // a threshold built from an unknown se is unknown too, never its known part
      b.append(" | ").append(Replicates.se(m.se(), places, unit)).append(" | threshold ")
          .append(m.se() == null ? "unknown" : PyFormat.fixed(m.threshold(), 0, places) + " " + unit)
          .append(" = max(minEffect ").append(PyFormat.fixed(minEffect, 0, places)).append(", 2*se ")
          .append(m.se() == null ? "unknown" : PyFormat.fixed(SE_MULTIPLIER * m.se(), 0, places)).append(")");
    }
    // a withheld mean is not given away by the verdict's reason either
    String why = hidden && m.why().endsWith("| " + NOT_OVER) ? "the mean " + NOT_OVER : m.why();
    return b.append(" | ").append(m.verdict()).append(why.isEmpty() ? "" : ": " + why).toString();
  }

  private static Map<String, Scored> graded(List<Scored> rows) {
    Map<String, Scored> out = new TreeMap<>();
    for (Scored r : rows) if (r.graded()) out.putIfAbsent(r.taskId(), r);
    return out;
  }

  private static TreeSet<String> tasks(List<Scored> rows) {
    TreeSet<String> out = new TreeSet<>();
    for (Scored r : rows) out.add(r.taskId());
    return out;
  }

  static String where(NamespaceRef ns) {
    return "seed " + ns.seedLabel() + " (" + ns.name() + ")";
  }

  /** Task ids an aggregate line names in full; a longer set names its first {@link #NAMED} and counts the rest. */
  static final int NAMED = 10;

  /**
   * Tasks named on one line of the aggregate report: all of them up to {@link #NAMED} + 2, else the first {@link
   * #NAMED} and how many more, so that a line about a 2,000-task sweep stays a line; every task is in the per-task
   * rows (the restricted file, or the per-task section under {@code --disclosure=per-task}). "none" for no task.
   */
  static String list(Collection<String> tasks) {
    if (tasks.isEmpty()) return "none";
    if (tasks.size() <= NAMED + 2) return String.join(", ", tasks);
    List<String> first = new ArrayList<>(NAMED);
    for (String t : tasks) {
      if (first.size() == NAMED) break;
      first.add(t);
    }
    return String.join(", ", first) + " and " + (tasks.size() - NAMED) + " more (" + tasks.size()
        + " tasks; the per-task rows name each)";
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
