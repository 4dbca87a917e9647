package dev.h2beam.transforms.proposer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.adapters.proposer.EvidenceView;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Proposer calls (spec §10.1–§10.4): attempts, the working folder, the audit trail and the reply cache. */
class ProposerTest {
  private static final ChannelSpec SPEC = ChannelSpec.of("scripted", "model-1");
  private static final String LABEL = "inv1.a1";
  private static final String MISSION = "Improve the harness.";

  @TempDir Path tmp;
  private Path audit;
  private Path evidence;
  private final AtomicInteger calls = new AtomicInteger();

  @BeforeEach
  void evidenceFolder() throws IOException {
    audit = tmp.resolve("_audit").resolve("demo-oc-agg2");
    evidence = tmp.resolve("context").resolve("inv1");
    write(evidence, "task.md", "# Task\nReconcile.\n");
    write(evidence, "harness/systemprompt.md", "Be careful.\n");
  }

  private static void write(Path root, String rel, String text) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private Proposer proposer(ProposerChannel channel) {
    ProposerChannel counted = (cwd, mission, system, label, timeout) -> {
      calls.incrementAndGet();
      return channel.run(cwd, mission, system, label, timeout);
    };
    return new Proposer(counted, SPEC, audit, 2, Limits.of("sessions", 2), Duration.ZERO);
  }

  private Proposer answering(String text, double cost) {
    return proposer((cwd, mission, system, label, timeout) -> SessionResult.reply(text, cost));
  }

  private String base(String system) {
    return LABEL + "." + Proposer.cacheKey(LABEL, MISSION, system, evidence);
  }

  private List<String> journal() throws IOException {
    return Journal.lines(audit.resolve("sessions.jsonl"));
  }

  @Test
  void successfulCallReturnsTheReply() throws Exception {
    Reply r = answering("done", 0.25).call(MISSION, evidence, LABEL, "", null);
    assertTrue(r.ok());
    assertEquals("done", r.text());
    assertEquals(LABEL, r.label());
    assertEquals(1, r.attempts());
    assertEquals(0.25, r.costUsd());
    assertFalse(r.cached());
    assertEquals("scripted", r.channel());
    assertEquals(audit.resolve(base("") + ".response.md"), r.audit());
    assertNull(r.workspace());
  }

  @Test
  void successfulCallWritesMissionMetaAndResponseToTheAuditFolder() throws Exception {
    answering("done", 0.25).call(MISSION, evidence, LABEL, "", null);
    String base = base("");
    assertEquals(MISSION, Files.readString(audit.resolve(base + ".mission.md")));
    assertEquals("done", Files.readString(audit.resolve(base + ".response.md")));
    assertFalse(Files.exists(audit.resolve(base + ".system.md")));
    JsonNode meta = Json.readTree(audit.resolve(base + ".meta.json"));
    List<String> keys = new ArrayList<>();
    meta.fieldNames().forEachRemaining(keys::add);
    // a channel that calls a model and says nothing of its tokens: none counted, and not all of them
    assertEquals(List.of("label", "ok", "channel", "model", "effort", "attempts", "wall_s", "cost_usd", "tokens",
        "tokens_known", "error", "usage", "model_id", "finish_reason", "held"), keys);
    assertTrue(meta.path("usage").isNull(), "a channel that reports no usage leaves it null, never 0");
    assertFalse(meta.path("tokens_known").asBoolean(true));
    assertEquals(LABEL, meta.path("label").asText());
    assertTrue(meta.path("ok").asBoolean());
    assertEquals("model-1", meta.path("model").asText());
    assertEquals(1, meta.path("attempts").asInt());
    assertEquals(0.25, meta.path("cost_usd").asDouble());
  }

  private static Map<String, String> message(String role, String content) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("role", role);
    m.put("content", content);
    return m;
  }

  /**
   * A channel that reports the messages it sent has them kept whole beside the mission, except a line holding a
   * credential (a refused reply sent back to the model may hold one), which a note replaces, saying where; a later
   * session of the same entry that reports none leaves no earlier prompt beside its meta.
   */
  @Test
  void theMessagesSentAreKeptBesideTheMissionWithoutACredential() throws Exception {
    List<Map<String, String>> sent = List.of(message("system", "You edit harnesses."),
        message("user", MISSION + "\n<<<BEGIN FILE task.md x1>>>\n# Task\n<<<END FILE x1>>>"),
        message("assistant", "<file path=\"../x.sh\">\napiKey=Zx81kQ93mLp0\n</file>"),
        message("user", "Nothing from your last answer was applied: path escapes."));
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(SessionResult.PROMPT, sent);
    proposer((cwd, mission, system, label, timeout) -> new SessionResult("done", 0.0, "", meta))
        .call(MISSION, evidence, LABEL, "", null);
    Path prompt = audit.resolve(base("") + Proposer.PROMPT_FILE);
    String text = Files.readString(prompt);
    assertFalse(text.contains("Zx81kQ93mLp0"), text);
    JsonNode kept = Json.readTree(prompt);
    assertEquals(4, kept.path("messages").size());
    assertEquals(sent.get(1).get("content"), kept.at("/messages/1/content").asText(), "the rest exactly as sent");
    assertEquals("<file path=\"../x.sh\">\n[withheld by h2beam: a literal credential, message 3 (assistant) line 2,"
        + " field apiKey (apiKey=…)]\n</file>", kept.at("/messages/2/content").asText());
    assertEquals("[\"message 3 (assistant) line 2, field apiKey (apiKey=…)\"]", kept.path("withheld").toString());
    assertFalse(Json.readTree(audit.resolve(base("") + ".meta.json")).has(SessionResult.PROMPT), "not in the meta");

    // the same entry's next session (its cached reply moved aside) reports no messages: no stale prompt beside it
    Files.delete(audit.resolve(base("") + ".response.md"));
    answering("again", 0.0).call(MISSION, evidence, LABEL, "", null);
    assertFalse(Files.exists(prompt));
  }

  @Test
  void systemTextIsAuditedWhenGiven() throws Exception {
    answering("done", 0.0).call(MISSION, evidence, LABEL, "You edit harnesses.", null);
    assertEquals("You edit harnesses.",
        Files.readString(audit.resolve(base("You edit harnesses.") + ".system.md")));
  }

  @Test
  void successfulCallAppendsOneLineToTheSessionsJournal() throws Exception {
    answering("done", 0.25).call(MISSION, evidence, LABEL, "", null);
    List<String> lines = journal();
    assertEquals(1, lines.size());
    JsonNode line = Json.readTree(lines.get(0));
    assertEquals(LABEL, line.path("label").asText());
    assertEquals(Proposer.cacheKey(LABEL, MISSION, "", evidence), line.path("key").asText());
    assertTrue(line.path("ok").asBoolean());
  }

  /** A replayed reply carries the attempts and cost of the session that made it: spend is counted once, stably. */
  @Test
  void theSameCallAgainIsServedFromTheCache() throws Exception {
    Proposer p = answering("done", 0.25);
    p.call(MISSION, evidence, LABEL, "", null);
    Reply again = p.call(MISSION, evidence, LABEL, "", null);
    assertEquals(1, calls.get());
    assertTrue(again.ok());
    assertTrue(again.cached());
    assertEquals("done", again.text());
    assertEquals(1, again.attempts());
    assertEquals(0.25, again.costUsd());
    assertEquals(1, journal().size());
  }

  /**
   * kill -9 between the reply and its journal line (the reply is written first): the next call that is served the
   * reply appends the lost line, marked recovered, with the attempts, cost and slot intervals of the session that
   * ran; later hits append nothing, so the journal holds the session once.
   */
  @Test
  void aReplyWhoseJournalLineWasLostIsJournalledOnceWhenServed() throws Exception {
    Proposer p = answering("done", 0.25);
    p.call(MISSION, evidence, LABEL, "", null);
    JsonNode ran = Json.readTree(journal().get(0));
    Files.delete(Journal.ownFile(audit.resolve("sessions.jsonl"))); // as if killed before the append
    assertEquals(List.of(), journal());

    assertTrue(p.call(MISSION, evidence, LABEL, "", null).cached());
    p.call(MISSION, evidence, LABEL, "", null);
    assertEquals(1, calls.get(), "no second session");
    List<String> lines = journal();
    assertEquals(1, lines.size(), "recovered once: " + lines);
    JsonNode recovered = Json.readTree(lines.get(0));
    for (String field : List.of("label", "key", "ok", "attempts", "cost_usd", "held")) {
      assertEquals(ran.get(field), recovered.get(field), field);
    }
    assertTrue(recovered.path(Journal.RECOVERED).asText().contains("killed"), lines.get(0));
    assertEquals(0, Journal.ranNow(lines), "a recovered record is not a session this command ran");
  }

  /**
   * dogAJ F1: the session failed once, answered on a resume, and its line was lost to kill -9: the failed attempt's
   * line of the same key is not the answered session's, which the next hit journals as recovered.
   */
  @Test
  void aLostLineIsRecoveredThoughAFailedSessionOfTheSameKeyIsJournalled() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
    Proposer p = proposer((cwd, mission, system, label, timeout) -> down.get()
        ? SessionResult.failed("endpoint down", 0.5) : SessionResult.reply("done", 2.0));
    assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    down.set(false);
    p.call(MISSION, evidence, LABEL, "", null);
    Path own = Journal.ownFile(audit.resolve("sessions.jsonl"));
    List<String> lines = new ArrayList<>(Files.readAllLines(own, StandardCharsets.UTF_8));
    lines.remove(lines.size() - 1); // as if killed before the answered session's append
    Files.write(own, lines, StandardCharsets.UTF_8);

    assertTrue(p.call(MISSION, evidence, LABEL, "", null).cached());
    List<String> journal = journal();
    assertEquals(2, journal.size(), journal.toString());
    JsonNode recovered = Json.readTree(journal.get(1));
    assertTrue(recovered.path("ok").asBoolean(), journal.get(1));
    assertEquals(2.0, recovered.path("cost_usd").asDouble());
    assertTrue(recovered.has(Journal.RECOVERED), journal.get(1));
  }

  /**
   * dogAJ F2: a session that answered after removing the folder it was to leave is replayed as one that harvested
   * nothing, not run and paid for again on each resume; an entry whose harvested folder went missing is run again.
   */
  @Test
  void aSessionThatRemovedItsHarvestFolderIsReplayedWithNothingHarvested() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      dev.h2beam.transforms.evidence.FileTrees.deleteQuietly(cwd.resolve("context/harness"));
      return SessionResult.reply("rewrote everything", 3.0);
    });
    Reply first = p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertNull(first.workspace());
    assertTrue(Json.readTree(audit.resolve(base("") + ".meta.json")).path(Proposer.HARVESTED_NOTHING).asBoolean());
    Reply again = p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertTrue(again.cached());
    assertNull(again.workspace());
    assertEquals("rewrote everything", again.text());
    assertEquals(1, calls.get(), "one session for one cache key");
    assertEquals(1, journal().size());

    // an entry that did harvest a folder, gone from the audit folder since: not a reply to replay
    Proposer keeps = proposer((cwd, mission, system, label, timeout) -> SessionResult.reply("kept", 1.0));
    Reply kept = keeps.call(MISSION, evidence, "inv2.a1", "", "context/harness");
    dev.h2beam.transforms.evidence.FileTrees.deleteQuietly(kept.workspace());
    assertFalse(keeps.call(MISSION, evidence, "inv2.a1", "", "context/harness").cached());
    assertEquals(3, calls.get());
  }

  /** Cancelled between two attempts (dogAJ, unconfirmed 2): no second attempt starts, and the interrupt is kept. */
  @Test
  void aCancellationBetweenAttemptsStartsNoOther() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      Thread.currentThread().interrupt(); // the runner cancels while the first attempt ends
      return SessionResult.failed("endpoint down", 0.5);
    });
    try {
      ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
      assertTrue(e.getMessage().contains("stopped: the runner is cancelling this work"), e.getMessage());
      assertEquals(1, calls.get(), "one attempt");
      assertTrue(Thread.currentThread().isInterrupted());
    } finally {
      Thread.interrupted();
    }
  }

  /** A cache entry an older h2beam wrote (its meta says not when the session held a slot) is not journalled again. */
  @Test
  void aCacheEntryWithoutSlotIntervalsIsNotJournalledWhenServed() throws Exception {
    Proposer p = answering("done", 0.25);
    p.call(MISSION, evidence, LABEL, "", null);
    Files.delete(Journal.ownFile(audit.resolve("sessions.jsonl")));
    Path meta = audit.resolve(base("") + ".meta.json");
    Map<String, Object> m = Json.readMap(meta);
    m.remove("held");
    Files.writeString(meta, Json.pretty(m));

    assertTrue(p.call(MISSION, evidence, LABEL, "", null).cached());
    assertEquals(List.of(), journal());
  }

  private static final Map<String, Object> REPORTED = reported();

  private static Map<String, Object> reported() {
    Map<String, Object> usage = new LinkedHashMap<>();
    usage.put("prompt_tokens", 120L);
    usage.put("completion_tokens", 30L);
    usage.put("cached_tokens", null);
    usage.put("reasoning_tokens", 0L);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(SessionResult.USAGE, usage);
    m.put(SessionResult.MODEL_ID, "tiny-model-2024-01");
    m.put(SessionResult.FINISH_REASON, "stop");
    return m;
  }

  @Test
  void whatTheSessionReportsAboutItselfReachesTheMetaFile() throws Exception {
    proposer((cwd, mission, system, label, timeout) -> SessionResult.reply("done", 0.1).withMeta(REPORTED))
        .call(MISSION, evidence, LABEL, "", null);
    JsonNode meta = Json.readTree(audit.resolve(base("") + ".meta.json"));
    assertEquals(120, meta.path("usage").path("prompt_tokens").asInt());
    assertEquals(30, meta.path("usage").path("completion_tokens").asInt());
    assertTrue(meta.path("usage").path("cached_tokens").isNull());
    assertEquals(0, meta.path("usage").path("reasoning_tokens").asInt());
    assertEquals("tiny-model-2024-01", meta.path("model_id").asText());
    assertEquals("stop", meta.path("finish_reason").asText());
  }

  @Test
  void aReplyServedFromTheCacheKeepsTheMetaOfTheSessionThatMadeIt() throws Exception {
    proposer((cwd, mission, system, label, timeout) -> SessionResult.reply("done", 0.1).withMeta(REPORTED))
        .call(MISSION, evidence, LABEL, "", null);
    Path metaFile = audit.resolve(base("") + ".meta.json");
    String written = Files.readString(metaFile);
    Reply again = answering("other", 0.0).call(MISSION, evidence, LABEL, "", null);
    assertTrue(again.cached());
    assertEquals("done", again.text());
    assertEquals(written, Files.readString(metaFile));
  }

  @Test
  void aFailedCallRecordsWhatItsLastSessionReported() {
    Proposer p = proposer((cwd, mission, system, label, timeout) ->
        SessionResult.failed("refused twice", 0.2).withMeta(REPORTED));
    assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    JsonNode meta = assertReadableJson(audit.resolve(base("") + ".meta.json"));
    assertEquals("tiny-model-2024-01", meta.path("model_id").asText());
    assertEquals(30, meta.path("usage").path("completion_tokens").asInt());
  }

  @Test
  void aChangedEvidenceByteChangesTheKeyAndCallsAgain() throws Exception {
    Proposer p = answering("done", 0.25);
    String before = Proposer.cacheKey(LABEL, MISSION, "", evidence);
    p.call(MISSION, evidence, LABEL, "", null);
    write(evidence, "task.md", "# Task\nReconcile!\n");
    assertNotEquals(before, Proposer.cacheKey(LABEL, MISSION, "", evidence));
    Reply r = p.call(MISSION, evidence, LABEL, "", null);
    assertFalse(r.cached());
    assertEquals(2, calls.get());
    assertEquals(2, journal().size());
  }

  @Test
  void cacheKeyDependsOnLabelMissionAndSystem() {
    String key = Proposer.cacheKey(LABEL, MISSION, "", evidence);
    assertTrue(key.matches("[0-9a-f]{16}"), key);
    assertNotEquals(key, Proposer.cacheKey("dom1.a1", MISSION, "", evidence));
    assertNotEquals(key, Proposer.cacheKey(LABEL, MISSION + " ", "", evidence));
    assertNotEquals(key, Proposer.cacheKey(LABEL, MISSION, "s", evidence));
    assertNotEquals(key, Proposer.cacheKey(LABEL, MISSION, "", (Path) null));
  }

  @Test
  void cacheKeyDependsOnTheAbsoluteEvidencePath() throws IOException {
    // identical evidence in two folders (agg and seq at k=1) must still give two sessions
    Path twin = tmp.resolve("elsewhere").resolve("inv1");
    write(twin, "task.md", "# Task\nReconcile.\n");
    write(twin, "harness/systemprompt.md", "Be careful.\n");
    assertNotEquals(Proposer.cacheKey(LABEL, MISSION, "", evidence), Proposer.cacheKey(LABEL, MISSION, "", twin));
    Path sibling = Files.createDirectories(tmp.resolve("context").resolve("x"));
    Path sameFolderOtherSpelling = sibling.resolve("..").resolve("inv1");
    assertEquals(Proposer.cacheKey(LABEL, MISSION, "", evidence),
        Proposer.cacheKey(LABEL, MISSION, "", sameFolderOtherSpelling));
  }

  @Test
  void harvestCopiesContextHarnessToTheWorkspace() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      write(cwd, "context/harness/guardrails.md", "- Check totals.\n");
      return SessionResult.reply("edited", 0.1);
    });
    Reply r = p.call(MISSION, evidence, LABEL, "", "context/harness");
    Path workspace = audit.resolve(base("") + ".workspace");
    assertEquals(workspace, r.workspace());
    assertEquals("Be careful.\n", Files.readString(workspace.resolve("systemprompt.md")));
    assertEquals("- Check totals.\n", Files.readString(workspace.resolve("guardrails.md")));
    assertEquals(PathOrder.files(workspace), r.workspaceFiles(), "the files it placed, as a listing finds them");
  }

  /**
   * A channel that reads its evidence from memory finds only the harvested folder in its working folder, and the
   * whole evidence, byte for byte, in its view; its edits are harvested as any channel's. One that does not gets the
   * whole folder, and a view of the same files.
   */
  @Test
  void aChannelReadingFromMemoryGetsOnlyTheHarvestedFolderCopied() throws Exception {
    write(evidence, "rollouts/base1.md", "ran\n");
    List<List<String>> onDisk = new ArrayList<>();
    List<Map<String, String>> seen = new ArrayList<>();
    class Recording implements ProposerChannel {
      private final boolean memory;

      Recording(boolean memory) {
        this.memory = memory;
      }

      @Override public boolean readsEvidenceFromMemory() {
        return memory;
      }

      @Override public SessionResult run(Path cwd, String mission, String system, String label, Duration timeout) {
        throw new AssertionError("the method gives the view");
      }

      @Override public SessionResult run(Path cwd, EvidenceView view, String mission, String system, String label,
          Duration timeout) throws IOException {
        onDisk.add(PathOrder.files(cwd));
        Map<String, String> texts = new LinkedHashMap<>();
        for (String rel : view.files()) {
          assertEquals(Files.size(evidence.resolve(rel)), view.size(rel));
          texts.put(rel, new String(view.bytes(rel), StandardCharsets.UTF_8));
        }
        seen.add(texts);
        write(cwd, "context/harness/guardrails.md", "- Check totals.\n");
        return SessionResult.reply("edited", 0.1);
      }
    }
    Map<String, String> whole = new LinkedHashMap<>();
    for (String rel : PathOrder.files(evidence)) whole.put(rel, Files.readString(evidence.resolve(rel)));

    Reply r = new Proposer(new Recording(true), SPEC, audit, 1, Limits.of("sessions", 1), Duration.ZERO)
        .call(MISSION, evidence, LABEL, "", "context/harness");
    assertEquals(List.of("context/harness/systemprompt.md"), onDisk.get(0));
    assertEquals(whole, seen.get(0));
    assertEquals(List.of("guardrails.md", "systemprompt.md"), PathOrder.files(r.workspace()));
    assertEquals(List.of("guardrails.md", "systemprompt.md"), r.workspaceFiles());

    new Proposer(new Recording(true), SPEC, null, 1, Limits.of("sessions", 1), Duration.ZERO)
        .call(MISSION, evidence, "select.agg1", "", null);
    assertEquals(List.of(), onDisk.get(1), "nothing harvested, nothing copied");
    assertEquals(whole, seen.get(1));

    new Proposer(new Recording(false), SPEC, null, 1, Limits.of("sessions", 1), Duration.ZERO)
        .call(MISSION, evidence, LABEL, "", "context/harness");
    assertEquals(List.of("context/harness/systemprompt.md", "context/rollouts/base1.md", "context/task.md"),
        onDisk.get(2));
    assertEquals(whole, seen.get(2));
  }

  @Test
  void aCachedCallReturnsTheHarvestedWorkspace() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      write(cwd, "context/harness/guardrails.md", "- Check totals.\n");
      return SessionResult.reply("edited", 0.1);
    });
    Reply first = p.call(MISSION, evidence, LABEL, "", "context/harness");
    Reply again = p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertTrue(again.cached());
    assertEquals(first.workspace(), again.workspace());
    assertNull(again.workspaceFiles(), "from the cache: not known, the reader lists the folder");
    assertEquals(1, calls.get());
  }

  /**
   * dogA #2: the harvested folder is kept in the audit trail even when its proposal is refused, so a credential the
   * session left there, off the editable surface too, is withheld: the file keeps its name and a note, the reply and
   * the meta file say why, and the cache serves the same.
   */
  @Test
  void aCredentialTheSessionLeftInItsHarvestedFolderIsWithheld() throws Exception {
    String key = "sk-live-FAKEFAKEFAKE1234567890abcdef";
    String pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n";
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      write(cwd, "context/harness/.env", "OPENAI_API_KEY=" + key + "\n");
      write(cwd, "context/harness/skills/deploy/id_rsa", pem);
      write(cwd, "context/harness/guardrails.md", "- Check totals.\n");
      return SessionResult.reply("edited", 0.1);
    });
    Reply r = p.call(MISSION, evidence, LABEL, "", "context/harness");

    assertEquals(2, r.withheld().size(), r.withheld().toString());
    assertEquals(".env line 1, field OPENAI_API_KEY (sk-…): a literal credential", r.withheld().get(0));
    assertTrue(r.withheld().get(1).startsWith("skills/deploy/id_rsa line 1"), r.withheld().toString());
    String note = Files.readString(r.workspace().resolve(".env"));
    assertTrue(note.contains("h2beam withheld this file's text"), note);
    assertEquals(List.of(), dev.h2beam.transforms.safety.CredentialScreen.hits(note), "the note screens clean");
    assertEquals(List.of(), Proposer.withhold(r.workspace(), PathOrder.list(r.workspace())),
        "a withheld folder screens clean");
    assertEquals("- Check totals.\n", Files.readString(r.workspace().resolve("guardrails.md")));
    assertEquals(PathOrder.files(r.workspace()), r.workspaceFiles(), "every file keeps its name");
    JsonNode meta = Json.readTree(audit.resolve(base("") + ".meta.json"));
    assertEquals(r.withheld(), Json.convert(meta.path("withheld"), List.class));
    assertNothingHolds(tmp, key, "MIIEowIBAAKCAQEA");

    Reply again = p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertTrue(again.cached());
    assertEquals(r.withheld(), again.withheld(), "the replay is refused as the session was");
  }

  /** A cache entry written before the harvest screened its folder is screened when it is served. */
  @Test
  void aCachedWorkspaceHoldingACredentialIsWithheldWhenServed() throws Exception {
    String key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      write(cwd, "context/harness/guardrails.md", "- Check totals.\n");
      return SessionResult.reply("edited", 0.1);
    });
    Reply first = p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertEquals(List.of(), first.withheld());
    write(first.workspace(), "notes.txt", "push with " + key + "\n");

    Reply again = p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertTrue(again.cached());
    assertEquals(1, again.withheld().size(), again.withheld().toString());
    assertTrue(again.withheld().get(0).startsWith("notes.txt line 1"), again.withheld().toString());
    assertNothingHolds(tmp, key);
  }

  /**
   * A folder the session left named after a held key goes even when no file lies under it (empty, or holding only
   * empty folders): a harvest moves the session's folder whole, and no path under the runs root may carry the key.
   * It holds nothing a harness could keep, so the proposal is not refused for it.
   */
  @Test
  void anEmptyFolderNamedAfterAHeldKeyIsRemoved() throws Exception {
    String key = "sk-canary-E9x7";
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("CANARY_API_KEY", key));
    try {
      Proposer p = proposer((cwd, mission, system, label, timeout) -> {
        write(cwd, "context/harness/guardrails.md", "- Check totals.\n");
        Files.createDirectories(cwd.resolve("context/harness/" + key));
        Files.createDirectories(cwd.resolve("context/harness/skills/" + key + "/scripts"));
        Files.createDirectories(cwd.resolve("context/harness/empty/token-" + key));
        return SessionResult.reply("edited", 0.1);
      });
      // the audit folder there already (a sweep's earlier sessions made it): the session's folder is moved, not
      // copied, and a move keeps its empty folders
      Files.createDirectories(audit);
      Reply r = p.call(MISSION, evidence, LABEL, "", "context/harness");

      assertEquals(List.of(), r.withheld());
      assertEquals("- Check totals.\n", Files.readString(r.workspace().resolve("guardrails.md")));
      assertTrue(Files.isDirectory(r.workspace().resolve("skills")), "the folder above the key's stays");
      assertTrue(Files.isDirectory(r.workspace().resolve("empty")));
      try (var walk = Files.walk(tmp)) {
        for (Path f : walk.toList()) assertFalse(tmp.relativize(f).toString().contains(key), f + " carries the key");
      }
    } finally {
      EnvKeys.restore(was);
    }
  }

  private static void assertNothingHolds(Path root, String... secrets) throws IOException {
    try (var walk = Files.walk(root)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
        for (String secret : secrets) assertFalse(text.contains(secret), f + " holds " + secret);
      }
    }
  }

  @Test
  void aCachedReplyWithoutItsWorkspaceIsCalledAgainWhenHarvestIsAsked() throws Exception {
    Proposer p = answering("done", 0.0);
    p.call(MISSION, evidence, LABEL, "", null);
    Reply r = p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertFalse(r.cached());
    assertEquals(2, calls.get());
    assertTrue(Files.isDirectory(r.workspace()));
  }

  @Test
  void harvestOfAMissingFolderGivesNoWorkspaceAndDeletesAStaleOne() throws Exception {
    Path stale = audit.resolve(base("") + ".workspace");
    write(stale, "old.md", "stale");
    Reply r = answering("done", 0.0).call(MISSION, evidence, LABEL, "", "context/nothing-here");
    assertNull(r.workspace());
    assertFalse(Files.exists(stale));
  }

  @Test
  void aBlankReplyIsRetriedAndThenFailsWithAttemptsAndSummedCost() {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> SessionResult.failed("no answer", 0.25));
    ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    assertEquals(2, calls.get());
    assertEquals(2, e.attempts());
    assertEquals(0.5, e.costUsd());
    assertEquals("[inv1.a1] scripted/model-1: no answer", e.getMessage());
  }

  @Test
  void aFailedCallIsJournalledWithItsAttemptsAndTheLastError() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> SessionResult.failed("HTTP 400: bad", 0.0));
    assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    List<String> lines = journal();
    assertEquals(1, lines.size());
    JsonNode line = Json.readTree(lines.get(0));
    assertFalse(line.path("ok").asBoolean(true));
    assertEquals(2, line.path("attempts").asInt());
    assertEquals("HTTP 400: bad", line.path("error").asText());
  }

  /** The journal says when each attempt held a slot of the session limit: the job's in-flight count comes from it. */
  @Test
  void eachAttemptRecordsTheIntervalItHeldASessionSlot() throws Exception {
    List<Instant> ran = new ArrayList<>();
    proposer((cwd, mission, system, label, timeout) -> {
      ran.add(Instant.now());
      return ran.size() == 1 ? SessionResult.failed("busy", 0.0) : SessionResult.reply("done", 0.0);
    }).call(MISSION, evidence, LABEL, "", null);
    JsonNode held = Json.readTree(journal().get(0)).path("held");
    assertEquals(2, held.size(), "one interval per attempt: " + held);
    Instant previousEnd = Instant.MIN;
    for (int i = 0; i < 2; i++) {
      Instant started = Instant.parse(held.get(i).path("started_at").asText());
      Instant ended = Instant.parse(held.get(i).path("ended_at").asText());
      assertTrue(!previousEnd.isAfter(started) && !started.isAfter(ran.get(i)) && !ran.get(i).isAfter(ended),
          "attempt " + (i + 1) + " ran at " + ran.get(i) + " within " + held.get(i));
      previousEnd = ended;
    }
  }

  /**
   * An agent CLI's relay records each model call of a session: meta.json keeps the calls of every attempt, each
   * marked with its attempt, so a session slowed by its endpoint's limits shows it; a channel without a relay writes
   * no such key.
   */
  @Test
  void theModelCallsARelayRecordedAreAuditedForEveryAttempt() throws Exception {
    AtomicInteger attempt = new AtomicInteger();
    proposer((cwd, mission, system, label, timeout) -> {
      int n = attempt.incrementAndGet();
      List<Map<String, Object>> made = new ArrayList<>();
      for (int i = 0; i < n; i++) made.add(Map.of("path", "/v1/call" + n + "." + i, "waited_s", 0.5 * n));
      SessionResult r = n == 1 ? SessionResult.failed("HTTP 429", 0.0) : SessionResult.reply("done", 0.0);
      return r.withMeta(Map.of(SessionResult.MODEL_CALLS, made));
    }).call(MISSION, evidence, LABEL, "", null);
    JsonNode calls = Json.readTree(audit.resolve(base("") + ".meta.json")).path("model_calls");
    assertEquals(3, calls.size(), calls.toString());
    assertEquals(List.of(1, 2, 2), List.of(calls.get(0).path("attempt").asInt(), calls.get(1).path("attempt").asInt(),
        calls.get(2).path("attempt").asInt()), calls.toString());
    assertEquals("/v1/call2.1", calls.get(2).path("path").asText());
    assertEquals(1.0, calls.get(2).path("waited_s").asDouble());

    // a session that failed every attempt keeps its calls too
    attempt.set(0);
    Proposer down = proposer((cwd, mission, system, label, timeout) -> SessionResult.failed("down", 0.0)
        .withMeta(Map.of(SessionResult.MODEL_CALLS, List.of(Map.of("status", 502)))));
    assertThrows(ProposerError.class, () -> down.call(MISSION, evidence, "inv2.a1", "", null));
    String failedBase = "inv2.a1." + Proposer.cacheKey("inv2.a1", MISSION, "", evidence);
    JsonNode failed = Json.readTree(audit.resolve(failedBase + ".meta.json")).path("model_calls");
    assertEquals(2, failed.size(), failed.toString());
  }

  /** A session that called no model (a scripted one) writes harness2's meta keys, and its reply's tokens are none. */
  @Test
  void aScriptedSessionKeepsHarness2sMetaKeysAndSpendsNoTokens() throws Exception {
    Reply r = proposer((cwd, mission, system, label, timeout) -> SessionResult.scripted("done"))
        .call(MISSION, evidence, LABEL, "", null);
    assertEquals(Tokens.NONE, r.tokens());
    JsonNode meta = Json.readTree(audit.resolve(base("") + ".meta.json"));
    List<String> keys = new ArrayList<>();
    meta.fieldNames().forEachRemaining(keys::add);
    assertEquals(List.of("label", "ok", "channel", "model", "effort", "attempts", "wall_s", "cost_usd", "error",
        "usage", "model_id", "finish_reason", "held"), keys);
    Reply again = answering("other", 0.0).call(MISSION, evidence, LABEL, "", null);
    assertTrue(again.cached());
    assertEquals(Tokens.NONE, again.tokens(), "a scripted session's cached reply spent none either");
  }

  /**
   * A session's tokens are every attempt's, the failed ones' included; a reply from the cache reports those of the
   * session that made it, so a resumed sweep's ledger records what a clean one does.
   */
  @Test
  void aSessionsTokensAreEveryAttemptsAndTheCacheKeepsThem() throws Exception {
    AtomicInteger attempt = new AtomicInteger();
    Reply r = proposer((cwd, mission, system, label, timeout) -> attempt.incrementAndGet() == 1
        ? new SessionResult("", 0.01, "HTTP 500", Map.of(), true, new Tokens(700, 0, true))
        : new SessionResult("done", 0.02, "", Map.of(), true, new Tokens(900, 120, true)))
        .call(MISSION, evidence, LABEL, "", null);
    assertEquals(new Tokens(1600, 120, true), r.tokens());
    JsonNode meta = Json.readTree(audit.resolve(base("") + ".meta.json"));
    assertEquals(1600, meta.path("tokens").path("input").asLong());
    assertEquals(120, meta.path("tokens").path("output").asLong());
    assertFalse(meta.has("tokens_known"), "written only when false");

    Reply again = answering("other", 0.0).call(MISSION, evidence, LABEL, "", null);
    assertTrue(again.cached());
    assertEquals(new Tokens(1600, 120, true), again.tokens());
  }

  /** A session that ended in an exception reports nothing of what it spent: its tokens are not all known. */
  @Test
  void aSessionThatThrewLeavesItsTokensNotAllKnown() {
    AtomicInteger attempt = new AtomicInteger();
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      if (attempt.incrementAndGet() == 1) {
        return new SessionResult("", 0.0, "HTTP 429", Map.of(), true, new Tokens(40, 0, true));
      }
      throw new IOException("the connection broke mid-answer");
    });
    ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    assertEquals(new Tokens(40, 0, false), e.tokens());
  }

  /**
   * A cached reply whose meta file records no tokens was written by harness2 or an earlier h2beam: one that called a
   * model (a usage or model calls recorded) spent tokens not counted, which are not known; one that called none
   * spent none.
   */
  @Test
  void aMetaFileWithoutTokensIsReadByWhatItsSessionReported() throws Exception {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("usage", null);
    assertEquals(Tokens.NONE, Proposer.tokens(Json.MAPPER.valueToTree(meta)));
    meta.put("usage", Map.of("prompt_tokens", 120, "completion_tokens", 30));
    assertEquals(Tokens.UNKNOWN, Proposer.tokens(Json.MAPPER.valueToTree(meta)));
    meta.put("usage", null);
    meta.put("model_calls", List.of());
    assertEquals(Tokens.UNKNOWN, Proposer.tokens(Json.MAPPER.valueToTree(meta)));
    meta.put("tokens", Map.of("input", 5, "output", -1));
    assertEquals(Tokens.UNKNOWN, Proposer.tokens(Json.MAPPER.valueToTree(meta)), "a count below 0 is no count");
    meta.put("tokens", Map.of("input", 5, "output", 2));
    meta.put("tokens_known", false);
    assertEquals(new Tokens(5, 2, false), Proposer.tokens(Json.MAPPER.valueToTree(meta)));
  }

  @Test
  void aBlankReplyWithoutAnErrorFailsAsEmptyReply() {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> SessionResult.reply("  \n", 0.0));
    ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    assertEquals("[inv1.a1] scripted/model-1: empty reply", e.getMessage());
  }

  @Test
  void aThrowingChannelFailsWithTheExceptionTypeAndMessage() {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      throw new IllegalStateException("boom");
    });
    ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    assertEquals("[inv1.a1] scripted/model-1: IllegalStateException: boom", e.getMessage());
    assertEquals(2, calls.get());
    assertFalse(e.costKnown(), "an attempt that threw reported nothing of what it spent");
  }

  /**
   * A session whose cost is only partly known (a model call unanswered, or answered without its tokens) says so in
   * its reply, its meta file and its journal line, and a reply served from the cache says it again; the cost is
   * the known part, never a stand-in for the rest.
   */
  @Test
  void aCostNotAllKnownIsSaidEverywhereTheCostIsAndSurvivesTheCache() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> calls.get() == 1
        ? new SessionResult("", 0.25, "no reply", Map.of(), false) : SessionResult.reply("done", 0.5));
    Reply r = p.call(MISSION, evidence, LABEL, "", null);
    assertEquals(0.75, r.costUsd());
    assertFalse(r.costKnown(), "the first attempt's cost is not all known");
    JsonNode meta = assertReadableJson(audit.resolve(base("") + ".meta.json"));
    assertFalse(meta.path("cost_known").asBoolean(true), meta.toString());
    assertEquals(0.75, meta.path("cost_usd").asDouble());
    JsonNode line = Json.readTree(journal().get(0));
    assertTrue(line.path("cost_known").isBoolean() && !line.path("cost_known").asBoolean(), line.toString());
    Reply again = answering("other", 0.0).call(MISSION, evidence, LABEL, "", null);
    assertTrue(again.cached());
    assertFalse(again.costKnown(), "the cache keeps what was known of the session that made the reply");

    // every attempt priced: harness2's keys, and no cost_known written
    Proposer known = answering("done", 0.25);
    Reply k = known.call("another mission", evidence, LABEL, "", null);
    assertTrue(k.costKnown());
    String keyed = LABEL + "." + Proposer.cacheKey(LABEL, "another mission", "", evidence);
    assertFalse(assertReadableJson(audit.resolve(keyed + ".meta.json")).has("cost_known"));
    assertFalse(Json.readTree(journal().get(1)).has("cost_known"), journal().toString());
  }

  @Test
  void aFailedCallWhoseCostIsNotAllKnownSaysSo() {
    Proposer p = proposer((cwd, mission, system, label, timeout) ->
        new SessionResult("", 0.1, "timed out", Map.of(), calls.get() > 1));
    ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    assertEquals(0.2, e.costUsd(), 1e-12);
    assertFalse(e.costKnown());
  }

  @Test
  void aRetriedSuccessCountsItsAttemptsAndTheCostOfEveryAttempt() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> calls.get() == 1
        ? SessionResult.failed("flaky", 0.25) : SessionResult.reply("done", 0.5));
    Reply r = p.call(MISSION, evidence, LABEL, "", null);
    assertEquals(2, r.attempts());
    assertEquals(0.75, r.costUsd());
  }

  @Test
  void aFailedCallIsAuditedAsAFailure() {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> SessionResult.failed("no answer", 0.25));
    assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    String base = base("");
    assertTrue(Files.exists(audit.resolve(base + ".mission.md")));
    assertEquals("", assertReadable(audit.resolve(base + ".response.md")));
    JsonNode meta = assertReadableJson(audit.resolve(base + ".meta.json"));
    assertFalse(meta.path("ok").asBoolean(true));
    assertEquals("no answer", meta.path("error").asText());
    assertEquals(2, meta.path("attempts").asInt());
  }

  @Test
  void aFailedCallIsNeverServedFromTheCache() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> calls.get() <= 2
        ? SessionResult.failed("no answer", 0.0) : SessionResult.reply("done", 0.0));
    assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
    Reply r = p.call(MISSION, evidence, LABEL, "", null);
    assertEquals(3, calls.get());
    assertFalse(r.cached());
    assertEquals("done", r.text());
  }

  @Test
  void aCorruptMetaJsonIsReportedAndTheCallIsMadeAgain() throws Exception {
    Proposer p = answering("done", 0.25);
    p.call(MISSION, evidence, LABEL, "", null);
    Files.writeString(audit.resolve(base("") + ".meta.json"), "{broken");
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    Reply r;
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      r = p.call(MISSION, evidence, LABEL, "", null);
    } finally {
      System.setErr(err);
    }
    assertFalse(r.cached());
    assertEquals(2, calls.get());
    String report = captured.toString(StandardCharsets.UTF_8);
    assertTrue(report.contains(base("") + ".response.md") && report.contains("unreadable"), report);
  }

  @Test
  void theSessionRunsInAFreshFolderWithTheEvidenceUnderContext() throws Exception {
    List<Path> seen = new ArrayList<>();
    List<String> taskTexts = new ArrayList<>();
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      seen.add(cwd);
      taskTexts.add(Files.readString(cwd.resolve("context/task.md")));
      return SessionResult.reply("done", 0.0);
    });
    p.call(MISSION, evidence, LABEL, "", null);
    assertEquals(List.of("# Task\nReconcile.\n"), taskTexts);
    Path cwd = seen.get(0);
    assertFalse(cwd.startsWith(evidence));
    // removed off the caller's path, and gone once the removals handed over are awaited (as a chain's end does)
    Scratch.awaitDeletions();
    assertFalse(Files.exists(cwd), "the session folder is deleted after the call");
  }

  @Test
  void sessionEditsNeverTouchTheOriginalEvidence() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      write(cwd, "context/task.md", "rewritten");
      write(cwd, "context/harness/new.md", "new");
      Files.delete(cwd.resolve("context/harness/systemprompt.md"));
      return SessionResult.reply("done", 0.0);
    });
    p.call(MISSION, evidence, LABEL, "", "context/harness");
    assertEquals("# Task\nReconcile.\n", Files.readString(evidence.resolve("task.md")));
    assertEquals("Be careful.\n", Files.readString(evidence.resolve("harness/systemprompt.md")));
    assertFalse(Files.exists(evidence.resolve("harness/new.md")));
  }

  @Test
  void theChannelGetsTheMissionSystemLabelAndTimeout() throws Exception {
    List<Object> got = new ArrayList<>();
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      got.addAll(List.of(mission, system, label, timeout));
      return SessionResult.reply("done", 0.0);
    });
    p.call(MISSION, null, LABEL, "sys", null);
    assertEquals(List.of(MISSION, "sys", LABEL, Duration.ofSeconds(SPEC.timeoutSeconds())), got);
  }

  @Test
  void withoutAnAuditFolderNothingIsCached() throws Exception {
    ProposerChannel channel = (cwd, mission, system, label, timeout) -> {
      calls.incrementAndGet();
      return SessionResult.reply("done", 0.0);
    };
    Proposer p = new Proposer(channel, SPEC, null, 2, Limits.of("sessions", 2), Duration.ZERO);
    Reply first = p.call(MISSION, evidence, LABEL, "", null);
    Reply second = p.call(MISSION, evidence, LABEL, "", null);
    assertFalse(second.cached());
    assertNull(first.audit());
    assertEquals(2, calls.get());
  }

  @Test
  void labelsAreMadeSafeForFileNames() throws Exception {
    String label = "select agg2/run#1";
    answering("done", 0.0).call(MISSION, evidence, label, "", null);
    String key = Proposer.cacheKey(label, MISSION, "", evidence);
    assertTrue(Files.exists(audit.resolve("select_agg2_run_1." + key + ".response.md")));
  }

  @Test
  void aChannelWithoutAModelIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Proposer(
        (cwd, mission, system, label, timeout) -> SessionResult.reply("x", 0), ChannelSpec.of("scripted", " "),
        audit, 2, Limits.of("sessions", 2), Duration.ZERO));
  }

  private static String assertReadable(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file, e);
    }
  }

  private static JsonNode assertReadableJson(Path file) {
    try {
      return Json.readTree(file);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file, e);
    }
  }

  @Test
  void aSessionThatPlantsASymbolicLinkInTheHarnessIsRefused() throws Exception {
    Path outside = tmp.resolve("outside.txt");
    Files.writeString(outside, "not part of any harness");
    Proposer p = proposer((cwd, mission, system, label, timeout) -> {
      Files.createSymbolicLink(cwd.resolve("context/harness/notes.md"), outside);
      return SessionResult.reply("<notes>linked</notes>", 0.0);
    });
    ProposerError e = assertThrows(ProposerError.class,
        () -> p.call(MISSION, evidence, LABEL, "", "context/harness"));
    assertTrue(e.getMessage().contains("symbolic links") && e.getMessage().contains("notes.md"), e.getMessage());
    assertEquals(2, calls.get(), "each attempt was refused");
  }

  @Test
  void evidenceLinksAreNotFollowedIntoTheSessionFolder() throws Exception {
    Path outside = tmp.resolve("secret.txt");
    Files.writeString(outside, "outside the evidence");
    Files.createSymbolicLink(evidence.resolve("source-link.txt"), outside);
    Proposer p = proposer((cwd, mission, system, label, timeout) -> SessionResult.reply(
        Files.exists(cwd.resolve("context/source-link.txt"), java.nio.file.LinkOption.NOFOLLOW_LINKS)
            ? "followed" : "not copied", 0.0));
    assertEquals("not copied", p.call(MISSION, evidence, LABEL, "", null).text());
  }

  @Test
  void aCancelledCallStartsNoSessionAndKeysNothing() throws Exception {
    Proposer p = answering("<notes>never</notes>", 0.5);
    Thread.currentThread().interrupt();
    try {
      ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null));
      assertTrue(e.getMessage().contains("not started"), e.getMessage());
    } finally {
      Thread.interrupted();
    }
    assertEquals(0, calls.get(), "no session ran");
    assertTrue(!Files.exists(audit.resolve("sessions.jsonl")) || journal().isEmpty(), "nothing journalled");
    // and the same call, no longer cancelled, runs
    assertEquals("<notes>never</notes>", p.call(MISSION, evidence, LABEL, "", null).text());
    assertEquals(1, calls.get());
  }

  /** A label made safe for a file name: every run of other characters one underscore, as the pattern says. */
  @Test
  void aSafeLabelReplacesEveryRunOfOtherCharacters() {
    assertEquals("inv_1.a-b_c_", Proposer.safe("inv 1.a-b/\\c\u00e9\ud83d\ude00"));
    assertEquals("experience.agg3", Proposer.safe("experience.agg3"));
    assertEquals("_", Proposer.safe("  "));
    assertEquals("", Proposer.safe(""));
  }

  /** A selector's check: a reply is usable when it holds a choice ({@link Proposer.Usable}). */
  private static final Proposer.Usable CHOICE = text -> text.contains("```choice") ? "" : "no ```choice block";

  /** Replies in turn, the last again. */
  private Proposer inTurn(String... replies) {
    AtomicInteger next = new AtomicInteger();
    return proposer((cwd, mission, system, label, timeout) ->
        SessionResult.reply(replies[Math.min(next.getAndIncrement(), replies.length - 1)], 0.1));
  }

  /** An answer its caller cannot use is a failed attempt, as an empty one is: the next attempt runs. */
  @Test
  void anUnusableReplyIsAFailedAttemptAndTheNextAttemptRuns() throws Exception {
    Reply r = inTurn("I choose A.", "```choice\nA\n```").call(MISSION, evidence, LABEL, "", null, CHOICE);
    assertEquals(2, calls.get());
    assertEquals(2, r.attempts());
    assertEquals(0.2, r.costUsd(), 1e-12, "the unusable attempt's cost counts");
    assertEquals("```choice\nA\n```", r.text());
  }

  /**
   * An answer unusable in every attempt fails the call and is never cached as a success, so the same call again (a
   * resume) runs the session again instead of replaying it.
   */
  @Test
  void aCallUnusableInEveryAttemptFailsAndIsCalledAgain() throws Exception {
    Proposer p = inTurn("I choose A.", "Still A.", "```choice\nA\n```");
    ProposerError e = assertThrows(ProposerError.class, () -> p.call(MISSION, evidence, LABEL, "", null, CHOICE));
    assertTrue(e.getMessage().endsWith("no ```choice block"), e.getMessage());
    assertEquals(2, e.attempts());
    JsonNode meta = Json.readTree(audit.resolve(base("") + ".meta.json"));
    assertFalse(meta.path("ok").asBoolean(true), meta.toString());
    assertEquals("no ```choice block", meta.path("error").asText());
    Reply again = p.call(MISSION, evidence, LABEL, "", null, CHOICE);
    assertEquals(3, calls.get());
    assertFalse(again.cached());
    assertEquals("```choice\nA\n```", again.text());
  }

  /** An unusable reply an earlier version cached as a success is not served: the session runs again. */
  @Test
  void anUnusableReplyCachedAsASuccessIsNotServed() throws Exception {
    Proposer p = inTurn("I choose A.", "```choice\nA\n```");
    p.call(MISSION, evidence, LABEL, "", null);
    assertEquals(1, calls.get());
    Reply again = p.call(MISSION, evidence, LABEL, "", null, CHOICE);
    assertEquals(2, calls.get());
    assertFalse(again.cached());
    assertEquals("```choice\nA\n```", again.text());
    assertTrue(p.call(MISSION, evidence, LABEL, "", null, CHOICE).cached());
  }

  /**
   * A session whose edits the channel refused answered: an ok reply carrying why, recorded in its meta file (only
   * then) and carried by its replay, so that its stage counts a refused proposal however the reply reaches it.
   */
  @Test
  void aSessionWhoseEditsTheChannelRefusedIsAnAnswerCarryingWhy() throws Exception {
    Proposer p = proposer((cwd, mission, system, label, timeout) -> new SessionResult("[refused]", 0.1, "", Map.of(),
        true, Tokens.NONE, "path \"../x.md\" climbs out with '..'"));
    Reply r = p.call(MISSION, evidence, LABEL, "", null);
    assertTrue(r.ok());
    assertEquals("path \"../x.md\" climbs out with '..'", r.refused());
    JsonNode meta = Json.readTree(audit.resolve(base("") + ".meta.json"));
    assertEquals(r.refused(), meta.path("refused").asText(), meta.toString());
    Reply again = p.call(MISSION, evidence, LABEL, "", null);
    assertTrue(again.cached());
    assertEquals(r.refused(), again.refused());
  }
}
