package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code h2beam report} end to end: files written, exit codes, messages, read-only inputs. */
class ReportCommandTest {

  /** Three seeds of one cell, each with both modes on two tasks, parallel ahead by 50 points on every task. */
  static void replicates(Path runs) throws Exception {
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      Fixtures.judged(ns, List.of(Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2),
          Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2), Fixtures.graded("ledger-2", "agg", 2, "agg2", 2, 2),
          Fixtures.graded("ledger-2", "seq", 2, "c2", 1, 2)));
      Fixtures.summary(ns, "ledger-1", 2, 0.5, 0.25, List.of(), 0.0);
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
      Fixtures.namespace(runs, "demo-oc-seq2-s" + seed);
    }
  }

  /** dogAK F9: a report replacing the folder's report of other namespaces says so; the same one again does not. */
  @Test
  void aReportThatReplacesOneOfOtherNamespacesSaysSo(@TempDir Path runs) throws Exception {
    replicates(runs);
    Fixtures.Run one = Fixtures.report("--namespaces=" + runs.resolve("demo-oc-agg2-s1"));
    assertEquals(0, one.exit(), one.err());
    assertFalse(one.out().contains("it replaced"), one.out());
    Fixtures.Run all = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*");
    assertEquals(0, all.exit(), all.err());
    assertTrue(all.out().endsWith("\n  it replaced the report there of 1 namespace (" + runs.resolve("demo-oc-agg2-s1")
        + "); give each report its own --output to keep both\n"), all.out());
    Fixtures.Run again = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s*");
    assertFalse(again.out().contains("it replaced"), again.out());
  }

  @Test
  void aGlobOverReplicatesReportsEachSeedAndTheirComparison(@TempDir Path runs) throws Exception {
    replicates(runs);
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().startsWith("demo-oc seeds=1,2,3 modes=parallel,sequential\n"), run.out());
    assertTrue(run.out().contains("  parallel k=2: n=  6 | score 100.00% | picked output: final 6 / candidate 0 /"
        + " base 0\n  sequential k=2: n=  6 | score  50.00%"), run.out());
    assertTrue(run.out().contains("  score: mean paired difference +50.00 pt (parallel - sequential) | 3 replicates,"
        + " 6 task pairs"), run.out());
    assertTrue(run.out().contains("  relation: favors-parallel | claim: exploratory"), run.out());
    assertTrue(run.out().contains("spend across reported modes: $10.50"), run.out());
  }

  /** Sets config.json's {@code key} of the namespace to {@code value}, as another sweep would have recorded it. */
  static void recorded(Path ns, String key, Object value) throws Exception {
    java.util.Map<String, Object> c = dev.h2beam.adapters.files.Json.readMap(ns.resolve("config.json"));
    c.put(key, value);
    Files.writeString(ns.resolve("config.json"), dev.h2beam.adapters.files.Json.pretty(c) + "\n");
  }

  @Test
  void namespacesWhoseTaskSetsDifferAreNotPooledAsReplicates(@TempDir Path runs) throws Exception {
    replicates(runs);
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = runs.resolve("demo-oc-agg2-s" + seed);
      // the order of the tasks follows the seed; the set is what makes them replicates
      recorded(ns, "tasks", seed == 2 ? List.of(List.of("d", "ledger-2"), List.of("d", "ledger-1"))
          : List.of(List.of("d", "ledger-1"), List.of("d", "ledger-2")));
      // where the benchmark lives and the timing may differ between replicates
      recorded(ns, "bench_root", "/bench" + seed);
      recorded(ns, "input_digests", java.util.Map.of("base", "b1", "tasks", java.util.Map.of("ledger-1", "x"),
          "prompts", "p1"));
      recorded(ns, "bench_provider", "demo");
    }
    Fixtures.Run pooled = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, pooled.exit(), pooled.err());
    assertFalse(pooled.out().contains("Replicate check, not compared"), pooled.out());
    // a smoke run of one task beside them, with another digest of its base harness
    Path smoke = runs.resolve("demo-oc-agg2-s3");
    recorded(smoke, "tasks", List.of(List.of("d", "ledger-1")));
    recorded(smoke, "max_tasks", 1);
    recorded(smoke, "input_digests", java.util.Map.of("base", "b2", "tasks", java.util.Map.of("ledger-1", "x"),
        "prompts", "p1"));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(1, run.exit(), run.out());
    assertEquals("not replicates: replicates are runs that differ only in seed, and these namespaces' config.json"
        + " files record more differences (k=2: input_digests.base differs: demo-oc-agg2-s1, demo-oc-agg2-s2 |"
        + " demo-oc-agg2-s3; k=2: tasks differs: 2 tasks (ledger-1, ledger-2) in demo-oc-agg2-s1, demo-oc-agg2-s2 |"
        + " 1 task (ledger-1) in demo-oc-agg2-s3); their figures would be pooled into one mean and one standard"
        + " error, so nothing is reported. Report each set apart: narrow --namespaces, e.g. --namespaces="
        + runs.resolve("demo-oc-agg2-s1") + "," + runs.resolve("demo-oc-agg2-s2") + "\n" + runs.resolve("_report")
        + " keeps the earlier report, unchanged\n", run.err());
    assertEquals("reported", dev.h2beam.adapters.files.Json.readMap(runs.resolve("_report/report.json"))
        .get("status"), "the earlier report's record is kept");
    Fixtures.Run fresh = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", "--output=" + runs.resolve("fresh"));
    assertEquals(1, fresh.exit(), fresh.out());
    assertEquals("not-replicates", dev.h2beam.adapters.files.Json.readMap(runs.resolve("fresh/report.json"))
        .get("status"));
    Fixtures.Run narrowed = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s[12]");
    assertEquals(0, narrowed.exit(), narrowed.err());
  }

  /**
   * Replicates graded by two judges are two instruments: their mean and standard error is no figure, so the report
   * refuses them as other non-replicates, naming the judge on each side; C3 alone left them pooled (dogAA finding 2).
   * A namespace that records no judge is not compared.
   */
  @Test
  void replicatesGradedByDifferentJudgesAreNotPooled(@TempDir Path runs) throws Exception {
    replicates(runs);
    recorded(runs.resolve("demo-oc-agg2-s3"), "judge", "noop");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", "--output=" + runs.resolve("out"));
    assertEquals(1, run.exit(), run.out());
    assertEquals("not replicates: replicates are runs that differ only in seed, and these namespaces' config.json"
        + " files record more differences (k=2: judge differs: exact-match in demo-oc-agg2-s1, demo-oc-agg2-s2 |"
        + " noop in demo-oc-agg2-s3); their figures would be pooled into one mean and one standard error, so nothing"
        + " is reported. Report each set apart: narrow --namespaces, e.g. --namespaces="
        + runs.resolve("demo-oc-agg2-s1") + "," + runs.resolve("demo-oc-agg2-s2") + "\n", run.err());
    assertEquals("not-replicates", dev.h2beam.adapters.files.Json.readMap(runs.resolve("out/report.json"))
        .get("status"));
    recorded(runs.resolve("demo-oc-agg2-s3"), "judge", null);
    Fixtures.Run unrecorded = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, unrecorded.exit(), unrecorded.err());
  }

  /**
   * Keys a resume recorded after an older h2beam's work ({@code unverified} in config.json) are not that work's: a
   * price recorded so is neither taken as equal to the others' nor as a difference, and the report says which.
   */
  @Test
  void keysRecordedUnverifiedAreNotComparedAndSaidSo(@TempDir Path runs) throws Exception {
    replicates(runs);
    for (int seed = 1; seed <= 3; seed++) {
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "prices", java.util.Map.of("improver",
          java.util.Map.of("input", seed == 1 ? 5.0 : 1.0, "output", 2.0)));
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "input_digests", java.util.Map.of("base", "b1", "tasks", "t"));
    }
    // seed 1's older work ran at prices nobody recorded; the upgrade's resume recorded today's
    recorded(runs.resolve("demo-oc-agg2-s1"), "unverified", List.of("input_digests", "prices"));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("  k=2: input_digests.base (recorded unverified by demo-oc-agg2-s1: after work an"
        + " older h2beam did under settings it did not record or check; config.json's \"unverified\", or a writer"
        + " that records no build, below)\n  k=2: input_digests.tasks (recorded unverified by demo-oc-agg2-s1"),
        run.out());
    assertTrue(run.out().contains("  k=2: prices (recorded unverified by demo-oc-agg2-s1:"), run.out());
    // without the mark, the same prices are a difference
    recorded(runs.resolve("demo-oc-agg2-s1"), "unverified", List.of());
    run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(1, run.exit(), run.out());
    assertTrue(run.err().contains("k=2: prices differs"), run.err());
  }

  /**
   * A namespace a recording h2beam began (config.json's h2beam_builds) whose task modes record no build were written
   * after, by an older h2beam (which drops the keys it does not know): it checked none of the prices, settings and
   * inputs recorded, so they are unverified for the namespace, and the report says which task modes. A namespace
   * whose older work came first ("unrecorded") only says so, and its recorded prices still count.
   */
  @Test
  void modesAnOlderH2beamWroteAfterARecordingBuildMakeTheRecordedSettingsUnverified(@TempDir Path runs)
      throws Exception {
    replicates(runs);
    String build = "0123456789abcdef0123456789abcdef01234567";
    for (int seed = 1; seed <= 3; seed++) {
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "prices", java.util.Map.of("improver",
          java.util.Map.of("input", seed == 1 ? 5.0 : 1.0, "output", 2.0)));
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "h2beam_builds", List.of(build));
      // the others' summaries were written by that build
      if (seed > 1) stamp(runs.resolve("demo-oc-agg2-s" + seed + "/ledger-1/summary.json"), build);
    }
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("\nWritten by more than one h2beam (config.json's \"h2beam_builds\", each"
        + " summary.json's \"h2beam_build\"):\n  demo-oc-agg2-s1: 0123456789ab; 2 task modes (ledger-1 agg,"
        + " ledger-1 seq) last written by an h2beam that records no build, after this namespace's first recorded"
        + " build: an older h2beam, which checked none of the prices, role settings and inputs config.json records,"
        + " so they are taken as unverified for the whole namespace\n"), run.out());
    assertTrue(run.out().contains("  k=2: prices (recorded unverified by demo-oc-agg2-s1:"), run.out());
    assertFalse(run.out().contains("demo-oc-agg2-s2:"), "one build wrote seed 2 whole: " + run.out());

    // the older work came first: said, and the recorded prices are the run's, so they differ
    recorded(runs.resolve("demo-oc-agg2-s1"), "h2beam_builds", List.of("unrecorded", build + "+changes"));
    run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(1, run.exit(), run.out());
    assertTrue(run.err().contains("k=2: prices differs"), run.err());
    run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s1");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("\n  demo-oc-agg2-s1: an h2beam that recorded no build (before 2026-12-06), then"
        + " 0123456789ab (changes); 2 task modes (ledger-1 agg, ledger-1 seq) written by an h2beam that records no"
        + " build (before 2026-12-06)\n"), run.out());

    // every mode stamped by the one build: nothing to say
    recorded(runs.resolve("demo-oc-agg2-s1"), "h2beam_builds", List.of(build));
    stamp(runs.resolve("demo-oc-agg2-s1/ledger-1/summary.json"), build);
    run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s1");
    assertEquals(0, run.exit(), run.err());
    assertFalse(run.out().contains("Written by"), run.out());
  }

  /** Stamps each mode of the summary at {@code file} as written by {@code build}, as h2beam's writes do. */
  private static void stamp(Path file, String build) throws Exception {
    java.util.Map<String, Object> s = dev.h2beam.adapters.files.Json.readMap(file);
    java.util.Map<String, Object> builds = new java.util.LinkedHashMap<>();
    for (Object mode : ((java.util.Map<?, ?>) s.get("modes")).keySet()) builds.put(String.valueOf(mode), build);
    s.put("h2beam_build", builds);
    Files.writeString(file, dev.h2beam.adapters.files.Json.pretty(s));
  }

  /**
   * A key one replicate's config.json does not record (an older h2beam's) is not compared, and a config.json with no
   * cohort (harness2's) is compared by name only: the report pools them, and says which conditions it could not check.
   */
  @Test
  void aReplicateCheckThatCouldNotCompareAKeySaysSo(@TempDir Path runs) throws Exception {
    replicates(runs);
    // dogW: replicates all written by an older h2beam, none recording the input digests this one always records,
    // are said not compared on them, as they would be beside a namespace of this h2beam
    Fixtures.Run older = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, older.exit(), older.err());
    assertTrue(older.out().contains("\nReplicate check, not compared (a config.json that does not record it; older"
        + " h2beam or harness2):\n  k=2: bench_provider (not recorded by demo-oc-agg2-s1, demo-oc-agg2-s2,"
        + " demo-oc-agg2-s3)\n  k=2: input_digests.base (not recorded by demo-oc-agg2-s1, demo-oc-agg2-s2,"
        + " demo-oc-agg2-s3)\n"), older.out());
    for (int seed = 1; seed <= 3; seed++) {
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "bench_provider", "demo");
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "input_digests", seed == 3
          ? java.util.Map.of("prompts", "p1", "tasks", java.util.Map.of())
          : java.util.Map.of("base", "b1", "prompts", "p1", "tasks", java.util.Map.of()));
    }
    recorded(runs.resolve("demo-oc-agg2-s1"), "gate", "sign-rule");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("\nReplicate check, not compared (a config.json that does not record it; older"
        + " h2beam or harness2):\n  k=2: input_digests.base (not recorded by demo-oc-agg2-s3)\n\n"), run.out());
    // dogR #7: the gated mode's own key, which a namespace records once that mode ran there, is not said to be
    // missing from the others (of this same h2beam) in a report that does not show the gated mode
    assertFalse(run.out().contains("gate (not recorded"), run.out());
    // harness2's config.json records none of the cohort's keys
    Files.writeString(runs.resolve("demo-oc-agg2-s3/config.json"), "{\"seed\": 3}\n");
    run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("  k=2: demo-oc-agg2-s3 records no task set, inputs or settings: compared with the"
        + " others by seed and name only\n"), run.out());
    assertFalse(run.out().contains("gate (not recorded"), run.out());
    // one namespace alone has nothing to compare with
    Fixtures.Run one = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s3");
    assertFalse(one.out().contains("Replicate check"), one.out());
  }

  /**
   * dogAA finding 7: a namespace of this h2beam whose sweep did not run the gated mode records no gate key, because
   * that mode never ran there, not because an older h2beam or harness2 wrote it: in a report that shows the gated mode
   * it is not listed as not recording them. One whose summaries hold the gated mode still is.
   */
  @Test
  void aNamespaceThatNeverRanTheGatedModeIsNotSaidToLackItsKeys(@TempDir Path runs) throws Exception {
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      boolean gated = seed < 3;
      List<Fixtures.ModeRun> modes = new ArrayList<>(List.of(
          Fixtures.ModeRun.onBudget("agg", 2, List.of("agg1", "agg2"), "agg1"),
          Fixtures.ModeRun.onBudget("seq", 2, List.of("c1", "c2"), "c1")));
      List<Map<String, Object>> rows = new ArrayList<>(List.of(Fixtures.graded("ledger-1", "agg", 2, "agg1", 2, 2),
          Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 2)));
      if (gated) {
        modes.add(Fixtures.ModeRun.onBudget("gat", 2, List.of("g1", "g2"), "g1"));
        rows.add(Fixtures.graded("ledger-1", "gat", 2, "g1", 2, 2));
      }
      Fixtures.judged(ns, rows);
      Fixtures.summary(ns, "ledger-1", 2, 0.5, 0.25, List.of(), 0.0, modes);
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
      recorded(ns, "bench_provider", "demo");
      recorded(ns, "input_digests", Map.of("base", "b1", "prompts", "p1", "tasks", Map.of()));
      if (gated) recorded(ns, "gate", "sign-rule");
    }
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", "--modes=parallel,sequential,gated");
    assertEquals(0, run.exit(), run.err());
    assertFalse(run.out().contains("gate (not recorded"), run.out());

    // s1's summaries hold the gated mode and its config.json no gate: that is said
    Map<String, Object> c = Json.readMap(runs.resolve("demo-oc-agg2-s1/config.json"));
    c.remove("gate");
    Files.writeString(runs.resolve("demo-oc-agg2-s1/config.json"), Json.pretty(c));
    run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", "--modes=parallel,sequential,gated");
    assertTrue(run.out().contains("  k=2: gate (not recorded by demo-oc-agg2-s1)\n"), run.out());
  }

  /**
   * dogAG A3: a gated mode asked for that no namespace ran made comparisons whose conditions "held" for it, with
   * "by design" lines on a run that never happened. Each namespace now says it records no such run, and each pair
   * with it says it was not made.
   */
  @Test
  void aModeNoNamespaceRanIsNamedAndNotCompared(@TempDir Path runs) throws Exception {
    replicates(runs);
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", "--modes=parallel,sequential,gated");
    assertEquals(0, run.exit(), run.err());
    String text = run.out();
    assertTrue(text.contains("  ! no gated rows at " + runs.resolve("demo-oc-agg2-s1/judged.json") + ": its summaries"
        + " record no such run, so there is nothing to judge or report; left out of every figure below (leave it out"
        + " of --modes)"), text);
    for (String pair : List.of("parallel vs gated", "sequential vs gated")) {
      assertTrue(text.contains("Comparison at k=2: " + pair + ": not made -- no namespace has judged gated rows at"
          + " k=2 (see the top); leave gated out of --modes, or sweep and judge it"), text);
      assertFalse(text.contains("Comparison at k=2: " + pair + " ("), text);
    }
    assertTrue(text.contains("Comparison at k=2: parallel vs sequential ("), text);
  }

  /**
   * A namespace without judged rows is left out of every figure: report.json's message says so as report.txt's first
   * line does; it was empty, as if all were reported (dogAA finding 8).
   */
  @Test
  void aReportedRunsRecordNamesTheNamespacesLeftOut(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path ns = runs.resolve("demo-oc-agg2-s3");
    Files.delete(ns.resolve("judged.json"));
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(0, run.exit(), run.err());
    Map<String, Object> record = Json.readMap(runs.resolve("_report/report.json"));
    assertEquals("reported", record.get("status"));
    assertEquals("! no judged rows at " + ns.resolve("judged.json") + " \u2014 run ./h2beam judge --namespaces=" + ns
        + " for k=2 first", record.get("message"));
    replicates(runs);
    Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals("", Json.readMap(runs.resolve("_report/report.json")).get("message"), "nothing left out");
  }

  /** A report while a judge writes one of its namespaces says so: the figures are those before that judge. */
  @Test
  void aReportBesideAJudgeOfItsNamespaceSaysItReadsTheEarlierGrades(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path ns = runs.resolve("demo-oc-agg2-s1");
    Process judge = new ProcessBuilder("sleep", "60").start();
    try {
      Files.writeString(ns.resolve(WriterLock.FILE), "{\"what\": \"judge\", \"host\": \"" + WriterLock.host()
          + "\", \"pid\": " + judge.pid() + ", \"started_at\": \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
      Fixtures.Run run = Fixtures.report("--namespaces=" + ns);
      assertEquals(0, run.exit(), run.err());
      assertTrue(run.err().contains("note: " + ns + " is being written by a judge (host "), run.err());
      assertTrue(run.err().contains("this report reads its judged.json as it was before that began"), run.err());
    } finally {
      judge.destroy();
      judge.waitFor();
    }
    assertFalse(Fixtures.report("--namespaces=" + ns).err().contains("is being written"), "said only while it is");
  }

  /**
   * dogW: a namespace with no judged rows that a live sweep is writing is said to be swept, with no advice to run a
   * judge, which that sweep's lock would refuse.
   */
  @Test
  void aNamespaceALiveSweepIsWritingIsSaidToBeSweptNotToBeJudged(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path ns = runs.resolve("demo-oc-agg2-s1");
    Files.delete(ns.resolve("judged.json"));
    Process sweep = new ProcessBuilder("sleep", "60").start();
    try {
      Files.writeString(runs.resolve(WriterLock.FILE), "{\"what\": \"sweep of demo-oc-agg2-s1 demo-oc-seq2-s1\","
          + " \"host\": \"" + WriterLock.host() + "\", \"pid\": " + sweep.pid() + ", \"started_at\":"
          + " \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
      Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
      assertTrue(run.out().contains("  ! no judged rows at " + ns.resolve("judged.json") + " \u2014 it is being swept"
          + " by a sweep of demo-oc-agg2-s1 demo-oc-seq2-s1"), run.out());
      assertTrue(run.out().contains("; judge it once the sweep has finished"), run.out());
    } finally {
      sweep.destroy();
      sweep.waitFor();
    }
    assertTrue(Fixtures.report("--namespaces=" + runs + "/demo-oc-*").out().contains("  ! no judged rows at "
        + ns.resolve("judged.json") + " \u2014 run ./h2beam judge --namespaces=" + ns + " for k=2 first"),
        "harness2's advice once no sweep writes it");
  }

  /** Prompt digests that differ are refused, with what to do about those an earlier h2beam recorded. */
  @Test
  void promptDigestsThatDifferAreRefusedWithTheWayToRecordThemAnew(@TempDir Path runs) throws Exception {
    replicates(runs);
    for (int seed = 1; seed <= 3; seed++) {
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "input_digests", java.util.Map.of("prompts", "p" + seed % 2));
    }
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(1, run.exit(), run.out());
    assertTrue(run.err().contains("(k=2: input_digests.prompts differs: demo-oc-agg2-s1, demo-oc-agg2-s3 |"
        + " demo-oc-agg2-s2)"), run.err());
    assertTrue(run.err().contains("re-run each namespace's sweep command, which runs nothing and records it anew"),
        run.err());

    // with other tasks, other prompts: the older build's hint does not apply, and is not given (dogAG A8)
    for (int seed = 1; seed <= 3; seed++) {
      recorded(runs.resolve("demo-oc-agg2-s" + seed), "input_digests", java.util.Map.of("prompts", "p" + seed % 2,
          "tasks", java.util.Map.of("t", "d" + seed % 2)));
    }
    run = Fixtures.report("--namespaces=" + runs + "/demo-oc-*");
    assertEquals(1, run.exit(), run.out());
    assertTrue(run.err().contains("input_digests.prompts differs: "), run.err());
    assertFalse(run.err().contains("records it anew"), run.err());
  }

  @Test
  void theOutputFolderHoldsTextHtmlRestrictedFileAndRunRecord(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path out = runs.resolve("elsewhere");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s1", "--output=" + out);
    assertEquals(0, run.exit(), run.err());
    TreeMap<String, String> files = new TreeMap<>();
    try (Stream<Path> s = Files.list(out)) {
      s.forEach(p -> files.put(p.getFileName().toString(), ""));
    }
    assertEquals(List.of("report-restricted.json", "report.html", "report.json", "report.txt"),
        List.copyOf(files.keySet()));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        out.resolve("report-restricted.json"))));
    assertTrue(run.out().endsWith("\nwrote " + out + ": report.txt, report.html, report-restricted.json,"
        + " report.json\n"), run.out());
    assertEquals(List.of("report.txt", "report.html", "report-restricted.json", "report.json"),
        Json.readMap(out.resolve("report.json")).get("files"), "the record lists every file it wrote, itself too");
    assertTrue(Files.readString(out.resolve("report.txt")).startsWith("demo-oc seed=1 modes=parallel,sequential\n"));
  }

  /**
   * One report at a time writes a folder: a second, while a live process holds the folder's lock, is refused naming
   * the holder, and leaves the folder's report as it was.
   */
  @Test
  void aReportIntoAFolderAnotherReportIsWritingIsRefusedAndTheFolderKept(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path out = runs.resolve("elsewhere");
    assertEquals(0, Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s1", "--output=" + out).exit());
    String before = Files.readString(out.resolve("report.txt"));
    Process other = new ProcessBuilder("sleep", "60").start();
    try {
      Files.writeString(out.resolve(WriterLock.FILE), "{\"what\": \"report\", \"host\": \"" + WriterLock.host()
          + "\", \"pid\": " + other.pid() + ", \"started_at\": \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
      UsageError e = assertThrows(UsageError.class,
          () -> Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s2", "--output=" + out));
      assertTrue(e.getMessage().contains("pid " + other.pid()), e.getMessage());
      assertEquals(before, Files.readString(out.resolve("report.txt")));
    } finally {
      other.destroyForcibly().waitFor();
    }
  }

  /** A report killed while writing leaves temp files beside its files; the next report into the folder removes them. */
  @Test
  void theTempFilesAKilledReportLeftAreRemovedByTheNext(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path out = Files.createDirectories(runs.resolve("elsewhere"));
    Path restricted = Files.writeString(out.resolve(".report-restricted.json.4242.7.tmp"), "{\"per_task\": [");
    Path scratch = Files.createDirectories(out.resolve(".tmp/h2beam-report-killed"));
    Files.writeString(scratch.resolve("report.json"), "{");
    Path other = Files.writeString(out.resolve(".notes.txt.4242.8.tmp"), "not a report's");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s1", "--output=" + out);
    assertEquals(0, run.exit(), run.err());
    assertFalse(Files.exists(restricted));
    assertFalse(Files.exists(out.resolve(".tmp")), "the killed run's scratch folder is gone");
    assertTrue(Files.exists(other), "only a report's own temps are removed");
    assertTrue(run.err().contains("removed 1 half-written file(s) an interrupted report left behind"), run.err());
  }

  @Test
  void perTaskDisclosureLeavesNoRestrictedFileFromAnEarlierReport(@TempDir Path runs) throws Exception {
    replicates(runs);
    String ns = "--namespaces=" + runs + "/demo-oc-agg2-s1";
    assertEquals(0, Fixtures.report(ns).exit());
    assertTrue(Files.exists(runs.resolve("_report/report-restricted.json")));
    Fixtures.Run run = Fixtures.report(ns, "--disclosure=per-task");
    assertEquals(0, run.exit(), run.err());
    assertFalse(Files.exists(runs.resolve("_report/report-restricted.json")));
    assertTrue(run.out().contains("  parallel k=2 seed=1 ledger-1: agg1 | 2/2 | 100.00% | every criterion met"),
        run.out());
  }

  @Test
  void nothingToReportExitsOneWithTheHintAndAMessage(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-agg3");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs.resolve("demo-oc-agg3"));
    assertEquals(1, run.exit());
    assertEquals("  ! no judged rows at " + runs.resolve("demo-oc-agg3/judged.json") + " \u2014 run ./h2beam judge"
        + " --namespaces=" + runs.resolve("demo-oc-agg3") + " for k=3 first\n", run.out());
    assertTrue(run.err().startsWith("nothing to report: no judged rows for modes parallel,sequential in 1"
        + " namespace(s)"), run.err());
    assertEquals(List.of("report.json"), List.copyOf(folder(runs.resolve("_report")).keySet()),
        "a folder without an earlier report gets the record of this run");
  }

  @Test
  void nothingToReportLeavesTheEarlierReportExactlyAsItWas(@TempDir Path runs) throws Exception {
    replicates(runs);
    String ns = "--namespaces=" + runs + "/demo-oc-agg2-s1";
    assertEquals(0, Fixtures.report(ns).exit());
    Path out = runs.resolve("_report");
    TreeMap<String, String> before = folder(out);
    for (String[] asked : List.of(new String[] {"--modes=gated"}, new String[] {"--k=3"})) {
      Fixtures.Run run = Fixtures.report(ns, asked[0]);
      assertEquals(1, run.exit(), asked[0]);
      assertTrue(run.err().startsWith("nothing to report: no judged rows for modes "), run.err());
      assertTrue(run.err().endsWith("\n" + out + " keeps the earlier report, unchanged\n"), run.err());
      assertEquals(before, folder(out), asked[0]);
    }
  }

  @Test
  void anOutputThatIsAFileIsRefusedNamingTheFlag(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path file = Files.writeString(runs.resolve("notes.txt"), "mine\n");
    UsageError e = assertThrows(UsageError.class, () -> Fixtures.report("--namespaces=" + runs
        + "/demo-oc-agg2-s1", "--output=" + file));
    assertEquals("--output=" + file + " is a file, not a folder: the report writes report.txt, report.html and"
        + " report.json into a folder; give a folder's path (a missing one is created)", e.getMessage());
    assertEquals("mine\n", Files.readString(file));
    // without --output, the default folder is named as such: the user gave no --output to correct
    Files.writeString(runs.resolve("_report"), "a file where the default report folder goes\n");
    UsageError d = assertThrows(UsageError.class, () -> Fixtures.report("--namespaces=" + runs
        + "/demo-oc-agg2-s1"));
    assertTrue(d.getMessage().startsWith("the report folder " + runs.resolve("_report") + " (the default --output,"
        + " beside the namespaces) is a file, not a folder"), d.getMessage());
  }

  /**
   * A folder holding files of a report's names that no report wrote (no report.json record of one) is refused
   * before anything in it is touched, naming them; files of other names, and a .tmp folder of the user's, are never
   * a report's to remove. Once a report wrote its record there, it writes over its own files as before.
   */
  @Test
  void filesOfAReportsNamesThatNoReportWroteAreNeverOverwritten(@TempDir Path runs) throws Exception {
    replicates(runs);
    String ns = "--namespaces=" + runs + "/demo-oc-agg2-s1";
    Path out = Files.createDirectories(runs.resolve("mine"));
    Files.writeString(out.resolve("report-restricted.json"), "{\"my\": \"notes\"}\n");
    Files.writeString(out.resolve("report.md"), "draft\n");
    Files.createDirectories(out.resolve(".tmp"));
    Files.writeString(out.resolve(".tmp/draft.txt"), "keep\n");
    UsageError e = assertThrows(UsageError.class, () -> Fixtures.report(ns, "--output=" + out,
        "--disclosure=per-task"));
    assertTrue(e.getMessage().startsWith("--output=" + out + " holds report-restricted.json, which no h2beam report"
        + " wrote"), e.getMessage());
    assertEquals("{\"my\": \"notes\"}\n", Files.readString(out.resolve("report-restricted.json")));
    assertEquals(List.of(".tmp", "report-restricted.json", "report.md"), Files.list(out).map(p -> p.getFileName()
        .toString()).sorted().toList(), "nothing written, nothing removed");
    assertEquals("keep\n", Files.readString(out.resolve(".tmp/draft.txt")));

    Files.delete(out.resolve("report-restricted.json"));
    Fixtures.Run run = Fixtures.report(ns, "--output=" + out);
    assertEquals(0, run.exit(), run.err());
    assertEquals("draft\n", Files.readString(out.resolve("report.md")));
    assertEquals("keep\n", Files.readString(out.resolve(".tmp/draft.txt")), "a .tmp of the user's keeps their files");
    assertEquals(0, Fixtures.report(ns, "--output=" + out, "--disclosure=per-task").exit(),
        "its own earlier files, restricted one included, a report writes over");
    assertFalse(Files.exists(out.resolve("report-restricted.json")));
  }

  /**
   * A report stopped while writing its files (a full disk, a kill) has first replaced the folder's record with one
   * claiming them, so neither is the folder refused as holding files no report wrote nor does an earlier report's
   * record stay beside this one's files: the same command, once what stopped it is gone, writes the report; a run
   * with nothing to report does not keep such files as an earlier report; a report.txt no report wrote is still
   * refused.
   */
  @Test
  void aReportStoppedWhileWritingItsFilesIsWrittenByTheSameCommandAgain(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path out = runs.resolve("out");
    String[] command = {"--namespaces=" + runs + "/demo-oc-agg2-s1", "--output=" + out};
    assertEquals(0, Fixtures.report(command).exit());
    List<String> all = List.of("report.txt", "report.html", "report-restricted.json", "report.json");
    // report.html cannot be written over: a folder with a file in it stands where it goes
    Files.delete(out.resolve("report.html"));
    Path obstacle = Files.writeString(Files.createDirectories(out.resolve("report.html")).resolve("x"), "x\n");
    assertThrows(Exception.class, () -> Fixtures.report(command));
    java.util.Map<String, Object> record = Json.readMap(out.resolve("report.json"));
    assertEquals("writing", record.get("status"), "the earlier report's record is replaced before its files");
    assertEquals(all, record.get("files"));
    assertEquals("a report is writing report.txt, report.html, report-restricted.json, report.json here, or was"
        + " stopped while writing them (a full disk, a kill): some may be missing or left from an earlier report;"
        + " re-run the same command", record.get("message"));
    assertFalse(Files.exists(out.resolve("report.txt")));

    Files.delete(obstacle);
    Files.delete(out.resolve("report.html"));
    Fixtures.Run rerun = Fixtures.report(command);
    assertEquals(0, rerun.exit(), rerun.err());
    assertTrue(rerun.err().contains("h2beam: " + out + " holds the files of a report that was stopped while writing"
        + " them (its report.json says \"writing\"); this report replaces them\n"), rerun.err());
    assertEquals("reported", Json.readMap(out.resolve("report.json")).get("status"));
    assertEquals(all, Json.readMap(out.resolve("report.json")).get("files"));
    assertEquals(List.of("report-restricted.json", "report.html", "report.json", "report.txt"),
        List.copyOf(folder(out).keySet()));
    assertTrue(Files.readString(out.resolve("report.txt")).startsWith("demo-oc seed=1 modes=parallel,sequential\n"));

    // stopped again, then a run with nothing to report: what the stopped one left is no earlier report to keep
    Files.delete(out.resolve("report.html"));
    obstacle = Files.writeString(Files.createDirectories(out.resolve("report.html")).resolve("x"), "x\n");
    assertThrows(Exception.class, () -> Fixtures.report(command));
    Files.delete(obstacle);
    Files.delete(out.resolve("report.html"));
    Fixtures.Run nothing = Fixtures.report(command[0], command[1], "--k=3");
    assertEquals(1, nothing.exit(), nothing.out());
    assertFalse(nothing.err().contains("keeps the earlier report"), nothing.err());
    assertEquals("nothing-to-report", Json.readMap(out.resolve("report.json")).get("status"));
    assertFalse(Files.exists(out.resolve("report-restricted.json")));

    Path theirs = Files.createDirectories(runs.resolve("theirs"));
    Files.writeString(theirs.resolve("report.txt"), "mine\n");
    UsageError e = assertThrows(UsageError.class, () -> Fixtures.report(command[0], "--output=" + theirs));
    assertEquals("--output=" + theirs + " holds report.txt, which no h2beam report wrote (there is no report.json"
        + " record of one beside them), and a report writes files of those names: give --output a folder of its own,"
        + " or move them away", e.getMessage());
    assertEquals(List.of("report.txt"), List.copyOf(folder(theirs).keySet()));
  }

  /** Every file in {@code dir} with its content and permissions. */
  static TreeMap<String, String> folder(Path dir) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        out.put(p.getFileName().toString(), PosixFilePermissions.toString(Files.getPosixFilePermissions(p)) + " "
            + Files.getLastModifiedTime(p) + " " + Files.readString(p));
      }
    }
    return out;
  }

  @Test
  void anUnreadableJudgedJsonIsPrintedAndCountedWhileTheOtherNamespacesReport(@TempDir Path runs) throws Exception {
    replicates(runs);
    Files.writeString(runs.resolve("demo-oc-agg2-s3/judged.json"), "[{\"task_id\": ");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-*");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().startsWith("  ! skipping unreadable " + runs.resolve("demo-oc-agg2-s3/judged.json") + ": "),
        run.out());
    assertTrue(run.out().contains("\n  ! 1 input file(s) could not be read; nothing in them enters any figure below\n"
        + "demo-oc seeds=1,2 modes=parallel,sequential\n"), run.out());
  }

  @Test
  void aRequestedKWithoutANamespaceIsHintedAndTheOthersReport(@TempDir Path runs) throws Exception {
    replicates(runs);
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-s1", "--k=1,2", "--modes=parallel");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().startsWith("  ! no namespace for k=1 among --namespaces \u2014 run ./h2beam sweep and"
        + " ./h2beam judge for k=1 first\ndemo-oc seed=1 modes=parallel\n"), run.out());
  }

  @Test
  void aSequentialNamespaceWithoutItsAggSiblingHasNothingToReport(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-seq2");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs.resolve("demo-oc-seq2"));
    assertEquals(1, run.exit());
    assertTrue(run.out().startsWith("  ! no judged rows at " + runs.resolve("demo-oc-agg2/judged.json")), run.out());
  }

  @Test
  void theNamespacesAreNotWritten(@TempDir Path runs) throws Exception {
    replicates(runs);
    TreeMap<String, String> before = snapshot(runs);
    assertEquals(0, Fixtures.report("--namespaces=" + runs + "/demo-oc-agg2-*").exit());
    TreeMap<String, String> after = snapshot(runs);
    assertEquals(before, after);
  }

  /**
   * A plain command line is read without Beam's registry, which is built beside the plan while the namespaces are
   * read ahead; the report is the one a full parse gives, no read is left behind, and a misspelt flag is still refused
   * by its name.
   */
  @Test
  void theCommandLineIsReadBesideBeamsRegistryAndTheNamespacesAhead(@TempDir Path runs) throws Exception {
    replicates(runs);
    String[] args = {"--namespaces=" + runs + "/demo-oc-*", "--output=" + runs.resolve("lazy")};
    assertTrue(java.lang.reflect.Proxy.isProxyClass(
        dev.h2beam.pipelines.OptionArgs.parseLazily("report", args, ReportOptions.class).getClass()),
        "a plain report command line is read lazily");
    int before = ReadAhead.runs();
    Fixtures.Run lazy = Fixtures.report(args);
    assertEquals(0, lazy.exit(), lazy.err());
    assertEquals(before, ReadAhead.runs(), "the command ends its read-ahead");
    // --targetParallelism is the DirectRunner's, not the report's: Beam parses this command line at once
    Fixtures.Run parsed = Fixtures.report("--namespaces=" + runs + "/demo-oc-*", "--output=" + runs.resolve("full"),
        "--targetParallelism=1");
    assertEquals(0, parsed.exit(), parsed.err());
    for (String f : List.of("report.txt", "report.html", "report-restricted.json")) {
      assertEquals(Files.readString(runs.resolve("full").resolve(f)), Files.readString(runs.resolve("lazy")
          .resolve(f)), f);
    }
    UsageError e = assertThrows(UsageError.class, () -> Fixtures.report("--namespace=" + runs + "/demo-oc-*"));
    assertTrue(e.getMessage().contains("--namespace"), e.getMessage());
  }

  @Test
  void aBadFlagIsAUsageErrorNamingIt(@TempDir Path runs) throws Exception {
    replicates(runs);
    UsageError e = assertThrows(UsageError.class, () -> Fixtures.report("--namespaces=" + runs
        + "/demo-oc-agg2-s1", "--minEffect=-1"));
    assertTrue(e.getMessage().startsWith("--minEffect must be"), e.getMessage());
  }

  /** Every file outside _report with its content. */
  static TreeMap<String, String> snapshot(Path runs) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(runs)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = runs.relativize(p).toString();
        if (!rel.startsWith("_report")) out.put(rel, Files.readString(p));
      }
    }
    return out;
  }

  @Test
  void aSummaryOfTheWrongShapeIsNamedAndCountedLikeAnUnreadableFile(@TempDir Path runs) throws Exception {
    replicates(runs);
    Path ns = runs.resolve("demo-oc-agg2-s1");
    Path empty = Files.createDirectories(ns.resolve("ledger-2")).resolve("summary.json");
    Files.writeString(empty, "{}");
    Fixtures.Run run = Fixtures.report("--namespaces=" + ns);
    assertTrue(run.out().contains("  ! skipping unreadable " + empty + ": task_id is missing; repair the field or move"
        + " the file aside"), run.out());
  }
}
