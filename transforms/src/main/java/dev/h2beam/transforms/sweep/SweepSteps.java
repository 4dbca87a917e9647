package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.config.KeyShapes;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.files.WrittenTrees;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.library.Library;
import dev.h2beam.transforms.recursion.Drivers;
import dev.h2beam.transforms.recursion.Gated;
import dev.h2beam.transforms.recursion.ModeResult;
import dev.h2beam.transforms.recursion.Phases;
import dev.h2beam.transforms.recursion.Roller;
import dev.h2beam.transforms.recursion.TaskScope;
import dev.h2beam.transforms.reflection.Reflector;
import dev.h2beam.transforms.resume.Resume;
import dev.h2beam.transforms.selection.SelectionRecord;
import dev.h2beam.transforms.selection.Selector;
import dev.h2beam.transforms.summary.SummaryFile;
import dev.h2beam.transforms.tree.DiffSummary;
import dev.h2beam.transforms.tree.TreeIO;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The steps of a sweep for one task (spec §8.2), each idempotent, each keeping its state on the runs root. */
public final class SweepSteps {
  private SweepSteps() {}

  /**
   * Resumes the task when its summary allows; otherwise rolls its k shared base rollouts (in the summary namespace)
   * and, when none ran, records the task as base-failed.
   */
  public static TaskBases rollBases(SweepContext c, TaskRef ref) throws Exception {
    Path summary = c.summaryPath(ref.task());
    boolean parts = false;
    for (String m : SummaryFile.MODE_ORDER) parts |= Files.isRegularFile(SummaryFile.part(summary, m));
    if (Files.isRegularFile(summary) || parts) {
      Map<String, Object> cached = null;
      try {
        // a run stopped between a mode's part and the task's finish left the part: merge it first (no chain of this
        // task has started yet, so this is the task's only writer)
        cached = SummaryFile.mergeParts(summary);
      } catch (IOException | RuntimeException e) {
        if (Files.isRegularFile(summary)) {
          Path aside = moveAside(summary);
          System.err.println("  [" + ref.task() + "] unreadable summary.json at " + summary + " (" + e.getMessage()
              + "); moved to " + aside.getFileName() + " and re-running");
        } else {
          System.err.println("  [" + ref.task() + "] " + e.getMessage() + "; re-running");
        }
      }
      if (cached != null) {
        Optional<String> why = whyNotSkip(c.config, c.bench, ref, cached);
        if (why.isEmpty()) return new TaskBases(ref, true, false, List.of());
        System.err.println("  [" + ref.task() + "] " + why.get());
        if (why.get().startsWith(Resume.RETRYING)) keepRetried(summary, cached);
      }
    }
    int k = c.config.k();
    List<String> labels = new ArrayList<>();
    for (int i = 1; i <= k; i++) labels.add("base" + i);
    TaskScope agg = c.scope(ref.task(), "agg", null);
    // a dead rollout's run_dir: the spec's placeholder <task work dir>/missing, never created (spec §2.5, §6.2), and
    // harness2 writes it as a string; `judge --bases` skips it since it does not exist (an entry without run_dir
    // would count as legacy), so the string stays and the rollout's own folder is named in its error instead
    Path missing = agg.workDir().resolve("missing");
    List<RunView> base = Phases.map(labels, c.config.phaseWidth(), label -> Roller.execute(c.bench, ref.task(),
        label, agg.runId(label), null, c.rollouts, c.executionsJournal(), missing));
    // cancelled (a one-rollout phase runs on this thread, and its rollout comes back dead): not a base failure
    recordNothingIfCancelled("the base rollouts of " + ref.task());
    boolean anyOk = base.stream().anyMatch(RunView::ok);
    if (!anyOk) {
      Map<String, Object> res = result(c, ref, base, "base-failed");
      // the error stays the spec's exact text (the summary merge drops it by that text once the task runs); each
      // dead base's own reason goes beside its entry, where finish() names the first one
      res.put("errors", new ArrayList<>(List.of("no base rollout produced anything")));
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> entries = (List<Map<String, Object>>) res.get("base");
      for (int i = 0; i < base.size(); i++) {
        entries.get(i).put("error", reason(base.get(i).error()));
        // what the dead base cost, with no ledger to hold it; cost_known only when false, as everywhere; its tokens
        // always, as a ledger's are (an entry without them was written before h2beam counted them)
        entries.get(i).put("cost_usd", base.get(i).costUsd());
        if (!base.get(i).costKnown()) entries.get(i).put("cost_known", false);
        entries.get(i).put("tokens", base.get(i).tokens().toJson());
        if (!base.get(i).tokens().known()) entries.get(i).put("tokens_known", false);
      }
      SummaryFile.write(summary, res);
    }
    return new TaskBases(ref, false, !anyOk, base);
  }

  /**
   * Whether the task would be skipped as it stands, found without writing anything: its summary.json is there and
   * readable, no mode's part waits to be merged into it, and {@link Resume} lets its result stand. The client asks
   * this of every task before it builds a pipeline; every other case is left to {@link #rollBases}, which repairs
   * what it can and says why the task runs again.
   */
  public static boolean complete(SweepConfig config, Benchmark bench, TaskRef ref) {
    Path summary = config.summaryPath(ref.task());
    for (String m : SummaryFile.MODE_ORDER) if (Files.exists(SummaryFile.part(summary, m))) return false;
    if (!Files.isRegularFile(summary)) return false;
    Map<String, Object> cached;
    try {
      cached = SummaryFile.read(summary);
    } catch (IOException | RuntimeException e) {
      return false;
    }
    return whyNotSkip(config, bench, ref, cached).isEmpty();
  }

  private static Optional<String> whyNotSkip(SweepConfig config, Benchmark bench, TaskRef ref,
      Map<String, Object> cached) {
    Optional<String> why = Resume.whyNot(config.summaryPath(ref.task()), cached, config.modes(), bench, config.runs(),
        config.namespace("agg"), ref.task());
    if (why.isPresent()) return why;
    Map<String, List<String>> failed = retry(config, cached);
    return failed.isEmpty() ? why : Optional.of(Resume.retrying(config.summaryPath(ref.task()), failed));
  }

  /** The sessions a {@code --retryFailedSessions} resume runs a finished task again for; none without the flag. */
  private static Map<String, List<String>> retry(SweepConfig config, Map<String, Object> cached) {
    return config.retryFailedSessions() ? SummaryFile.failedSessions(cached, config.modes()) : Map.of();
  }

  /**
   * Keeps the result a {@code --retryFailedSessions} resume is about to replace: summary.json's bytes go to
   * {@code summary.retried-<n>.json} beside it (the first n not taken, so an earlier one is never overwritten). The
   * copy joins summary.json's {@value SummaryFile#RETRIED} list when the re-run's first mode is merged
   * ({@link SummaryFile#mergeParts}), not now: a re-run stopped before that replaced nothing, and a resume without
   * the flag then keeps the result with no claim that it was run again. The report says how many of its tasks were
   * run again, and that what their replaced results spent is in those files and the audit journals, not in its spend
   * figures. Called by the task's only writer, before any chain of it starts.
   */
  private static void keepRetried(Path summary, Map<String, Object> cached) throws IOException {
    Set<String> listed = new HashSet<>();
    if (cached.get(SummaryFile.RETRIED) instanceof List<?> entries) {
      for (Object e : entries) if (e instanceof Map<?, ?> m) listed.add(String.valueOf(m.get("summary")));
    }
    int n = 1;
    while (Files.exists(SummaryFile.retriedCopy(summary, n))) n++;
    // a copy no re-run has replaced yet (an earlier attempt was stopped before its first mode) holding this result
    // already: once is all
    Path newest = n > 1 ? SummaryFile.retriedCopy(summary, n - 1) : null;
    if (newest != null && !listed.contains(newest.getFileName().toString())
        && withoutRetried(Json.readMap(newest)).equals(withoutRetried(cached))) {
      return;
    }
    AtomicFiles.writeString(SummaryFile.retriedCopy(summary, n), Files.readString(summary));
  }

  private static Object withoutRetried(Map<String, Object> summary) {
    Map<String, Object> out = new LinkedHashMap<>(summary);
    out.remove(SummaryFile.RETRIED);
    return Json.canonical(out);
  }

  /**
   * Runs one (mode, domain) chain: its tasks in stream order, each after the library was cut back to exactly the
   * entries of the tasks before it; every outcome goes to {@code emit} as soon as its task is done.
   */
  public static void runChain(SweepContext c, String mode, String domain, List<TaskBases> tasks,
      java.util.function.Consumer<ModeOutcome> emit) throws Exception {
    List<TaskBases> ordered = new ArrayList<>(tasks);
    ordered.sort(java.util.Comparator.comparingInt(tb -> tb.ref().index()));
    runChain(c, mode, domain, ordered.stream().map(TaskBases::ref).toList(), ordered::get, emit);
  }

  /**
   * The same chain where this JVM rolls the bases ({@link SharedBases}): each task's bases are taken as the chain
   * reaches the task (rolled then, unless another mode's chain rolled them or is rolling them), and once they are
   * there the next task's are rolled ahead while this task runs. {@code taken} sees every task's bases as taken.
   */
  public static void runChainRollingBases(SweepContext c, String mode, String domain, List<TaskRef> refs,
      java.util.function.Consumer<SharedBases.Taken> taken, java.util.function.Consumer<ModeOutcome> emit)
      throws Exception {
    List<TaskRef> ordered = new ArrayList<>(refs);
    ordered.sort(java.util.Comparator.comparingInt(TaskRef::index));
    runChain(c, mode, domain, ordered, i -> {
      SharedBases.Taken t = c.bases.take(ordered.get(i));
      // ahead only now: rolled at once, the next task's bases would take the rollout slots this task's need
      if (i + 1 < ordered.size()) c.bases.ahead(ordered.get(i + 1));
      taken.accept(t);
      return t.bases();
    }, emit);
  }

  /** Stops before anything is recorded when the runner is cancelling this thread's work. */
  private static void recordNothingIfCancelled(String what) throws InterruptedException {
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedException("the runner cancelled " + what + "; nothing recorded");
    }
  }

  /** The {@code i}-th task's bases of a chain, in stream order. */
  private interface ChainBases {
    TaskBases of(int i) throws Exception;
  }

  private static void runChain(SweepContext c, String mode, String domain, List<TaskRef> ordered, ChainBases bases,
      java.util.function.Consumer<ModeOutcome> emit) throws Exception {
    Library library = new Library(java.nio.file.Paths.get(c.config.libraryRoot()).resolve(mode), domain,
        c.bench.surface());
    List<String> prefix = new ArrayList<>();
    c.progress.chainStarted(mode, domain);
    boolean ran = false;
    try {
      for (int i = 0; i < ordered.size(); i++) {
        TaskBases tb = bases.of(i);
        // a finished task only replays its own entry, and nothing of it reads the library: the cut waits for the
        // first task that runs (or the chain's end), so a resume keeps the entries it would write again unchanged
        if (!tb.skipped()) library.retain(prefix);
        c.progress.running(mode, domain, tb.ref().task());
        emit.accept(runMode(c, tb, mode, library, prefix));
        prefix.add(tb.ref().task());
      }
      library.settle(prefix);
      ran = true;
    } finally {
      // a chain its job cancelled (or that failed) runs nothing here any more: its board may go idle
      if (!ran) c.progress.chainStopped(mode, domain);
      // the sessions' used-up folders, removed off the chain's path, are gone before the chain is
      Scratch.awaitDeletions();
    }
    c.progress.chainEnded(mode, domain);
  }

  /**
   * Runs (or, for a resumed task, replays into the library) one mode of one task, then checkpoints that mode into
   * summary.json. Called by the (mode, domain) chain in stream order after the library was cut to the task's prefix.
   */
  @SuppressWarnings("unchecked")
  public static ModeOutcome runMode(SweepContext c, TaskBases tb, String mode, Library lib, List<String> prefix)
      throws Exception {
    TaskRef ref = tb.ref();
    // the entries of the tasks before this one (a finished task's replay may find later ones not yet cut)
    int before = lib.entriesOf(prefix);
    if (tb.skipped()) {
      replay(c, ref, mode, lib);
      c.progress.finished(mode, ref.domain(), "resumed");
      return new ModeOutcome(ref, mode, before, true);
    }
    if (tb.baseFailed()) {
      c.progress.finished(mode, ref.domain(), "failed");
      return new ModeOutcome(ref, mode, before, false);
    }
    TaskScope s = c.scope(ref.task(), mode, lib.shown());
    // the wall clock, for the metric vector's mode time only: no result depends on it
    java.time.Instant started = java.time.Instant.now();
    Map<String, Object> res = result(c, ref, tb.base(), "partial");
    Map<String, Object> modes = (Map<String, Object>) res.get("modes");
    Map<String, Object> sels = (Map<String, Object>) res.get("selections");
    List<Object> errors = (List<Object>) res.get("errors");
    LinkedHashMap<String, String> baseTree = TreeIO.read(c.bench.surface(), c.bench.baseHarness(), null);
    try {
      // a base the host kept from starting fails the mode here, as a candidate's does in the driver (HostFailure)
      Roller.requireStarted(tb.base());
      ModeResult mr = switch (mode) {
        case "agg" -> Drivers.parallel(s, baseTree, tb.base());
        case "seq" -> Drivers.sequential(s, baseTree, tb.base());
        default -> Gated.run(s, baseTree, tb.base(), c.method, c.policy, c.config.gate().minWinMargin());
      };
      modes.put(mode, mr.toJson());
      Path selFolder = s.workDir().resolve("selection").resolve(mode + c.config.k());
      SelectionRecord sel = mode.equals("gat")
          ? Selector.deliver(c.bench, ref.task(), mode, c.config.k(), Selector.pool(mr.finals, mr.rollouts), selFolder,
              "The gated mode's final harness (" + mr.gate.get("final_harness") + ") was delivered by its latest"
                  + " delivered episode; the gated mode runs no last selection.")
          : Selector.select(c.bench, c.selector, ref.task(), mode, c.config.k(),
              Selector.pool(mr.finals, mr.rollouts), selFolder, c.config.idSalt());
      if (sel.ok) Reflector.reflect(s, mr, sel);
      Map<String, Object> sj = sel.toJson();
      Map<String, String> chosenTree = sel.chosenLabel.isEmpty() || !mr.trees.containsKey(sel.chosenLabel)
          ? baseTree : mr.trees.get(sel.chosenLabel);
      sj.put("chosen_tree_is_base", DiffSummary.of(baseTree, chosenTree).unchanged());
      if (!sel.chosenLabel.isEmpty()) {
        sj.put("harness_fingerprint",
            Runmark.fingerprint(s.workDir().resolve("harnesses").resolve(sel.chosenLabel)));
      }
      sels.put(mode, sj);
      if (!sel.ok) {
        errors.add(mode + ": selection failed: " + sel.error);
      } else {
        RunView chosen = mr.rollouts.get(sel.chosenLabel);
        if (chosen == null || !chosen.delivered()) {
          errors.add(mode + ": selected run " + sel.chosenRunId + " produced no deliverable");
        }
        if (Library.hasExperience(sel.experience)) {
          lib.add(ref.task(), chosenTree, sel.why, sel.chosenLabel, sel.chosenRunId, sel.experience);
        }
      }
    } catch (Exception | AssertionError e) {
      if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
        throw e; // the runner is cancelling this element: not a failure of the mode, and nothing to record
      }
      if (dev.h2beam.adapters.files.DiskFull.storage(e)) {
        // storage that takes no more writes (a full disk, a read-only mount), not the mode's: recorded as the task's
        // failure, the chain would go on to its later tasks with a library missing this one's entry, and a
        // resume would run them all again; the chain stops here, and the sweep says what to fix
        throw e;
      }
      Map<String, Object> failed = new LinkedHashMap<>();
      failed.put("ok", false);
      failed.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
      failed.put("traceback", tail(e, 1500));
      modes.put(mode, failed);
      errors.add(mode + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
    } finally {
      // the candidates' harnesses this mode noted as written are read from disk by anything after it
      WrittenTrees.forget(s.workDir());
    }
    // cancelled after the mode's last step: its dead rollouts and refused sessions are the cancel's, not the mode's,
    // so nothing is checkpointed and the retried element runs the mode again (reusing what completed)
    recordNothingIfCancelled(mode + " of " + ref.task());
    SummaryFile.writePart(c.summaryPath(ref.task()), mode, res);
    ModeTiming.write(c.config, mode, ref.task(), started, java.time.Instant.now(), c.summaryPath(ref.task()),
        modes.get(mode), sels.get(mode));
    c.progress.finished(mode, ref.domain(), errors.isEmpty() ? "done" : "failed");
    return new ModeOutcome(ref, mode, before, false);
  }

  /**
   * Recomputes the final status once every mode of the task is done. Its console line ({@link #line}) is printed by
   * the caller, in stream order: the pipeline's tasks finish in no set order (their modes are grouped by task first).
   */
  public static TaskRow finish(SweepContext c, TaskRef ref, List<ModeOutcome> outcomes) throws IOException {
    Map<String, Integer> entries = new LinkedHashMap<>();
    for (String m : c.config.modes()) {
      for (ModeOutcome o : outcomes) if (o.mode().equals(m)) entries.put(m, o.libraryEntriesBefore());
    }
    boolean skipped = !outcomes.isEmpty() && outcomes.stream().allMatch(ModeOutcome::skipped);
    TaskRow row;
    if (skipped) {
      row = new TaskRow(ref, "skipped", "", entries);
    } else {
      // the task's one writer merges its modes' parts (each written by its own chain) into summary.json
      row = row(ref, SummaryFile.mergeParts(c.summaryPath(ref.task())), entries);
    }
    return row;
  }

  /**
   * The row of a task that ran, from its merged summary ({@code written}; null when no mode recorded a result): its
   * status and, unless ok, its errors. Also how a client tells a task its command ran before a restart of the job,
   * which the restarted job skipped as done ({@code Sweep.taskLines}).
   */
  @SuppressWarnings("unchecked")
  public static TaskRow row(TaskRef ref, Map<String, Object> written, Map<String, Integer> entries) {
    if (written == null) {
      written = Map.of("status", "partial", "errors", List.of("no mode recorded a result for this task"));
    }
    String status = String.valueOf(written.get("status"));
    List<Object> errors = (List<Object>) written.getOrDefault("errors", List.of());
    List<String> texts = new ArrayList<>();
    for (Object e : errors) texts.add(String.valueOf(e));
    String error = status.equals("ok") ? "" : (texts.isEmpty() ? status : String.join("; ", texts));
    if (status.equals("base-failed")) error += firstBaseFailure(written).map(f -> "; " + f).orElse("");
    return new TaskRow(ref, status, error, entries);
  }

  /** A finished task's console line: {@code [domain] i/n status task  :: error}. */
  public static String line(TaskRow row) {
    TaskRef ref = row.ref();
    return String.format(Locale.ROOT, "  [%s] %d/%d %-12s %s%s", ref.domain(), ref.position(), ref.domainSize(),
        row.status(), ref.task(), row.error().isEmpty() ? "" : "  :: " + row.error());
  }

  private static void replay(SweepContext c, TaskRef ref, String mode, Library lib) throws IOException {
    // the task's entry as its summary records it: stored, or none (an entry left from before goes)
    if (!replayed(c, ref, mode, lib)) lib.forget(List.of(ref.task()));
  }

  @SuppressWarnings("unchecked")
  private static boolean replayed(SweepContext c, TaskRef ref, String mode, Library lib) throws IOException {
    Map<String, Object> summary = SummaryFile.read(c.summaryPath(ref.task()));
    Object sels = summary.get("selections");
    if (!(sels instanceof Map) || !(((Map<String, Object>) sels).get(mode) instanceof Map)) return false;
    Map<String, Object> sel = (Map<String, Object>) ((Map<String, Object>) sels).get(mode);
    String label = String.valueOf(sel.getOrDefault("chosen_label", ""));
    Map<String, String> exp = new LinkedHashMap<>();
    if (sel.get("experience") instanceof Map) {
      for (Map.Entry<String, Object> e : ((Map<String, Object>) sel.get("experience")).entrySet()) {
        exp.put(e.getKey(), String.valueOf(e.getValue()));
      }
    }
    if (!Boolean.TRUE.equals(sel.get("ok")) || label.isEmpty() || !Library.hasExperience(exp)) return false;
    Path harness = c.ns(mode).taskDir(c.config.runs(), ref.task()).resolve("harnesses").resolve(label);
    return lib.add(ref.task(), TreeIO.read(c.bench.surface(), harness, null),
        String.valueOf(sel.getOrDefault("why", "")), label, String.valueOf(sel.getOrDefault("chosen_run_id", "")), exp);
  }

  private static Map<String, Object> result(SweepContext c, TaskRef ref, List<RunView> base, String status) {
    Map<String, Object> res = new LinkedHashMap<>();
    res.put("task_id", ref.task());
    res.put("domain", ref.domain());
    res.put("k", c.config.k());
    res.put("seed", c.config.seed());
    res.put("status", status);
    List<Object> baseJson = new ArrayList<>();
    for (RunView b : base) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("label", b.label());
      m.put("run_id", b.runId());
      m.put("run_dir", b.runDir());
      baseJson.add(m);
    }
    res.put("base", baseJson);
    res.put("modes", new LinkedHashMap<String, Object>());
    res.put("selections", new LinkedHashMap<String, Object>());
    res.put("errors", new ArrayList<Object>());
    return res;
  }

  /** The most of a dead rollout's error a summary and a progress line carry. */
  static final int REASON_CHARS = 400;
  /** How much of a longer error's end is kept: the JDK puts the reason after the path ("...: File name too long"). */
  static final int REASON_TAIL_CHARS = 120;

  /**
   * A dead rollout's error as a summary and a progress line quote it: the rollout's text is untrusted (an agent's or
   * a server's words), so its first line only, without control characters or anything shaped like a key, capped by
   * its middle, so that a long path does not push out the reason that follows it (dogX F8).
   */
  static String reason(String error) {
    String line = error.strip().lines().findFirst().orElse("");
    line = KeyShapes.redact(line).replaceAll("\\p{Cntrl}", "?");
    if (line.isEmpty()) return "(no reason given)";
    if (line.length() <= REASON_CHARS) return line;
    int head = REASON_CHARS - REASON_TAIL_CHARS;
    return line.substring(0, head) + " … " + line.substring(line.length() - REASON_TAIL_CHARS);
  }

  /** The first base rollout a base-failed summary records a reason for, as {@code base1 failed: <reason>}. */
  static Optional<String> firstBaseFailure(Map<String, Object> summary) {
    if (!(summary.get("base") instanceof List<?> base)) return Optional.empty();
    for (Object o : base) {
      if (o instanceof Map<?, ?> m && m.get("error") instanceof String why && !why.isEmpty()) {
        return Optional.of(m.get("label") + " failed: " + why);
      }
    }
    return Optional.empty();
  }

  private static Path moveAside(Path summary) throws IOException {
    Path aside = summary.resolveSibling("summary.json.unreadable");
    for (int i = 1; Files.exists(aside); i++) aside = summary.resolveSibling("summary.json.unreadable." + i);
    Files.move(summary, aside);
    return aside;
  }

  private static String tail(Throwable e, int n) {
    StringWriter sw = new StringWriter();
    e.printStackTrace(new PrintWriter(sw));
    String t = sw.toString();
    return t.length() <= n ? t : t.substring(t.length() - n);
  }
}
