package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.assertStatuses;
import static dev.h2beam.demo.DemoRuns.at;
import static dev.h2beam.demo.DemoRuns.demo;
import static dev.h2beam.demo.DemoRuns.demoJson;
import static dev.h2beam.demo.DemoRuns.summary;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.transforms.evidence.VerdictTripwire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** harness2's workflow tests (spec §17) ported to the Beam demo, plus h2beam's own guards. */
class DemoWorkflowTest {

  @AfterEach
  void resetChannel() {
    ScriptedFaultsChannelProvider.override = label -> null;
  }

  /**
   * The README's replicate recipe: the demo at seeds 1, 2 and 3 into one folder, then one report over the three.
   * Each seed orders the tasks its own way; the run identity must not, or the report refuses its own recipe as
   * "not replicates".
   */
  /** A judged row's absence reason, in its raw; the row holds harness2's keys alone (spec §2.12). */
  @SuppressWarnings("unchecked")
  static Object absence(Map<String, Object> row) {
    assertEquals(List.of("task_id", "mode", "k", "label", "run_id", "chosen_is_base", "n_passed", "n_criteria",
        "all_pass", "raw", "error", "frac", "graded"), List.copyOf(row.keySet()), row.toString());
    return ((Map<String, Object>) row.get("raw")).get("absence");
  }

  @Test
  void theReadmesReplicatesDifferOnlyInSeedAndAreReportedTogether(@TempDir Path out) throws Exception {
    for (int seed = 1; seed <= 3; seed++) assertEquals(0, demo(out, "--seed=" + seed));
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int exit = new dev.h2beam.pipelines.report.ReportCommand().run(new String[] {"--namespaces="
        + out.resolve("runs") + "/demo-oc-agg2-s*", "--output=" + out.resolve("replicates")},
        new java.io.PrintStream(text, true, java.nio.charset.StandardCharsets.UTF_8),
        new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(0, exit, err.toString(java.nio.charset.StandardCharsets.UTF_8));
    assertTrue(text.toString(java.nio.charset.StandardCharsets.UTF_8).contains("| 3 replicates, 6 task pairs"),
        text.toString(java.nio.charset.StandardCharsets.UTF_8));
    // harness2's rule, the default: every replicate of a task shows the selector the same ids, and the report says so
    for (String task : List.of("ledger-1", "ledger-2")) {
      for (String mode : List.of("agg", "seq")) {
        Object first = null;
        for (int seed = 1; seed <= 3; seed++) {
          Map<String, Object> s = dev.h2beam.transforms.summary.SummaryFile.read(out.resolve("runs/demo-oc-agg2-s"
              + seed).resolve(task).resolve("summary.json"));
          Object ids = at(s, "selections", mode).get("id_map");
          if (first == null) first = ids;
          assertEquals(first, ids, task + " " + mode + " seed " + seed);
        }
      }
    }
    assertTrue(text.toString(java.nio.charset.StandardCharsets.UTF_8).contains("are harness2's (spec §19.2)"));
  }

  @Test
  void aTamperedAdoptedHarnessReRunsOnlyThatTask(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out));
    String chosen = (String) at(summary(out, 2, "ledger-1"), "selections", "seq").get("chosen_label");
    Path script = out.resolve("runs/demo-oc-seq2/ledger-1/harnesses/" + chosen + "/scripts/summarize.sh");
    Files.writeString(script, Files.readString(script) + "# tampered\n");
    assertEquals(0, demo(out));
    assertStatuses(demoJson(out), "ok", "skipped");
  }

  @Test
  void aMissingChosenDeliverableReRunsOnlyThatTask(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out));
    Path runDir = Path.of((String) at(summary(out, 2, "ledger-1"), "selections", "agg").get("chosen_run_dir"));
    Files.delete(runDir.resolve("answer.txt"));
    assertEquals(0, demo(out));
    assertStatuses(demoJson(out), "ok", "skipped");
    assertEquals("Total: 85.15\n", Files.readString(runDir.resolve("answer.txt")));
  }

  @Test
  void evidenceIsCompleteLeakFreeAndShowsOnlyTheLibraryPrefix(@TempDir Path out) throws Exception {
    DemoBenchmark.setUp(out);
    Files.writeString(out.resolve("sources/ledger-1/reference_answer.txt"), "{\"pass_rate\": 1}\n");
    assertEquals(0, demo(out));
    Path seq = out.resolve("runs/demo-oc-seq2/ledger-1");
    Path reflection = seq.resolve("reflection/seq2");
    for (String rel : List.of("source/ledger.csv", "rollouts/base1.md", "rollouts/c2.md", "pool/inv1/harness.diff",
        "decisions/c1.md", "adoption.json", "base_harness/scripts/summarize.sh", "harness/scripts/summarize.sh")) {
      assertTrue(Files.isRegularFile(reflection.resolve(rel)), rel);
    }
    assertTrue(Files.isRegularFile(seq.resolve("context/inv2/pool/c1/rollout.md")), "round 2 sees checkpoint c1");
    DemoSweepTest.assertNoFileNamed(out.resolve("runs"), "reference_answer.txt");
    // the folder kept in the run holds the library's index (the entries stay in the library), naming ledger-1 only
    Path shown = out.resolve("runs/demo-oc-seq2/ledger-2/context/inv1/library");
    try (var s = Files.list(shown)) {
      assertEquals(List.of("INDEX.md"), s.map(p -> p.getFileName().toString()).toList());
    }
    String index = Files.readString(shown.resolve("INDEX.md"));
    assertTrue(index.contains("harnesses/ledger-1/EXPERIENCE.md") && !index.contains("ledger-2"), index);
    assertThrows(HarnessRejected.class,
        () -> VerdictTripwire.assertNone(Map.of("EXPERIENCE.md", "\"pass_rate\": 1")));
  }

  @Test
  void noEntryAndAFailedReflectionStayOutOfTheLibraryOnResume(@TempDir Path out) throws Exception {
    ScriptedFaultsChannelProvider.override = label -> {
      if (label.startsWith("experience.") && label.endsWith("seq1")) return SessionResult.failed("reflector down", 1);
      if (label.startsWith("experience.")) return SessionResult.reply("NO_ENTRY", 1);
      return null;
    };
    assertEquals(0, demo(out, "--k=1", "--channel=scripted-faults"));
    assertEquals(0, demo(out, "--k=1", "--channel=scripted-faults"));
    assertStatuses(demoJson(out), "skipped", "skipped");
    assertEquals(List.of(), DemoSweepTest.libraryEntries(out, 1, "agg"));
    assertEquals(List.of(), DemoSweepTest.libraryEntries(out, 1, "seq"));
    Map<String, Object> s = summary(out, 1, "ledger-1");
    assertEquals(1.0, at(s, "selections", "agg").get("usd"));
    assertEquals(2.0, at(s, "selections", "seq").get("usd"));
  }

  /**
   * A run whose improver failed in every session finished every task (each stage fell back to the harness it was to
   * edit, as harness2's), and exited 0 as a good run would: a script that judged on exit 0 published the base
   * harness's results as the method's. It exits 3; one improver session that answered is enough for 0.
   */
  @Test
  void aRunWhoseEveryImproverStageFellBackExitsThree(@TempDir Path out) throws Exception {
    ScriptedFaultsChannelProvider.override = label -> label.startsWith("select.") || label.startsWith("experience.")
        ? null : SessionResult.failed("improver down", 1);
    assertEquals(3, demo(out, "--k=1", "--channel=scripted-faults"));
    assertStatuses(demoJson(out), "ok", "ok");
    java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
    ScriptedFaultsChannelProvider.override = label -> label.startsWith("select.") || label.startsWith("experience.")
        || first.getAndSet(false) ? null : SessionResult.failed("improver down", 1);
    assertEquals(0, demo(out.resolve("one-answered"), "--k=1", "--channel=scripted-faults"));
  }

  @Test
  void aFailedSelectionFallsBackButIsNeverOk(@TempDir Path out) throws Exception {
    ScriptedFaultsChannelProvider.override =
        label -> label.startsWith("select.") ? SessionResult.failed("selector down", 1.5) : null;
    assertEquals(1, demo(out, "--channel=scripted-faults"));
    Map<String, Object> s = summary(out, 2, "ledger-1");
    assertEquals("partial", s.get("status"));
    for (String mode : List.of("agg", "seq")) {
      Map<String, Object> sel = at(s, "selections", mode);
      assertEquals(3.0, sel.get("usd"));
      assertEquals(false, sel.get("ok"));
      assertEquals(true, sel.get("fallback"));
      assertEquals(mode.equals("agg") ? "agg1" : "c1", sel.get("chosen_label"));
    }
    assertEquals(List.of(), DemoSweepTest.libraryEntries(out, 2, "agg"), "a fallback is never reflected or stored");
    List<Map<String, Object>> judged = judgedRows(out.resolve("runs/demo-oc-agg2"));
    assertEquals(4, judged.size());
    for (Map<String, Object> row : judged) {
      assertEquals(false, row.get("graded"), "a failed selection is never judged");
      assertNull(row.get("n_passed"), "an absence, never a zero");
      assertEquals("selection-failed", absence(row));
    }
  }

  @Test
  void aDuplicateLedgerLabelFailsTheModeAndSelectsNothing(@TempDir Path out) throws Exception {
    assertEquals(1, demo(out, "--k=1", "--inject=ledger-duplicate@ledger-1/agg"));
    Map<String, Object> s = summary(out, 1, "ledger-1");
    assertEquals("partial", s.get("status"));
    Map<String, Object> agg = at(s, "modes", "agg");
    assertEquals(false, agg.get("ok"));
    String error = (String) agg.get("error");
    assertTrue(error.startsWith("BudgetError: "), error);
    assertTrue(error.contains("duplicate labels [base1]") && error.contains("rollouts [base1, inv1, dom1, agg1, base1]"),
        error);
    assertNull(at(s, "selections", "agg"), "a mode off budget is never selected");
    assertEquals(true, at(s, "selections", "seq").get("ok"), "the other mode is unaffected");
    assertStatuses(demoJson(out), "partial", "ok");
    // dogQ #2: the failed mode is an absence with its reason in judged.json and metrics.json, and the report says
    // what it leaves out, instead of a task missing from one mode
    Map<String, Object> row = judgedRows(out.resolve("runs/demo-oc-agg1")).stream()
        .filter(r -> r.get("task_id").equals("ledger-1") && r.get("mode").equals("agg")).findFirst().orElseThrow();
    assertEquals("mode-failed", absence(row), row.toString());
    assertEquals(false, row.get("graded"), row.toString());
    assertTrue(((String) row.get("error")).startsWith("agg: BudgetError: "), row.toString());
    String metrics = Files.readString(out.resolve("runs/demo-oc-agg1/metrics.json"));
    assertTrue(metrics.contains("\"score\": \"mode-failed\""), metrics);
    String report = Files.readString(out.resolve("report/report.txt"));
    assertTrue(report.contains("parallel k=1: n=  1 | score withheld | picked output: final 1 / candidate 0 / base 0"
        + " | ungraded 1"), report);
    assertTrue(report.contains("tasks on which a mode failed before selecting (parallel k=1: 1)"), report);
    assertTrue(report.contains("C1 same task set: holds"), report);
  }

  @Test
  void anUnreadableSummaryIsMovedAsideAndOnlyThatTaskReRuns(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path summary = out.resolve("runs/demo-oc-agg1/ledger-1/summary.json");
    Files.writeString(summary, "{ not json");
    assertEquals(0, demo(out, "--k=1"));
    assertStatuses(demoJson(out), "ok", "skipped");
    assertEquals("{ not json", Files.readString(summary.resolveSibling("summary.json.unreadable")));
    assertEquals(0, DemoRuns.count(demoJson(out), "execution_count"), "its rollouts were reused");
  }

  @Test
  void aCorruptReplyCacheEntryIsCalledAgain(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path audit = out.resolve("runs/_audit/demo-oc-agg1");
    List<Path> metas;
    try (var s = Files.list(audit)) {
      // inv1.a1 of both tasks and both modes: labels do not name the task, the cache key does
      metas = s.filter(p -> p.getFileName().toString().startsWith("inv1.a1.") && p.toString().endsWith(".meta.json"))
          .toList();
    }
    assertEquals(4, metas.size());
    for (Path m : metas) Files.writeString(m, "garbage");
    for (String task : List.of("ledger-1", "ledger-2")) {
      Files.delete(out.resolve("runs/demo-oc-agg1/" + task + "/summary.json"));
    }
    assertEquals(0, demo(out, "--k=1"));
    assertStatuses(demoJson(out), "ok", "ok");
    assertEquals(4, DemoRuns.count(demoJson(out), "editor_calls"), "exactly the corrupt entries' sessions ran again");
    for (Path m : metas) assertFalse(Files.readString(m).equals("garbage"), "the entry was rewritten: " + m);
  }


  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> judgedRows(Path ns) throws Exception {
    return (List<Map<String, Object>>) (List<?>) dev.h2beam.adapters.files.Json.MAPPER.readValue(
        Files.readString(ns.resolve("judged.json")), List.class);
  }

  @Test
  void theDemoJudgesEveryChosenOutputAsCorrect() throws Exception {
    List<Map<String, Object>> judged = judgedRows(DemoRuns.cleanDemo().resolve("runs/demo-oc-agg2"));
    assertEquals(4, judged.size());
    for (Map<String, Object> row : judged) {
      assertEquals(true, row.get("all_pass"), row.toString());
      assertEquals(1.0, row.get("frac"));
    }
  }

  /** Writes {@code dir}'s writer lock as held by {@code holder}, a live process, for {@code what}. */
  static void lockedBy(Path dir, Process holder, String what) throws Exception {
    Files.writeString(dir.resolve(dev.h2beam.adapters.files.WriterLock.FILE), "{\"what\": \"" + what + "\", \"host\":"
        + " \"" + dev.h2beam.adapters.files.WriterLock.host() + "\", \"pid\": " + holder.pid() + ", \"started_at\":"
        + " \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
  }

  /**
   * dogU: a judge wrote its grader's identity into config.json before it took the namespace's lock. One refused by
   * the lock had still rewritten the namespace, and one that waited replaced the grades another grader made in the
   * meantime; and a sweep that began during the wait ran beside it. The identity is now checked and written under
   * the lock, after a second look for a sweep.
   */
  @Test
  void aJudgeRefusedByTheLockOrBySweepBegunWhileItWaitedWritesNothing(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path ns = out.resolve("runs/demo-oc-agg1");
    Files.delete(ns.resolve("judged.json"));
    Files.delete(ns.resolve("metrics.json"));
    byte[] config = Files.readAllBytes(ns.resolve("config.json"));
    var o = org.apache.beam.sdk.options.PipelineOptionsFactory.fromArgs("--namespaces=" + ns, "--grader=noop")
        .as(dev.h2beam.pipelines.judge.JudgeOptions.class);
    Process judge = new ProcessBuilder("sleep", "60").start();
    Process sweep = new ProcessBuilder("sleep", "60").start();
    try {
      lockedBy(ns, judge, "judge");
      assertThrows(Exception.class, () -> dev.h2beam.pipelines.judge.JudgeCommand.run(o, System.out));
      assertArrayEquals(config, Files.readAllBytes(ns.resolve("config.json")), "a refused judge writes nothing");

      // the same judge waits; a sweep of the namespace begins, then the other judge ends
      o.setLockWaitSeconds(60);
      java.util.concurrent.CompletableFuture<Integer> waiting = java.util.concurrent.CompletableFuture.supplyAsync(
          () -> {
            try {
              return dev.h2beam.pipelines.judge.JudgeCommand.run(o, System.out);
            } catch (Exception e) {
              throw new java.util.concurrent.CompletionException(e);
            }
          });
      Thread.sleep(1500);
      lockedBy(out.resolve("runs"), sweep, "sweep of demo-oc-agg1 demo-oc-seq1");
      judge.destroy();
      judge.waitFor();
      java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
          () -> waiting.get(60, java.util.concurrent.TimeUnit.SECONDS));
      assertTrue(e.getCause().getMessage().contains("is being swept by a sweep of demo-oc-agg1"),
          e.getCause().getMessage());
      assertArrayEquals(config, Files.readAllBytes(ns.resolve("config.json")));
      assertFalse(Files.exists(ns.resolve("judged.json")));
    } finally {
      judge.destroy();
      sweep.destroy();
    }
  }

  @Test
  void aTamperedChosenAnswerIsNotGradedEvidenceChanged(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path runDir = Path.of((String) at(summary(out, 1, "ledger-2"), "selections", "seq").get("chosen_run_dir"));
    Files.writeString(runDir.resolve("answer.txt"), "Total: 999.99\n");
    Files.delete(out.resolve("runs/demo-oc-agg1/judged.json"));
    var o = org.apache.beam.sdk.options.PipelineOptionsFactory.fromArgs("--namespaces=" + out.resolve(
        "runs/demo-oc-agg1")).as(dev.h2beam.pipelines.judge.JudgeOptions.class);
    assertEquals(2, dev.h2beam.pipelines.judge.JudgeCommand.run(o, System.out));
    Map<String, Object> row = judgedRows(out.resolve("runs/demo-oc-agg1")).stream()
        .filter(r -> r.get("task_id").equals("ledger-2") && r.get("mode").equals("seq")).findFirst().orElseThrow();
    assertEquals(false, row.get("graded"));
    assertEquals("evidence-changed", absence(row));
  }

  @Test
  void aBaseHarnessThatProducesNothingMarksEveryTaskBaseFailed(@TempDir Path out) throws Exception {
    DemoBenchmark.setUp(out);
    Files.writeString(out.resolve("base/scripts/summarize.sh"), "echo broken >&2\nexit 3\n");
    assertEquals(1, demo(out, "--k=1"));
    assertStatuses(demoJson(out), "base-failed", "base-failed");
    Map<String, Object> s = summary(out, 1, "ledger-1");
    assertEquals("base-failed", s.get("status"));
    assertEquals(List.of("no base rollout produced anything"), s.get("errors"));
    assertEquals(Map.of(), s.get("modes"), "no mode ran");
    assertEquals(0, DemoRuns.count(demoJson(out), "editor_calls"), "no improver was called");
    // dogT: each judged mode has an ungraded row, base-failed, where there was none and nothing to report; the report
    // now says no task is graded, and why, instead of leaving the tasks out
    List<Map<String, Object>> rows = judgedRows(out.resolve("runs/demo-oc-agg1"));
    assertEquals(4, rows.size(), rows.toString());
    for (Map<String, Object> row : rows) assertEquals("base-failed", absence(row), row.toString());
    String report = Files.readString(out.resolve("report/report.txt"));
    assertTrue(report.contains("  parallel k=1: no graded task | ungraded 2\n") && report.contains("  sequential k=1:"
        + " no graded task | ungraded 2\n"), report);
    assertTrue(report.contains("    absent: seed none (demo-oc-agg1) parallel ledger-1, ledger-2: base-failed\n"),
        report);
  }
}
