package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.Modes;
import dev.h2beam.pipelines.files.Forked;
import dev.h2beam.transforms.selection.AnonIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
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
   * @param status the run record's: {@code reported}, {@code nothing-to-report} or {@link #NOT_REPLICATES}
   * @param restricted the restricted file's content under aggregate disclosure (a JSON tree, streamed into the file:
   *     over many namespaces it is the largest thing the report writes), else null
   */
  record Result(boolean reportable, String message, String text, String html, Map<String, Object> restricted,
      List<ReadFailure> failures, String status) {
    Result(boolean reportable, String message, String text, String html, Map<String, Object> restricted,
        List<ReadFailure> failures) {
      this(reportable, message, text, html, restricted, failures, reportable ? "reported" : "nothing-to-report");
    }
  }

  /** The run record's status of a report refused because its namespaces are not replicates. */
  static final String NOT_REPLICATES = "not-replicates";

  static Result build(ReportSettings s, List<NamespaceFacts> facts, List<ReadFailure> failures) {
    Map<String, NamespaceFacts> byDir = new TreeMap<>();
    for (NamespaceFacts f : facts) byDir.put(f.dir(), f);
    List<ReadFailure> fails = failures.stream().sorted(Comparator.comparing(ReadFailure::input)
        .thenComparing(ReadFailure::stage)).toList();
    List<NamespaceRef> included = s.included();
    List<String> lines = head(s, included, byDir, fails);
    // what report.txt's first lines say was left out (a namespace without judged rows, a mode not judged, a file not
    // read) is report.json's message too: the record alone said nothing of it
    String leftOut = String.join("\n", String.join("\n", lines).lines().map(String::strip).toList());

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
      return new Result(false, nothing(s, included, byDir), String.join("\n", lines), null, null, fails);
    }
    String notReplicates = notReplicates(rowsByNs.keySet(), byDir);
    if (notReplicates != null) {
      return new Result(false, notReplicates, String.join("\n", lines), null, null, fails, NOT_REPLICATES);
    }

    // spend and fallbacks of the namespaces that report rows (harness2 skips a k without judged rows entirely)
    Map<ModeK, Integer> fellBack = new TreeMap<>();
    Map<ModeK, Double> usd = new TreeMap<>();
    Map<ModeK, Double> executor = new TreeMap<>();
    Map<ModeK, Integer> screened = new TreeMap<>();
    // the costs those sums leave out because they are not known: counted, never added as zero
    Map<ModeK, Integer> improverUnknown = new TreeMap<>();
    Map<ModeK, Integer> executorUnknown = new TreeMap<>();
    // the dead bases of the tasks whose every base failed: in no mode's ledger, so added up apart, never left out
    Render.DeadBaseSpend deadBases = Render.DeadBaseSpend.NONE;
    // and charged to each mode reported in their namespace, as each mode's ledger charges its tasks' shared bases
    Map<ModeK, Render.DeadBaseSpend> deadByCell = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    // the model tokens each mode spent on its tasks: those counted, and the tasks whose counts are partial or absent
    Map<ModeK, TaskSummary.TokenCount> tokens = new TreeMap<>();
    // the tasks on which a mode failed before it selected: their spend is in no ledger, so in no sum
    Map<ModeK, Integer> modeFailed = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    // where each selector's choice stood in the list it was shown
    Map<ModeK, List<ChoicePlaces.Seen>> choices = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    for (NamespaceRef ns : rowsByNs.keySet()) {
      TreeSet<String> reportedModes = new TreeSet<>();
      for (Scored r : rowsByNs.get(ns)) reportedModes.add(r.mode());
      for (TaskSummary t : facts(byDir, ns).summaries()) {
        if (t.deadBases() != null) {
          deadBases = deadBases.plus(t.deadBases());
          for (String mode : reportedModes) {
            deadByCell.merge(new ModeK(mode, ns.k()), Render.DeadBaseSpend.NONE.plus(t.deadBases()),
                Render.DeadBaseSpend::plus);
          }
        }
        for (String mode : s.modes()) {
          ModeK key = new ModeK(mode, ns.k());
          TaskSummary.ModeSpend m = t.mode(mode);
          fellBack.merge(key, m.fellBack(), Integer::sum);
          usd.merge(key, m.improverUsd(), Double::sum);
          executor.merge(key, m.executorUsd(), Double::sum);
          if (m.lessonsScreened() > 0) screened.merge(key, m.lessonsScreened(), Integer::sum);
          if (m.improverUnknown() > 0) improverUnknown.merge(key, m.improverUnknown(), Integer::sum);
          if (m.executorUnknown() > 0) executorUnknown.merge(key, m.executorUnknown(), Integer::sum);
          TaskSummary.Choice choice = t.choices().get(mode);
          if (choice != null) {
            choices.computeIfAbsent(key, x -> new ArrayList<>()).add(new ChoicePlaces.Seen(t.taskId(), choice));
          }
          if (t.modes().containsKey(mode)) {
            tokens.merge(key, TaskSummary.TokenCount.of(m.tokens()), TaskSummary.TokenCount::plus);
            if (m.budget() == null && t.failedBeforeSelecting(mode)) modeFailed.merge(key, 1, Integer::sum);
          }
        }
      }
    }
    List<Summary> summaries = Summary.summarise(all, picks(rowsByNs, byDir), fellBack, usd);
    boolean aggregate = s.disclosure() == Disclosure.AGGREGATE;
    // one task's score, however many seeds graded it
    Predicate<Summary> withheld = x -> aggregate && x.tasks() == 1;
    String title = title(s, rowsByNs.keySet());
    lines.addAll(Render.block(summaries, title, s.bench(), withheld));
    double improverSpend = 0;
    double executorSpend = 0;
    int improverNotKnown = 0;
    int executorNotKnown = 0;
    Map<ModeK, Double> executorByCell = new TreeMap<>();
    for (Summary x : summaries) {
      // summed as recorded and rounded once, where it is printed: cents rounded per cell drift with the cells, and a
      // cheap model's spend rounded per cell was $0.00 in every cell and in their sum
      improverSpend += x.usd();
      double e = executor.getOrDefault(x.cell(), 0.0);
      executorByCell.put(x.cell(), e);
      executorSpend += e;
      improverNotKnown += improverUnknown.getOrDefault(x.cell(), 0);
      executorNotKnown += executorUnknown.getOrDefault(x.cell(), 0);
    }
    List<String> spend = Render.spend(improverSpend, executorSpend, improverNotKnown, executorNotKnown, deadBases,
        summaries.stream().map(x -> x.cell().mode()).distinct().count() > 1);
    lines.addAll(spend);
    List<String> failedCells = new ArrayList<>();
    for (Summary x : summaries) {
      int n = modeFailed.getOrDefault(x.cell(), 0);
      if (n > 0) failedCells.add(x.cell().name() + ": " + n);
    }
    if (!failedCells.isEmpty()) {
      if (spend.isEmpty()) lines.add("");
      lines.add("  tasks on which a mode failed before selecting (" + String.join(", ", failedCells) + "): what they"
          + " spent is in no ledger and in no spend figure of this report (not counted, not zero); the runs root's"
          + " _audit/<namespace>/ journals list every rollout and session that ran");
    }
    String retried = retried(rowsByNs.keySet(), byDir);
    if (retried != null) {
      if (spend.isEmpty() && failedCells.isEmpty()) lines.add("");
      lines.add(retried);
    }
    Map<ModeK, TaskSummary.TokenCount> reportedTokens = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    for (Summary x : summaries) if (tokens.containsKey(x.cell())) reportedTokens.put(x.cell(), tokens.get(x.cell()));
    lines.addAll(Render.tokens(reportedTokens, deadBases));
    lines.addAll(Render.screened(screened));
    lines.addAll(vectors(summaries, rowsByNs, byDir, executorByCell, improverUnknown, executorUnknown, deadByCell,
        withheld));
    Map<ModeK, List<ChoicePlaces.Seen>> reportedChoices = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    for (Summary x : summaries) if (choices.containsKey(x.cell())) reportedChoices.put(x.cell(), choices.get(x.cell()));
    lines.addAll(ChoicePlaces.lines(reportedChoices, idRules(rowsByNs.keySet(), byDir)));

    List<String> coverage = coverage(rowsByNs, s.modes());
    if (!coverage.isEmpty()) {
      lines.add("");
      lines.add("Tasks graded in " + (s.modes().size() > 2 ? "some modes but not in others" : "one mode but not the"
          + " other") + " (absences, never zeros; each leaves its replicate without a run value in the paired"
          + " comparison)");
      lines.addAll(coverage);
    }
    List<Replicates.Cell> cells = Replicates.summarise(rowsByNs);
    lines.add("");
    lines.add("Replicates (replicate-mean/v1: one value per namespace; the spread across seeds is a standard error,"
        + " unknown with one replicate)");
    lines.addAll(Replicates.lines(cells, aggregate));
    lines.addAll(uncheckedCohort(rowsByNs.keySet(), byDir,
        rowsByNs.values().stream().anyMatch(rows -> rows.stream().anyMatch(r -> r.mode().equals("gat")))));
    lines.addAll(Writers.lines(rowsByNs.keySet(), byDir));
    lines.addAll(isolation(rowsByNs.keySet(), byDir));
    lines.addAll(JudgeSpread.lines(rowsByNs, cells, aggregate));

    MetricTable table = new MetricTable(byDir);
    // the charts need nothing the comparisons below make: drawn on the core the writing step leaves idle
    // the cells whose replicate figures the text withholds are withheld from the page by the same rule
    Set<ModeK> hidden = new TreeSet<>(ModeK.BY_K_THEN_MODE);
    for (Replicates.Cell c : cells) if (Replicates.withheld(c, aggregate)) hidden.add(c.cell());
    Forked<String> charts = Forked.begin(() -> VectorCharts.render(rowsByNs, s.objectives(), table, aggregate,
        hidden));
    List<String> unrecorded = Objectives.unrecorded(new ArrayList<>(rowsByNs.keySet()), table);
    if (!unrecorded.isEmpty()) {
      lines.add("");
      lines.addAll(unrecorded);
    }
    List<Comparison.Pair> pairs = new ArrayList<>();
    boolean anyWithheld = summaries.stream().anyMatch(withheld)
        || cells.stream().anyMatch(c -> Replicates.withheld(c, aggregate));
    for (int k : new TreeSet<>(all.stream().map(Scored::k).toList())) {
      for (ModePair modes : ModePair.of(s.modes())) {
        String absent = noRowsAt(k, modes, all);
        if (absent != null) {
          // conditions "held" for a mode no namespace ran, and "by design" lines told of its run (dogAG A3)
          lines.add("");
          lines.add("Comparison at k=" + k + ": " + modes.firstName() + " vs " + modes.secondName() + ": not made --"
              + " no namespace has judged " + absent + " rows at k=" + k + " (see the top); leave " + absent
              + " out of --modes, or sweep and judge it");
          continue;
        }
        List<Comparison.Replica> replicas = replicas(k, modes, rowsByNs, byDir);
        Comparison.Result c = Comparison.compare(k, modes, replicas, s.minEffect());
        lines.add("");
        lines.addAll(Comparison.lines(c, s.minEffect(), aggregate, gateGroups(modes, replicas)));
        Objectives.Result o = Objectives.compare(c, replicas, s.objectives(), table);
        lines.add("");
        lines.addAll(Objectives.lines(o, aggregate));
        pairs.addAll(c.pairs());
        anyWithheld |= aggregate && c.metrics().stream().anyMatch(m -> m.fewestPairs() == 1);
        anyWithheld |= aggregate && o.verdicts().stream().anyMatch(v -> v.metric().fewestPairs() == 1);
      }
    }
    MethodComparison.Section methods = MethodComparison.of(s, byDir, table, fails);
    Map<NamespaceRef, List<Scored>> versusRows = MethodComparison.versusRows(s, byDir);
    lines.addAll(methods.lines());
    pairs.addAll(methods.pairs());
    anyWithheld |= methods.withheld();
    lines.add("");
    if (aggregate) {
      lines.add("Disclosure: aggregate -- per-task scores, paired differences per task and successful-tasks slices"
          + " are withheld from this report and report.html; they are in report-restricted.json (restricted).");
      if (table.any() || rowsByNs.values().stream().flatMap(List::stream).anyMatch(r -> r.repeatSd() != null)) {
        lines.add("  Per-task metric values (metrics.json) and each row's judge repeats are withheld too; they are in"
            + " report-restricted.json.");
      }
      if (anyWithheld) {
        lines.add("  A figure over a single graded task is that task's score: it is withheld, and so is every figure"
            + " that would give it away; --disclosure=per-task releases them.");
      }
    } else {
      lines.add("Disclosure: per-task -- per-task scores, paired differences per task and successful-tasks slices"
          + " are released below.");
      lines.add("");
      // with another side beside them, this side's per-task figures say whose they are (dogAI F4)
      String mine = versusRows.isEmpty() ? "" : " of the --namespaces side";
      lines.addAll(Disclosure.perTaskLines(rowsByNs, pairs, mine));
      lines.addAll(Disclosure.perTaskMetricLines(rowsByNs, table, mine, ""));
      lines.addAll(Disclosure.versusLines(versusRows, table));
    }
    String text = String.join("\n", lines);
    String html = HtmlReport.render(new HtmlReport.Page(title, text, summaries, cells, executorByCell,
        s.disclosure(), withheld, improverUnknown, executorUnknown, deadBases, reportedTokens, deadByCell),
        charts.join() + (methods.sides() == null ? "" : VectorCharts.methods(methods.sides(), s.objectives(), table,
        aggregate, hidden)));
    Map<String, Object> restricted = aggregate ? Disclosure.restricted(rowsByNs, versusRows, pairs, table) : null;
    return new Result(true, leftOut, text, html, restricted, fails);
  }

  /**
   * The line on the reported tasks that a {@code --retryFailedSessions} resume ran again, or null for none: their
   * results are the re-runs', and what the results they replaced spent beyond what the re-runs reused is in no
   * ledger, so in no spend figure of the report (not counted, not zero); the replaced summaries and the audit
   * journals hold it.
   */
  static String retried(Set<NamespaceRef> reported, Map<String, NamespaceFacts> byDir) {
    int tasks = 0;
    int results = 0;
    for (NamespaceRef ns : reported) {
      for (TaskSummary t : facts(byDir, ns).summaries()) {
        if (t.retried() == 0) continue;
        tasks++;
        results += t.retried();
      }
    }
    if (tasks == 0) return null;
    return "  tasks run again by --retryFailedSessions after sessions failed: " + tasks + " (" + results
        + (results == 1 ? " earlier result" : " earlier results") + " replaced): their spend figures here are the"
        + " re-runs' (and their grades, unless a line at the top says they were judged before it);"
        + " what the replaced results spent beyond what the re-runs reused is in no spend figure of this report (not"
        + " counted, not zero); each replaced summary is kept beside its task's summary.json as"
        + " summary.retried-<n>.json, and the runs root's _audit/<namespace>/ journals list every rollout and session"
        + " that ran";
  }

  /**
   * Each reported cell's own vector in one line: what it scored (withheld as in the block above) and what it spent,
   * in money (each part, with the costs not known counted beside it), in budget (the rollouts and improver sessions
   * its ledgers counted) and in the session attempts those sessions took (retries included, from the ledgers'
   * {@code session_attempts}; a task whose summary records none is counted apart, never as 0). Tokens have their own
   * lines above. A cell whose namespaces hold tasks whose every base failed ({@code deadBases}) is charged their dead
   * bases in a part of its own, as every mode's ledger charges its tasks' shared bases (R = 4k counts them): no
   * mode's ledger holds them, and each mode alone would have rolled them. Wall-clock time is not here: it differs
   * from one run of the same inputs to the next, and the report's files do not (metrics.json holds each task's, and
   * {@code --objectives} compares it). Never one number: the vector is shown, the paired comparisons below weigh each
   * part apart.
   */
  static List<String> vectors(List<Summary> summaries, Map<NamespaceRef, List<Scored>> rowsByNs,
      Map<String, NamespaceFacts> byDir, Map<ModeK, Double> executorUsd, Map<ModeK, Integer> improverUnknown,
      Map<ModeK, Integer> executorUnknown, Map<ModeK, Render.DeadBaseSpend> deadBases, Predicate<Summary> withheld) {
    List<String> out = new ArrayList<>();
    out.add("");
    out.add("Each mode's vector (what it scored and what it spent over its reported tasks; never one number; each"
        + " task's wall-clock time is in metrics.json, compared with --objectives=...,mode_wall_s:min:<s>):");
    if (summaries.stream().anyMatch(x -> deadBases.containsKey(x.cell()))) {
      out.add("  (dead bases: the base rollouts of tasks whose every base failed, in no mode's ledger, are charged to"
          + " each mode apart, as every mode's ledger holds its tasks' shared bases (R = 4k); each ran, and was paid"
          + " for, once, and their tasks have no score in any mode)");
    }
    // each namespace's summaries by task, once for every cell (a report may read 100 namespaces of 500 tasks)
    Map<NamespaceRef, Map<String, TaskSummary>> byTaskOf = new LinkedHashMap<>();
    for (NamespaceRef ns : rowsByNs.keySet()) byTaskOf.put(ns, TaskSummary.byTask(facts(byDir, ns).summaries()));
    for (Summary x : summaries) {
      ModeK cell = x.cell();
      int tasks = 0;
      int rollouts = 0;
      int sessions = 0;
      int noBudget = 0;
      AttemptCount attempts = AttemptCount.NONE;
      GateSetup.Failures failures = GateSetup.Failures.NONE;
      Map<NamespaceRef, RunIdentity> gated = new LinkedHashMap<>();
      // the replicates the pooled score takes graded tasks of while others of theirs are ungraded
      int partial = 0;
      for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNs.entrySet()) {
        Map<String, TaskSummary> byTask = byTaskOf.get(e.getKey());
        int graded = 0;
        int ungraded = 0;
        for (Scored r : e.getValue()) {
          if (!r.mode().equals(cell.mode()) || r.k() != cell.k()) continue;
          tasks++;
          if (r.graded()) graded++;
          else ungraded++;
          TaskSummary t = byTask.get(r.taskId());
          TaskSummary.Budget b = t == null ? null : t.mode(cell.mode()).budget();
          if (b == null) noBudget++;
          else {
            rollouts += b.rollouts();
            sessions += b.sessions();
          }
          attempts = attempts.plus(t == null ? null : t.mode(cell.mode()).attempts());
          if (r.mode().equals(GATED)) {
            gated.putIfAbsent(e.getKey(), facts(byDir, e.getKey()).identity());
            failures = failures.plus(t == null ? null : t.mode(GATED).gate());
          }
        }
        if (graded > 0 && ungraded > 0) partial++;
      }
      String score = x.score() == null ? "no graded task" : withheld.test(x) ? "score withheld"
          : "score " + PyFormat.fixed(x.score(), 0, 2) + "%";
      // harness2's headline above is kept as harness2 prints it: the caveat of a pooled partial figure is here
      String caveat = partial == 0 || x.score() == null ? "" : "; " + partial + " partial replicate(s): scored over"
          + " their graded tasks only, which favours runs whose missing tasks would have failed";
      out.add("  " + cell.name() + ": " + score + " (" + x.n() + " graded, " + x.nUngraded() + " ungraded" + caveat
          + ")"
          + " | improver " + Render.dollars(x.usd())
          + unknown(improverUnknown.getOrDefault(cell, 0))
          + " | executor " + Render.dollars(executorUsd.getOrDefault(cell, 0.0))
          + unknown(executorUnknown.getOrDefault(cell, 0))
          + " | " + rollouts + " rollouts and " + sessions + " improver sessions counted over " + (tasks - noBudget)
          + " task(s)" + (noBudget == 0 ? "" : " (" + noBudget + " record no ledger counts)")
          + " | " + attempts.says() + deadBases(deadBases.get(cell)));
      if (gated.isEmpty()) continue;
      // which method and policy that score is of, whether the method is a plug-in, and whether it worked
      out.addAll(GateSetup.lines(GateSetup.groups(gated), "    ", true));
      String failed = failures.line();
      if (failed != null) out.add("    " + failed);
    }
    return out;
  }

  /** The gated mode's token. */
  static final String GATED = "gat";

  /**
   * The improver session attempts of a cell's tasks (each retry an attempt of its own): those counted, how many tasks'
   * ledgers name sessions whose attempts are not known, and how many record none (harness2's summaries and h2beam's
   * have {@code session_attempts}; a task without a ledger, or a ledger without it, records none): never a 0.
   */
  record AttemptCount(long counted, int tasks, int partial, int notRecorded) {
    static final AttemptCount NONE = new AttemptCount(0, 0, 0, 0);

    /** These and one more task's attempts; null when its summary records none. */
    AttemptCount plus(TaskSummary.Attempts a) {
      if (a == null) return new AttemptCount(counted, tasks, partial, notRecorded + 1);
      return new AttemptCount(counted + a.count(), tasks + 1, partial + (a.known() ? 0 : 1), notRecorded);
    }

    /**
     * {@code 20 session attempts over 2 task(s)}, then the tasks whose count is partial or not recorded, as they
     * apply; {@code session attempts not recorded (2 task(s): not counted, not zero)} when no task records them.
     */
    String says() {
      if (tasks == 0) {
        return "session attempts not recorded (" + notRecorded + " task(s): not counted, not zero)";
      }
      return counted + " session attempts (retries included) over " + tasks + " task(s)"
          + (partial == 0 ? "" : "; " + partial + " of them not all counted (the part counted, not the whole)")
          + (notRecorded == 0 ? "" : "; " + notRecorded + " task(s) record none (not counted, not zero)");
    }
  }

  /**
   * {@code  | dead bases of 1 task(s) whose every base failed $0.80 (+1 not known), tokens 1200 in, 30 out}: the part
   * of a cell's vector its namespaces' dead bases charge it (their tokens not recorded when no entry has any, never
   * 0); nothing when it has none.
   */
  private static String deadBases(Render.DeadBaseSpend d) {
    if (d == null || d.tasks() == 0) return "";
    TaskSummary.TokenCount t = d.tokens();
    String tokens = t.input() + t.output() == 0 && t.partial() == 0 && t.notRecorded() > 0
        ? "tokens not recorded (" + t.notRecorded() + " rollout(s): not counted, not zero)"
        : "tokens " + Render.counts(t, "rollout(s)");
    return " | dead bases of " + d.tasks() + " task(s) whose every base failed " + Render.dollars(d.usd())
        + unknown(d.unknown()) + ", " + tokens;
  }

  /** {@code (+N not known)} beside a cost that leaves N costs out; nothing when none. */
  private static String unknown(int n) {
    return n == 0 ? "" : " (+" + n + " not known)";
  }

  /**
   * Why there is nothing to report: what was asked (modes, k) and what the namespaces hold instead, with the flag that
   * reports it; only when no judged file holds a row is the judge the fix.
   */
  static String nothing(ReportSettings s, List<NamespaceRef> included, Map<String, NamespaceFacts> byDir) {
    String asked = "nothing to report: no judged rows for modes " + humans(s.modes())
        + (s.ks().isEmpty() ? "" : " at k=" + join(s.ks()));
    if (included.isEmpty()) {
      List<Integer> held = s.namespaces().stream().map(NamespaceRef::k).distinct().sorted().toList();
      return asked + ": the " + s.namespaces().size() + " namespace(s) of --namespaces are at k=" + join(held)
          + "; pass --k=" + join(held) + ", or leave --k out for every k";
    }
    TreeSet<ModeK> held = new TreeSet<>();
    for (NamespaceRef ns : included) for (Scored r : facts(byDir, ns).rows()) held.add(new ModeK(r.mode(), r.k()));
    String where = " in " + included.size() + " namespace(s)";
    if (held.isEmpty()) return asked + where + "; run ./h2beam judge on them first";
    List<String> heldModes = held.stream().map(ModeK::mode).distinct().toList();
    List<Integer> heldKs = held.stream().filter(c -> s.modes().contains(c.mode())).map(ModeK::k).distinct().sorted()
        .toList();
    // a requested mode that is judged at other k only: the k is what to change; else the modes
    String fix = heldKs.isEmpty() ? "--modes=" + humans(heldModes) : "--k=" + join(heldKs);
    return asked + where + "; their judged.json files hold " + String.join(", ", held.stream().map(ModeK::name)
        .toList()) + "; pass " + fix;
  }

  /**
   * Null when the reported namespaces of each k are replicates, else why not. Replicates differ only in seed (and in
   * what C4 and the timing check compare): namespaces of one k whose config.json records another task set, other
   * input digests, another key of {@link RunIdentity#COHORT_KEYS} or another judge (C3 checks it per pair of modes
   * too; a namespace that records none is not compared) would be averaged into one mean and standard
   * error and paired as seeds of one experiment (a {@code --maxTasks=1} smoke run beside full runs, another
   * benchSettings). They are refused, naming each differing key, the namespaces on each side and the
   * {@code --namespaces} to report instead: a not-comparable verdict alone would leave them pooled in the replicate
   * means above it. A key some namespaces do not record (an older h2beam's config.json) is not compared.
   */
  static String notReplicates(Set<NamespaceRef> reported, Map<String, NamespaceFacts> byDir) {
    return notReplicates(reported, byDir, "--namespaces", "nothing is reported");
  }

  /**
   * {@link #notReplicates(Set, Map)} of the namespaces given in {@code flag}, which its advice names; {@code
   * consequence}: what is left undone for it.
   */
  static String notReplicates(Set<NamespaceRef> reported, Map<String, NamespaceFacts> byDir, String flag,
      String consequence) {
    List<String> why = new ArrayList<>();
    List<NamespaceRef> largest = List.of();
    for (int k : new TreeSet<>(reported.stream().map(NamespaceRef::k).toList())) {
      // key -> canonical value -> namespaces recording it
      Map<String, Map<String, List<NamespaceRef>>> byKey = new TreeMap<>();
      Map<NamespaceRef, Map<String, Object>> cohorts = new LinkedHashMap<>();
      for (NamespaceRef ns : reported) {
        RunIdentity id = facts(byDir, ns).identity();
        if (ns.k() != k || id == null) continue;
        // the judge is the instrument: a mean over two judges' grades is no figure (C3 alone left them pooled); a
        // namespace that records none is not compared
        if (id.judge() != null) {
          byKey.computeIfAbsent(JUDGE, x -> new LinkedHashMap<>()).computeIfAbsent(id.judge(),
              x -> new ArrayList<>()).add(ns);
        }
        if (id.cohort() == null) continue;
        Map<String, Object> cohort = cohortOf(id);
        cohorts.put(ns, cohort);
        cohort.forEach((key, v) -> {
          if (!key.equals(RunIdentity.UNVERIFIED)) {
            byKey.computeIfAbsent(key, x -> new LinkedHashMap<>()).computeIfAbsent(Json.canonical(v),
                x -> new ArrayList<>()).add(ns);
          }
        });
      }
      for (Map.Entry<String, Map<String, List<NamespaceRef>>> e : byKey.entrySet()) {
        if (e.getValue().size() < 2) continue;
        List<String> sides = new ArrayList<>();
        e.getValue().forEach((v, names) -> sides.add(e.getKey().equals(JUDGE) ? v + " in " + who(names)
            : side(e.getKey(), cohorts.get(names.get(0)).get(e.getKey()), names)));
        why.add("k=" + k + ": " + e.getKey() + " differs: " + String.join(" | ", sides));
        for (List<NamespaceRef> names : e.getValue().values()) if (names.size() > largest.size()) largest = names;
      }
    }
    if (why.isEmpty()) return null;
    // h2beam from db19a80 until this mend digested the prompts in the stream's order, which follows the seed
    // (only when the tasks are the same: other tasks have other prompts, and re-running would change nothing; dogAG A8)
    boolean prompts = why.stream().anyMatch(w -> w.contains(": input_digests.prompts differs: "))
        && why.stream().noneMatch(w -> w.contains(": input_digests.tasks differs: ") || w.contains(": tasks differs: "));
    return "not replicates: replicates are runs that differ only in seed, and these namespaces' config.json files"
        + " record more differences (" + String.join("; ", why) + "); their figures would be pooled into one mean"
        + " and one standard error, so " + consequence + ". Report each set apart: narrow " + flag + ", e.g. "
        + flag + "=" + String.join(",", largest.stream().map(NamespaceRef::dir).toList())
        + (prompts ? ". (h2beam of 2026-12-06 morning recorded input_digests.prompts in the seed's task order, so"
        + " its replicates differ there though their inputs do not: re-run each namespace's sweep command, which"
        + " runs nothing and records it anew.)" : "");
  }

  /**
   * What the replicate check ({@link #notReplicates}) could not compare, for each k with two or more reported
   * namespaces: a key of the cohort that some of them do not record (an older h2beam's config.json), and the
   * namespaces that record no cohort at all (harness2's config.json). Said rather than passed over, so that a reader
   * knows which conditions of "replicates differ only in seed" rest on the namespaces' names alone. The gated mode's
   * own keys ({@code gate}, the checks' digests), which a namespace records only once the gated mode ran there, are
   * left out unless {@code gated} (the report shows the gated mode), and for a namespace whose summaries hold no
   * gated mode: a namespace of this very h2beam that never ran it was said to lack them, as an older h2beam's would.
   */
  static List<String> uncheckedCohort(Set<NamespaceRef> reported, Map<String, NamespaceFacts> byDir, boolean gated) {
    List<String> out = new ArrayList<>();
    for (int k : new TreeSet<>(reported.stream().map(NamespaceRef::k).toList())) {
      List<NamespaceRef> atK = reported.stream().filter(ns -> ns.k() == k).toList();
      if (atK.size() < 2) continue;
      Map<NamespaceRef, Set<String>> keys = new LinkedHashMap<>();
      Map<NamespaceRef, Set<String>> unverified = new LinkedHashMap<>();
      List<String> none = new ArrayList<>();
      for (NamespaceRef ns : atK) {
        RunIdentity id = facts(byDir, ns).identity();
        if (id == null || id.cohort() == null) {
          none.add(ns.name());
          continue;
        }
        Map<String, Object> cohort = cohortOf(id);
        Set<String> u = new TreeSet<>();
        if (cohort.get(RunIdentity.UNVERIFIED) instanceof List<?> l) l.forEach(x -> u.add(String.valueOf(x)));
        Set<String> recorded = new TreeSet<>(cohort.keySet());
        recorded.remove(RunIdentity.UNVERIFIED);
        keys.put(ns, recorded);
        unverified.put(ns, u);
      }
      TreeMap<String, List<String>> lacking = new TreeMap<>();
      TreeMap<String, List<String>> unchecked = new TreeMap<>();
      // the keys some namespace records, and those every sweep of this h2beam records: when every namespace was
      // written by an older h2beam, none records them, and they are no less unchecked
      Set<String> any = new TreeSet<>(keys.isEmpty() ? List.of() : RunIdentity.ALWAYS_RECORDED);
      keys.values().forEach(any::addAll);
      unverified.values().forEach(any::addAll);
      if (!gated) any.removeIf(Report::gateKey);
      for (String key : any) {
        for (Map.Entry<NamespaceRef, Set<String>> e : keys.entrySet()) {
          if (unverified.get(e.getKey()).contains(key)) {
            unchecked.computeIfAbsent(key, x -> new ArrayList<>()).add(e.getKey().name());
          } else if (!e.getValue().contains(key) && !(gateKey(key) && facts(byDir, e.getKey()).summaries().stream()
              .noneMatch(t -> t.modes().containsKey(GATED)))) {
            // a namespace whose summaries hold no gated mode never ran it, so it records no gate key: not missing
            lacking.computeIfAbsent(key, x -> new ArrayList<>()).add(e.getKey().name());
          }
        }
      }
      if (none.isEmpty() && lacking.isEmpty() && unchecked.isEmpty()) continue;
      if (out.isEmpty()) {
        out.add("");
        out.add("Replicate check, not compared (a config.json that does not record it; older h2beam or harness2):");
      }
      if (!none.isEmpty()) {
        out.add("  k=" + k + ": " + String.join(", ", none) + " record" + (none.size() == 1 ? "s" : "")
            + " no task set, inputs or settings: compared with the others by seed and name only");
      }
      lacking.forEach((key, names) -> out.add("  k=" + k + ": " + key + " (not recorded by " + String.join(", ",
          names) + ")"));
      unchecked.forEach((key, names) -> out.add("  k=" + k + ": " + key + " (recorded unverified by "
          + String.join(", ", names) + ": after work an older h2beam did under settings it did not record or"
          + " check; config.json's \"unverified\", or a writer that records no build, below)"));
    }
    return out;
  }

  /**
   * The rule each reported k's namespaces shuffled the selector's ids by ({@link AnonIds#TASK}, harness2's, for one
   * whose config.json records none): the replicate check refuses namespaces of one k that differ in it.
   */
  static Map<Integer, String> idRules(Set<NamespaceRef> reported, Map<String, NamespaceFacts> byDir) {
    Map<Integer, String> out = new TreeMap<>();
    for (NamespaceRef ns : reported) {
      out.merge(ns.k(), recorded(byDir, ns, AnonIds.CONFIG_KEY, AnonIds.TASK), (a, b) -> a.equals(b) ? a
          : a + " and " + b);
    }
    return out;
  }

  /**
   * Which reported namespaces ran their rollouts isolated ({@code --isolation}, recorded in config.json), said when
   * any did: a reader weighs a run whose agents could have read the answer keys differently. Nothing when none did
   * (the README says what an unisolated agent can read), so a report of harness2's runs is unchanged.
   */
  static List<String> isolation(Set<NamespaceRef> reported, Map<String, NamespaceFacts> byDir) {
    Map<String, List<NamespaceRef>> byValue = new TreeMap<>();
    for (NamespaceRef ns : reported) {
      byValue.computeIfAbsent(recorded(byDir, ns, Isolation.CONFIG_KEY, Isolation.NONE), v -> new ArrayList<>())
          .add(ns);
    }
    if (byValue.keySet().equals(Set.of(Isolation.NONE))) return List.of();
    List<String> out = new ArrayList<>(List.of("", "Rollouts' isolation (config.json's \"" + Isolation.CONFIG_KEY
        + "\"; README, \"Isolating the rollouts\"):"));
    byValue.forEach((value, names) -> out.add("  " + (value.equals(Isolation.NONE)
        ? "not isolated (an agent could read the benchmark's answer keys and other rollouts): "
        : "isolated by " + value + " (each agent saw its own run folder only): ") + who(names)));
    return out;
  }

  /** A namespace's cohort value of {@code key}, {@code absent} where its config.json records none (or no cohort). */
  private static String recorded(Map<String, NamespaceFacts> byDir, NamespaceRef ns, String key, String absent) {
    RunIdentity id = facts(byDir, ns).identity();
    return id == null || id.cohort() == null ? absent : String.valueOf(cohortOf(id).getOrDefault(key, absent));
  }

  /** Whether a cohort key is one a namespace records only once the gated mode ran there. */
  static boolean gateKey(String key) {
    return key.startsWith("gate") || key.startsWith("input_digests.checks");
  }

  static Map<String, Object> cohortOf(RunIdentity id) {
    try {
      return Json.readMap(id.cohort());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The key of the judge a namespace was graded by, compared by {@link #notReplicates} beside the cohort's. */
  private static final String JUDGE = "judge";

  /** The names of {@code names}, comma-separated. */
  private static String who(List<NamespaceRef> names) {
    return String.join(", ", names.stream().map(NamespaceRef::name).toList());
  }

  /** One side of a difference: its namespaces and, for the task set, how many tasks. */
  private static String side(String key, Object value, List<NamespaceRef> names) {
    String who = who(names);
    if (key.equals(AnonIds.CONFIG_KEY)) return "selector ids shuffled by " + value + " in " + who;
    if (key.equals(Isolation.CONFIG_KEY)) return "rollouts isolated by " + value + " in " + who;
    return key.equals("tasks") && value instanceof List<?> l ? l.size() + " task" + (l.size() == 1 ? "" : "s")
        + " (" + Comparison.list(l.stream().map(String::valueOf).toList()) + ") in " + who : who;
  }

  private static String humans(List<String> modes) {
    return String.join(",", modes.stream().map(ModeK::human).toList());
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
        // a judge now would be refused by a live sweep of the namespace: that is said instead
        String sweep = dev.h2beam.pipelines.sweep.WriterLocks.sweptBy(java.nio.file.Path.of(ns.dir())).orElse(null);
        hints.put(key(ns.k(), ns.dir()), "  ! no judged rows at " + judged + (sweep == null
            ? " \u2014 run ./h2beam judge --namespaces=" + ns.dir() + " for k=" + ns.k() + " first"
            : " \u2014 it is being swept by " + sweep + "; judge it once the sweep has finished"));
        continue;
      }
      // a requested mode the sweep ran here to its selection (its summaries record finals) that was never judged,
      // or that failed before selection on every task: left out of every figure, each with its own fix
      List<String> unjudged = new ArrayList<>();
      List<String> unselected = new ArrayList<>();
      // a requested mode its sweep never ran: no summary records it (dogAG A3)
      List<String> never = new ArrayList<>();
      for (String mode : s.modes()) {
        if (f.rows().stream().anyMatch(r -> r.mode().equals(mode) && r.k() == ns.k())) continue;
        if (TaskSummary.ran(f.summaries(), mode)) unjudged.add(ModeK.human(mode));
        else if (TaskSummary.failedBeforeSelection(f.summaries(), mode)) unselected.add(ModeK.human(mode));
        else never.add(ModeK.human(mode));
      }
      List<String> said = new ArrayList<>();
      if (!unjudged.isEmpty()) {
        said.add("  ! no judged " + String.join(", ", unjudged) + " rows at " + judged
            + " although its summaries record that run, left out of every figure below \u2014 run ./h2beam judge"
            + " --namespaces=" + ns.dir() + " --modes=" + String.join(",", unjudged));
      }
      if (!never.isEmpty()) {
        said.add("  ! no " + String.join(", ", never) + " rows at " + judged + ": its summaries record no such run,"
            + " so there is nothing to judge or report; left out of every figure below (leave "
            + (never.size() == 1 ? "it" : "them") + " out of --modes)");
      }
      if (!unselected.isEmpty()) {
        said.add("  ! no " + String.join(", ", unselected) + " rows at " + judged + ": every task of "
            + (unselected.size() == 1 ? "that mode" : "those modes") + " failed before selection (its summaries"
            + " record no finals; see their errors), so nothing of it can be judged; left out of every figure below");
      }
      String stale = runAgainSinceJudged(ns, f);
      if (stale != null) said.add(stale);
      if (!said.isEmpty()) hints.put(key(ns.k(), ns.dir()), String.join("\n", said));
    }
    List<String> out = new ArrayList<>(hints.values());
    for (ReadFailure f : fails) out.add(f.line());
    if (!fails.isEmpty()) {
      out.add("  ! " + fails.size() + " input file(s) could not be read; nothing in them enters any figure below");
    }
    return out;
  }

  /** {@code <bench>-<substrate>[ seed=<s>| seeds=<a,b>] modes=<names>}: harness2's title, several seeds listed. */
  /** The human name of a mode of {@code modes} with no row at {@code k} in {@code all}; null when both have rows. */
  static String noRowsAt(int k, ModePair modes, List<Scored> all) {
    for (String mode : List.of(modes.first(), modes.second())) {
      if (all.stream().noneMatch(r -> r.k() == k && r.mode().equals(mode))) return ModeK.human(mode);
    }
    return null;
  }

  /**
   * The line on the judged tasks of {@code ns} that a {@code --retryFailedSessions} resume ran again after its
   * judged.json was written (dogAF #2): their rows may grade the results those summaries replaced, while the spend
   * figures are the new summaries'; null for none.
   */
  static String runAgainSinceJudged(NamespaceRef ns, NamespaceFacts f) {
    Set<String> judged = new TreeSet<>();
    for (Scored r : f.rows()) judged.add(r.taskId());
    // marked on retried tasks alone (NamespaceRead): a summary merely written or copied after judged.json is no re-run
    List<String> stale = f.summaries().stream().filter(t -> t.afterJudged() && judged.contains(t.taskId()))
        .map(TaskSummary::taskId).sorted().toList();
    if (stale.isEmpty()) return null;
    return "  ! " + stale.size() + (stale.size() == 1 ? " task" : " tasks") + " at " + ns.dir() + " "
        + (stale.size() == 1 ? "was" : "were") + " run again by --retryFailedSessions after its judged.json was"
        + " written (" + Comparison.list(stale) + "): their judged rows may grade the results they replaced, beside"
        + " the new results' spend \u2014 run ./h2beam judge --namespaces=" + ns.dir() + " again, then this report";
  }

  static String title(ReportSettings s, Set<NamespaceRef> reported) {
    NamespaceRef first = reported.iterator().next();
    TreeSet<BigInteger> seeds = new TreeSet<>();
    boolean seedless = false;
    for (NamespaceRef ns : reported) {
      if (ns.seed() == null) seedless = true;
      else seeds.add(ns.seed());
    }
    List<String> labels = new ArrayList<>();
    if (seedless) labels.add("none");
    for (BigInteger seed : seeds) labels.add(seed.toString());
    String seedPart = labels.size() > 1 ? " seeds=" + String.join(",", labels)
        : seeds.size() == 1 ? " seed=" + seeds.first() : "";
    return first.cell() + seedPart + " modes=" + String.join(",", s.modes().stream().map(ModeK::human).toList());
  }

  /**
   * Per namespace and k where two or more of {@code modes} have rows, the tasks graded in some of those modes but not
   * in all: one line per set of modes they are graded in ({@code graded in parallel only: t2}), single modes first.
   */
  static List<String> coverage(Map<NamespaceRef, List<Scored>> rowsByNs, List<String> modes) {
    List<String[]> sorted = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNs.entrySet()) {
      for (int k : new TreeSet<>(e.getValue().stream().map(Scored::k).toList())) {
        Map<String, TreeSet<String>> graded = new TreeMap<>(Modes.ORDER);
        for (Scored r : e.getValue()) {
          if (r.k() != k || !modes.contains(r.mode())) continue;
          TreeSet<String> tasks = graded.computeIfAbsent(r.mode(), x -> new TreeSet<>());
          if (r.graded()) tasks.add(r.taskId());
        }
        if (graded.size() < 2) continue;
        // the modes each task is graded in, then the tasks of each proper non-empty set of modes
        Map<String, List<String>> gradedIn = new TreeMap<>();
        graded.forEach((mode, tasks) -> tasks.forEach(t -> gradedIn.computeIfAbsent(t, x -> new ArrayList<>())
            .add(mode)));
        Map<List<String>, TreeSet<String>> bySet = new TreeMap<>(Comparator.comparingInt((List<String> m) -> m.size())
            .thenComparing(m -> m, Report::compareModeLists));
        gradedIn.forEach((task, in) -> {
          if (in.size() < graded.size()) bySet.computeIfAbsent(in, x -> new TreeSet<>()).add(task);
        });
        String head = "  k=" + k + " seed=" + e.getKey().seedLabel() + " (" + e.getKey().name() + "): graded in ";
        bySet.forEach((in, tasks) -> sorted.add(new String[] {key(k, e.getKey().dir()), head + String.join(" and ",
            in.stream().map(ModeK::human).toList()) + " only: " + Comparison.list(tasks)}));
      }
    }
    sorted.sort(Comparator.comparing((String[] a) -> a[0]));
    List<String> out = new ArrayList<>();
    for (String[] a : sorted) out.add(a[1]);
    return out;
  }

  private static int compareModeLists(List<String> a, List<String> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Modes.ORDER.compare(a.get(i), b.get(i));
      if (c != 0) return c;
    }
    return Integer.compare(a.size(), b.size());
  }

  /** The gated method and policy of the replicas with gated rows ({@link GateSetup}); none when no mode is gated. */
  static List<GateSetup.Group> gateGroups(ModePair modes, List<Comparison.Replica> replicas) {
    Map<NamespaceRef, RunIdentity> gated = new LinkedHashMap<>();
    for (Comparison.Replica r : replicas) {
      List<Scored> rows = modes.first().equals(GATED) ? r.first() : modes.second().equals(GATED) ? r.second()
          : List.of();
      if (!rows.isEmpty()) gated.put(r.namespace(), r.identity());
    }
    return GateSetup.groups(gated);
  }

  /** The two modes' rows at k of every namespace where either has rows, with the namespace's task summaries. */
  static List<Comparison.Replica> replicas(int k, ModePair modes, Map<NamespaceRef, List<Scored>> rowsByNs,
      Map<String, NamespaceFacts> byDir) {
    List<Comparison.Replica> out = new ArrayList<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNs.entrySet()) {
      List<Scored> p = e.getValue().stream().filter(r -> r.k() == k && r.mode().equals(modes.first())).toList();
      List<Scored> q = e.getValue().stream().filter(r -> r.k() == k && r.mode().equals(modes.second())).toList();
      if (p.isEmpty() && q.isEmpty()) continue;
      NamespaceFacts f = facts(byDir, e.getKey());
      out.add(new Comparison.Replica(e.getKey(), p, q, f.identity(), f.summaries()));
    }
    return out;
  }

  /**
   * What each reported row's selected output was ({@link Scored#pick(List)}), given its task summary's finals. Keyed
   * by the row object itself: two namespaces may hold equal rows whose summaries list different finals.
   */
  static Function<Scored, String> picks(Map<NamespaceRef, List<Scored>> rowsByNs, Map<String, NamespaceFacts> byDir) {
    Map<Scored, String> out = new IdentityHashMap<>();
    for (Map.Entry<NamespaceRef, List<Scored>> e : rowsByNs.entrySet()) {
      Map<String, TaskSummary> byTask = TaskSummary.byTask(facts(byDir, e.getKey()).summaries());
      for (Scored r : e.getValue()) {
        TaskSummary t = byTask.get(r.taskId());
        out.put(r, r.pick(t == null ? List.of() : t.finals(r.mode())));
      }
    }
    return out::get;
  }

  static NamespaceFacts facts(Map<String, NamespaceFacts> byDir, NamespaceRef ns) {
    return byDir.getOrDefault(ns.dir(), NamespaceFacts.empty(ns.dir()));
  }

  /** Sort key by k, then text. */
  private static String key(int k, String rest) {
    return String.format(Locale.ROOT, "%010d", k) + "\u0000" + rest;
  }

  private static String join(List<Integer> ks) {
    return String.join(",", ks.stream().map(String::valueOf).toList());
  }
}
