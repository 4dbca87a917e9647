package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.report.ReportCommand;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --anonIds=replicate}: the blind selector's ids are shuffled with the replicate's seed too, so replicates
 * list a task's candidates in orders of their own; recorded in config.json, kept by every resume, required alike of
 * the namespaces one report pools, and named by the report's line on where the selector's choices stood. The default
 * stays harness2's rule and writes the files it wrote before.
 */
class AnonIdsReplicateTest {

  @SuppressWarnings("unchecked")
  private static Map<String, Object> idMap(Path out, int seed, String task, String mode) throws Exception {
    Map<String, Object> s = SummaryFile.read(out.resolve("runs/demo-oc-agg2-s" + seed).resolve(task)
        .resolve("summary.json"));
    return (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) s.get("selections")).get(mode))
        .get("id_map");
  }

  private static String report(Path out, String glob, Path into, int expectedExit) throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = new ReportCommand().run(new String[] {"--namespaces=" + out.resolve("runs") + "/" + glob,
        "--output=" + into}, new PrintStream(text, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String both = text.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, exit, both);
    return both;
  }

  @Test
  void replicatesListTheCandidatesInOrdersOfTheirOwnAndTheReportSaysSo(@TempDir Path out) throws Exception {
    for (int seed = 1; seed <= 2; seed++) assertEquals(0, demo(out, "--seed=" + seed, "--anonIds=replicate"));
    boolean differs = false;
    for (String task : List.of("ledger-1", "ledger-2")) {
      for (String mode : List.of("agg", "seq")) {
        Set<Map<String, Object>> maps = new HashSet<>();
        for (int seed = 1; seed <= 2; seed++) maps.add(idMap(out, seed, task, mode));
        differs |= maps.size() > 1;
      }
    }
    assertTrue(differs, "some task lists its candidates in another order in another replicate");
    Path config = out.resolve("runs/demo-oc-agg2-s2/config.json");
    assertEquals("replicate", Json.readMap(config).get("anon_ids"));
    String text = report(out, "demo-oc-agg2-s*", out.resolve("replicates"), 0);
    assertTrue(text.contains("| 2 replicates, 4 task pairs"), text);
    assertTrue(text.contains("were shuffled per replicate (--anonIds=replicate"), text);
    assertFalse(text.contains("are harness2's (spec §19.2)"), text);

    // a resume must keep the rule: refused, naming the flag to pass, and nothing written
    byte[] before = Files.readAllBytes(config);
    String refused = assertThrows(UsageError.class, () -> demo(out, "--seed=2")).getMessage();
    assertTrue(refused.contains(config + " records the selector's ids shuffled by replicate and this sweep shuffles"
        + " them by task") && refused.contains("Resume with --anonIds=replicate"), refused);
    // the other way out it names is one the demo takes (its benchmark folder serves one runs root)
    assertTrue(refused.endsWith("or use a new --output (with h2beam sweep, a new --benchRoot and --runsRoot) for the"
        + " other"), refused);
    assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(config));

    // a namespace of harness2's rule (the default) beside them is not one of their replicates
    assertEquals(0, demo(out, "--seed=4"));
    assertFalse(Json.readMap(out.resolve("runs/demo-oc-agg2-s4/config.json")).containsKey("anon_ids"),
        "the default writes config.json as before");
    assertTrue(report(out, "demo-oc-agg2-s4", out.resolve("alone"), 0).contains("are harness2's (spec §19.2)"));
    String mixed = report(out, "demo-oc-agg2-s*", out.resolve("mixed"), 1);
    assertTrue(mixed.contains("k=2: anon_ids differs: selector ids shuffled by replicate in demo-oc-agg2-s1,"
        + " demo-oc-agg2-s2 | selector ids shuffled by task in demo-oc-agg2-s4"), mixed);
    String refusedToo = assertThrows(UsageError.class, () -> demo(out, "--seed=4", "--anonIds=replicate"))
        .getMessage();
    assertTrue(refusedToo.contains("shuffled by task and this sweep shuffles them by replicate"), refusedToo);
  }

  @Test
  void theRuleIsCheckedBeforeAnythingRuns(@TempDir Path out) {
    String noSeed = assertThrows(UsageError.class, () -> demo(out, "--anonIds=replicate")).getMessage();
    assertTrue(noSeed.contains("--anonIds=replicate shuffles the selector's ids with the replicate's --seed, and none"
        + " is given: add --seed=N"), noSeed);
    String bad = assertThrows(UsageError.class, () -> demo(out, "--anonIds=random", "--seed=1")).getMessage();
    assertTrue(bad.contains("--anonIds must be task (harness2's rule, the default) or replicate (got 'random')"),
        bad);
    assertFalse(Files.exists(out.resolve("runs")), "nothing written");
  }
}
