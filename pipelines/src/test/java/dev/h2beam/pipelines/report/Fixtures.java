package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Namespaces written by hand in the layouts the report reads (harness2's and h2beam's), and small row builders. */
final class Fixtures {
  private Fixtures() {}

  /** A judged row in harness2's key order (spec §2.12), with its derived frac and graded. */
  static Map<String, Object> row(String task, String mode, int k, String label, Number passed, Number criteria,
      boolean allPass, String error) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task_id", task);
    m.put("mode", mode);
    m.put("k", k);
    m.put("label", label);
    m.put("run_id", "demo-oc-agg" + k + "/" + task + "/" + label);
    m.put("chosen_is_base", label.startsWith("base"));
    m.put("n_passed", passed);
    m.put("n_criteria", criteria);
    m.put("all_pass", allPass);
    Map<String, Object> raw = new LinkedHashMap<>();
    if (criteria != null) {
      raw.put("n_passed", passed);
      raw.put("n_criteria", criteria);
    }
    m.put("raw", raw);
    m.put("error", error);
    boolean graded = criteria != null && criteria.doubleValue() > 0;
    m.put("frac", graded && passed != null ? passed.doubleValue() / criteria.doubleValue() : null);
    m.put("graded", graded);
    return m;
  }

  /** A graded row: {@code passed} of {@code criteria}, all_pass when equal. */
  static Map<String, Object> graded(String task, String mode, int k, String label, int passed, int criteria) {
    return row(task, mode, k, label, passed, criteria, passed == criteria, "");
  }

  /** An ungraded row of a selection that never completed (the judge was not called). */
  static Map<String, Object> ungraded(String task, String mode, int k) {
    return row(task, mode, k, "", null, null, false, "selection did not complete successfully");
  }

  static Path namespace(Path runs, String name) throws Exception {
    return Files.createDirectories(runs.resolve(name));
  }

  static void judged(Path ns, List<Map<String, Object>> rows) throws Exception {
    Files.writeString(ns.resolve("judged.json"), Json.pretty(rows), StandardCharsets.UTF_8);
  }

  /**
   * A task summary shaped like spec §16.4: both modes' records (stages with usd, fell_back labels, ledger with
   * rollout_usd) and both selections with their usd.
   */
  static void summary(Path ns, String task, int k, double stageUsd, double selectionUsd, List<String> fellBack,
      double rolloutUsd) throws Exception {
    List<ModeRun> runs = new ArrayList<>();
    for (String mode : List.of("agg", "seq")) {
      List<String> finals = new ArrayList<>();
      for (int i = 1; i <= k; i++) finals.add(mode.equals("agg") ? "agg" + i : "c" + i);
      runs.add(new ModeRun(mode, finals, finals.get(0), null));
    }
    summary(ns, task, k, stageUsd, selectionUsd, fellBack, rolloutUsd, runs);
  }

  /**
   * One mode's part of a summary.
   *
   * @param finals the labels of the final harness's outputs ({@code modes.<mode>.finals})
   * @param chosen the selection's chosen label
   * @param rollouts the ledger's R, with P = 3k; null for a ledger that records no counts
   */
  record ModeRun(String mode, List<String> finals, String chosen, Integer rollouts, Map<String, Object> gate) {
    /** A run whose gated mode, if it is one, records the default gate ({@link #gate(int, Integer, String)}). */
    ModeRun(String mode, List<String> finals, String chosen, Integer rollouts) {
      this(mode, finals, chosen, rollouts, null);
    }

    /** A mode that spent its budget exactly: R = 4k, P = 3k. */
    static ModeRun onBudget(String mode, int k, List<String> finals, String chosen) {
      return new ModeRun(mode, finals, chosen, 4 * k);
    }
  }

  /**
   * A gated mode's {@code gate} as h2beam's Gated writes it: {@code steps} steps, {@code failed} of them with
   * {@code method_errors} (and {@code method_failed}; left out when null, as before h2beam counted it), the final
   * harness.
   */
  static Map<String, Object> gate(int steps, Integer failed, String finalHarness) {
    Map<String, Object> g = new LinkedHashMap<>();
    g.put("method", "improver");
    g.put("policy", "score_comparison");
    g.put("final_harness", finalHarness);
    if (failed != null) g.put("method_failed", failed);
    List<Object> each = new ArrayList<>();
    for (int j = 1; j <= steps; j++) {
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("step", j);
      step.put("proposal", j <= (failed == null ? 0 : failed) ? "none" : "candidate");
      if (j <= (failed == null ? 0 : failed)) step.put("method_errors", List.of("propose threw"));
      each.add(step);
    }
    g.put("steps", each);
    return g;
  }

  /**
   * Records the gated mode's settings in a namespace's config.json as a sweep does: {@code gate} and, when
   * {@code methodCode} is not null, {@code gate_code} with that method entry and h2beam's own policy.
   */
  static void gateConfig(Path ns, String method, String policy, Map<String, Object> methodCode) throws Exception {
    Map<String, Object> c = Json.readMap(ns.resolve("config.json"));
    Map<String, Object> gate = new LinkedHashMap<>();
    gate.put("method", method);
    gate.put("policy", policy);
    gate.put("min_win_margin", 0.0);
    c.put("gate", gate);
    if (methodCode != null) {
      c.put("gate_code", Map.of("method", methodCode, "policy", Map.of("class",
          "dev.h2beam.transforms.gated.Policies$ScoreComparison", "code", "h2beam")));
    }
    Files.writeString(ns.resolve("config.json"), Json.pretty(c) + "\n", StandardCharsets.UTF_8);
  }

  /** A task summary with the given modes' records and selections, in that order; a gated one has its gate. */
  static void summary(Path ns, String task, int k, double stageUsd, double selectionUsd, List<String> fellBack,
      double rolloutUsd, List<ModeRun> runs) throws Exception {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("task_id", task);
    s.put("domain", "accounting");
    s.put("k", k);
    s.put("seed", null);
    s.put("status", "ok");
    s.put("base", List.of());
    Map<String, Object> modes = new LinkedHashMap<>();
    Map<String, Object> selections = new LinkedHashMap<>();
    for (ModeRun run : runs) {
      String mode = run.mode();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", mode);
      m.put("task_id", task);
      m.put("k", k);
      List<String> finals = run.finals();
      m.put("finals", finals);
      m.put("ok", true);
      m.put("fell_back", fellBack);
      m.put("kept_base", List.of());
      List<Object> stages = new ArrayList<>();
      for (String label : List.of("inv1", "dom1", finals.get(0))) {
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("label", label);
        st.put("dim", "INV");
        st.put("fell_back", fellBack.contains(label));
        st.put("kept_base", false);
        st.put("attempts", 1);
        st.put("usd", stageUsd);
        st.put("cached", false);
        st.put("notes", "");
        st.put("error", "");
        stages.add(st);
      }
      m.put("stages", stages);
      m.put("similarity", null);
      Map<String, Object> ledger = new LinkedHashMap<>();
      ledger.put("mode", mode);
      if (run.rollouts() != null) {
        ledger.put("k", k);
        ledger.put("R", run.rollouts());
        ledger.put("expected_R", 4 * k);
        ledger.put("P", 3 * k);
        ledger.put("expected_P", 3 * k);
      }
      ledger.put("usd", rolloutUsd + 3 * stageUsd);
      ledger.put("rollout_usd", rolloutUsd);
      ledger.put("session_usd", 3 * stageUsd);
      m.put("ledger", ledger);
      m.put("errors", List.of());
      if (mode.equals("gat")) {
        m.put("gate", run.gate() != null ? run.gate() : Map.of("method", "improver", "policy", "paired-mean", "steps",
            List.of()));
      }
      modes.put(mode, m);
      Map<String, Object> sel = new LinkedHashMap<>();
      sel.put("task_id", task);
      sel.put("mode", mode);
      sel.put("k", k);
      sel.put("chosen_label", run.chosen());
      sel.put("chosen_run_dir", "/executions/demo-oc-" + mode + k + "/" + task + "/" + run.chosen());
      sel.put("ok", true);
      sel.put("usd", selectionUsd);
      selections.put(mode, sel);
    }
    s.put("modes", modes);
    s.put("selections", selections);
    s.put("errors", List.of());
    Path dir = Files.createDirectories(ns.resolve(task.replace("/", "__")));
    Files.writeString(dir.resolve("summary.json"), Json.pretty(s), StandardCharsets.UTF_8);
  }

  /** h2beam's config.json (spec §3.6) with the identity fields the comparison reads. */
  static void config(Path ns, String executor, String improver, String judge, Long seed) throws Exception {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("method_version", 2);
    c.put("executor", executor);
    c.put("improver", improver);
    c.put("judge", judge);
    c.put("split", "all");
    c.put("tasks", List.of());
    c.put("seed", seed);
    Files.writeString(ns.resolve("config.json"), Json.pretty(c) + "\n", StandardCharsets.UTF_8);
  }

  /** config.json with a declared timing environment ({@code timing}: an object, or the mixed record). */
  static void config(Path ns, String executor, String improver, String judge, Long seed, Object timing)
      throws Exception {
    config(ns, executor, improver, judge, seed);
    Map<String, Object> c = Json.readMap(ns.resolve("config.json"));
    c.put("timing", timing);
    Files.writeString(ns.resolve("config.json"), Json.pretty(c) + "\n", StandardCharsets.UTF_8);
  }

  /** A timing environment as Sweep declares it. */
  static Map<String, Object> timing(String machine) {
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("runner", "DirectRunner");
    t.put("machine", machine);
    t.put("workers", 2);
    t.put("session_limit", 2);
    t.put("rollout_limit", 4);
    t.put("phase_width", 4);
    return t;
  }

  /** One metrics.json row: the given values, the given absences, every other metric not-recorded. */
  static Map<String, Object> metricRow(String task, String mode, int k, Map<String, Double> values,
      Map<String, String> absent) {
    Map<String, Object> v = new LinkedHashMap<>(values);
    Map<String, Object> a = new LinkedHashMap<>(absent);
    for (String m : dev.h2beam.pipelines.judge.MetricVector.METRICS.keySet()) {
      if (!v.containsKey(m) && !a.containsKey(m)) a.put(m, "not-recorded");
    }
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("task_id", task);
    r.put("mode", mode);
    r.put("k", k);
    r.put("seed", null);
    r.put("values", v);
    r.put("absent", a);
    return r;
  }

  /**
   * A namespace {@code demo-oc-agg<k>-s1} (and its empty sequential sibling) judged on ledger-1 and ledger-2, the
   * parallel mode passing both and the sequential half, with both tasks' summaries and every cost known.
   */
  static Path judgedPair(Path runs, int k) throws Exception {
    Path ns = namespace(runs, "demo-oc-agg" + k + "-s1");
    judged(ns, List.of(graded("ledger-1", "agg", k, "agg1", 2, 2), graded("ledger-1", "seq", k, "c1", 1, 2),
        graded("ledger-2", "agg", k, "agg2", 2, 2), graded("ledger-2", "seq", k, "c2", 1, 2)));
    config(ns, "demo/oc", "scripted:ledger", "exact-match", 1L);
    namespace(runs, "demo-oc-seq" + k + "-s1");
    summary(ns, "ledger-1", k, 0.5, 0.25, List.of(), 0.75);
    summary(ns, "ledger-2", k, 0.5, 0.25, List.of(), 0.75);
    return ns;
  }

  /** A namespace's metrics.json (schema h2beam-metrics/v2) with these rows. */
  static void metrics(Path ns, List<Map<String, Object>> rows) throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schema", dev.h2beam.pipelines.judge.MetricVector.SCHEMA);
    m.put("namespace", ns.getFileName().toString());
    m.put("reasons", dev.h2beam.pipelines.judge.MetricVector.REASONS);
    m.put("rows", rows);
    Files.writeString(ns.resolve("metrics.json"), Json.pretty(m) + "\n", StandardCharsets.UTF_8);
  }

  /** A graded Scored row for logic tests. */
  static Scored scored(String task, String mode, int k, String label, double passed, double criteria,
      boolean allPass) {
    return new Scored(task, mode, k, label, "", label.startsWith("base"), passed, criteria, allPass, "", "", "");
  }

  /** An ungraded Scored row with h2beam's absence. */
  static Scored absent(String task, String mode, int k, String absence) {
    return new Scored(task, mode, k, "", "", false, null, null, false, "", "judge failed", absence);
  }

  static NamespaceRef ref(Path runs, String name) {
    return NamespaceRef.parse(runs.resolve(name)).orElseThrow();
  }

  /** What a command run printed and returned. */
  record Run(int exit, String out, String err) {}

  static Run report(String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = new ReportCommand().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
