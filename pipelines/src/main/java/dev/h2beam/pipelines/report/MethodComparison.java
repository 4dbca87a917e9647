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
  record Section(List<String> lines, List<Comparison.Pair> pairs, boolean withheld) {
    static final Section NONE = new Section(List.of(), List.of(), false);
  }

  /** The section for {@code s.versus()}; {@link Section#NONE} without {@code --versus}. */
  static Section of(ReportSettings s, Map<String, NamespaceFacts> byDir, MetricTable table) {
    if (s.versus().isEmpty()) return Section.NONE;
    boolean aggregate = s.disclosure() == Disclosure.AGGREGATE;
    Map<NamespaceRef, List<Scored>> first = gatedRows(s, s.included(), byDir);
    Map<NamespaceRef, List<Scored>> second = gatedRows(s, s.versusIncluded(), byDir);
    List<String> lines = new ArrayList<>();
    lines.add("");
    if (first.isEmpty() || second.isEmpty()) {
      String flag = first.isEmpty() ? FIRST : SECOND;
      lines.add("Methods (" + FIRST + " vs " + SECOND + "): not made -- no " + flag + " namespace has judged gated rows"
          + (s.ks().isEmpty() ? "" : " at k=" + join(s.ks())));
      for (NamespaceRef ns : first.isEmpty() ? s.included() : s.versusIncluded()) {
        lines.add("  " + missing(ns, flag, byDir));
      }
      return new Section(lines, List.of(), false);
    }
    String notReplicates = Report.notReplicates(second.keySet(), byDir);
    if (notReplicates != null) {
      lines.add("Methods (" + FIRST + " vs " + SECOND + "): not made -- the " + SECOND + " namespaces are "
          + notReplicates);
      return new Section(lines, List.of(), false);
    }
    Map<GateSetup, List<NamespaceRef>> firstSetups = setups(first.keySet(), byDir);
    Map<GateSetup, List<NamespaceRef>> secondSetups = setups(second.keySet(), byDir);
    List<String> names = labels(new ArrayList<>(firstSetups.keySet()), new ArrayList<>(secondSetups.keySet()));
    ModePair pair = ModePair.methods(Report.GATED, names.get(0), names.get(1));
    List<String> disclosed = new ArrayList<>();
    disclosed.addAll(sideLines(names.get(0), FIRST, firstSetups));
    disclosed.addAll(sideLines(names.get(1), SECOND, secondSetups));
    disclosed.addAll(byDesign(firstSetups, secondSetups));

    // the report's figures above are the --namespaces side's: the other side's replicates, as they are shown there
    lines.add("Replicates of " + names.get(1) + " (" + SECOND + "; replicate-mean/v1, as above for " + names.get(0)
        + ")");
    lines.addAll(Replicates.lines(Replicates.summarise(second), aggregate));
    lines.add("");
    List<Comparison.Pair> pairs = new ArrayList<>();
    boolean withheld = false;
    Map<String, NamespaceRef> versusByName = byName(s.versusIncluded());
    Map<String, NamespaceRef> mineByName = byName(s.included());
    TreeSet<Integer> ks = new TreeSet<>();
    first.values().forEach(rows -> rows.forEach(r -> ks.add(r.k())));
    second.values().forEach(rows -> rows.forEach(r -> ks.add(r.k())));
    for (int k : ks) {
      Map<String, NamespaceRef> a = byName(atK(first, k).keySet());
      Map<String, NamespaceRef> b = byName(atK(second, k).keySet());
      TreeSet<String> all = new TreeSet<>(a.keySet());
      all.addAll(b.keySet());
      List<Comparison.Replica> replicas = new ArrayList<>();
      List<String> unmatched = new ArrayList<>();
      for (String name : all) {
        NamespaceRef x = a.get(name);
        NamespaceRef y = b.get(name);
        if (x == null) unmatched.add(unmatched(y, mineByName.get(name), FIRST, byDir));
        else if (y == null) unmatched.add(unmatched(x, versusByName.get(name), SECOND, byDir));
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
      lines.addAll(Comparison.lines(c, s.minEffect(), aggregate, "Methods", disclosed));
      Objectives.Result o = Objectives.compare(c, replicas, s.objectives(), table);
      lines.add("");
      lines.addAll(Objectives.lines(o, aggregate));
      lines.add("");
      pairs.addAll(c.pairs());
      withheld |= aggregate && c.metrics().stream().anyMatch(m -> m.fewestPairs() == 1);
      withheld |= aggregate && o.verdicts().stream().anyMatch(v -> v.metric().fewestPairs() == 1);
    }
    lines.remove(lines.size() - 1);
    return new Section(lines, pairs, withheld);
  }

  /**
   * M4: the two sides ran the same experiment but for the gated method. The declared executor and improver are the
   * same (as C4 asks of two modes), and so is every key of the two config.json files' cohorts (the task set, the
   * inputs' digests, the benchmark's settings, roles and prices) except the gated mode's own ({@code gate},
   * {@code gate_code}, the checks' digests), which may differ by design. A key one side does not record is not
   * compared (named, not failed).
   */
  static Comparison.Condition sameExperiment(List<Comparison.Replica> replicas) {
    Comparison.IdentityCheck roles = Comparison.sameIdentity(replicas, "executor", RunIdentity::executor)
        .and(Comparison.sameIdentity(replicas, "improver", RunIdentity::improver));
    List<String> differs = new ArrayList<>(roles.differs());
    List<String> unknown = new ArrayList<>(roles.unknown());
    boolean compared = roles.compared();
    for (Comparison.Replica r : replicas) {
      RunIdentity x = r.identity();
      RunIdentity y = r.versus().identity();
      String dx = r.namespace().dir();
      String dy = r.secondNamespace().dir();
      if (x == null || x.cohort() == null || y == null || y.cohort() == null) {
        unknown.add("the settings of " + (x == null || x.cohort() == null ? dx : dy) + " (its config.json records"
            + " none: an older h2beam's or harness2's)");
        continue;
      }
      compared = true;
      Map<String, Object> cx = Report.cohortOf(x);
      Map<String, Object> cy = Report.cohortOf(y);
      TreeSet<String> keys = new TreeSet<>(cx.keySet());
      keys.addAll(cy.keySet());
      keys.removeIf(key -> key.equals(RunIdentity.UNVERIFIED) || Report.gateKey(key));
      List<String> lacking = new ArrayList<>();
      for (String key : keys) {
        if (!cx.containsKey(key) || !cy.containsKey(key)) {
          lacking.add(key + " (not recorded by " + (cx.containsKey(key) ? dy : dx) + ")");
        } else if (!Json.canonical(cx.get(key)).equals(Json.canonical(cy.get(key)))) {
          differs.add(key + " differs: " + value(key, cx.get(key)) + " in " + dx + " | " + value(key, cy.get(key))
              + " in " + dy);
        }
      }
      unknown.addAll(lacking);
    }
    return new Comparison.Condition("M4", "same experiment but the gated method: executor, improver, tasks, inputs"
        + " and settings (config.json)", differs, String.join("; ", unknown), compared);
  }

  /**
   * The sides' names: {@code gated[<method>]} when each side ran one method and they differ, {@code gated[<method>,
   * <policy>]} when they differ in policy alone, else by the flag each side came from.
   */
  static List<String> labels(List<GateSetup> first, List<GateSetup> second) {
    TreeSet<String> m1 = new TreeSet<>();
    TreeSet<String> m2 = new TreeSet<>();
    first.forEach(g -> m1.add(String.valueOf(g.method())));
    second.forEach(g -> m2.add(String.valueOf(g.method())));
    boolean recorded = !m1.contains("null") && !m2.contains("null");
    if (recorded && m1.size() == 1 && m2.size() == 1 && !m1.equals(m2)) {
      return List.of("gated[" + m1.first() + "]", "gated[" + m2.first() + "]");
    }
    TreeSet<String> p1 = new TreeSet<>();
    TreeSet<String> p2 = new TreeSet<>();
    first.forEach(g -> p1.add(g.method() + ", " + g.policy()));
    second.forEach(g -> p2.add(g.method() + ", " + g.policy()));
    if (recorded && p1.size() == 1 && p2.size() == 1 && !p1.equals(p2)) {
      return List.of("gated[" + p1.first() + "]", "gated[" + p2.first() + "]");
    }
    return List.of("gated[" + FIRST + "]", "gated[" + SECOND + "]");
  }

  /** What one side ran: its setups, each with the runs root and the namespaces that record it. */
  private static List<String> sideLines(String name, String flag, Map<GateSetup, List<NamespaceRef>> setups) {
    List<String> out = new ArrayList<>();
    setups.forEach((setup, refs) -> {
      TreeSet<String> roots = new TreeSet<>();
      refs.forEach(ns -> roots.add(String.valueOf(Path.of(ns.dir()).getParent())));
      out.add("  " + name + " (" + flag + "): " + setup.label() + " in " + String.join(", ", roots) + ": "
          + String.join(", ", refs.stream().map(NamespaceRef::name).toList()));
    });
    setups.keySet().forEach(setup -> {
      if (setup.pluginLine() != null) out.add("  " + setup.pluginLine());
    });
    return out;
  }

  /** What differs between the sides by design, beside the conditions. */
  private static List<String> byDesign(Map<GateSetup, List<NamespaceRef>> first,
      Map<GateSetup, List<NamespaceRef>> second) {
    List<String> out = new ArrayList<>();
    out.add("  by design (disclosed; no condition fails for it): each runs root rolled its own k bases per task, so a"
        + " paired difference (by task and seed) holds the variation between the two roots' base rollouts as well"
        + " as the methods'; both sides see the scores their method's evaluate gives, and neither sees the judge's");
    if (first.keySet().equals(second.keySet())) {
      out.add("  by design: both sides record the same gated method and policy"
          + (first.size() == 1 ? " (" + first.keySet().iterator().next().label() + ")" : "") + ": an A/A comparison,"
          + " which measures how far two runs of one method differ, not which method is better");
    }
    return out;
  }

  /** Why a namespace has no judged gated rows, and what to run. */
  private static String missing(NamespaceRef ns, String flag, Map<String, NamespaceFacts> byDir) {
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
      Map<String, NamespaceFacts> byDir) {
    String head = "seed " + has.seedLabel() + ": " + has.dir() + " has judged gated rows at k=" + has.k();
    if (other == null) {
      return head + " and " + otherFlag + " names no namespace " + has.name() + ": add it there, or leave the seed"
          + " out";
    }
    return head + " and its partner " + missing(other, otherFlag, byDir);
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

  /** A cohort value as a difference names it: a task set by its size, anything else as recorded (cut short). */
  private static String value(String key, Object v) {
    if (key.equals("tasks") && v instanceof List<?> l) return l.size() + " task" + (l.size() == 1 ? "" : "s");
    String text = Json.canonical(v);
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }

  private static String join(List<Integer> ks) {
    return String.join(",", ks.stream().map(String::valueOf).toList());
  }
}
