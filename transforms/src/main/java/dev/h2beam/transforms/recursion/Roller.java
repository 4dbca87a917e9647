package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.exec.HostFailure;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.JvmExit;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.files.Uninterruptible;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RolloutFailed;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.tree.TreeIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Rolls harnesses (spec §6.2): materialises the tree under {@code harnesses/<label>}, executes it within the rollout
 * limit, and turns the outcome into a {@link RunView}. A rollout never throws: a failure is a dead rollout. Every
 * execution that actually ran (not reused) is journalled, with when it held a slot of the rollout limit; a failed
 * one with {@code "ok": false} and its error.
 */
public final class Roller {
  private Roller() {}

  /**
   * The run ids this process is executing, from the execution's start until its journal line: a second thread that
   * finds such a run already complete (the runner retried the element while the cancelled attempt finished) leaves
   * the journal line to the first.
   */
  private static final Set<String> EXECUTING = ConcurrentHashMap.newKeySet();

  /**
   * The run ids of base rollouts this process found complete and reused rather than ran, until their task is counted
   * ({@link #reusedAll}): so that a task whose bases all came from their marks (a resume after a kill, a retry) is not
   * counted as rolled.
   */
  private static final Set<String> REUSED = ConcurrentHashMap.newKeySet();

  /**
   * Whether every one of {@code bases} was reused ({@link #execute} found it complete); each is forgotten here. False
   * for none.
   */
  public static boolean reusedAll(List<RunView> bases) {
    boolean all = !bases.isEmpty();
    for (RunView b : bases) all &= REUSED.remove(b.runId());
    return all;
  }

  /**
   * Rolls {@code tree} (null: the benchmark's unmodified base harness) as {@code label}.
   *
   * @throws HostFailure the rollout could not start because of the host: not a dead rollout of the method, but a
   *     failure of the mode, which the same command runs again
   */
  public static RunView roll(TaskScope s, String label, Map<String, String> tree) {
    Path harnessDir = null;
    try {
      if (tree != null) {
        VerdictTripwire.assertNone(tree);
        harnessDir = s.workDir().resolve("harnesses").resolve(label);
        TreeIO.writeHarness(s.bench().surface(), tree, harnessDir, true);
      }
    } catch (Exception e) {
      HostFailure.of("rollout " + label + " could not start", e).ifPresent(h -> {
        throw h;
      });
      return RunView.dead(label, s.runId(label), s.workDir().resolve("missing").toString(), describe(e), 0.0, true,
          Tokens.NONE);
    }
    RunView v = execute(s.bench(), s.task(), label, s.runId(label), harnessDir, s.rollouts(), s.executionsJournal(),
        s.workDir().resolve("missing"));
    if (HostFailure.isRecorded(v.error())) throw HostFailure.recorded(v.error());
    return v;
  }

  /**
   * Fails with the first of {@code bases} that could not start because of the host ({@link HostFailure}): a mode
   * that ran on the others would drop it as if the method had, and its task would pass for finished.
   */
  public static void requireStarted(List<RunView> bases) {
    for (RunView b : bases) if (HostFailure.isRecorded(b.error())) throw HostFailure.recorded(b.error());
  }

  /** Executes one run id; shared by the base rollouts, which run before any mode. */
  public static RunView execute(Benchmark bench, String task, String label, String runId, Path harnessDir,
      Semaphore limit, Path journal, Path missing) {
    // the fingerprint is taken before the execution although a reused rollout does not need it: the exit's wait
    // covers the span from execution to journal line, but kill -9 does not, and the line then follows the
    // benchmark's completion mark with nothing but the append between them
    // a candidate's harness was just written by its task: fingerprinted from what was written
    String harness = Runmark.fingerprintWritten(harnessDir);
    Rollout r;
    try {
      limit.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the runner is cancelling: stop waiting, let the caller see the interrupt
      return RunView.dead(label, runId, missing.toString(), "interrupted before the rollout started", 0.0, true,
          Tokens.NONE);
    }
    if (JvmExit.begun()) {
      // a slot freed while the exit waits for the rollouts in flight: nothing new starts then, and the chain stops
      // here as for a cancellation, instead of going on to sessions over a dead rollout
      limit.release();
      Thread.currentThread().interrupt();
      return RunView.dead(label, runId, missing.toString(), "h2beam is exiting: the rollout was not started", 0.0,
          true, Tokens.NONE);
    }
    // the benchmark marks the run complete as the execution ends and the journal line follows: an exit between the
    // two (a sibling's crash fails the job and the command exits) would leave a marked run that a resume reuses and
    // the journal never records, so the exit waits for the whole span (kill -9 can still cut it: README, Retries)
    boolean first = EXECUTING.add(runId);
    try (Uninterruptible.Hold span = Uninterruptible.hold()) {
      // the journal's times, not an input to any result: the wall clock, so workers' records compare
      Instant started = Instant.now();
      Instant ended;
      Exception failure = null;
      try {
        // the benchmark's own fingerprint of the harness (for its marker) is the one just taken
        r = Runmark.knowing(harnessDir, harness, () -> bench.execute(task, harnessDir, runId));
      } catch (Exception e) {
        failure = e;
        r = null;
      } finally {
        ended = Instant.now();
        limit.release();
      }
      if (failure != null) return failed(journal, runId, harness, label, missing, failure, started, ended);
      if (r.reused() && label.startsWith("base")) REUSED.add(runId);
      try {
        if (!r.reused()) {
          Journal.append(journal, runId, Json.canonical(line(runId, harness, r.costUsd(), r.costKnown(),
              r.tokens(), List.of(Journal.held(started, ended)))));
        } else if (first) {
          journalIfLost(journal, runId, harness, r);
        }
      } catch (Exception e) {
        System.err.println("h2beam: could not journal execution " + runId + ": " + e.getMessage());
      }
    } finally {
      if (first) EXECUTING.remove(runId);
    }
    boolean ok = Files.isDirectory(r.runDir());
    boolean delivered = ok && bench.delivered(r.runDir());
    return new RunView(label, runId, r.runDir().toAbsolutePath().toString(), ok, delivered, r.costUsd(), r.wallS(),
        ok ? "" : "adapter returned a missing run directory", r.costKnown(), r.tokens());
  }

  /**
   * The dead rollout of an execution that threw. A rollout that ran and failed reports its cost
   * ({@link RolloutFailed}); any other exception reports nothing of what was spent, which is then not known. It is
   * journalled, with
   * {@code "ok": false} and its {@code error}, as a failed session is: it held a slot, and what it cost was spent. Not
   * when the runner is cancelling the element: that rollout runs again in the retried element, and the journal's
   * records of completed work stay one per run id.
   */
  private static RunView failed(Path journal, String runId, String harness, String label, Path missing,
      Exception failure, Instant started, Instant ended) {
    // an interrupted execution (the runner cancelling the element) throws InterruptedException, which clears the
    // thread's interrupt: keep it, or the cancelled element carries on past this dead rollout on the runner's
    // thread, runs the next stages' sessions on evidence showing it dead, and the retried element, which rolls
    // it again, runs those sessions a second time under other cache keys
    if (failure instanceof InterruptedException) Thread.currentThread().interrupt();
    // a rollout the host kept from starting: its error is the HostFailure's own, which roll() and the modes see
    java.util.Optional<HostFailure> host = HostFailure.of("rollout " + label + " could not start", failure);
    if (host.isPresent()) failure = host.get();
    RunView dead = failure instanceof RolloutFailed f
        ? RunView.dead(label, runId, missing.toString(), describe(failure), f.costUsd(), f.costKnown(), f.tokens())
        : RunView.dead(label, runId, missing.toString(), describe(failure), 0.0, false, Tokens.UNKNOWN);
    if (Thread.currentThread().isInterrupted()) return dead;
    try {
      Map<String, Object> line = line(runId, harness, dead.costUsd(), dead.costKnown(), dead.tokens(),
          List.of(Journal.held(started, ended)));
      line.put("ok", false);
      line.put("error", dead.error());
      Journal.append(journal, Json.canonical(line)); // no run id's record of completed work: it runs again
    } catch (Exception e) {
      System.err.println("h2beam: could not journal failed execution " + runId + ": " + e.getMessage());
    }
    return dead;
  }

  /**
   * A reused run with no journal line: the process that executed it was killed between the benchmark's completion
   * mark and the line. The line is appended now, marked recovered, with the interval the mark implies (its time less
   * the run's wall time) and the fingerprint the mark names, so the journal holds every execution once.
   */
  private static void journalIfLost(Path journal, String runId, String harness, Rollout r) throws Exception {
    // a failed execution's record is not the run's: the run that completed after it has a record of its own
    Function<Map<String, Object>, String> completedRun = m -> Boolean.FALSE.equals(m.get("ok")) ? null
        : (String) m.get("run_id");
    Journal.appendIfMissing(journal, runId, completedRun, () -> {
      com.fasterxml.jackson.databind.JsonNode mark = Runmark.readMark(r.runDir());
      List<Map<String, String>> held = List.of();
      if (mark != null && mark.path("at").isNumber()) {
        double at = mark.path("at").asDouble();
        held = List.of(Journal.held(instant(at - r.wallS()), instant(at)));
      }
      String marked = mark == null ? "" : mark.path("harness").asText("");
      Map<String, Object> line = line(runId, marked.isEmpty() ? harness : marked, r.costUsd(), r.costKnown(),
          r.tokens(), held);
      line.put(Journal.RECOVERED, "the run was complete without its journal line: the process that executed it"
          + " was killed between the two");
      return Json.canonical(line);
    });
  }

  private static Instant instant(double epochSeconds) {
    return Instant.ofEpochMilli(Math.round(epochSeconds * 1000));
  }

  /**
   * An execution's journal line; {@code cost_known} is written only when false (the cost is then what is known), its
   * tokens as {@link Journal#putTokens} has them.
   */
  private static Map<String, Object> line(String runId, String harness, double cost, boolean costKnown,
      Tokens tokens, Object held) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("run_id", runId);
    line.put("harness", harness);
    line.put("cost_usd", cost);
    if (!costKnown) line.put("cost_known", false);
    Journal.putTokens(line, tokens);
    line.put("held", held);
    return line;
  }

  static String describe(Throwable e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }
}
