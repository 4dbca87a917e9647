package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Builds the whole report from what the pipeline read: the lines harness2 prints (hints, the summary block, spend),
 * then h2beam's sections (coverage, replicates, the paired comparison, disclosure), the HTML page and, under aggregate
 * disclosure, the restricted per-task file. Pure: no file is read or written here.
 */
final class Report {
  private Report() {}

  /**
   * The built report.
   *
   * @param reportable false when no judged row matched: {@code message} says why and {@code text} holds only the
   *     hints and unreadable-file lines
   * @param restricted the restricted file's JSON under aggregate disclosure, else null
   */
  record Result(boolean reportable, String message, String text, String html, String restricted,
      List<ReadFailure> failures) {}

  static Result build(ReportSettings s, List<NamespaceFacts> facts, List<ReadFailure> failures) {
    Map<String, NamespaceFacts> byDir = new TreeMap<>();
    for (NamespaceFacts f : facts) byDir.put(f.dir(), f);
    List<ReadFailure> fails = failures.stream().sorted(Comparator.comparing(ReadFailure::input)
        .thenComparing(ReadFailure::stage)).toList();
    List<NamespaceRef> included = s.included();
    List<String> lines = head(s, included, byDir, fails);

    Map<NamespaceRef, List<Scored>> rowsByNs = new LinkedHashMap<>();
    List<Scored> all = new ArrayList<>();
    for (NamespaceRef ns : included) {
      List<Scored> rows = facts(byDir, ns).rows().stream()
          .filter(r -> s.modes().contains(r.mode()) && (s.ks().isEmpty() || s.ks().contains(r.k()))).toList();
      if (rows.isEmpty()) continue;
      rowsByNs.put(ns, rows);
      all.addAll(rows);
    }
    if (all.isEmpty()) {
      String names = String.join(",", s.modes().stream().map(ModeK::human).toList());
      return new Result(false, "nothing to report: no judged rows for modes " + names
          + (s.ks().isEmpty() ? "" : " at k=" + join(s.ks())) + " in " + included.size() + " namespace(s); run"
          + " ./h2beam judge on them first", String.join("\n", lines), null, null, fails);
    }

    // spend and fallbacks of the namespaces that report rows (harness2 skips a k without judged rows entirely)
    Map<ModeK, Integer> fellBack = new TreeMap<>();
    Map<ModeK, Double> usd = new TreeMap<>();
    Map<ModeK, Double> executor = new TreeMap<>();
    Map<ModeK, Integer> screened = new TreeMap<>();
    for (NamespaceRef ns : rowsByNs.keySet()) {
      for (TaskSummary t : facts(byDir, ns).summaries()) {
        for (String mode : s.modes()) {
          ModeK key = new ModeK(mode, ns.k());
          TaskSummary.ModeSpend m = t.mode(mode);
          fellBack.merge(key, m.fellBack(), Integer::sum);
          usd.merge(key, m.improverUsd(), Double::sum);
          executor.merge(key, m.executorUsd(), Double::sum);
          if (m.lessonsScreened() > 0) screened.merge(key, m.lessonsScreened(), Integer::sum);
        }
      }
    }
    List<Summary> summaries = Summary.summarise(all, fellBack, usd);
    boolean aggregate = s.disclosure() == Disclosure.AGGREGATE;
    Predicate<Summary> withheld = x -> aggregate && x.n() == 1;
    String title = title(s, rowsByNs.keySet());
    lines.addAll(Render.block(summaries, title, s.bench(), withheld));
    double improverSpend = 0;
    double executorSpend = 0;
    Map<ModeK, Double> executorByCell = new TreeMap<>();
    for (Summary x : summaries) {
      improverSpend += x.usd();
      double e = PyFormat.round(executor.getOrDefault(x.cell(), 0.0), 2);
      executorByCell.put(x.cell(), e);
      executorSpend += e;
    }
    lines.addAll(Render.spend(improverSpend, executorSpend));
    lines.addAll(Render.screened(screened));

    List<String> coverage = coverage(rowsByNs, s.modes());
    if (!coverage.isEmpty()) {
      lines.add("");
      lines.add("Tasks graded in one mode but not the other (absences, never zeros; left out of the paired"
          + " comparison)");
      lines.addAll(coverage);
    }
    List<Replicates.Cell> cells = Replicates.summarise(rowsByNs);
    lines.add("");
    lines.add("Replicates (replicate-mean/v1: one value per namespace; the spread across seeds is a standard error,"
        + " unknown with one replicate)");
    lines.addAll(Replicates.lines(cells, aggregate));

    List<Comparison.Pair> pairs = new ArrayList<>();
    boolean anyWithheld = summaries.stream().anyMatch(withheld)
        || cells.stream().anyMatch(c -> Replicates.withheld(c, aggregate));
    if (s.modes().contains("agg") && s.modes().contains("seq")) {
      for (int k : new TreeSet<>(all.stream().map(Scored::k).toList())) {
        Comparison.Result c = Comparison.compare(k, replicas(k, rowsByNs, byDir), s.minEffect());
        lines.add("");
        lines.addAll(Comparison.lines(c, s.minEffect(), aggregate));
        pairs.addAll(c.pairs());
        anyWithheld |= aggregate && c.metrics().stream().anyMatch(m -> m.fewestPairs() == 1);
      }
    }
    lines.add("");
    if (aggregate) {
      lines.add("Disclosure: aggregate -- per-task scores, paired differences per task and successful-tasks slices"
          + " are withheld from this report and report.html; they are in report-restricted.json (restricted).");
      if (anyWithheld) {
        lines.add("  A figure over a single graded task is that task's score: it is withheld, and so is every figure"
            + " that would give it away; --disclosure=per-task releases them.");
      }
    } else {
      lines.add("Disclosure: per-task -- per-task scores, paired differences per task and successful-tasks slices"
          + " are released below.");
      lines.add("");
      lines.addAll(Disclosure.perTaskLines(rowsByNs, pairs));
    }
    String text = String.join("\n", lines);
    String html = HtmlReport.render(new HtmlReport.Page(title, text, summaries, cells, executorByCell,
        s.disclosure(), withheld));
    String restricted = aggregate ? Json.pretty(Disclosure.restricted(rowsByNs, pairs)) + "\n" : null;
    return new Result(true, "", text, html, restricted, fails);
  }

  /**
   * Lines printed before the report, as harness2 prints them while loading: a hint for every namespace without
   * judged rows and every requested k without a namespace (sorted by k), then every unreadable file and their count.
   */
  static List<String> head(ReportSettings s, List<NamespaceRef> included, Map<String, NamespaceFacts> byDir,
      List<ReadFailure> fails) {
    TreeSet<String> unreadable = new TreeSet<>();
    for (ReadFailure f : fails) unreadable.add(f.input());
    TreeMap<String, String> hints = new TreeMap<>();
    for (int k : s.ks()) {
      if (included.stream().noneMatch(n -> n.k() == k)) {
        hints.put(key(k, ""), "  ! no namespace for k=" + k + " among --namespaces \u2014 run ./h2beam sweep and"
            + " ./h2beam judge for k=" + k + " first");
      }
    }
    for (NamespaceRef ns : included) {
      NamespaceFacts f = facts(byDir, ns);
      String judged = ns.judgedPath().toString();
      if (unreadable.contains(judged)) continue;
      if (!f.judgedPresent() || f.rows().isEmpty()) {
        hints.put(key(ns.k(), ns.dir()), "  ! no judged rows at " + judged + " \u2014 run ./h2beam judge"
            + " --namespaces=" + ns.dir() + " for k=" + ns.k() + " first");
      }
    }
    List<String> out = new ArrayList<>(hints.values());
    for (ReadFailure f : fails) out.add(f.line());
    if (!fails.isEmpty()) {
      out.add("  ! " + fails.size() + " input file(s) could not be read; nothing in them enters any figure below");
    }
    return out;
  }

  /** {@code <bench>-<substrate>[ seed=<s>| seeds=<a,b>] modes=<names>}: harness2's title, several seeds listed. */
  static String title(ReportSettings s, Set<NamespaceRef> reported) {
    NamespaceRef first = reported.iterator().next();
    TreeSet<Long> seeds = new TreeSet<>();
    boolean seedless = false;
    for (NamespaceRef ns : reported) {
      if (ns.seed() == null) seedless = true;
      else seeds.add(ns.seed());
    }
    List<String> labels = new ArrayList<>();
    if (seedless) labels.add("none");
    for (Long seed : seeds) labels.add(seed.toString());
    String seedPart = labels.size() > 1 ? " seeds=" + String.join(",", labels)
        : seeds.size() == 1 ? " seed=" + seeds.first() : "";
    return first.cell() + seedPart + " modes=" + String.join(",", s.modes().stream().map(ModeK::human).toList());
  }

  /** Per namespace and k, the tasks graded in one mode but not in the other (when both modes have rows there). */
  static List<String> coverage(Map<NamespaceRef, List<Scored>> rowsByNs, List<String> modes) {
    List<String> out = new ArrayList<>();
    if (!(modes.contains("agg") && modes.contains("seq"))) return out;
    List<String[]> sorted = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNs.entrySet()) {
      for (int k : new TreeSet<>(e.getValue().stream().map(Scored::k).toList())) {
        TreeSet<String> p = new TreeSet<>();
        TreeSet<String> q = new TreeSet<>();
        boolean anyP = false;
        boolean anyQ = false;
        for (Scored r : e.getValue()) {
          if (r.k() != k) continue;
          if (r.mode().equals("agg")) {
            anyP = true;
            if (r.graded()) p.add(r.taskId());
          } else if (r.mode().equals("seq")) {
            anyQ = true;
            if (r.graded()) q.add(r.taskId());
          }
        }
        if (!anyP || !anyQ) continue;
        TreeSet<String> onlyP = new TreeSet<>(p);
        onlyP.removeAll(q);
        TreeSet<String> onlyQ = new TreeSet<>(q);
        onlyQ.removeAll(p);
        String head = "  k=" + k + " seed=" + e.getKey().seedLabel() + " (" + e.getKey().name() + "): graded in ";
        if (!onlyP.isEmpty()) sorted.add(new String[] {key(k, e.getKey().dir()), head + "parallel only: "
            + String.join(", ", onlyP)});
        if (!onlyQ.isEmpty()) sorted.add(new String[] {key(k, e.getKey().dir()), head + "sequential only: "
            + String.join(", ", onlyQ)});
      }
    }
    sorted.sort(Comparator.comparing((String[] a) -> a[0]));
    for (String[] a : sorted) out.add(a[1]);
    return out;
  }

  static List<Comparison.Replica> replicas(int k, Map<NamespaceRef, List<Scored>> rowsByNs,
      Map<String, NamespaceFacts> byDir) {
    List<Comparison.Replica> out = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNs.entrySet()) {
      List<Scored> p = e.getValue().stream().filter(r -> r.k() == k && r.mode().equals("agg")).toList();
      List<Scored> q = e.getValue().stream().filter(r -> r.k() == k && r.mode().equals("seq")).toList();
      if (p.isEmpty() && q.isEmpty()) continue;
      out.add(new Comparison.Replica(e.getKey(), p, q, facts(byDir, e.getKey()).identity()));
    }
    return out;
  }

  private static NamespaceFacts facts(Map<String, NamespaceFacts> byDir, NamespaceRef ns) {
    return byDir.getOrDefault(ns.dir(), NamespaceFacts.empty(ns.dir()));
  }

  /** Sort key by k, then text. */
  private static String key(int k, String rest) {
    return String.format("%010d", k) + "\u0000" + rest;
  }

  private static String join(List<Integer> ks) {
    return String.join(",", ks.stream().map(String::valueOf).toList());
  }
}
