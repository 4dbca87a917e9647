package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.transforms.evidence.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gated mode on the folder example over real HTTP: all three modes at k = 2 write the same files on the
 * DirectRunner and on embedded Flink, each at the same budget; a benchmark whose tasks have no checks/ is refused
 * for the gated mode before anything runs.
 */
class FolderGatedTest {
  static ScriptedModelServer server;

  @BeforeAll
  static void start() throws Exception {
    server = ScriptedModelServer.start(new SignedSumsModel());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void theExampleRunsAllThreeModesWithTheSameFilesOnBothRunners(@TempDir Path tmp) throws Exception {
    Path config = FolderSweepTest.config(tmp, server.baseUrl());
    Path direct = tmp.resolve("direct");
    Path flink = tmp.resolve("flink");
    String[] ledgers = {"--onlyDomains=ledgers"};
    Map<String, Object> record = FolderSweepTest.sweepIn(FolderSweepTest.EXAMPLE, direct, config, 2,
        "parallel,sequential,gated", ledgers);
    assertEquals(2, Sweep.doneFailed(record)[0], record.toString());
    FolderSweepTest.sweepIn(FolderSweepTest.EXAMPLE, flink, config, 2, "parallel,sequential,gated",
        "--onlyDomains=ledgers", "--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2");
    // the model answered every request (a brain that throws leaves a call unanswered, a retry that looks like the
    // transport's)
    assertEquals(List.of(), server.failures());
    Path ns = direct.resolve("signed_sums-oc-agg2");
    assertTrue(Files.isDirectory(direct.resolve("signed_sums-oc-gat2")), "the gated mode's own namespace");
    for (String task : new String[] {"ledgers__april", "ledgers__march"}) {
      JsonNode s = Json.readTree(ns.resolve(task).resolve("summary.json"));
      for (String mode : new String[] {"agg", "seq", "gat"}) {
        assertEquals(8, s.at("/modes/" + mode + "/ledger/R").asInt(), mode + " " + s);
        assertEquals(6, s.at("/modes/" + mode + "/ledger/P").asInt(), mode + " " + s);
      }
      JsonNode gate = s.at("/modes/gat/gate");
      // the first candidate keeps the sign: the task's checks pass it against both base episodes
      assertEquals("g1", gate.path("final_harness").asText(), gate.toString());
      assertEquals("select", gate.at("/steps/0/decision/outcome").asText(), gate.toString());
      assertEquals("[[1.0,0.0],[1.0,0.0]]", gate.at("/steps/0/decision/pairs").toString());
      assertTrue(s.at("/selections/gat/ok").asBoolean(), s.toString());
      assertFalse(s.at("/selections/gat/chosen_tree_is_base").asBoolean(), s.toString());
    }
    String judged = FolderSweepTest.judge(ns, "--modes=parallel,sequential,gated");
    assertTrue(judged.contains("6 graded"), judged);
    FolderSweepTest.judge(flink.resolve("signed_sums-oc-agg2"), "--modes=parallel,sequential,gated",
        "--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2");
    int passed = 0;
    for (JsonNode r : Json.readTree(ns.resolve("judged.json"))) {
      if (r.path("mode").asText().equals("gat")) passed += r.path("n_passed").asInt();
    }
    assertEquals(2, passed, Files.readString(ns.resolve("judged.json")));
    TreeMap<String, String> a = FolderSweepTest.sameFiles(direct, flink);
    assertTrue(a.keySet().stream().anyMatch(k -> k.contains("signed_sums-oc-gat2")), a.keySet().toString());
  }

  @Test
  void aBenchmarkWithoutChecksIsRefusedForTheGatedModeNamingTheTask(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    FileTrees.copy(FolderSweepTest.EXAMPLE, bench);
    FileTrees.delete(bench.resolve("tasks/ledgers/april/checks"));
    Path config = FolderSweepTest.config(tmp, server.baseUrl());
    Path runs = tmp.resolve("runs");
    UsageError e = assertThrows(UsageError.class, () -> FolderSweepTest.sweepIn(bench, runs, config, 1,
        "parallel,gated"));
    assertTrue(e.getMessage().contains("--modes includes gated, but benchmark signed_sums gives its method no signal"
        + " of its own: 1 task(s) have no checks/ folder (first: ledgers/april)"), e.getMessage());
    assertTrue(e.getMessage().contains("--modes=parallel,sequential"), e.getMessage());
    assertFalse(Files.exists(runs.resolve("signed_sums-oc-agg1")), "refused before anything was written");
    // an unknown method or policy is refused naming its flag
    assertTrue(assertThrows(UsageError.class, () -> FolderSweepTest.sweepIn(FolderSweepTest.EXAMPLE, runs, config, 1,
        "gated", "--method=nope")).getMessage().startsWith("--method=nope is not a known gated method; known: ["));
    assertTrue(assertThrows(UsageError.class, () -> FolderSweepTest.sweepIn(FolderSweepTest.EXAMPLE, runs, config, 1,
        "gated", "--policy=best")).getMessage().startsWith("--policy=best is not a known selection policy"));
    // an empty one is a slip, not the default (dogY #16)
    assertEquals("--method= names no method; known: [improver] (leave the flag out for improver)",
        assertThrows(UsageError.class, () -> FolderSweepTest.sweepIn(FolderSweepTest.EXAMPLE, runs, config, 1,
            "gated", "--method=")).getMessage());
    assertTrue(assertThrows(UsageError.class, () -> FolderSweepTest.sweepIn(FolderSweepTest.EXAMPLE, runs, config, 1,
        "gated", "--policy=")).getMessage().startsWith("--policy= names no policy; known: ["));
    // a checks/ folder without its script is named when the benchmark is opened
    Files.createDirectories(bench.resolve("tasks/ledgers/april/checks")).resolve("notes.txt").toFile().createNewFile();
    UsageError noScript = assertThrows(UsageError.class, () -> FolderSweepTest.sweepIn(bench, runs, config, 1,
        "parallel"));
    assertTrue(noScript.getMessage().contains("ledgers/april/checks: no check.sh"), noScript.getMessage());
  }
}
