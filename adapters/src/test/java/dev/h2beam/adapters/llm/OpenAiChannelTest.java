package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.llm.ScriptedModelServer.Brain;
import dev.h2beam.adapters.llm.ScriptedModelServer.Fault;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The openai channel: one session against a real local model server, over a real session folder. */
class OpenAiChannelTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final String GOOD = """
      I will tighten the prompt.
      <file path="systemprompt.md">
      Be careful.
      Check every total twice.
      </file>
      <file path="skills/totals/SKILL.md">
      ---
      name: totals
      ---
      Sum signed amounts.
      </file>
      <delete path="skills/old/SKILL.md"/>
      <notes>Added a totals skill and dropped the old one.</notes>
      """;

  @TempDir Path tmp;
  private Path cwd;
  private Path harness;
  private ScriptedModelServer server;

  @BeforeEach
  void sessionFolder() throws IOException {
    cwd = tmp.resolve("session");
    harness = cwd.resolve("context/harness");
    write(cwd.resolve("context/task.md"), "# Task\nReconcile the ledger.\n");
    write(harness.resolve("systemprompt.md"), "Be careful.\n");
    write(harness.resolve("skills/old/SKILL.md"), "old skill\n");
    server = ScriptedModelServer.start(Brain.saying(GOOD));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static void write(Path p, String text) throws IOException {
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private ResolvedRole role(String keyEnv, double in, double out) {
    return new ResolvedRole("improver", new Endpoint("local", server.baseUrl(), keyEnv, 4, 30, 1, in, out),
        "tiny-model", 0.0, null);
  }

  private SessionResult run(String label) throws Exception {
    return new OpenAiChannel(role("", 0, 0), Map.of()).run(cwd, "Improve the harness.", "", label, TIMEOUT);
  }

  private String read(String rel) throws IOException {
    return Files.readString(harness.resolve(rel), StandardCharsets.UTF_8);
  }

  @Test
  void anImproverReplysBlocksAreAppliedToTheHarnessAndItsNotesReturned() throws Exception {
    SessionResult r = run("inv1.a1");
    assertEquals("Added a totals skill and dropped the old one.", r.text());
    assertEquals("", r.error());
    assertEquals("Be careful.\nCheck every total twice.\n", read("systemprompt.md"));
    assertEquals("---\nname: totals\n---\nSum signed amounts.\n", read("skills/totals/SKILL.md"));
    assertFalse(Files.exists(harness.resolve("skills/old")), "a folder a delete empties is removed");
    assertEquals("# Task\nReconcile the ledger.\n", Files.readString(cwd.resolve("context/task.md")));
  }

  @Test
  void theRequestCarriesTheMissionTheBlockFormatAndTheEvidence() throws Exception {
    run("inv1.a1");
    ScriptedModelServer.Request sent = server.requests().get(0);
    assertEquals(OpenAiChannel.PREAMBLE, sent.lastMessage("system"));
    String user = sent.lastMessage("user");
    assertTrue(user.startsWith("Improve the harness.\n\n## How to answer in this session"), user);
    assertTrue(user.contains("<delete path=\"skills/old/SKILL.md\"/>"));
    assertTrue(user.contains("Be careful.\n"));
    assertTrue(user.contains("Reconcile the ledger."));
    assertEquals(0.0, sent.body().path("temperature").asDouble());
    assertFalse(sent.body().has("max_tokens"));
  }

  @Test
  void aGivenSystemTextReplacesThePreamble() throws Exception {
    new OpenAiChannel(role("", 0, 0), Map.of()).run(cwd, "m", "You edit harnesses.", "inv1.a1", TIMEOUT);
    assertEquals("You edit harnesses.", server.requests().get(0).lastMessage("system"));
  }

  @Test
  void theSessionReportsUsageModelIdFinishReasonAndCost() throws Exception {
    server.modelId(request -> "tiny-model-2024-01");
    SessionResult r = new OpenAiChannel(role("", 2.0, 4.0), Map.of()).run(cwd, "m", "", "inv1.a1", TIMEOUT);
    @SuppressWarnings("unchecked")
    Map<String, Long> usage = (Map<String, Long>) r.meta().get(SessionResult.USAGE);
    assertEquals("tiny-model-2024-01", r.meta().get(SessionResult.MODEL_ID));
    assertEquals("stop", r.meta().get(SessionResult.FINISH_REASON));
    assertEquals((GOOD.length() + 3L) / 4, usage.get("completion_tokens"));
    assertEquals(0L, usage.get("reasoning_tokens"));
    assertEquals((usage.get("prompt_tokens") * 2.0 + usage.get("completion_tokens") * 4.0) / 1e6, r.costUsd(), 1e-12);
  }

  @Test
  void editsAreRenamedIntoPlaceSoAHardLinkedEvidenceFileIsNeverWrittenThrough() throws Exception {
    Path shared = tmp.resolve("shared-systemprompt.md");
    Files.writeString(shared, "Be careful.\n");
    Files.delete(harness.resolve("systemprompt.md"));
    Files.createLink(harness.resolve("systemprompt.md"), shared);
    run("inv1.a1");
    assertEquals("Be careful.\n", Files.readString(shared));
    assertEquals("Be careful.\nCheck every total twice.\n", read("systemprompt.md"));
  }

  @Test
  void aPathNamedFromTheSessionFolderIsUnderstood() throws Exception {
    server.brain(Brain.saying("<file path=\"context/harness/systemprompt.md\">\nNew.\n</file>\n"));
    SessionResult r = run("inv1.a1");
    assertEquals("New.\n", read("systemprompt.md"));
    assertTrue(r.text().contains("<file path="), "without notes the whole reply is the answer");
  }

  @Test
  void deletingAnAbsentFileIsIgnoredWithANote() throws Exception {
    server.brain(Brain.saying("<delete path=\"skills/none/SKILL.md\"/>\n<notes>cleaned up</notes>"));
    SessionResult r = run("inv1.a1");
    assertEquals("cleaned up\n(delete of skills/none/SKILL.md ignored: there is no such file)", r.text());
  }

  /** Each kind of refused reply is sent back with its reason; the corrected answer is applied. */
  @ParameterizedTest
  @ValueSource(strings = {"/etc/passwd", "../escape.md", "skills\\x\\SKILL.md", "skills/x/../../../../x.md",
      "a\u0000b.md", "linked/x.md", "ln.md", "huge.md", "unclosed", "twice.md", "skills/old"})
  void aRefusedReplyIsFedBackAndTheCorrectedAnswerApplied(String bad) throws Exception {
    Path outside = tmp.resolve("outside");
    Files.createDirectories(outside);
    Files.writeString(outside.resolve("target.md"), "outside\n");
    Files.createSymbolicLink(harness.resolve("linked"), outside);
    Files.createSymbolicLink(harness.resolve("ln.md"), outside.resolve("target.md"));
    String body = bad.equals("huge.md") ? "x".repeat(EditBlocks.FILE_CAP + 1) + "\n" : "pwned\n";
    String refused = switch (bad) {
      case "unclosed" -> "<file path=\"systemprompt.md\">\nHalf a file.\n";
      case "twice.md" -> "<file path=\"twice.md\">\na\n</file>\n<file path=\"twice.md\">\nb\n</file>\n";
      default -> "<file path=\"" + bad + "\">\n" + body + "</file>\n";
    };
    // a good block beside the bad one must not be applied either: all or nothing
    server.brain(Brain.inTurn("<file path=\"systemprompt.md\">\nHalf done.\n</file>\n" + refused, GOOD));
    SessionResult r = run("inv1.a1");
    assertEquals("Added a totals skill and dropped the old one.", r.text(), r.error());
    List<ScriptedModelServer.Request> sent = server.requests();
    assertEquals(2, sent.size());
    JsonNode messages = sent.get(1).body().path("messages");
    assertEquals(4, messages.size());
    assertEquals("assistant", messages.path(2).path("role").asText());
    assertTrue(messages.path(2).path("content").asText().contains(refused.strip()));
    assertTrue(messages.path(3).path("content").asText().startsWith("Nothing from your last answer was applied: "),
        messages.path(3).path("content").asText());
    assertEquals("outside\n", Files.readString(outside.resolve("target.md")));
    assertFalse(Files.exists(tmp.resolve("escape.md")));
    assertFalse(Files.exists(outside.resolve("x.md")));
    assertEquals("Be careful.\nCheck every total twice.\n", read("systemprompt.md"));
    assertFalse(Files.exists(harness.resolve("huge.md")));
    assertFalse(Files.exists(harness.resolve("twice.md")));
  }

  @Test
  void theRefusalNamesEachBadPathAndWhy() throws Exception {
    server.brain(Brain.inTurn("<file path=\"/etc/passwd\">\nx\n</file>\n<delete path=\"../up.md\"/>\n", GOOD));
    run("inv1.a1");
    String feedback = server.requests().get(1).lastMessage("user");
    assertTrue(feedback.contains("path \"/etc/passwd\" is absolute; give a path relative to context/harness/"),
        feedback);
    assertTrue(feedback.contains("path \"../up.md\" climbs out with '..'"), feedback);
  }

  /**
   * The session's result holds the messages of its last call exactly as the server received them (the evidence in
   * its fences with their random delimiter, and the correction turns), for the audit's prompt file: the mission file
   * alone is not what the model was shown.
   */
  @Test
  void theResultHoldsTheLastCallsMessagesExactlyAsTheServerReceivedThem() throws Exception {
    server.brain(Brain.inTurn("<file path=\"../x.md\">\nx\n</file>\n", GOOD));
    SessionResult r = run("inv1.a1");
    assertEquals(2, server.requests().size());
    com.fasterxml.jackson.databind.JsonNode received = server.requests().get(1).body().path("messages");
    assertEquals(4, received.size(), received.toString());
    assertEquals(received, dev.h2beam.adapters.files.Json.MAPPER.valueToTree(r.meta().get(SessionResult.PROMPT)));
    // the last call's messages: the whole conversation, its correction turn included
    assertTrue(received.path(3).path("content").asText().startsWith("Nothing from your last answer was applied"));
  }

  /**
   * The model answered every call, so a reply still refused after two corrections is an answer whose edits were
   * refused, with the last reason and no count (the session is one attempt of its stage), not a failed session.
   */
  @Test
  void aReplyStillRefusedAfterTwoCorrectionsIsAnAnswerWithItsEditsRefusedAndItsCost() throws Exception {
    server.brain(Brain.saying("<file path=\"../x.md\">\nx\n</file>\n"));
    SessionResult r = new OpenAiChannel(role("", 1.0, 1.0), Map.of()).run(cwd, "m", "", "inv1.a1", TIMEOUT);
    assertEquals("", r.error());
    assertTrue(r.refused().startsWith("path \"../x.md\" climbs out with '..'"), r.refused());
    assertTrue(r.text().contains("refused") && !r.text().contains("<file"), "says so, quoting no block: " + r.text());
    assertEquals(3, server.requests().size());
    assertEquals("Be careful.\n", read("systemprompt.md"));
    @SuppressWarnings("unchecked")
    Map<String, Long> usage = (Map<String, Long>) r.meta().get(SessionResult.USAGE);
    assertEquals((usage.get("prompt_tokens") + usage.get("completion_tokens")) / 1e6, r.costUsd(), 1e-12);
    long sentChars = server.requests().stream().mapToLong(q -> q.lastMessage("user").length()).sum();
    assertTrue(usage.get("prompt_tokens") > sentChars / 4, "usage is summed over the session's three calls");
    assertEquals(served(List.of("<file path=\"../x.md\">\nx\n</file>\n")), r.tokens(), "a failed session too");
    assertEquals(new Tokens(usage.get("prompt_tokens"), usage.get("completion_tokens"), true), r.tokens());
  }

  /**
   * The usage the server reported over the session's calls, as it computes it (ScriptedModelServer): prompt tokens
   * from what each request held, completion tokens from each answer, {@code answers} in turn, the last again.
   */
  private Tokens served(List<String> answers) {
    long in = 0;
    long out = 0;
    List<ScriptedModelServer.Request> sent = server.requests();
    for (int i = 0; i < sent.size(); i++) {
      in += ScriptedModelServer.totalTokens(sent.get(i).body(), "");
      out += (answers.get(Math.min(i, answers.size() - 1)).length() + 3) / 4;
    }
    return new Tokens(in, out, true);
  }

  /** A session's tokens are what the server reported for every call of it, a correction round included. */
  @ParameterizedTest
  @ValueSource(doubles = {0.0, 3.0})
  void aSessionsTokensAreTheUsageTheServerReportedOverAllItsCalls(double price) throws Exception {
    String refused = "<file path=\"../x.md\">\nx\n</file>\n";
    server.brain(Brain.inTurn(refused, GOOD));
    SessionResult r = new OpenAiChannel(role("", price, price), Map.of()).run(cwd, "m", "", "inv1.a1", TIMEOUT);
    assertEquals("Added a totals skill and dropped the old one.", r.text(), r.error());
    assertEquals(2, server.requests().size(), "one refused answer, one correction");
    Tokens expected = served(List.of(refused, GOOD));
    assertTrue(expected.input() > ScriptedModelServer.totalTokens(server.requests().get(1).body(), ""),
        "both calls' prompts are counted, not the last one only");
    assertEquals(expected, r.tokens());
    assertTrue(r.costKnown());
    assertEquals((expected.input() + expected.output()) * price / 1e6, r.costUsd(), 1e-12);
  }

  /**
   * A call answered without usage may have been billed: the session's tokens are the part its other calls reported,
   * and not all of it, whether or not the endpoint's tokens are free (its cost is then known, its tokens are not).
   */
  @ParameterizedTest
  @ValueSource(doubles = {0.0, 3.0})
  void aCallAnsweredWithoutUsageLeavesTheSessionsTokensNotKnownWithTheCountedPart(double price) throws Exception {
    String refused = "<file path=\"../x.md\">\nx\n</file>\n";
    server.brain(Brain.inTurn(refused, GOOD));
    // the correction (the conversation's second round) is answered without usage
    server.withoutUsage(request -> request.body().path("messages").size() > 2);
    SessionResult r = new OpenAiChannel(role("", price, price), Map.of()).run(cwd, "m", "", "inv1.a1", TIMEOUT);
    assertEquals("Added a totals skill and dropped the old one.", r.text(), r.error());
    assertEquals(2, server.requests().size());
    long firstIn = ScriptedModelServer.totalTokens(server.requests().get(0).body(), "");
    assertEquals(new Tokens(firstIn, (refused.length() + 3) / 4, false), r.tokens());
    assertEquals(price == 0.0, r.costKnown(), "a free endpoint's cost is known whatever was reported");
  }

  @Test
  void aCallLeftUnansweredLeavesTheSessionsTokensNotKnown() throws Exception {
    server.next(Fault.drop());
    SessionResult r = run("inv1.a1");
    assertFalse(r.error().isEmpty(), "the session failed");
    assertEquals(Tokens.UNKNOWN, r.tokens(), "a request sent and not answered may have been billed");
  }

  @ParameterizedTest
  @ValueSource(strings = {"select.agg2", "experience.seq1"})
  void selectorAndReflectorRepliesPassThroughUnchangedAndEditNothing(String label) throws Exception {
    String reply = "<why>b is right</why>\n```choice\nb\n```\n" + GOOD;
    server.brain(Brain.saying(reply));
    SessionResult r = run(label);
    assertEquals(reply, r.text());
    assertEquals("Be careful.\n", read("systemprompt.md"));
    assertFalse(server.requests().get(0).lastMessage("user").contains("## How to answer in this session"));
    assertTrue(server.requests().get(0).lastMessage("user").startsWith("Improve the harness.\n\n## The evidence"));
  }

  @Test
  void aFailedCallFailsTheSessionWithTheClientsReason() throws Exception {
    server.next(Fault.status(404, null));
    SessionResult r = run("inv1.a1");
    assertEquals("", r.text());
    assertTrue(r.error().contains("HTTP 404"), r.error());
    assertFalse(r.meta().containsKey(SessionResult.USAGE), "no call answered: no usage to report, not a zero");
    assertEquals(List.of(404), ((List<?>) r.meta().get(SessionResult.MODEL_CALLS)).stream()
        .map(c -> ((Map<?, ?>) c).get("status")).toList(), "the refused call is recorded");
    assertEquals(Tokens.NONE, r.tokens(), "an error status is not billed: a known nothing");
    assertEquals("Be careful.\n", read("systemprompt.md"));
  }

  @Test
  void aKeyValueInTheEnvironmentReachesNoFileOfTheSessionAndNoMessage() throws Exception {
    String key = "sk-h2beam-test-" + "0123456789abcdefghijklmnop";
    // the brain writes back everything the model was shown, as a model that quotes its prompt would
    server.brain(request -> "<file path=\"echo.md\">\n" + request.toString() + "\n</file>\n<notes>echoed the prompt</notes>");
    SessionResult r = new OpenAiChannel(role("H2B_TEST_KEY", 0, 0), Map.of("H2B_TEST_KEY", key))
        .run(cwd, "m", "", "inv1.a1", TIMEOUT);
    assertEquals("Bearer " + key, server.requests().get(0).authorization(), "the key was sent");
    assertTrue(Files.exists(harness.resolve("echo.md")));
    assertFalse(r.text().contains(key));
    try (Stream<Path> files = Files.walk(cwd)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertFalse(Files.readString(f, StandardCharsets.ISO_8859_1).contains(key), f.toString());
      }
    }
    server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(401,
        "{\"error\": {\"message\": \"bad key " + call.request().authorization() + "\"}}"));
    SessionResult refused = new OpenAiChannel(role("H2B_TEST_KEY", 0, 0), Map.of("H2B_TEST_KEY", key))
        .run(cwd, "m", "", "inv1.a1", TIMEOUT);
    assertTrue(refused.error().contains("HTTP 401"), refused.error());
    assertFalse(refused.error().contains(key), refused.error());
  }

  @Test
  void theProviderIsFoundByKindAndNeedsARole() throws Exception {
    ChannelProvider p = ChannelProvider.forKind("openai");
    assertTrue(p instanceof OpenAiChannelProvider);
    ChannelSpec spec = ChannelSpec.of("openai", "tiny-model");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.open(spec));
    assertEquals("the openai channel needs a role from the configuration file (--config=FILE with"
        + " roles.improver/selector/reflector)", e.getMessage());
    ProposerChannel channel = p.open(spec, role("", 0, 0));
    assertEquals(GOOD, channel.run(cwd, "m", "", "select.agg1", TIMEOUT).text());
  }
}
