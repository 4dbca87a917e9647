package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.bench.Benchmarks;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.Rollout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoBenchmarkTest {

  @TempDir Path root;

  private DemoBenchmark demo() throws IOException {
    return demo(DemoBenchmark.DEFAULT_TIMEOUT);
  }

  private DemoBenchmark demo(Duration timeout) throws IOException {
    DemoBenchmark.setUp(root);
    return new DemoBenchmark(root, timeout, Clock.fixed(Instant.ofEpochSecond(1_700_000_000), ZoneOffset.UTC));
  }

  /** A copy of the base harness after the scripted proposer's stage edit, as an improver would hand it back. */
  private Path fixedHarness() throws Exception {
    Path cwd = Files.createDirectories(root.resolve("session"));
    Path harness = cwd.resolve("context/harness");
    for (Map.Entry<String, String> f : DemoSetup.BASE_HARNESS.entrySet()) {
      Path p = harness.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.copy(root.resolve("base").resolve(f.getKey()), p);
    }
    new ScriptedLedgerChannel().run(cwd, "mission", "", "inv1.a1", Duration.ofMinutes(1));
    return harness;
  }

  private Path harnessWithScript(String name, String script) throws IOException {
    Path harness = root.resolve("harnesses").resolve(name);
    Files.createDirectories(harness.resolve("scripts"));
    Files.writeString(harness.resolve(DemoSetup.SCRIPT), script);
    return harness;
  }

  private static String answer(Rollout r) throws IOException {
    return Files.readString(r.runDir().resolve(DemoBenchmark.ANSWER));
  }

  @Test
  void baseHarnessPrintsThePositiveOnlyTotals() throws Exception {
    DemoBenchmark demo = demo();
    Rollout one = demo.execute("ledger-1", null, "demo-oc-agg2/ledger-1/base1");
    Rollout two = demo.execute("ledger-2", null, "demo-oc-agg2/ledger-2/base1");
    assertEquals("Total: 105.25\n", answer(one));
    assertEquals("Total: 35.50\n", answer(two));
    assertFalse(one.reused());
    assertEquals(root.resolve("executions/demo-oc-agg2/ledger-1/base1"), one.runDir());
    assertEquals(2, demo.executionCount());
  }

  @Test
  void scriptedStageEditMakesBothTotalsCorrect() throws Exception {
    DemoBenchmark demo = demo();
    Path fixed = fixedHarness();
    assertEquals("Total: 85.15\n", answer(demo.execute("ledger-1", fixed, "demo-oc-agg2/ledger-1/inv1")));
    assertEquals("Total: 20.25\n", answer(demo.execute("ledger-2", fixed, "demo-oc-agg2/ledger-2/inv1")));
  }

  /** A harness script that prints a key h2beam holds leaves neither the answer nor the trajectory holding it. */
  @Test
  void aKeyAScriptPrintsGoesNoFurtherThanItsOutput() throws Exception {
    String key = "sk-demo-leak-0123456789ab";
    List<dev.h2beam.adapters.config.EnvKeys.Held> was =
        dev.h2beam.adapters.config.EnvKeys.use(Map.of("H2B_DEMO_API_KEY", key));
    try {
      DemoBenchmark demo = demo();
      Path harness = harnessWithScript("leaky", "echo \"Total: " + key + "\"\n");
      Rollout r = demo.execute("ledger-1", harness, "r/inv1");
      assertEquals("Total: [redacted key]\n", answer(r));
      assertFalse(demo.trajectory(r.runDir(), 50_000).contains(key));
    } finally {
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
  }

  @Test
  void rolloutDeliversAnswerTrajectoryAndMarker() throws Exception {
    DemoBenchmark demo = demo();
    Path runDir = demo.execute("ledger-1", null, "demo-oc-agg2/ledger-1/base1").runDir();
    assertTrue(demo.delivered(runDir));
    assertEquals("[ACTION] Run scripts/summarize.sh on ledger.csv\n[OBSERVATION]\nTotal: 105.25\n",
        demo.trajectory(runDir, 50_000));
    assertEquals("Total: 105.25\n", demo.deliverableText(runDir));
    assertEquals(Map.of("answer.txt", "Total: 105.25\n"), demo.deliverableFiles(runDir));
    assertEquals("reusable", Runmark.whyNot(runDir, "base"));
    assertEquals(Runmark.fileDigest(runDir.resolve("answer.txt")),
        Runmark.readMark(runDir).path("deliverables").path("answer.txt").asText());
    assertEquals(1_700_000_000.0, Runmark.readMark(runDir).path("at").asDouble());
    try (var files = Files.list(runDir)) {
      assertEquals(List.of(".adapt_complete", "answer.txt", "trajectory.md"),
          files.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void concurrentExecutionsOfDifferentRunIdsAllDeliver() throws Exception {
    DemoBenchmark demo = demo();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Rollout>> runs = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String task = i % 2 == 0 ? "ledger-1" : "ledger-2";
        String runId = "r/" + task + "/base" + i;
        runs.add(pool.submit(() -> demo.execute(task, null, runId)));
      }
      for (int i = 0; i < 8; i++) {
        assertEquals(i % 2 == 0 ? "Total: 105.25\n" : "Total: 35.50\n", answer(runs.get(i).get()));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(8, demo.executionCount());
  }

  @Test
  void sameRunIdAndHarnessIsReusedWithoutRunningAgain() throws Exception {
    DemoBenchmark demo = demo();
    Path answer = demo.execute("ledger-1", null, "r/base1").runDir().resolve("answer.txt");
    FileTime old = FileTime.fromMillis(0);
    Files.setLastModifiedTime(answer, old);
    Rollout again = demo.execute("ledger-1", null, "r/base1");
    assertTrue(again.reused());
    assertEquals(old, Files.getLastModifiedTime(answer));
    assertEquals(1, demo.executionCount());
  }

  @Test
  void changedHarnessRunsAgain() throws Exception {
    DemoBenchmark demo = demo();
    demo.execute("ledger-1", null, "r/inv1");
    Rollout again = demo.execute("ledger-1", fixedHarness(), "r/inv1");
    assertFalse(again.reused());
    assertEquals("Total: 85.15\n", answer(again));
    assertEquals(2, demo.executionCount());
  }

  @Test
  void deletedAnswerRunsAgain() throws Exception {
    DemoBenchmark demo = demo();
    Path runDir = demo.execute("ledger-1", null, "r/base1").runDir();
    Files.delete(runDir.resolve("answer.txt"));
    Rollout again = demo.execute("ledger-1", null, "r/base1");
    assertFalse(again.reused());
    assertEquals("Total: 105.25\n", answer(again));
  }

  @Test
  void tamperedAnswerIsNotIntact() throws Exception {
    DemoBenchmark demo = demo();
    Path runDir = demo.execute("ledger-1", null, "r/base1").runDir();
    assertTrue(demo.artifactsIntact(runDir));
    Files.writeString(runDir.resolve("answer.txt"), "Total: 85.15\n");
    assertFalse(demo.artifactsIntact(runDir));
  }

  @Test
  void tamperedAnswerRunsAgain() throws Exception {
    DemoBenchmark demo = demo();
    Path runDir = demo.execute("ledger-1", null, "r/base1").runDir();
    Files.writeString(runDir.resolve("answer.txt"), "Total: 85.15\n");
    Rollout again = demo.execute("ledger-1", null, "r/base1");
    assertFalse(again.reused());
    assertEquals("Total: 105.25\n", answer(again));
    assertTrue(demo.artifactsIntact(runDir));
  }

  @Test
  void scriptThatNeverEndsIsKilledByTheTimeout() throws Exception {
    DemoBenchmark demo = demo(Duration.ofMillis(300));
    Path looping = harnessWithScript("looping", "while :; do :; done\n");
    Path script = looping.resolve(DemoSetup.SCRIPT);
    assertThrows(TimeoutException.class, () -> demo.execute("ledger-1", looping, "r/loop"));
    boolean stillRunning = ProcessHandle.allProcesses().anyMatch(p -> p.isAlive()
        && p.info().commandLine().map(c -> c.contains(script.toString())).orElse(false));
    assertFalse(stillRunning);
    assertNull(Runmark.readMark(root.resolve("executions/r/loop")));
  }

  @Test
  void failingScriptThrowsWithItsStderrAndLeavesNoMarker() throws Exception {
    DemoBenchmark demo = demo();
    Path broken = harnessWithScript("broken", "echo 'cannot read the ledger' >&2\nexit 3\n");
    IOException e = assertThrows(IOException.class, () -> demo.execute("ledger-1", broken, "r/broken"));
    assertTrue(e.getMessage().contains("exited with 3"), e.getMessage());
    assertTrue(e.getMessage().contains("cannot read the ledger"), e.getMessage());
    assertNull(Runmark.readMark(root.resolve("executions/r/broken")));
  }

  @Test
  void amountsAreSummedInExactCents() throws Exception {
    DemoBenchmark demo = demo();
    Path fixed = fixedHarness();
    Path ledger = root.resolve("sources/ledger-1/ledger.csv");
    Files.writeString(ledger, "amount\n0.10\n0.20\n");
    assertEquals("Total: 0.30\n", answer(demo.execute("ledger-1", fixed, "r/small")));
    // binary floating point gives 70368744177664.03 here
    Files.writeString(ledger, "amount\n70368744177664.01\n0.01\n");
    assertEquals("Total: 70368744177664.02\n", answer(demo.execute("ledger-1", fixed, "r/large")));
    Files.writeString(ledger, "amount\n-1.5\n-1.55\n");
    assertEquals("Total: -3.05\n", answer(demo.execute("ledger-1", fixed, "r/negative")));
  }

  @Test
  void setUpNeverOverwritesAnExistingFile() throws Exception {
    Path prompt = root.resolve("base/systemprompt.md");
    Files.createDirectories(prompt.getParent());
    Files.writeString(prompt, "my own prompt\n");
    assertEquals(List.of(prompt), DemoBenchmark.setUp(root));
    assertEquals("my own prompt\n", Files.readString(prompt));
    assertEquals(DemoSetup.BASE_HARNESS.get(DemoSetup.SCRIPT),
        Files.readString(root.resolve("base/scripts/summarize.sh")));
    assertEquals("amount\n100.25\n-20.10\n5.00\n", Files.readString(root.resolve("sources/ledger-1/ledger.csv")));
  }

  @Test
  void setUpOfAnUntouchedRootReportsNoDifferences() throws Exception {
    DemoBenchmark.setUp(root);
    assertEquals(List.of(), DemoBenchmark.setUp(root));
  }

  @Test
  void baseScriptCarriesThePositiveOnlyFilter() throws Exception {
    demo();
    assertTrue(Files.readString(root.resolve("base/scripts/summarize.sh")).contains("if (amount > 0) "));
    assertEquals("if (amount > 0) ", DemoBenchmark.POSITIVE_FILTER);
  }

  @Test
  void treeWithoutTheScriptIsRejected() throws Exception {
    DemoBenchmark demo = demo();
    HarnessRejected e = assertThrows(HarnessRejected.class,
        () -> demo.validateTree(Map.of("systemprompt.md", "x\n")));
    assertTrue(e.getMessage().contains("scripts/summarize.sh"), e.getMessage());
    demo.validateTree(Map.of("scripts/summarize.sh", "echo 'Total: 0.00'\n"));
  }

  @Test
  void runIdOutsideTheExecutionsFolderIsRefused() throws Exception {
    DemoBenchmark demo = demo();
    assertThrows(IllegalArgumentException.class, () -> demo.execute("ledger-1", null, "../escape"));
  }

  @Test
  void specDescribesTheDemoCell() throws Exception {
    DemoBenchmark demo = demo();
    assertEquals("demo", demo.spec().name());
    assertEquals("oc", demo.substrate());
    assertEquals("workspace_config", demo.spec().installMode());
    assertEquals("reconcile signed amounts in a transaction ledger", demo.spec().prompts().work());
    assertEquals("scripted-ledger", demo.spec().proposerChannel().kind());
    assertEquals("local/deterministic", demo.spec().selectorChannel().model());
    assertEquals(List.of("reference_answer.txt"), demo.spec().leakGlobs());
    assertEquals(50_000, demo.spec().obsTrunc());
    assertEquals(List.of("ledger-1", "ledger-2"), demo.tasks());
    assertEquals("accounting", demo.domainOf("ledger-2"));
    assertEquals(Optional.of(List.of("accounting")), demo.referenceDomainOrder());
    assertEquals(Optional.of(root.resolve("sources/ledger-1")), demo.taskFiles("ledger-1"));
    assertTrue(demo.taskPrompt("ledger-1").contains("Total:"));
    assertEquals(root.resolve("base"), demo.baseHarness());
  }

  @Test
  void providerOpensTheDemoByNameAndPrepareWritesItsFiles() throws Exception {
    Benchmark bench = Benchmarks.named("demo").open(root, Map.of());
    assertFalse(Files.exists(root.resolve("base")), "opening writes nothing");
    bench.prepare();
    assertEquals("demo", bench.spec().name());
    assertTrue(Files.isRegularFile(root.resolve("base/scripts/summarize.sh")));
    assertTrue(Files.isRegularFile(root.resolve("sources/ledger-2/ledger.csv")));
    assertNotEquals(Optional.empty(), bench.taskFiles("ledger-2"));
  }

  @Test
  void anAnswerThatIsNotUtf8IsRenderedWithReplacementCharactersAndGradedAsWrong() throws Exception {
    DemoBenchmark demo = demo();
    Path runDir = demo.execute("ledger-1", harnessWithScript("latin1", "printf 'Total: 85.15\\351\\n'\n"),
        "r/latin1").runDir();
    assertEquals("Total: 85.15\ufffd\n", demo.deliverableText(runDir));
    assertTrue(demo.trajectory(runDir, 50_000).endsWith("Total: 85.15\ufffd\n"));
    assertEquals(false, new DemoGrader(root).score(runDir, "ledger-1").orElseThrow().get("all_pass"));
  }

  @Test
  void aLedgerThatIsNotUtf8IsRefusedNamingTheFile() throws Exception {
    demo();
    Path ledger = root.resolve("sources/ledger-1/ledger.csv");
    Files.write(ledger, new byte[] {'a', 'm', 'o', 'u', 'n', 't', '\n', (byte) 0xa3, '5', '\n'});
    IOException e = assertThrows(IOException.class, () -> LedgerAmounts.signedTotal(ledger));
    assertTrue(e.getMessage().startsWith(ledger + " is not UTF-8 text"), e.getMessage());
  }
}
