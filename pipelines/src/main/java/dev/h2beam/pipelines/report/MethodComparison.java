package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code report --versus}: the gated mode of two runs roots compared on paired differences, a methods researcher's
 * question (is my gated method better than another, on the same tasks, at the same budget?). Each namespace of
 * {@code --namespaces} is paired with the {@code --versus} namespace of its name (one benchmark, substrate, k and
 * seed), and seed document 001's rule applies as it does to two modes: the comparability conditions M1–M5 first
 * (every failed one is listed and makes the relation {@code not-comparable}), then paired-difference/v1 on score,
 * pass and every objective, each task's difference the first side's minus the second's. The two sides differ in
 * their gated method (or policy) by design; everything else config.json records must be the same (M4).
 */
final class MethodComparison {
  private MethodComparison() {}

  /** The flag each side comes from, as the section names them. */
  static final String FIRST = "--namespaces";
  static final String SECOND = "--versus";

  /** The section's lines, its task pairs (for the per-task disclosures) and whether it withheld a figure. */
  record Section(List<String> lines, List<Comparison.Pair> pairs, boolean withheld, Sides sides) {
    static final Section NONE = new Section(List.of(), List.of(), false, null);

    /** A section that compared nothing, with the lines that say why. */
    static Section notMade(List<String> lines) {
      return new Section(lines, List.of(), false, null);
    }
  }

  /**
   * What the page's charts draw of a made section: each side's label and gated rows, the {@code --versus} side's
   * cells whose replicate figures the text withholds, and the k both sides ran.
   */
  record Sides(String first, String second, Map<NamespaceRef, List<Scored>> firstRows,
      Map<NamespaceRef, List<Scored>> secondRows, java.util.Set<ModeK> hidden, List<Integer> ks) {}

  /**
   * The section for {@code s.versus()}; {@link Section#NONE} without {@code --versus}. {@code fails}: the files the
   * report could not read, so that a namespace whose judged.json is one of them is named for what it is.
   */
  static Section of(ReportSettings s, Map<String, NamespaceFacts> byDir, MetricTable table, List<ReadFailure> fails) {
    if (s.versus().isEmpty()) return Section.NONE;
    boolean aggregate = s.disclosure() == Disclosure.AGGREGATE;
    Map<NamespaceRef, List<Scored>> first = gatedRows(s, s.included(), byDir);
    Map<NamespaceRef, List<Scored>> second = gatedRows(s, s.versusIncluded(), byDir);
    List<String> lines = new ArrayList<>();
    lines.add("");
    if (first.isEmpty() || second.isEmpty()) {
      String flag = first.isEmpty() ? FIRST : SECOND;
      List<NamespaceRef> side = first.isEmpty() ? s.included() : s.versusIncluded();
      List<NamespaceRef> all = first.isEmpty() ? s.namespaces() : s.versus();
      lines.add("Methods (" + FIRST + " vs " + SECOND + "): not made -- no " + flag + " namespace has judged gated rows"
          + (s.ks().isEmpty() ? "" : " at k=" + join(s.ks())));
      if (side.isEmpty()) {
        lines.add("  " + flag + " names namespaces at k=" + join(all.stream().map(NamespaceRef::k).distinct().sorted()
            .toList()) + " only: pass that --k, or compare at a k both sides ran");
      }
      for (NamespaceRef ns : side) lines.add("  " + missing(ns, flag, byDir, fails));
      return Section.notMade(lines);
    }
    String notReplicates = Report.notReplicates(second.keySet(), byDir, SECOND, "the methods are not compared");
    if (notReplicates != null) {
      lines.add("Methods (" + FIRST + " vs " + SECOND + "): not made -- the " + SECOND + " namespaces are "
          + notReplicates);
      return Section.notMade(lines);
    }
    Map<GateSetup, List<NamespaceRef>> firstSetups = setups(first.keySet(), byDir);
    Map<GateSetup, List<NamespaceRef>> secondSetups = setups(second.keySet(), byDir);
    boolean aa = sameMethod(firstSetups.keySet(), secondSetups.keySet());
    List<String> names = labels(new ArrayList<>(firstSetups.keySet()), new ArrayList<>(secondSetups.keySet()));
    ModePair pair = ModePair.methods(Report.GATED, names.get(0), names.get(1));
    List<String> disclosed = new ArrayList<>();
    disclosed.addAll(sideLines(names.get(0), FIRST, firstSetups));
    disclosed.addAll(sideLines(names.get(1), SECOND, secondSetups));
    disclosed.addAll(byDesign(aa ? firstSetups.keySet().iterator().next() : null));

    // the report's figures above are the --namespaces side's: the other side's replicates, as they are shown there
    List<Replicates.Cell> cells = Replicates.summarise(second);
    lines.add("Replicates of " + names.get(1) + " (" + SECOND + "; replicate-mean/v1, as above for " + names.get(0)
        + ")");
    lines.addAll(Replicates.lines(cells, aggregate));
    lines.add(spend(second, byDir));
    if (s.modes().size() > 1) {
      // its other modes are not in the figures above, which are the --namespaces side's (dogAI F6)
      lines.add("  (the " + SECOND + " side is compared in its gated mode only)");
    }
    lines.add("");
    List<Comparison.Pair> pairs = new ArrayList<>();
    boolean withheld = cells.stream().anyMatch(c -> Replicates.withheld(c, aggregate));
    Map<String, NamespaceRef> versusByName = byName(s.versusIncluded());
    Map<String, NamespaceRef> mineByName = byName(s.included());
    TreeSet<Integer> ks = new TreeSet<>();
    first.values().forEach(rows -> rows.forEach(r -> ks.add(r.k())));
    second.values().forEach(rows -> rows.forEach(r -> ks.add(r.k())));
    List<Integer> bothRan = new ArrayList<>();
    for (int k : ks) {
      Map<String, NamespaceRef> a = byName(atK(first, k).keySet());
      Map<String, NamespaceRef> b = byName(atK(second, k).keySet());
      if (!a.isEmpty() && !b.isEmpty()) bothRan.add(k);
      if (a.isEmpty() || b.isEmpty()) {
        // nothing to pair at this k: no condition can hold over no pair (dogAH F4)
        String lacking = a.isEmpty() ? FIRST : SECOND;
        Map<NamespaceRef, List<Scored>> other = a.isEmpty() ? first : second;
        lines.add("Methods at k=" + k + ": not made -- " + lacking + " has no judged gated rows at k=" + k + " (its"
            + " gated rows are at k=" + join(other.values().stream().flatMap(List::stream).map(Scored::k).distinct()
            .sorted().toList()) + "); two methods are compared at a k both sides ran");
        lines.add("");
        continue;
      }
      TreeSet<String> all = new TreeSet<>(a.keySet());
      all.addAll(b.keySet());
      List<Comparison.Replica> replicas = new ArrayList<>();
      List<String> unmatched = new ArrayList<>();
      for (String name : all) {
        NamespaceRef x = a.get(name);
        NamespaceRef y = b.get(name);
        if (x == null) unmatched.add(unmatched(y, mineByName.get(name), FIRST, byDir, fails));
        else if (y == null) unmatched.add(unmatched(x, versusByName.get(name), SECOND, byDir, fails));
        else {
          NamespaceFacts fx = Report.facts(byDir, x);
          NamespaceFacts fy = Report.facts(byDir, y);
          replicas.add(new Comparison.Replica(x, atK(first.get(x), k), atK(second.get(y), k), fx.identity(),
              fx.summaries(), new Comparison.Side(y, fy.identity(), fy.summaries())));
        }
      }
      List<Comparison.Condition> conditions = List.of(
          new Comparison.Condition("M1", "same task set", Comparison.sameTasks(pair, replicas)),
          new Comparison.Condition("M2", "matched seeds: each namespace paired with the other side's namespace of"
              + " its name", unmatched),
          Comparison.Condition.of("M3", "same judge identity",
              Comparison.sameIdentity(replicas, "judge", RunIdentity::judge)),
          sameExperiment(replicas),
          Comparison.budget("M5", k, pair, replicas));
      Comparison.Result c = Comparison.compare(k, pair, conditions, replicas, s.minEffect());
      Objectives.Result o = Objectives.compare(c, replicas, s.objectives(), table);
      if (aa) {
        c = aa(c);
        o = aa(o);
      }
      List<String> shown = new ArrayList<>(disclosed);
      shown.add(attempts(pair, replicas));
      lines.addAll(Comparison.lines(c, s.minEffect(), aggregate, "Methods", shown));
      lines.add("");
      lines.addAll(Objectives.lines(o, aggregate));
      lines.add("");
      pairs.addAll(c.pairs());
      withheld |= aggregate && c.metrics().stream().anyMatch(m -> m.fewestPairs() == 1);
      withheld |= aggregate && o.verdicts().stream().anyMatch(v -> v.metric().fewestPairs() == 1);
    }
    lines.remove(lines.size() - 1);
    TreeSet<ModeK> hidden = new TreeSet<>(ModeK.BY_K_THEN_MODE);
    for (Replicates.Cell c : cells) if (Replicates.withheld(c, aggregate)) hidden.add(c.cell());
    // no k both sides ran: nothing side by side to draw
    Sides sides = bothRan.isEmpty() ? null : new Sides(names.get(0), names.get(1), first, second, hidden, bothRan);
    return new Section(lines, pairs, withheld, sides);
  }

  /** The {@code --versus} side's gated rows, which the per-task disclosures list beside the reported ones. */
  static Map<NamespaceRef, List<Scored>> versusRows(ReportSettings s, Map<String, NamespaceFacts> byDir) {
    return s.versus().isEmpty() ? Map.of() : gatedRows(s, s.versusIncluded(), byDir);
  }

  /**
   * Whether both sides record one and the same gated setup, known on each: an A/A comparison, two runs of one method,
   * whose differences say how far such runs differ, not which method is better.
   */
  private static boolean sameMethod(java.util.Set<GateSetup> first, java.util.Set<GateSetup> second) {
    return first.size() == 1 && first.equals(second) && first.iterator().next().method() != null;
  }

  /** An A/A comparison's verdicts: a decided difference between two runs of one method is not a method favoured. */
  private static Comparison.Result aa(Comparison.Result c) {
    return new Comparison.Result(c.k(), c.modes(), c.conditions(), c.metrics().stream().map(MethodComparison::aa)
        .toList(), c.pairs(), aaRelation(c.relation()));
  }

  private static Objectives.Result aa(Objectives.Result o) {
    return new Objectives.Result(o.k(), o.modes(), o.verdicts().stream().map(v -> new Objectives.Verdict(
        v.objective(), aa(v.metric()), v.absences())).toList(), aaRelation(o.relation()), o.failed());
  }

  private static Comparison.Metric aa(Comparison.Metric m) {
    return new Comparison.Metric(m.name(), m.replicates(), m.pairs(), m.fewestPairs(), m.meanDiff(), m.se(),
        m.threshold(), aaRelation(m.verdict()), m.why());
  }

  /** {@code favors-<side>} of an A/A comparison: {@code runs-differ (A/A: <side> ahead; ...)}; else as it is. */
  private static String aaRelation(String relation) {
    if (!relation.startsWith("favors-")) return relation;
    return "runs-differ (A/A: " + relation.substring("favors-".length()) + " ahead; one setup of one method on both"
        + " sides)";
  }

  /**
   * What the {@code --versus} side's gated mode spent over its reported tasks, as the figures above say of the
   * reported side's: improver and executor dollars as recorded, the costs not known counted, never added as 0.
   */
  private static String spend(Map<NamespaceRef, List<Scored>> rows, Map<String, NamespaceFacts> byDir) {
    double improver = 0;
    double executor = 0;
    int improverUnknown = 0;
    int executorUnknown = 0;
    int tasks = 0;
    for (Map.Entry<NamespaceRef, List<Scored>> e : rows.entrySet()) {
      Map<String, TaskSummary> byTask = TaskSummary.byTask(Report.facts(byDir, e.getKey()).summaries());
      for (Scored r : e.getValue()) {
        TaskSummary t = byTask.get(r.taskId());
        if (t == null) continue;
        TaskSummary.ModeSpend m = t.mode(Report.GATED);
        improver += m.improverUsd();
        executor += m.executorUsd();
        improverUnknown += m.improverUnknown();
        executorUnknown += m.executorUnknown();
        tasks++;
      }
    }
    return "  its gated mode's spend over " + tasks + " reported task(s): improver " + Render.dollars(improver)
        + Render.notKnown(improverUnknown, "stage(s) or selection(s)") + " | executor " + Render.dollars(executor)
        + Render.notKnown(executorUnknown, "rollout(s)");
  }

  /** What each side's improver sessions were, beside M5's budget: the attempts their ledgers count. */
  private static String attempts(ModePair pair, List<Comparison.Replica> replicas) {
    Report.AttemptCount a = Report.AttemptCount.NONE;
    Report.AttemptCount b = Report.AttemptCount.NONE;
    for (Comparison.Replica r : replicas) {
      Map<String, TaskSummary> x = TaskSummary.byTask(r.summaries());
      Map<String, TaskSummary> y = TaskSummary.byTask(r.secondSummaries());
      for (Scored row : r.first()) {
        TaskSummary t = x.get(row.taskId());
        a = a.plus(t == null ? null : t.mode(Report.GATED).attempts());
      }
      for (Scored row : r.second()) {
        TaskSummary t = y.get(row.taskId());
        b = b.plus(t == null ? null : t.mode(Report.GATED).attempts());
      }
    }
    return "  improver sessions made within that budget: " + pair.firstName() + " " + a.says() + "; "
        + pair.secondName() + " " + b.says() + " (a method may answer without its session)";
  }

  /**
   * M4: the two sides ran the same experiment but for the gated method, and each side's method is known. The declared
   * executor and improver are the same (as C4 asks of two modes), and so is every key of the two config.json files'
   * cohorts (the task set, the inputs' digests, the tasks' {@code checks/} the methods score with, the benchmark's
   * settings, roles and prices) except {@code gate} and {@code gate_code}, which differ by design. A key one side
   * does not record is not compared (named, not failed); a side whose config.json records no gated method fails it:
   * the method is what is compared (dogAH F1, F2).
   */
  static Comparison.Condition sameExperiment(List<Comparison.Replica> replicas) {
    Comparison.IdentityCheck roles = Comparison.sameIdentity(replicas, "executor", RunIdentity::executor)
        .and(Comparison.sameIdentity(replicas, "improver", RunIdentity::improver));
    List<String> differs = new ArrayList<>(roles.differs());
    List<String> unknown = new ArrayList<>(roles.unknown());
    boolean compared = roles.compared();
    // one line per difference, with the seeds it is found in
    Map<String, TreeSet<String>> byDifference = new LinkedHashMap<>();
    Map<String, TreeSet<String>> byLack = new LinkedHashMap<>();
    for (Comparison.Replica r : replicas) {
      for (Comparison.Side side : r.sides()) {
        if (GateSetup.of(side.identity()).method() == null) {
          differs.add("the gated method of " + side.namespace().dir() + " is not known (" + (side.identity() == null
              ? "no readable config.json" : "its config.json records no gate") + "): a methods comparison needs each"
              + " side's method");
        }
      }
      RunIdentity x = r.identity();
      RunIdentity y = r.versus().identity();
      String seed = r.namespace().seedLabel();
      if (x == null || x.cohort() == null || y == null || y.cohort() == null) {
        unknown.add("the settings of " + (x == null || x.cohort() == null ? r.namespace().dir()
            : r.secondNamespace().dir()) + " (its config.json records none: an older h2beam's or harness2's)");
        continue;
      }
      compared = true;
      Map<String, Object> cx = Report.cohortOf(x);
      Map<String, Object> cy = Report.cohortOf(y);
      TreeSet<String> keys = new TreeSet<>(cx.keySet());
      keys.addAll(cy.keySet());
      keys.removeIf(key -> key.equals(RunIdentity.UNVERIFIED) || RunIdentity.GATE_KEYS.contains(key));
      for (String key : keys) {
        if (!cx.containsKey(key) || !cy.containsKey(key)) {
          byLack.computeIfAbsent(key + " (not recorded by the " + (cx.containsKey(key) ? SECOND : FIRST) + " side",
              z -> new TreeSet<>()).add(seed);
        } else if (!Json.canonical(cx.get(key)).equals(Json.canonical(cy.get(key)))) {
          byDifference.computeIfAbsent(key + " differs: " + difference(key, cx.get(key), cy.get(key)),
              z -> new TreeSet<>()).add(seed);
        }
      }
    }
    byDifference.forEach((what, seeds) -> differs.add(what + " (seed" + (seeds.size() == 1 ? " " : "s ")
        + String.join(", ", seeds) + ")"));
    byLack.forEach((what, seeds) -> unknown.add(what + ", seed" + (seeds.size() == 1 ? " " : "s ")
        + String.join(", ", seeds) + ")"));
    return new Comparison.Condition("M4", "same experiment but the gated method, each side's known: executor,"
        + " improver, tasks and their checks, inputs and settings (config.json)", differs, String.join("; ", unknown),
        compared);
  }

  /**
   * How two values of a cohort key differ: a task set by its size and the tasks on one side only, an object (the
   * digests of each task or part) by the entries that differ, anything else as recorded, cut short (dogAH F9).
   */
  static String difference(String key, Object a, Object b) {
    if (key.equals("tasks") && a instanceof List<?> x && b instanceof List<?> y) {
      TreeSet<String> onlyA = new TreeSet<>();
      TreeSet<String> onlyB = new TreeSet<>();
      x.forEach(t -> onlyA.add(String.valueOf(t)));
      y.forEach(t -> onlyB.add(String.valueOf(t)));
      TreeSet<String> both = new TreeSet<>(onlyA);
      both.retainAll(onlyB);
      onlyA.removeAll(both);
      onlyB.removeAll(both);
      return x.size() + " task(s) on the " + FIRST + " side, " + y.size() + " on the " + SECOND + " side; only on"
          + " the first: " + Comparison.list(onlyA) + "; only on the second: " + Comparison.list(onlyB);
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      TreeSet<String> entries = new TreeSet<>();
      x.keySet().forEach(e -> entries.add(String.valueOf(e)));
      y.keySet().forEach(e -> entries.add(String.valueOf(e)));
      entries.removeIf(e -> x.containsKey(e) && y.containsKey(e)
          && Json.canonical(x.get(e)).equals(Json.canonical(y.get(e))));
      return "in " + Comparison.list(entries) + " (their values in the two config.json files)";
    }
    return value(a) + " on the " + FIRST + " side, " + value(b) + " on the " + SECOND + " side";
  }

  /**
   * The sides' names: {@code gated[<method>]} when each side ran one method and they differ; when they differ in
   * policy, margin or the method's code alone, {@code gated[<method>, <policy>]}, {@code gated[<method>, margin
   * <m>]} or {@code gated[<method>, code <digest>]}; {@code gated[<method>, --namespaces]} and {@code gated[<method>,
   * --versus]} for one setup on both sides (an A/A comparison); else by the flag each side came from.
   */
  static List<String> labels(List<GateSetup> first, List<GateSetup> second) {
    boolean recorded = first.stream().noneMatch(x -> x.method() == null)
        && second.stream().noneMatch(x -> x.method() == null);
    if (recorded) {
      List<java.util.function.Function<GateSetup, String>> parts = List.of(x -> x.method(),
          x -> x.method() + ", " + x.policy(), x -> x.method() + ", margin " + x.margin(),
          x -> x.method() + ", code " + x.code());
      for (java.util.function.Function<GateSetup, String> part : parts) {
        TreeSet<String> a = new TreeSet<>();
        TreeSet<String> b = new TreeSet<>();
        first.forEach(x -> a.add(part.apply(x)));
        second.forEach(x -> b.add(part.apply(x)));
        if (a.size() == 1 && b.size() == 1 && !a.equals(b)) {
          return List.of("gated[" + a.first() + "]", "gated[" + b.first() + "]");
        }
      }
      TreeSet<String> m1 = new TreeSet<>();
      TreeSet<String> m2 = new TreeSet<>();
      first.forEach(x -> m1.add(x.method()));
      second.forEach(x -> m2.add(x.method()));
      if (m1.size() == 1 && m1.equals(m2)) {
        return List.of("gated[" + m1.first() + ", " + FIRST + "]", "gated[" + m2.first() + ", " + SECOND + "]");
      }
    }
    return List.of("gated[" + FIRST + "]", "gated[" + SECOND + "]");
  }

  /** What one side ran: its setups, each with the runs root and the namespaces that record it. */
  private static List<String> sideLines(String name, String flag, Map<GateSetup, List<NamespaceRef>> setups) {
    List<String> out = new ArrayList<>();
    String who = name.contains(flag) ? name : name + " (" + flag + ")";
    setups.forEach((setup, refs) -> {
      TreeSet<String> roots = new TreeSet<>();
      refs.forEach(ns -> roots.add(String.valueOf(Path.of(ns.dir()).getParent())));
      out.add("  " + who + ": " + setup.fullLabel() + " in " + String.join(", ", roots) + ": "
          + String.join(", ", refs.stream().map(NamespaceRef::name).toList()));
    });
    setups.keySet().forEach(setup -> {
      if (setup.pluginLine() != null) out.add("  " + setup.pluginLine());
    });
    return out;
  }

  /**
   * What differs between the sides by design, beside the conditions; {@code same}: the one setup both sides record
   * (an A/A comparison), else null.
   */
  private static List<String> byDesign(GateSetup same) {
    List<String> out = new ArrayList<>();
    out.add("  by design (disclosed; no condition fails for it): each runs root rolled its own k bases per task, so a"
        + " paired difference (by task and seed) holds the variation between the two roots' base rollouts as well"
        + " as the methods'; both sides see the scores their method's evaluate gives, and neither sees the judge's");
    if (same != null) {
      out.add("  by design: both sides record the same gated method and policy (" + same.fullLabel() + "): an A/A"
          + " comparison, which measures how far two runs of one method differ, not which method is better; a"
          + " difference past the threshold reads runs-differ, never favors");
    }
    return out;
  }

  /** Why a namespace has no judged gated rows, and what to run. */
  private static String missing(NamespaceRef ns, String flag, Map<String, NamespaceFacts> byDir,
      List<ReadFailure> fails) {
    String judged = Path.of(ns.dir(), "judged.json").toString();
    for (ReadFailure f : fails) {
      if (f.input().equals(judged)) {
        // the judge leaves a judged.json it cannot read as it is: moved aside, it is written anew (dogAH F6)
        return ns.dir() + " (" + flag + "): its judged.json could not be read (" + f.message() + "): move it aside,"
            + " then run ./h2beam judge --namespaces=" + ns.dir() + " --modes=gated";
      }
    }
    NamespaceFacts f = Report.facts(byDir, ns);
    if (TaskSummary.ran(f.summaries(), Report.GATED)) {
      return ns.dir() + " (" + flag + ") ran the gated mode and it is not judged: run ./h2beam judge --namespaces="
          + ns.dir() + " --modes=gated";
    }
    return ns.dir() + " (" + flag + ") never ran the gated mode (its summaries record none): sweep its runs root"
        + " with --modes=gated";
  }

  /** M2's failure for a namespace with judged gated rows on one side only. */
  private static String unmatched(NamespaceRef has, NamespaceRef other, String otherFlag,
      Map<String, NamespaceFacts> byDir, List<ReadFailure> fails) {
    String head = "seed " + has.seedLabel() + ": " + has.dir() + " has judged gated rows at k=" + has.k();
    if (other == null) {
      return head + " and " + otherFlag + " names no namespace " + has.name() + ": add it there, or leave the seed"
          + " out";
    }
    return head + " and its partner " + missing(other, otherFlag, byDir, fails);
  }

  /** The gated rows at the requested k values of each namespace that has any. */
  private static Map<NamespaceRef, List<Scored>> gatedRows(ReportSettings s, List<NamespaceRef> refs,
      Map<String, NamespaceFacts> byDir) {
    Map<NamespaceRef, List<Scored>> out = new LinkedHashMap<>();
    for (NamespaceRef ns : refs) {
      List<Scored> rows = Report.facts(byDir, ns).rows().stream().filter(r -> r.mode().equals(Report.GATED)
          && (s.ks().isEmpty() || s.ks().contains(r.k()))).toList();
      if (!rows.isEmpty()) out.put(ns, rows);
    }
    return out;
  }

  private static Map<NamespaceRef, List<Scored>> atK(Map<NamespaceRef, List<Scored>> rows, int k) {
    Map<NamespaceRef, List<Scored>> out = new LinkedHashMap<>();
    rows.forEach((ns, each) -> {
      List<Scored> at = atK(each, k);
      if (!at.isEmpty()) out.put(ns, at);
    });
    return out;
  }

  private static List<Scored> atK(List<Scored> rows, int k) {
    return rows.stream().filter(r -> r.k() == k).toList();
  }

  private static Map<String, NamespaceRef> byName(Iterable<NamespaceRef> refs) {
    Map<String, NamespaceRef> out = new TreeMap<>();
    for (NamespaceRef ns : refs) out.put(ns.name(), ns);
    return out;
  }

  private static Map<GateSetup, List<NamespaceRef>> setups(Iterable<NamespaceRef> refs,
      Map<String, NamespaceFacts> byDir) {
    Map<GateSetup, List<NamespaceRef>> out = new LinkedHashMap<>();
    for (NamespaceRef ns : refs) {
      out.computeIfAbsent(GateSetup.of(Report.facts(byDir, ns).identity()), x -> new ArrayList<>()).add(ns);
    }
    return out;
  }

  /** A cohort value as recorded, cut short. */
  private static String value(Object v) {
    String text = Json.canonical(v);
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }

  private static String join(List<Integer> ks) {
    return String.join(",", ks.stream().map(String::valueOf).toList());
  }
}
