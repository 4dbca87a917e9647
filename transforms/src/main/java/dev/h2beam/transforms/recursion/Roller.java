package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.files.Uninterruptible;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.tree.TreeIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * Rolls harnesses (spec §6.2): materialises the tree under {@code harnesses/<label>}, executes it within the rollout
 * limit, and turns the outcome into a {@link RunView}. A rollout never throws: a failure is a dead rollout. Every
 * execution that actually ran (not reused) is journalled, with when it held a slot of the rollout limit.
 */
public final class Roller {
  private Roller() {}

  /** Rolls {@code tree} (null: the benchmark's unmodified base harness) as {@code label}. */
  public static RunView roll(TaskScope s, String label, Map<String, String> tree) {
    Path harnessDir = null;
    try {
      if (tree != null) {
        VerdictTripwire.assertNone(tree);
        harnessDir = s.workDir().resolve("harnesses").resolve(label);
        TreeIO.write(s.bench().surface(), tree, harnessDir, true);
      }
    } catch (Exception e) {
      return RunView.dead(label, s.runId(label), s.workDir().resolve("missing").toString(), describe(e));
    }
    return execute(s.bench(), s.task(), label, s.runId(label), harnessDir, s.rollouts(), s.executionsJournal(),
        s.workDir().resolve("missing"));
  }

  /** Executes one run id; shared by the base rollouts, which run before any mode. */
  public static RunView execute(Benchmark bench, String task, String label, String runId, Path harnessDir,
      Semaphore limit, Path journal, Path missing) {
    // the fingerprint is taken before the execution although a reused rollout does not need it: the exit's wait
    // covers the span from execution to journal line, but kill -9 does not, and the line then follows the
    // benchmark's completion mark with nothing but the append between them
    String harness = Runmark.fingerprint(harnessDir);
    Rollout r;
    try {
      limit.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the runner is cancelling: stop waiting, let the caller see the interrupt
      return RunView.dead(label, runId, missing.toString(), "interrupted before the rollout started");
    }
    // the benchmark marks the run complete as the execution ends and the journal line follows: an exit between the
    // two (a sibling's crash fails the job and the command exits) would leave a marked run that a resume reuses and
    // the journal never records, so the exit waits for the whole span (kill -9 can still cut it: README, Retries)
    try (Uninterruptible.Hold span = Uninterruptible.hold()) {
      // the journal's times, not an input to any result: the wall clock, so workers' records compare
      Instant started = Instant.now();
      Instant ended;
      try {
        r = bench.execute(task, harnessDir, runId);
      } catch (Exception e) {
        return RunView.dead(label, runId, missing.toString(), describe(e));
      } finally {
        ended = Instant.now();
        limit.release();
      }
      if (!r.reused()) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("run_id", runId);
        line.put("harness", harness);
        line.put("cost_usd", r.costUsd());
        line.put("held", List.of(Journal.held(started, ended)));
        try {
          Journal.append(journal, Json.canonical(line));
        } catch (Exception e) {
          System.err.println("h2beam: could not journal execution " + runId + ": " + e.getMessage());
        }
      }
    }
    boolean ok = Files.isDirectory(r.runDir());
    boolean delivered = ok && bench.delivered(r.runDir());
    return new RunView(label, runId, r.runDir().toAbsolutePath().toString(), ok, delivered, r.costUsd(), r.wallS(),
        ok ? "" : "adapter returned a missing run directory");
  }

  static String describe(Exception e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }
}
