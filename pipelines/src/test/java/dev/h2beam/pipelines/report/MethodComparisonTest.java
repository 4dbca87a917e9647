package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.report.Fixtures.ModeRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report --versus}: two runs roots' gated modes paired per task and seed under M1–M5, each side named by the
 * method its config.json records, the other side's replicates shown, every condition that fails named with its fix.
 */
class MethodComparisonTest {
  static final String GATED = "--modes=gated";

  /**
   * One runs root's gated mode: three seeds at k=2, tasks ledger-1 and ledger-2 graded {@code passed}/2 each, the
   * method {@code method} with policy {@code policy} in config.json, every ledger on budget but {@code offBudgetSeed}'s
   * ledger-1 (R = 7; 0 for none).
   */
  static Path side(Path root, String method, String policy, int passed, int offBudgetSeed) throws Exception {
    return side(root, method, policy, passed, offBudgetSeed, 2);
  }

  /** {@link #side(Path, String, String, int, int)} at {@code k}. */
  static Path side(Path root, String method, String policy, int passed, int offBudgetSeed, int k) throws Exception {
    Path runs = Files.createDirectories(root.resolve("runs"));
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg" + k + "-s" + seed);
      Fixtures.judged(ns, List.of(Fixtures.graded("ledger-1", "gat", k, "g3", passed, 2),
          Fixtures.graded("ledger-2", "gat", k, "g1", passed, 2)));
      for (String task : List.of("ledger-1", "ledger-2")) {
        int r = 4 * k - (seed == offBudgetSeed && task.equals("ledger-1") ? 1 : 0);
        Fixtures.summary(ns, task, k, 0.5, 0.25, List.of(), 0.0,
            List.of(new ModeRun("gat", List.of("g3", "r1"), task.equals("ledger-1") ? "g3" : "g1", r)));
      }
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
      Fixtures.gateConfig(ns, method, policy, null);
      Fixtures.namespace(runs, "demo-oc-gat" + k + "-s" + seed);
    }
    return runs;
  }

  /** Sets {@code key} to {@code value} in the config.json of {@code runs}' namespaces of the given seeds at k=2. */
  static void configure(Path runs, String key, Object value, int... seeds) throws Exception {
    for (int seed : seeds) {
      Path config = runs.resolve("demo-oc-agg2-s" + seed).resolve("config.json");
      Map<String, Object> c = Json.readMap(config);
      c.put(key, value);
      Files.writeString(config, Json.pretty(c) + "\n", StandardCharsets.UTF_8);
    }
  }

  /** The side under test: sign-rule, passing every task. */
  static Path signRule(Path dir) throws Exception {
    return side(dir.resolve("a"), "sign-rule", "score_comparison", 2, 0);
  }

  /** The side compared with: improver, passing half of each task, off budget in {@code offBudgetSeed} (0: none). */
  static Path improver(Path dir, int offBudgetSeed) throws Exception {
    return side(dir.resolve("b"), "improver", "score_comparison", 1, offBudgetSeed);
  }

  static Fixtures.Run report(Path mine, Path theirs, String... more) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("--namespaces=" + mine + "/demo-oc-agg2-s*",
        "--versus=" + theirs + "/demo-oc-agg2-s*", GATED, "--output=" + mine.resolveSibling("report")));
    args.addAll(List.of(more));
    return Fixtures.report(args.toArray(String[]::new));
  }

  /** The section's relation line. */
  static String relation(String text) {
    int at = text.indexOf("\nMethods at k=2: ");
    assertTrue(at >= 0, text);
    int r = text.indexOf("\n  relation: ", at);
    return text.substring(r + 3, text.indexOf('\n', r + 1));
  }

  @Test
  void twoMethodsArePairedPerTaskAndSeedAndTheBetterOneIsFavoured(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    Fixtures.Run run = report(mine, theirs, "--disclosure=per-task");
    assertEquals(0, run.exit(), run.err());
    String text = run.out();
    assertTrue(text.contains("\nMethods at k=2: gated[sign-rule] vs gated[improver] (paired-difference/v1; claim:"
        + " exploratory)\n  M1 same task set: holds\n  M2 matched seeds: each namespace paired with the other side's"
        + " namespace of its name: holds\n  M3 same judge identity: holds\n  M4 same experiment but the gated method,"
        + " each side's known: executor, improver, tasks and their checks, inputs and settings (config.json):"
        + " holds\n  M5 equal budget, R = 4k = 8 rollouts and P = 3k = 6 improver sessions per task in each side's"
        + " ledger: holds\n"), text);
    assertTrue(text.contains("  gated[sign-rule] (--namespaces): gated (method sign-rule, policy score_comparison),"
        + " margin 0.0 in " + mine + ": demo-oc-agg2-s1, demo-oc-agg2-s2, demo-oc-agg2-s3\n"), text);
    assertTrue(text.contains("  gated[improver] (--versus): gated (method improver, policy score_comparison), margin"
        + " 0.0 in " + theirs + ": demo-oc-agg2-s1, demo-oc-agg2-s2, demo-oc-agg2-s3\n"), text);
    assertTrue(text.contains("  score: mean paired difference +50.00 pt (gated[sign-rule] - gated[improver]) | 3"
        + " replicates, 6 task pairs"), text);
    assertEquals("relation: favors-gated[sign-rule] | claim: exploratory", relation(text));
    assertTrue(text.contains("\nObjectives at k=2: gated[sign-rule] vs gated[improver]"), text);
    // the figures above the section are one side's: the other's replicates are shown with it
    assertTrue(text.contains("Replicates of gated[improver] (--versus; replicate-mean/v1, as above for"
        + " gated[sign-rule])\n  gated k=2 seed=1 (demo-oc-agg2-s1): n=  2 | ungraded 0 | score  50.00%"), text);
    assertTrue(text.contains("Paired differences per task and seed (gated[sign-rule] - gated[improver], points)\n"
        + "  k=2 seed=1 ledger-1: score +50.00 | pass +100.00\n"), text);
    assertFalse(text.contains("A/A"), text);
    assertTrue(text.contains("\n  its gated mode's spend over 6 reported task(s): improver $10.50 | executor $0.00\n"),
        text);
    // the other side's scores are released beside this side's (dogAH F5), each side's named (dogAI F4)
    assertTrue(text.contains("Per-task scores of the --versus side (" + theirs + "; released by --disclosure=per-task)"
        + "\n  gated k=2 seed=1 ledger-1: g3 | 1/2 |  50.00%\n"), text);
    assertTrue(text.contains("\nPer-task scores of the --namespaces side (released by --disclosure=per-task)\n"),
        text);
    assertTrue(text.contains("Successful-tasks slice of the --versus side (" + theirs + "; graded tasks whose selected"
        + " output met every criterion)\n  gated k=2 seed=1: 0 of 2 graded\n"), text);
    // and beside M5's budget, the sessions each side's method made within it (dogAH F10): the fixtures record none
    assertTrue(text.contains("  improver sessions made within that budget: gated[sign-rule] session attempts not"
        + " recorded (6 task(s): not counted, not zero); gated[improver] session attempts not recorded"), text);
  }

  @Test
  void underAggregateDisclosureThePairsGoToTheRestrictedFileUnderBothMethodsNames(@TempDir Path dir)
      throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    assertFalse(run.out().contains("Paired differences per task"), run.out());
    Map<String, Object> restricted = Json.readMap(mine.resolveSibling("report").resolve("report-restricted.json"));
    List<?> pairs = (List<?>) restricted.get("paired_differences");
    assertEquals(6, pairs.size(), restricted.toString());
    assertEquals("gated[sign-rule] - gated[improver]", ((Map<?, ?>) pairs.get(0)).get("modes"));
    assertEquals(50.0, ((Map<?, ?>) pairs.get(0)).get("score_diff_pt"));
    // the other side's rows, withheld from the text as this side's are, are in the file too (dogAH F5)
    assertEquals(6, ((List<?>) Json.readMap(mine.resolveSibling("report").resolve("report-restricted.json"))
        .get("versus_per_task")).size(), restricted.toString());
    assertEquals(3, ((List<?>) restricted.get("versus_successful_tasks")).size(), restricted.toString());
    Map<String, Object> record = Json.readMap(mine.resolveSibling("report").resolve("report.json"));
    assertEquals(List.of(theirs.resolve("demo-oc-agg2-s1").toString(), theirs.resolve("demo-oc-agg2-s2").toString(),
        theirs.resolve("demo-oc-agg2-s3").toString()), record.get("versus"));

    // without --output, a methods report goes beside the root's own report, named for the other root (dogAI F2)
    Fixtures.Run own = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", GATED);
    assertEquals(0, own.exit(), own.err());
    Fixtures.Run methods = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs
        + "/demo-oc-agg2-s*", GATED);
    assertEquals(0, methods.exit(), methods.err());
    assertTrue(methods.out().contains("wrote " + mine.resolve("_report-versus-b") + ": "), methods.out());
    assertFalse(Files.readString(mine.resolve("_report").resolve("report.txt")).contains("Methods at"));

    // with the blind modes asked too, the other side is said to be compared in its gated mode only (dogAI F6)
    Fixtures.Run three = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs
        + "/demo-oc-agg2-s*", "--modes=parallel,sequential,gated", "--output=" + dir.resolve("three"));
    assertEquals(0, three.exit(), three.err());
    assertTrue(three.out().contains("\n  (the --versus side is compared in its gated mode only)\n"), three.out());
  }

  @Test
  void sidesThatDifferInMoreThanTheirMethodAreNotComparedAndTheDifferenceIsNamed(@TempDir Path dir)
      throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    configure(theirs, "split", "test", 1, 2, 3);
    configure(theirs, "executor", "other/oc", 1, 2, 3);
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    String text = run.out();
    assertTrue(text.contains("settings (config.json): FAILS -- executor differs across replicates: demo/oc ("), text);
    // one line for a difference every seed has
    assertTrue(text.contains("; split differs: \"all\" on the --namespaces side, \"test\" on the --versus side"
        + " (seeds 1, 2, 3)"), text);
    assertEquals("relation: not-comparable (failed: M4) | claim: exploratory", relation(text));
    assertFalse(text.contains("mean paired difference +50.00 pt (gated[sign-rule]"), text);
  }

  @Test
  void aSeedOnOneSideOnlyFailsM2NamingWhatToRun(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    // seed 2 of the other side ran the gated mode and was not judged in it; seed 3 is not there at all
    Fixtures.judged(theirs.resolve("demo-oc-agg2-s2"), List.of());
    for (String name : List.of("demo-oc-agg2-s3", "demo-oc-gat2-s3")) {
      try (var files = Files.walk(theirs.resolve(name))) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    String text = run.out();
    assertTrue(text.contains("M2 matched seeds: each namespace paired with the other side's namespace of its name:"
        + " FAILS -- seed 2: " + mine.resolve("demo-oc-agg2-s2") + " has judged gated rows at k=2 and its partner "
        + theirs.resolve("demo-oc-agg2-s2") + " (--versus) ran the gated mode and it is not judged: run ./h2beam"
        + " judge --namespaces=" + theirs.resolve("demo-oc-agg2-s2") + " --modes=gated; seed 3: "
        + mine.resolve("demo-oc-agg2-s3") + " has judged gated rows at k=2 and --versus names no namespace"
        + " demo-oc-agg2-s3: add it there, or leave the seed out\n"), text);
    assertEquals("relation: not-comparable (failed: M2) | claim: exploratory", relation(text));
  }

  @Test
  void aSideOffItsBudgetFailsM5(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 2);
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("in each side's ledger: FAILS -- seed 2 (demo-oc-agg2-s2) ledger-1:"
        + " gated[sign-rule] R=8, P=6, gated[improver] R=7, P=6\n"), run.out());
    assertEquals("relation: not-comparable (failed: M5) | claim: exploratory", relation(run.out()));
  }

  @Test
  void sidesOfOneMethodAreNamedByTheirPolicyOrFlagAndAnAaComparisonIsSaidToBeOne(@TempDir Path dir)
      throws Exception {
    Path mine = side(dir.resolve("a"), "improver", "always", 2, 0);
    Path theirs = side(dir.resolve("b"), "improver", "score_comparison", 2, 0);
    Fixtures.Run policies = report(mine, theirs);
    assertEquals(0, policies.exit(), policies.err());
    assertTrue(policies.out().contains("\nMethods at k=2: gated[improver, always] vs gated[improver,"
        + " score_comparison]"), policies.out());

    Path again = side(dir.resolve("c"), "improver", "always", 2, 0);
    Fixtures.Run same = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + again
        + "/demo-oc-agg2-s*", GATED, "--output=" + dir.resolve("aa"));
    assertEquals(0, same.exit(), same.err());
    assertTrue(same.out().contains("\nMethods at k=2: gated[improver, --namespaces] vs gated[improver, --versus]"),
        same.out());
    assertTrue(same.out().contains("  by design: both sides record the same gated method and policy (gated (method"
        + " improver, policy always), margin 0.0): an A/A comparison, which measures how far two runs of one method"
        + " differ, not which method is better; a difference past the threshold reads runs-differ, never favors\n"),
        same.out());
    // the side's label names its flag once
    assertTrue(same.out().contains("  gated[improver, --namespaces]: gated (method improver, policy always), margin"
        + " 0.0 in "), same.out());
    assertEquals("relation: inconclusive | claim: exploratory", relation(same.out()));

    // two runs of one method that differ past the threshold differ; neither is favoured over itself (dogAH F3)
    Path worse = side(dir.resolve("d"), "improver", "always", 1, 0);
    Fixtures.Run differ = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + worse
        + "/demo-oc-agg2-s*", GATED, "--output=" + dir.resolve("aa2"));
    assertEquals(0, differ.exit(), differ.err());
    assertEquals("relation: runs-differ (A/A: gated[improver, --namespaces] ahead; one setup of one method on both"
        + " sides) | claim: exploratory", relation(differ.out()));

    // a margin of another size is another setup, named as such, and no A/A comparison (dogAI F1)
    configure(worse, "gate", Map.of("method", "improver", "policy", "always", "min_win_margin", 1.0), 1, 2, 3);
    Fixtures.Run margins = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + worse
        + "/demo-oc-agg2-s*", GATED, "--output=" + dir.resolve("aa3"));
    assertEquals(0, margins.exit(), margins.err());
    assertTrue(margins.out().contains("\nMethods at k=2: gated[improver, margin 0.0] vs gated[improver, margin 1.0]"),
        margins.out());
    assertEquals("relation: favors-gated[improver, margin 0.0] | claim: exploratory", relation(margins.out()));
    assertFalse(margins.out().contains("A/A"), margins.out());
    assertFalse(differ.out().contains("favors-"), differ.out());
  }

  /** dogAH F1: the tasks' checks are what a gated method scores with; two sides scored against others differ. */
  @Test
  void sidesWhoseMethodsScoredAgainstOtherChecksAreNotCompared(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    configure(mine, "input_digests", Map.of("checks", Map.of("ledger-1", "aaa", "ledger-2", "bbb")), 1, 2, 3);
    configure(theirs, "input_digests", Map.of("checks", Map.of("ledger-1", "aaa", "ledger-2", "ccc")), 1, 2, 3);
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("(config.json): FAILS -- input_digests.checks differs: in ledger-2 (their values in"
        + " the two config.json files) (seeds 1, 2, 3)\n"), run.out());
    assertEquals("relation: not-comparable (failed: M4) | claim: exploratory", relation(run.out()));
  }

  /** dogAH F2: a side whose method is not recorded is not compared, and is never taken for an A/A comparison. */
  @Test
  void aSideWhoseMethodIsNotKnownIsNotCompared(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    Files.delete(theirs.resolve("demo-oc-agg2-s2").resolve("config.json"));
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("FAILS -- the gated method of " + theirs.resolve("demo-oc-agg2-s2") + " is not"
        + " known (no readable config.json): a methods comparison needs each side's"), run.out());
    assertEquals("relation: not-comparable (failed: M4) | claim: exploratory", relation(run.out()));

    for (Path root : List.of(mine, theirs)) {
      for (int seed = 1; seed <= 3; seed++) {
        Files.deleteIfExists(root.resolve("demo-oc-agg2-s" + seed + "/config.json"));
      }
    }
    Fixtures.Run none = report(mine, theirs);
    assertEquals(0, none.exit(), none.err());
    assertFalse(none.out().contains("A/A"), none.out());
    assertEquals("relation: not-comparable (failed: M4) | claim: exploratory", relation(none.out()));
  }

  /** The panel of report.html whose aria-label is {@code label}, up to its end. */
  static String svg(String html, String label) {
    int from = html.indexOf("aria-label=\"" + label + "\"");
    assertTrue(from >= 0, label + " in " + html);
    return html.substring(from, html.indexOf("</svg>", from));
  }

  /** dogAI F6: the page draws both methods side by side, each side in its colour, not the --namespaces side alone. */
  @Test
  void thePageDrawsBothMethodsSideBySide(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    for (int seed = 1; seed <= 3; seed++) {
      for (Path runs : List.of(mine, theirs)) {
        double cost = runs == mine ? 0.2 : 0.1;
        Fixtures.metrics(runs.resolve("demo-oc-agg2-s" + seed), List.of(
            Fixtures.metricRow("ledger-1", "gat", 2, Map.of("cost", cost), Map.of()),
            Fixtures.metricRow("ledger-2", "gat", 2, Map.of("cost", cost), Map.of())));
      }
    }
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    String html = Files.readString(mine.resolveSibling("report").resolve("report.html"));
    String a = HtmlReport.COLOURS.get("gat");
    String b = VectorCharts.VERSUS_COLOUR;
    assertTrue(html.contains("<p class=\"note\">A: gated[sign-rule], the --namespaces side (" + a + "); B:"
        + " gated[improver], the --versus side (" + b + ");"), html);
    String score = svg(html, "score per method");
    assertTrue(score.contains(">A k=2</text>") && score.contains(">B k=2</text>"), score);
    // three replicates a side: sign-rule's at 100%, improver's at 50%, each in its side's colour
    assertEquals(3, score.split("fill=\"" + a + "\" fill-opacity", -1).length - 1, score);
    assertEquals(3, score.split("fill=\"" + b + "\" fill-opacity", -1).length - 1, score);
    assertTrue(score.contains(">100.00</text>") && score.contains(">50.00</text>"), score);
    // one point a replicate, each side in its colour: sign-rule dearer and better
    String plot = svg(html, "cost versus score, methods");
    assertEquals(3, plot.split("r=\"4\" fill=\"" + a + "\"", -1).length - 1, plot);
    assertEquals(3, plot.split("r=\"4\" fill=\"" + b + "\"", -1).length - 1, plot);
    assertTrue(plot.contains(">$0.1000</text>") && plot.contains(">$0.2000</text>"), plot);

    // a --versus replicate of a single graded task: its column is withheld, as its figures are in the text
    Fixtures.judged(theirs.resolve("demo-oc-agg2-s1"), List.of(Fixtures.graded("ledger-1", "gat", 2, "g3", 1, 2)));
    Fixtures.Run withheld = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs
        + "/demo-oc-agg2-s*", GATED, "--output=" + dir.resolve("r2"));
    assertEquals(0, withheld.exit(), withheld.err());
    String page = Files.readString(dir.resolve("r2").resolve("report.html"));
    score = svg(page, "score per method");
    assertTrue(score.contains(">withheld</text>"), score);
    assertEquals(3, score.split("fill=\"" + a + "\" fill-opacity", -1).length - 1, score);
    assertFalse(score.contains("fill=\"" + b + "\""), score);
    assertTrue(svg(page, "cost versus score, methods").contains(">B k=2: scores withheld under aggregate"
        + " disclosure</text>"), page);
  }

  /** dogAH F4: sides at different k are not compared at either, and nothing holds over no pair. */
  @Test
  void sidesAtDifferentKAreNotComparedAndSaySo(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = side(dir.resolve("b"), "improver", "score_comparison", 1, 0, 3);
    Fixtures.Run run = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs
        + "/demo-oc-agg3-s*", GATED, "--output=" + dir.resolve("r"));
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("\nMethods at k=2: not made -- --versus has no judged gated rows at k=2 (its gated"
        + " rows are at k=3); two methods are compared at a k both sides ran\n"), run.out());
    assertTrue(run.out().contains("\nMethods at k=3: not made -- --namespaces has no judged gated rows at k=3 (its"
        + " gated rows are at k=2); two methods are compared at a k both sides ran"), run.out());
    assertFalse(run.out().contains("M1 same task set"), run.out());
    // no k both ran: nothing side by side on the page
    assertFalse(Files.readString(dir.resolve("r").resolve("report.html")).contains("per method"));

    Fixtures.Run atTwo = Fixtures.report("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs
        + "/demo-oc-agg3-s*", GATED, "--k=2", "--output=" + dir.resolve("r2"));
    assertEquals(0, atTwo.exit(), atTwo.err());
    assertTrue(atTwo.out().contains("not made -- no --versus namespace has judged gated rows at k=2\n  --versus names"
        + " namespaces at k=3 only: pass that --k, or compare at a k both sides ran"), atTwo.out());
  }

  /** dogAH F6, F7: an unreadable judged.json is named with the move re-judging needs; the advice names --versus. */
  @Test
  void theOtherSidesUnreadableFilesAndDifferencesAreNamedWithTheirFix(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    Path broken = theirs.resolve("demo-oc-agg2-s2").resolve("judged.json");
    Files.writeString(broken, "{\"oops");
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("its partner " + theirs.resolve("demo-oc-agg2-s2") + " (--versus): its judged.json"
        + " could not be read ("), run.out());
    assertTrue(run.out().contains("): move it aside, then run ./h2beam judge --namespaces="
        + theirs.resolve("demo-oc-agg2-s2") + " --modes=gated"), run.out());

    Path other = improver(dir.resolve("c"), 0);
    configure(other, "split", "test", 3);
    Fixtures.Run mixed = report(mine, other);
    assertEquals(0, mixed.exit(), mixed.err());
    assertTrue(mixed.out().contains("Methods (--namespaces vs --versus): not made -- the --versus namespaces are not"
        + " replicates: "), mixed.out());
    assertTrue(mixed.out().contains("so the methods are not compared. Report each set apart: narrow --versus, e.g."
        + " --versus="), mixed.out());
  }

  /** The message a report refused before it ran gives. */
  static String refused(String... args) {
    return assertThrows(UsageError.class, () -> Fixtures.report(args)).getMessage();
  }

  @Test
  void theFlagIsRefusedWithoutTheGatedModeForItsOwnNamespacesOrAnotherCell(@TempDir Path dir) throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    String blind = refused("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs + "/demo-oc-agg2-s*",
        "--modes=parallel,sequential", "--output=" + dir.resolve("r1"));
    assertTrue(blind.contains("--versus compares the gated mode of two runs roots, and --modes leaves gated out: add"
        + " it"), blind);

    String itself = refused("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + mine + "/demo-oc-agg2-s1",
        GATED, "--output=" + dir.resolve("r2"));
    assertTrue(itself.contains("--versus: " + mine.resolve("demo-oc-agg2-s1") + " is one of --namespaces too"),
        itself);

    Path other = Fixtures.namespace(theirs, "wordy-oc-agg2-s1");
    String cell = refused("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + other, GATED,
        "--output=" + dir.resolve("r3"));
    assertTrue(cell.contains("--versus: " + other + " is of cell wordy-oc and --namespaces of demo-oc"), cell);

    // the same runs root reached through a link is the same root (dogAH F8)
    Path link = Files.createSymbolicLink(dir.resolve("link"), mine.getParent());
    String linked = refused("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + link + "/runs/demo-oc-agg2-s*",
        GATED, "--output=" + dir.resolve("r5"));
    assertTrue(linked.contains(" is one of --namespaces too (it is " + mine.toRealPath().resolve("demo-oc-agg2-s1")),
        linked);

    String none = refused("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs + "/nothing-*", GATED,
        "--output=" + dir.resolve("r4"));
    assertTrue(none.startsWith("--versus: '"), none);
    assertFalse(Files.exists(dir.resolve("r1").resolve("report.txt")));
  }
}
