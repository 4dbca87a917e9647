package dev.h2beam.transforms.recursion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.RunView;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.adapters.proposer.ProposerChannel;
import dev.h2beam.transforms.evidence.FileTrees;
import dev.h2beam.transforms.gated.Episode;
import dev.h2beam.transforms.gated.GateTask;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.ImproverMethod;
import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Models;
import dev.h2beam.transforms.gated.Policies;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.TreeEntry;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.proposer.Limits;
import dev.h2beam.transforms.proposer.Proposer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the gated mode records of each step's improver session: a session that was asked for and never came back (it
 * ended in an exception) spent what is not known, so its stage says {@code usd_known: false} and the ledger's
 * {@code cost_unknown} names it; a step whose method never asked for a session, or whose session could not start, is a
 * known $0; a session that answered is priced as it reported. One task at k = 1: one shared base, three steps.
 */
class GatedSessionCostTest {
  private static final String TASK = "ledger-1";
  private static final ChannelSpec SPEC = ChannelSpec.of("scripted", "model-1");
  private static final Namespace NS = Namespace.of("gtest", "oc", "gat", 1);
  /** A harness line that makes the benchmark's tree check crash (a bug in the benchmark, not a rejection). */
  private static final String CRASHES_THE_CHECK = "- Always answer in Roman numerals.";

  @TempDir Path root;
  private Bench bench;
  private final AtomicInteger sessions = new AtomicInteger();

  @BeforeEach
  void checksFolder() throws IOException {
    bench = new Bench(root);
    write(root.resolve("checks"), "check.sh", "echo 'score: 1'\n");
  }

  private static void write(Path dir, String rel, String text) throws IOException {
    Path p = dir.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  /** A benchmark whose rollouts write an answer and a trajectory, priced $0.05 each. */
  static final class Bench implements Benchmark {
    private final Path root;
    /** The tokens each rollout reports; not said, by default. */
    Tokens rolloutTokens = Tokens.UNKNOWN;

    Bench(Path root) {
      this.root = root;
    }

    @Override public BenchSpec spec() {
      return new BenchSpec("gtest", "copy", BenchPrompts.of("Reconcile the ledger."),
          Map.of("proposer", SPEC, "selector", SPEC), "domain", List.of(), false, Set.of(), "contents", false,
          10_000);
    }

    @Override public String substrate() {
      return "oc";
    }

    @Override public List<String> tasks() {
      return List.of(TASK);
    }

    @Override public String domainOf(String task) {
      return "ledger";
    }

    @Override public String taskPrompt(String task) {
      return "# Task\nReconcile the ledger and report the total.\n";
    }

    @Override public Optional<Path> checks(String task) {
      return Optional.of(root.resolve("checks"));
    }

    @Override public Rollout execute(String task, Path harnessDir, String runId) throws IOException {
      Path run = root.resolve("bench-runs").resolve(runId.replace('/', '_'));
      FileTrees.recreate(run);
      Files.writeString(run.resolve("answer.txt"), "total: 42\n");
      Files.writeString(run.resolve("trajectory.md"), "step 1: summed the rows\n");
      return new Rollout(run, false, 0.05, 1.0, true, rolloutTokens);
    }

    @Override public boolean delivered(Path runDir) {
      return Files.isRegularFile(runDir.resolve("answer.txt"));
    }

    @Override public String trajectory(Path runDir, int obsTrunc) throws IOException {
      return Files.readString(runDir.resolve("trajectory.md"));
    }

    @Override public String deliverableText(Path runDir) throws IOException {
      return Files.readString(runDir.resolve("answer.txt"));
    }

    @Override public Map<String, String> deliverableFiles(Path runDir) throws IOException {
      return Map.of("answer.txt", deliverableText(runDir));
    }

    @Override public Path baseHarness() {
      return root.resolve("base");
    }

    @Override public void validateTree(Map<String, String> tree) {
      for (String text : tree.values()) {
        if (text.contains(CRASHES_THE_CHECK)) throw new IllegalStateException("the tree check crashed");
      }
    }
  }

  /** An improver session that adds one rule to guardrails.md (a line naming the step) and costs $0.10. */
  private static SessionResult edit(Path cwd, String label) throws IOException {
    Path guardrails = cwd.resolve("context/harness/guardrails.md");
    Files.writeString(guardrails, Files.readString(guardrails) + "- Re-add the column before answering (" + label
        + ").\n");
    return SessionResult.reply("<notes>one more check of the totals</notes>", 0.10);
  }

  private static final ProposerChannel EDITING = (cwd, mission, system, label, timeout) -> edit(cwd, label);

  private static LinkedHashMap<String, String> base() {
    LinkedHashMap<String, String> tree = new LinkedHashMap<>();
    tree.put("systemprompt.md", "You reconcile ledgers.\n");
    tree.put("guardrails.md", "- Check the totals.\n");
    return tree;
  }

  /** The gated mode on {@link #TASK} at k = 1, its sessions served by {@code channel} through a real proposer. */
  private ModeResult run(ProposerChannel channel, GatedMethod method) throws Exception {
    return run(channel, method, null);
  }

  private ModeResult run(ProposerChannel channel, GatedMethod method, Path scratch) throws Exception {
    ProposerChannel counted = (cwd, mission, system, label, timeout) -> {
      sessions.incrementAndGet();
      return channel.run(cwd, mission, system, label, timeout);
    };
    Path runs = root.resolve("runs");
    Proposer proposer = new Proposer(counted, SPEC, TaskScope.auditDir(runs, NS), scratch, 2,
        Limits.of("sessions", 1), Duration.ZERO);
    TaskScope s = new TaskScope(bench, TASK, 1, NS, runs, proposer, proposer, proposer, Limits.of("rollouts", 1), 1,
        null, Faults.NONE);
    List<RunView> bases = List.of(Roller.roll(s, "base1", null));
    return Gated.run(s, base(), bases, method, Policies.SCORE_COMPARISON, 0);
  }

  private static Stage stage(ModeResult res, String label) {
    for (Stage st : res.stages) if (st.label().equals(label)) return st;
    throw new AssertionError("no stage " + label + " in " + res.stages);
  }

  /** The mode's record as the summary writes it. */
  private static JsonNode json(ModeResult res) {
    return Json.MAPPER.valueToTree(res.toJson());
  }

  private static JsonNode stageJson(JsonNode mode, String label) {
    for (JsonNode st : mode.path("stages")) if (st.path("label").asText().equals(label)) return st;
    throw new AssertionError("no stage " + label + " in " + mode);
  }

  private static List<String> unknownSessions(JsonNode mode) {
    List<String> out = new ArrayList<>();
    mode.at("/ledger/cost_unknown/sessions").forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Every stage but {@code unknown} is known, in the stage and in the ledger. */
  private static void onlyUnknown(ModeResult res, List<String> unknown) {
    JsonNode mode = json(res);
    assertEquals(List.of("g1", "g2", "g3"), res.ledger.labels("session"));
    for (String label : List.of("g1", "g2", "g3")) {
      boolean known = !unknown.contains(label);
      assertEquals(known, stage(res, label).usdKnown(), label);
      assertEquals(known, !stageJson(mode, label).has("usd_known"), stageJson(mode, label).toString());
      if (!known) assertFalse(stageJson(mode, label).path("usd_known").asBoolean(true), label);
    }
    if (unknown.isEmpty()) {
      assertFalse(mode.path("ledger").has("cost_unknown"), mode.path("ledger").toString());
    } else {
      assertEquals(unknown, unknownSessions(mode), mode.path("ledger").toString());
      assertEquals(0, mode.at("/ledger/cost_unknown/rollouts").size(), "every rollout reported its cost");
    }
  }

  private JsonNode journalLine(String label) throws IOException {
    for (String line : Journal.lines(TaskScope.auditDir(root.resolve("runs"), NS).resolve("sessions.jsonl"))) {
      JsonNode n = Json.MAPPER.readTree(line);
      if (n.path("label").asText().equals(label)) return n;
    }
    throw new AssertionError("no session " + label + " in the journal");
  }

  /** (c) Sessions that answer are priced as they reported: every stage known, no cost_unknown. */
  @Test
  void sessionsThatAnswerAreKnown() throws Exception {
    ModeResult res = run(EDITING, new ImproverMethod());

    onlyUnknown(res, List.of());
    assertEquals(3, sessions.get());
    for (String label : List.of("g1", "g2", "g3")) {
      Stage st = stage(res, label);
      assertFalse(st.fellBack(), st.error());
      assertEquals(0.10, st.usd(), label);
      assertEquals(1, st.attempts(), label);
    }
    assertEquals(0.3, json(res).at("/ledger/session_usd").asDouble());
    assertEquals("candidate", json(res).at("/gate/steps/0/proposal").asText());
  }

  /**
   * (a) The session ran (it is in the journal, priced) and the stage threw before it came back: the step records no
   * stage of the session's, so what it spent is not known. This is the path the {@code started} flag decides.
   */
  @Test
  void aSessionThatStartedAndThrewBeforeItsStageCameBackIsNotKnown() throws Exception {
    ProposerChannel channel = (cwd, mission, system, label, timeout) -> {
      if (!label.startsWith("g1.")) return edit(cwd, label);
      Path guardrails = cwd.resolve("context/harness/guardrails.md");
      Files.writeString(guardrails, Files.readString(guardrails) + CRASHES_THE_CHECK + "\n");
      return SessionResult.reply("<notes>numerals</notes>", 0.40);
    };
    ModeResult res = run(channel, new ImproverMethod());

    onlyUnknown(res, List.of("g1"));
    Stage g1 = stage(res, "g1");
    assertEquals(0.0, g1.usd(), "only what is known is summed");
    assertEquals("the method's improver session ended in an exception", g1.notes());
    assertTrue(g1.fellBack(), "the session failed, as a fallen-back stage of the other modes does");
    assertFalse(g1.keptBase(), "as a fallen-back stage of the other modes: the fallback is no accepted tree");
    assertTrue(g1.error().contains("IllegalStateException: the tree check crashed"), g1.error());
    // the current harness as sessions read it: the always-on files the base lacks there, empty
    assertEquals(dev.h2beam.transforms.tree.TreeIO.asWritten(bench.surface(), base()), g1.tree(),
        "the step keeps the current harness");
    JsonNode ran = journalLine("g1.a1");
    assertTrue(ran.path("ok").asBoolean(), ran.toString());
    assertEquals(0.40, ran.path("cost_usd").asDouble(), "the session did spend");
    JsonNode step = json(res).at("/gate/steps/0");
    assertEquals("none", step.path("proposal").asText(), step.toString());
    assertEquals("r1", step.path("rollout").asText());
    assertTrue(step.path("notes").asText().contains("IllegalStateException: the tree check crashed"),
        step.toString());
    assertEquals(0.2, json(res).at("/ledger/session_usd").asDouble(), "g2 and g3 are summed, g1 is not");
    // its attempts are not known either: no count, never a 0 that would read as no attempt
    assertEquals(dev.h2beam.transforms.ledger.Ledger.ATTEMPTS_UNKNOWN, g1.attempts());
    assertTrue(g1.toJson().containsKey("attempts") && g1.toJson().get("attempts") == null, g1.toJson().toString());
    assertEquals(List.of("g1"), res.ledger.toJson().get("attempts_unknown"));
    assertEquals(2, res.ledger.toJson().get("session_attempts"), "g2's and g3's, one each");
  }

  /**
   * Every rollout's and session's tokens reach the ledger, summed; a session that ran and whose stage never came back
   * is named in {@code tokens_unknown}, as in {@code cost_unknown}, and adds only what is known (nothing).
   */
  @Test
  void theTokensOfEveryRolloutAndSessionReachTheLedger() throws Exception {
    bench.rolloutTokens = new Tokens(100, 10, true);
    ProposerChannel counting = (cwd, mission, system, label, timeout) -> {
      SessionResult r = edit(cwd, label);
      return new SessionResult(r.text(), r.costUsd(), "", Map.of(), true, new Tokens(1000, 200, true));
    };
    JsonNode ledger = json(run(counting, new ImproverMethod())).path("ledger");
    assertEquals(4, ledger.path("R").asInt(), "base1 and one rollout a step");
    assertEquals(3 * 1000 + 4 * 100, ledger.at("/tokens/input").asLong(), ledger.toString());
    assertEquals(3 * 200 + 4 * 10, ledger.at("/tokens/output").asLong(), ledger.toString());
    assertFalse(ledger.has("tokens_unknown"), ledger.toString());

    ProposerChannel crashing = (cwd, mission, system, label, timeout) -> {
      if (!label.startsWith("g1.")) return counting.run(cwd, mission, system, label, timeout);
      Path guardrails = cwd.resolve("context/harness/guardrails.md");
      Files.writeString(guardrails, Files.readString(guardrails) + CRASHES_THE_CHECK + "\n");
      return new SessionResult("<notes>numerals</notes>", 0.40, "", Map.of(), true, new Tokens(5000, 900, true));
    };
    FileTrees.recreate(root.resolve("runs"));
    ledger = json(run(crashing, new ImproverMethod())).path("ledger");
    assertEquals(2 * 1000 + 4 * 100, ledger.at("/tokens/input").asLong(), "g1's are not summed: " + ledger);
    assertEquals(List.of("g1"), List.of(ledger.at("/tokens_unknown/sessions/0").asText()), ledger.toString());
    assertEquals(1, ledger.at("/tokens_unknown/sessions").size(), ledger.toString());
    assertEquals(0, ledger.at("/tokens_unknown/rollouts").size(), ledger.toString());
  }

  /**
   * (a) The channel threw mid-session on every attempt: the proposer journals the session's cost as not known, and
   * the stage that comes back (fallen back) carries it to the ledger.
   */
  @Test
  void aSessionWhoseChannelThrowsMidRunIsNotKnown() throws Exception {
    ProposerChannel channel = (cwd, mission, system, label, timeout) -> {
      if (label.startsWith("g1.")) throw new IOException("connection reset mid-reply");
      return edit(cwd, label);
    };
    ModeResult res = run(channel, new ImproverMethod());

    onlyUnknown(res, List.of("g1"));
    Stage g1 = stage(res, "g1");
    assertTrue(g1.fellBack());
    assertEquals(2, g1.attempts(), "both of the proposer's attempts ran");
    assertTrue(g1.error().contains("connection reset mid-reply"), g1.error());
    assertEquals(4, sessions.get(), "two attempts for g1, one each for g2 and g3");
    assertFalse(journalLine("g1.a1").path("cost_known").asBoolean(true));
  }

  /**
   * (b) A method that fails, or answers, without asking for a session spent nothing on one: a known $0 (not to be
   * confused with a session that started and threw).
   */
  @Test
  void aStepWhoseMethodNeverAskedForASessionIsAKnownZero() throws Exception {
    GatedMethod method = new GatedMethod() {
      private final ImproverMethod improver = new ImproverMethod();

      @Override public String name() {
        return "first-two-without-a-session";
      }

      @Override public String description() {
        return "step 1 fails before its session, step 2 proposes nothing, step 3 asks the improver";
      }

      @Override public Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models,
          List<Rejection> rejected, Manifest manifest) throws Exception {
        if (manifest.step() == 0) throw new IllegalStateException("the method failed before its session");
        if (manifest.step() == 1) return null;
        return improver.propose(tree, samples, models, rejected, manifest);
      }

      @Override public OptionalDouble evaluate(GateTask task, Episode episode) throws Exception {
        return improver.evaluate(task, episode);
      }
    };
    ModeResult res = run(EDITING, method);

    onlyUnknown(res, List.of());
    assertEquals(1, sessions.get(), "only step 3 ran a session");
    for (String label : List.of("g1", "g2")) {
      Stage st = stage(res, label);
      assertEquals(0.0, st.usd(), label);
      assertEquals(0, st.attempts(), label);
      assertEquals("the method answered without a session", st.notes(), label);
    }
    assertTrue(json(res).at("/gate/steps/0/notes").asText().contains("the method failed before its session"),
        json(res).at("/gate/steps/0").toString());
    assertEquals(0.10, stage(res, "g3").usd());
  }

  /**
   * (b) A session that could not start (its working folder could not be made, so the channel never ran) is a known
   * $0, although the proposer tried it twice.
   */
  @Test
  void aSessionThatCouldNotStartIsAKnownZero() throws Exception {
    Path scratch = Files.writeString(root.resolve("not-a-folder"), "a file where the scratch folder would be\n");
    ModeResult res = run(EDITING, new ImproverMethod(), scratch);

    onlyUnknown(res, List.of());
    assertEquals(0, sessions.get(), "the channel never ran");
    for (String label : List.of("g1", "g2", "g3")) {
      Stage st = stage(res, label);
      assertTrue(st.fellBack(), label);
      assertEquals(0.0, st.usd(), label);
    }
    assertEquals(List.of("base1", "r1", "r2", "r3"), res.ledger.labels("rollout"));
  }
}
