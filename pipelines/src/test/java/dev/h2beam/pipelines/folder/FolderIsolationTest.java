package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.files.FilesHolding;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepOptions;
import dev.h2beam.transforms.evidence.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dogAD F1 on a real sweep: a base harness whose agent goes looking for the answer keys
 * ({@code cat <benchmark>/tasks/x/y/grading/expected.txt}, the benchmark folder holding the default runs root).
 * Without isolation the answers reach its trajectory, and from there every improver, composition and reflector
 * prompt; with {@code --isolation=namespaces} the agent finds no such file and no file of the run holds an answer.
 * On a machine that cannot isolate, the sweep is refused before anything runs, saying why.
 */
class FolderIsolationTest {
  static ScriptedModelServer server;

  @BeforeAll
  static void start() throws Exception {
    server = ScriptedModelServer.start(new SignedSumsModel());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** The example benchmark with a command executor that prints every task's expected answer it can read. */
  private static Path prying(Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    FileTrees.copy(FolderSweepTest.EXAMPLE, bench);
    Path benchJson = bench.resolve("bench.json");
    String look = "for f in " + bench + "/tasks/*/*/grading/expected.txt ../../../../../../tasks/*/*/grading/*.txt;"
        + " do echo LEAKED $f: $(cat $f 2>&1); done; echo Total: 0 > {output}/answer.md";
    Files.writeString(benchJson, Files.readString(benchJson).replace("\"executor\": {\"kind\": \"chat\"}",
        "\"executor\": {\"kind\": \"command\", \"command\": " + Json.MAPPER.writeValueAsString(look) + "}"));
    return bench;
  }

  private static SweepOptions options(Path bench, Path config, String... extra) {
    List<String> args = new ArrayList<>(List.of("--bench=folder", "--benchRoot=" + bench, "--config=" + config,
        "--runsRoot=" + bench.resolve("runs"), "--k=1", "--modes=parallel", "--onlyDomains=ledgers",
        "--maxTasks=1", "--sessionRetryWaitSeconds=0"));
    args.addAll(List.of(extra));
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(SweepOptions.class);
  }

  private static Map<String, Object> sweep(Path bench, Path config, String... extra) throws Exception {
    SweepOptions o = options(bench, config, extra);
    return Sweep.run(Sweep.plan(o, Instant.parse("2026-01-01T00:00:00Z")), o);
  }

  private static List<String> answers(Path bench) throws Exception {
    List<String> out = new ArrayList<>();
    for (String t : List.of("ledgers/march", "ledgers/april", "inventory/nuts", "inventory/bolts")) {
      out.add(Files.readString(bench.resolve("tasks/" + t + "/grading/expected.txt")).strip());
    }
    return out;
  }

  /** The files under the runs root that hold any expected answer. */
  private static List<Path> holdingAnAnswer(Path bench) throws Exception {
    List<Path> out = new ArrayList<>();
    for (String a : answers(bench)) {
      for (Path p : FilesHolding.containing(bench.resolve("runs"), a)) {
        if (!out.contains(p)) out.add(p);
      }
    }
    return out;
  }

  @Test
  void withoutIsolationTheAnswerReachesTheMethodAndWithItNoFileHoldsOne(@TempDir Path tmp) throws Exception {
    Path plain = prying(tmp.resolve("plain"));
    Path config = FolderSweepTest.config(tmp, server.baseUrl());
    Map<String, Object> record = sweep(plain, config);
    assertEquals(1, Sweep.doneFailed(record)[0], record.toString());
    List<Path> leaked = holdingAnAnswer(plain);
    // the rollouts' trajectories, and what the improvers were shown of them
    assertTrue(leaked.stream().anyMatch(p -> p.endsWith("trajectory.md")), leaked.toString());
    assertTrue(leaked.stream().anyMatch(p -> p.toString().contains("/context/")), leaked.toString());

    Path isolated = prying(tmp.resolve("isolated"));
    Optional<String> why = Isolation.unavailable();
    if (why.isPresent()) {
      UsageError e = assertThrows(UsageError.class, () -> sweep(isolated, config, "--isolation=namespaces"));
      assertTrue(e.getMessage().contains("this machine cannot isolate a program: " + why.get()), e.getMessage());
      assertFalse(Files.exists(isolated.resolve("runs/_executions")), "nothing ran");
      return;
    }
    record = sweep(isolated, config, "--isolation=namespaces");
    assertEquals(1, Sweep.doneFailed(record)[0], record.toString());
    assertEquals(List.of(), holdingAnAnswer(isolated));
    Path base;
    try (var runs = Files.walk(isolated.resolve("runs/_executions"))) {
      base = runs.filter(p -> p.getFileName().toString().equals("base1")).findFirst().orElseThrow();
    }
    String trajectory = Files.readString(base.resolve("trajectory.md"));
    assertTrue(trajectory.contains("LEAKED " + isolated + "/tasks/*/*/grading/expected.txt: cat: "), trajectory);
    assertEquals("Total: 0\n", Files.readString(base.resolve("output/answer.md")), "its deliverable is the host's");
    assertEquals("namespaces", Json.readTree(isolated.resolve("runs/signed_sums-oc-agg1/config.json"))
        .path("isolation").asText());
    // the report says so; of an unisolated run it says nothing (the README does)
    Path ns = isolated.resolve("runs/signed_sums-oc-agg1");
    FolderSweepTest.judge(ns);
    String report = FolderSweepTest.report(ns);
    assertTrue(report.contains("Rollouts' isolation (config.json's \"isolation\"; README, \"Isolating the"
        + " rollouts\"):\n  isolated by namespaces (each agent saw its own run folder only): signed_sums-oc-agg1"),
        report);
    FolderSweepTest.judge(plain.resolve("runs/signed_sums-oc-agg1"));
    String plainReport = FolderSweepTest.report(plain.resolve("runs/signed_sums-oc-agg1"));
    assertFalse(plainReport.contains("isolation"), plainReport);

    // a resume must keep it, either way
    UsageError changed = assertThrows(UsageError.class, () -> sweep(isolated, config));
    assertTrue(changed.getMessage().contains("records rollouts run with --isolation=namespaces and this sweep asks"
        + " for --isolation=none"), changed.getMessage());
    UsageError added = assertThrows(UsageError.class, () -> sweep(plain, config, "--isolation=namespaces"));
    assertTrue(added.getMessage().contains("Resume with --isolation=none"), added.getMessage());
  }

  /** The demo's and synthetic bench's refusals are the demo module's ({@code IsolationRefusedTest}). */
  @Test
  void anUnknownValueIsRefused(@TempDir Path tmp) throws Exception {
    Path config = FolderSweepTest.config(tmp, server.baseUrl());
    Path bench = prying(tmp);
    UsageError unknown = assertThrows(UsageError.class, () -> sweep(bench, config, "--isolation=docker"));
    assertTrue(unknown.getMessage().contains("--isolation=docker: give namespaces or none"), unknown.getMessage());
  }
}
