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
    Path runs = Files.createDirectories(root.resolve("runs"));
    for (int seed = 1; seed <= 3; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      Fixtures.judged(ns, List.of(Fixtures.graded("ledger-1", "gat", 2, "g3", passed, 2),
          Fixtures.graded("ledger-2", "gat", 2, "g1", passed, 2)));
      for (String task : List.of("ledger-1", "ledger-2")) {
        int r = seed == offBudgetSeed && task.equals("ledger-1") ? 7 : 8;
        Fixtures.summary(ns, task, 2, 0.5, 0.25, List.of(), 0.0,
            List.of(new ModeRun("gat", List.of("g3", "r1"), task.equals("ledger-1") ? "g3" : "g1", r)));
      }
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
      Fixtures.gateConfig(ns, method, policy, null);
      Fixtures.namespace(runs, "demo-oc-gat2-s" + seed);
    }
    return runs;
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
        + " namespace of its name: holds\n  M3 same judge identity: holds\n  M4 same experiment but the gated method:"
        + " executor, improver, tasks, inputs and settings (config.json): holds\n  M5 equal budget, R = 4k = 8 rollouts"
        + " and P = 3k = 6 improver sessions per task in each side's ledger: holds\n"), text);
    assertTrue(text.contains("  gated[sign-rule] (--namespaces): gated (method sign-rule, policy score_comparison) in "
        + mine + ": demo-oc-agg2-s1, demo-oc-agg2-s2, demo-oc-agg2-s3\n"), text);
    assertTrue(text.contains("  gated[improver] (--versus): gated (method improver, policy score_comparison) in "
        + theirs + ": demo-oc-agg2-s1, demo-oc-agg2-s2, demo-oc-agg2-s3\n"), text);
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
    Map<String, Object> record = Json.readMap(mine.resolveSibling("report").resolve("report.json"));
    assertEquals(List.of(theirs.resolve("demo-oc-agg2-s1").toString(), theirs.resolve("demo-oc-agg2-s2").toString(),
        theirs.resolve("demo-oc-agg2-s3").toString()), record.get("versus"));
  }

  @Test
  void sidesThatDifferInMoreThanTheirMethodAreNotComparedAndTheDifferenceIsNamed(@TempDir Path dir)
      throws Exception {
    Path mine = signRule(dir);
    Path theirs = improver(dir, 0);
    for (int seed = 1; seed <= 3; seed++) {
      Path config = theirs.resolve("demo-oc-agg2-s" + seed).resolve("config.json");
      Map<String, Object> c = Json.readMap(config);
      c.put("split", "test");
      c.put("executor", "other/oc");
      Files.writeString(config, Json.pretty(c) + "\n", StandardCharsets.UTF_8);
    }
    Fixtures.Run run = report(mine, theirs);
    assertEquals(0, run.exit(), run.err());
    String text = run.out();
    assertTrue(text.contains("  M4 same experiment but the gated method: executor, improver, tasks, inputs and"
        + " settings (config.json): FAILS -- executor differs across replicates: demo/oc ("), text);
    assertTrue(text.contains("; split differs: \"all\" in " + mine.resolve("demo-oc-agg2-s1") + " | \"test\" in "
        + theirs.resolve("demo-oc-agg2-s1")), text);
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
    assertTrue(same.out().contains("\nMethods at k=2: gated[--namespaces] vs gated[--versus]"), same.out());
    assertTrue(same.out().contains("  by design: both sides record the same gated method and policy (gated (method"
        + " improver, policy always)): an A/A comparison, which measures how far two runs of one method differ, not"
        + " which method is better\n"), same.out());
    assertEquals("relation: inconclusive | claim: exploratory", relation(same.out()));
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

    String none = refused("--namespaces=" + mine + "/demo-oc-agg2-s*", "--versus=" + theirs + "/nothing-*", GATED,
        "--output=" + dir.resolve("r4"));
    assertTrue(none.startsWith("--versus: '"), none);
    assertFalse(Files.exists(dir.resolve("r1").resolve("report.txt")));
  }
}
