package dev.h2beam.adapters.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RolloutFailed;
import dev.h2beam.adapters.model.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollouts of a folder benchmark with the {@code command} executor (a real shell command as the agent): the
 * deliverable lands in {@code output/}, the marker records the harness and the deliverables, a finished rollout is
 * reused, a changed deliverable or harness is rolled again, and a failed one is left unmarked with its cause.
 */
class FolderRolloutTest {
  @TempDir Path tmp;

  FolderBenchmark bench(String command) throws IOException {
    return bench(command, "");
  }

  /** The same with {@code extra} executor settings (a JSON fragment after the command, e.g. {@code , "free": true}). */
  FolderBenchmark bench(String command, String extra) throws IOException {
    return bench("{\"kind\": \"command\", \"command\": " + dev.h2beam.adapters.files.Json.canonical(command) + extra
        + "}", RunConfig.empty());
  }

  /** The benchmark with {@code executor} as bench.json's executor setting, under {@code config}. */
  FolderBenchmark bench(String executor, RunConfig config) throws IOException {
    Path root = tmp.resolve("bench");
    Files.createDirectories(root.resolve("base"));
    Files.writeString(root.resolve("base/systemprompt.md"), "Answer in capitals.\n");
    Path task = root.resolve("tasks/d/t");
    Files.createDirectories(task.resolve("source"));
    Files.writeString(task.resolve("task.md"), "Say hello.\n");
    Files.writeString(task.resolve("source/name.txt"), "world\n");
    Files.writeString(root.resolve("bench.json"), "{\"name\": \"b\", \"executor\": " + executor + ","
        + " \"grader\": {\"kind\": \"expected\"}, \"prompts\": {\"work\": \"greetings\"}}");
    return FolderBenchmark.open(root, tmp.resolve("exec"), "all", config, Map.of("PATH", System.getenv("PATH")));
  }

  /** A configuration whose executor role calls the endpoint at {@code baseUrl}, once per call, priced. */
  static RunConfig executorAt(String baseUrl) {
    return RunConfig.parse("endpoints:\n  local: {base_url: \"" + baseUrl + "\", max_attempts: 1,"
        + " price_per_mtok: {input: 1.0, output: 2.0}}\nroles:\n  executor: {endpoint: local, model: m}\n",
        "test.yaml");
  }

  static final String HELLO = "cat {workspace}/systemprompt.md > /dev/null; echo \"hello $(cat {workspace}/source/name.txt)\""
      + " > {output}/answer.md; echo ran >> " + "{workspace}/../ran.log";

  @Test
  void aRolloutDeliversIsMarkedAndIsReusedWhileNothingChanged() throws Exception {
    FolderBenchmark b = bench(HELLO);
    Rollout first = b.execute("d/t", null, "ns/d__t/base1");
    assertFalse(first.reused());
    assertTrue(b.delivered(first.runDir()));
    assertEquals("hello world\n", b.deliverableText(first.runDir()));
    assertTrue(Runmark.readMark(first.runDir()).path("deliverables").has("output/answer.md"));
    assertTrue(b.trajectory(first.runDir(), 50_000).contains("[ACTION]"));
    Rollout again = b.execute("d/t", null, "ns/d__t/base1");
    assertTrue(again.reused());
    assertTrue(b.artifactsIntact(again.runDir()));
  }

  static final String LEAKED = "sk-leaked-0123456789abcdefXYZ";

  /** What a rollout does with the key it got hold of: {@code body}, given the file that holds it. */
  interface WithKey {
    void run(Path found) throws Exception;
  }

  /**
   * Runs {@code body} while h2beam holds {@link #LEAKED} as {@code $H2B_LEAK_API_KEY}, and returns what it warned,
   * which never holds the key.
   */
  private String warnedHoldingTheKey(WithKey body) throws Exception {
    Path found = tmp.resolve("found.txt");
    Files.writeString(found, LEAKED);
    java.util.List<dev.h2beam.adapters.config.EnvKeys.Held> was =
        dev.h2beam.adapters.config.EnvKeys.use(Map.of("H2B_LEAK_API_KEY", LEAKED));
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream warned = new java.io.ByteArrayOutputStream();
    try {
      System.setErr(new java.io.PrintStream(warned, true, java.nio.charset.StandardCharsets.UTF_8));
      body.run(found);
    } finally {
      System.setErr(err);
      dev.h2beam.adapters.config.EnvKeys.restore(was);
    }
    String out = warned.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(out.contains("wrote the value of $H2B_LEAK_API_KEY into ") && !out.contains(LEAKED), out);
    return out;
  }

  /**
   * A rollout that got hold of a key h2beam holds (an agent that read h2beam's environment) and wrote it into its
   * answer and trajectory leaves neither holding it, nor its failure's message, and the marker's digest is the
   * scrubbed answer's: nothing downstream ever reads the value.
   */
  @Test
  void aKeyARolloutWroteIsTakenOutOfItsFilesBeforeAnythingReadsThem() throws Exception {
    String warned = warnedHoldingTheKey(found -> {
      FolderBenchmark b = bench("echo \"key $(cat " + found + ")\" > {output}/answer.md; cat " + found);
      Rollout r = b.execute("d/t", null, "ns/d__t/base1");
      assertEquals("key [redacted key]\n", b.deliverableText(r.runDir()));
      try (Stream<Path> files = Files.walk(r.runDir())) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertFalse(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1).contains(LEAKED),
              f.toString());
        }
      }
      assertTrue(b.artifactsIntact(r.runDir()), "the marker records the scrubbed answer");

      FolderBenchmark failing = bench("cat " + found + " >&2; exit 3");
      RolloutFailed e = assertThrows(RolloutFailed.class, () -> failing.execute("d/t", null, "ns/d__t/base2"));
      assertFalse(e.getMessage().contains(LEAKED), e.getMessage());
    });
    assertTrue(warned.contains("wrote the value of $H2B_LEAK_API_KEY into 3 file(s)"
        + " (base1/output/answer.md, base1/stdout.txt, base1/trajectory.md)"), warned);
  }

  /**
   * A rollout that named a file and a folder with a key h2beam holds, and pointed a link at it, leaves no such name
   * or link: the completion marker records each deliverable under the name it has now, so the key reaches neither
   * the marker nor what lists or copies the deliverables after it.
   */
  @Test
  void aKeyARolloutPutInANameIsTakenOutBeforeTheMarkerRecordsIt() throws Exception {
    String warned = warnedHoldingTheKey(found -> {
      FolderBenchmark b = bench("k=$(cat " + found + "); echo 42 > {output}/answer.md; echo n > {output}/name-$k.txt;"
          + " mkdir {output}/dir-$k; echo x > {output}/dir-$k/x.txt; ln -s /nonexistent/$k {output}/link.txt");
      Rollout r = b.execute("d/t", null, "ns/d__t/base1");
      String marker = Files.readString(r.runDir().resolve(Runmark.MARKER));
      assertFalse(marker.contains(LEAKED), marker);
      java.util.List<String> recorded = new java.util.ArrayList<>();
      Runmark.readMark(r.runDir()).path("deliverables").fieldNames().forEachRemaining(recorded::add);
      assertEquals(java.util.List.of("output/answer.md", "output/dir-redacted-key/x.txt",
          "output/name-redacted-key.txt"), recorded);
      assertFalse(Files.exists(r.runDir().resolve("output/link.txt"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
      assertTrue(b.artifactsIntact(r.runDir()));
    });
    assertTrue(warned.contains("into the name of 2 file(s) or folder(s) (now base1/output/dir-redacted-key,"
        + " base1/output/name-redacted-key.txt)") && warned.contains("(base1/output/link.txt), removed"), warned);
  }

  @Test
  void aChangedDeliverableOrHarnessIsRolledAgain() throws Exception {
    FolderBenchmark b = bench(HELLO);
    Rollout first = b.execute("d/t", null, "ns/d__t/base1");
    Files.writeString(first.runDir().resolve("output/answer.md"), "tampered\n");
    assertFalse(b.artifactsIntact(first.runDir()));
    assertFalse(b.execute("d/t", null, "ns/d__t/base1").reused());
    assertEquals("hello world\n", b.deliverableText(first.runDir()));
    Path edited = tmp.resolve("edited");
    Files.createDirectories(edited);
    Files.writeString(edited.resolve("systemprompt.md"), "Answer in lower case.\n");
    assertFalse(b.execute("d/t", edited, "ns/d__t/base1").reused());
  }

  @Test
  void aFailedRolloutIsLeftUnmarkedWithItsCause() throws Exception {
    FolderBenchmark b = bench("echo 'the agent broke' >&2; exit 3");
    IOException e = assertThrows(IOException.class, () -> b.execute("d/t", null, "ns/d__t/base1"));
    assertTrue(e.getMessage().contains("exit") && e.getMessage().contains("the agent broke"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("exec/ns/d__t/base1").resolve(Runmark.MARKER)));
    // a failed rollout reports its cost: this agent was given no endpoint, so what it spent is not known
    RolloutFailed f = assertInstanceOf(RolloutFailed.class, e);
    assertFalse(f.costKnown());
    assertEquals(0.0, f.costUsd());
  }

  /**
   * A command given no endpoint may still call a model with keys of its own: its cost is not known, unless the
   * executor's {@code free} setting says it calls none; then it is a known $0, in the marker as in the failure.
   */
  @Test
  void aCommandGivenNoEndpointHasACostNotKnownUnlessItIsDeclaredFree() throws Exception {
    Rollout unknown = bench(HELLO).execute("d/t", null, "ns/d__t/base1");
    assertFalse(unknown.costKnown());
    assertFalse(Runmark.readMark(unknown.runDir()).path("cost_known").asBoolean(true));
    Rollout reused = bench(HELLO).execute("d/t", null, "ns/d__t/base1");
    assertTrue(reused.reused());
    assertFalse(reused.costKnown(), "the marker says it again on resume");
    assertEquals(Tokens.UNKNOWN, unknown.tokens(), "given no endpoint, its calls are out of h2beam's sight");
    assertEquals(unknown.tokens(), reused.tokens());

    Rollout free = bench(HELLO, ", \"free\": true").execute("d/t", null, "ns/d__t/base2");
    assertTrue(free.costKnown());
    assertEquals(Tokens.UNKNOWN, free.tokens(), "free says it calls no paid model, not that it calls none");
    assertFalse(Runmark.readMark(free.runDir()).has("cost_known"), "written only when false");
    RolloutFailed failed = assertThrows(RolloutFailed.class, () -> bench("exit 1", ", \"free\": true")
        .execute("d/t", null, "ns/d__t/base3"));
    assertTrue(failed.costKnown());
    IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
        () -> bench(HELLO, ", \"free\": \"yes\"").execute("d/t", null, "ns/d__t/base4"));
    assertTrue(wrong.getMessage().contains("\"free\" must be true or false"), wrong.getMessage());
  }

  /**
   * A chat rollout's tokens are those the model reported; its marker records them, and the rollout reused from it
   * reports the same, whether they are all of it or not.
   */
  @Test
  void aChatRolloutsTokensAreRecordedAndReportedAgainWhenReused() throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("HELLO WORLD"))) {
      FolderBenchmark b = bench("{\"kind\": \"chat\"}", executorAt(server.baseUrl()));
      Rollout first = b.execute("d/t", null, "ns/d__t/base1");
      assertFalse(first.reused());
      assertEquals(1, server.requests().size());
      Tokens expected = new Tokens(ScriptedModelServer.totalTokens(server.requests().get(0).body(), ""),
          ("HELLO WORLD".length() + 3) / 4, true);
      assertEquals(expected, first.tokens());
      assertEquals(expected.input(), Runmark.readMark(first.runDir()).path("input_tokens").asLong());
      Rollout again = b.execute("d/t", null, "ns/d__t/base1");
      assertTrue(again.reused());
      assertEquals(1, server.requests().size(), "reused, not rolled again");
      assertEquals(first.tokens(), again.tokens());
      assertEquals(first.costUsd(), again.costUsd());

      server.withoutUsage(request -> true);
      Rollout unpriced = b.execute("d/t", null, "ns/d__t/base2");
      assertEquals(Tokens.UNKNOWN, unpriced.tokens(), "a reply without usage: nothing counted, not all of it");
      assertFalse(unpriced.costKnown());
      Rollout unpricedAgain = b.execute("d/t", null, "ns/d__t/base2");
      assertTrue(unpricedAgain.reused());
      assertEquals(unpriced.tokens(), unpricedAgain.tokens());
      assertFalse(unpricedAgain.costKnown());
    }
  }

  /**
   * A failed rollout reports the tokens its executor counted: a command given the executor role calls through its
   * relay, which saw no call, a known nothing; given no endpoint, what it spent is out of sight.
   */
  @Test
  void aFailedRolloutCarriesTheTokensItsExecutorCounted() throws Exception {
    String command = "{\"kind\": \"command\", \"command\": \"exit 3\"}";
    RolloutFailed relayed = assertThrows(RolloutFailed.class, () -> bench(command,
        executorAt(ScriptedModelServer.unusedBaseUrl())).execute("d/t", null, "ns/d__t/base1"));
    assertEquals(Tokens.NONE, relayed.tokens());
    assertTrue(relayed.costKnown());
    String silent = "{\"kind\": \"command\", \"command\": \"echo nothing here\"}";
    RolloutFailed undelivered = assertThrows(RolloutFailed.class, () -> bench(silent,
        executorAt(ScriptedModelServer.unusedBaseUrl())).execute("d/t", null, "ns/d__t/base2"));
    assertTrue(undelivered.getMessage().contains("produced no output/answer.md"), undelivered.getMessage());
    assertEquals(Tokens.NONE, undelivered.tokens());
    RolloutFailed unseen = assertThrows(RolloutFailed.class, () -> bench("exit 3").execute("d/t", null,
        "ns/d__t/base3"));
    assertEquals(Tokens.UNKNOWN, unseen.tokens());
  }

  @Test
  void aRolloutWithoutItsDeliverableIsLeftUnmarked() throws Exception {
    FolderBenchmark b = bench("echo nothing here");
    IOException e = assertThrows(IOException.class, () -> b.execute("d/t", null, "ns/d__t/base1"));
    assertTrue(e.getMessage().contains("produced no output/answer.md"), e.getMessage());
  }

  @Test
  void runIdsCannotEscapeTheExecutionsFolder() throws Exception {
    FolderBenchmark b = bench(HELLO);
    assertThrows(IllegalArgumentException.class, () -> b.execute("d/t", null, "../../elsewhere"));
    try (Stream<Path> s = Files.list(tmp)) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().equals("elsewhere")));
    }
  }
}
