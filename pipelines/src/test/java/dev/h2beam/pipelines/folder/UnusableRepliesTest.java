package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepCommand;
import dev.h2beam.pipelines.sweep.SweepOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replies of a model that answered but whose answer h2beam cannot use, over real HTTP with the worked example: an
 * improver whose edits are refused every time made refused proposals, not failed sessions (the endpoint answered, so
 * the sweep's end must not send the user to check it), and a selector reply without its choice is a failed attempt,
 * never cached as a success, so a resume asks the selector again.
 */
class UnusableRepliesTest {
  /** An edit that climbs out of the harness: refused by the openai channel's edit blocks, whatever else it holds. */
  static final String ESCAPE = "<file path=\"../evil.md\">\nhello\n</file>\n";

  /** The worked example's model, with {@code twist} answering the requests of one kind (by the model's own kinds). */
  static ScriptedModelServer.Brain twisted(String kind, java.util.function.Function<String, String> twist) {
    SignedSumsModel model = new SignedSumsModel();
    return request -> {
      String answer = model.answer(request);
      return SignedSumsModel.kindOf(request).equals(kind) ? twist.apply(answer) : answer;
    };
  }

  record Run(Sweep.Plan plan, Map<String, Object> record) {}

  /**
   * One task of the example (the first of its ledgers; --maxTasks is per domain) at {@code k} in the parallel mode,
   * with every role served at {@code baseUrl}.
   */
  static Run sweep(Path tmp, String baseUrl, int k) throws Exception {
    Path config = FolderSweepTest.config(Files.createDirectories(tmp.resolve("cfg")), baseUrl);
    List<String> args = new ArrayList<>(List.of("--bench=folder", "--benchRoot=" + FolderSweepTest.EXAMPLE,
        "--config=" + config, "--runsRoot=" + tmp.resolve("runs"), "--k=" + k, "--modes=parallel",
        "--onlyDomains=ledgers", "--maxTasks=1", "--sessionRetryWaitSeconds=0"));
    SweepOptions o = PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(SweepOptions.class);
    Sweep.Plan plan = Sweep.plan(o, Instant.parse("2026-01-01T00:00:00Z"));
    return new Run(plan, Sweep.run(plan, o));
  }

  /** The meta files of the reply cache whose label starts with {@code prefix}. */
  static List<JsonNode> metas(Path runs, String prefix) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(runs.resolve("_audit"))) {
      for (Path p : s.filter(p -> p.getFileName().toString().startsWith(prefix)
          && p.getFileName().toString().endsWith(".meta.json")).sorted().toList()) {
        out.add(Json.readTree(p));
      }
    }
    return out;
  }

  /**
   * A user's report: an openai improver whose every answer was refused (a path escape) made its stages fall back as
   * failed sessions ("refused 3 times", "attempts": 2), and the sweep's end told the user to check the improver's
   * endpoint, model and key although the endpoint answered every call.
   */
  @Test
  void anImproverWhoseEditsAreRefusedEveryTimeMakesRefusedStages(@TempDir Path tmp) throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(twisted("improver", answer -> ESCAPE))) {
      Run run = sweep(tmp, server.baseUrl(), 1);
      assertEquals(1, Sweep.doneFailed(run.record())[0], run.record().toString());
      Path ns = tmp.resolve("runs").resolve("signed_sums-oc-agg1");
      JsonNode stages;
      try (Stream<Path> s = Files.list(ns)) {
        Path summary = s.filter(Files::isDirectory).map(d -> d.resolve("summary.json")).filter(Files::isRegularFile)
            .findFirst().orElseThrow();
        stages = Json.readTree(summary).at("/modes/agg/stages");
      }
      assertTrue(stages.size() > 0, stages.toString());
      for (JsonNode st : stages) {
        assertTrue(st.path("fell_back").asBoolean(), st.toString());
        assertTrue(st.path("refused").asBoolean(false), "the endpoint answered: a refusal, not a failure: " + st);
        assertTrue(st.path("error").asText().startsWith("path \"../evil.md\" climbs out with '..'"), st.toString());
        // one session per stage attempt, each answered; the error names no other count
        assertEquals(2, st.path("attempts").asInt(), st.toString());
      }
      // each session answered: recorded as such, with why its edits were refused
      List<JsonNode> sessions = metas(tmp.resolve("runs"), "inv");
      assertFalse(sessions.isEmpty());
      for (JsonNode m : sessions) {
        assertTrue(m.path("ok").asBoolean(), m.toString());
        assertEquals(1, m.path("attempts").asInt(), m.toString());
        assertTrue(m.path("refused").asText().startsWith("path \"../evil.md\" climbs out"), m.toString());
      }
      String end = String.join("\n", SweepCommand.stages(run.plan(), run.record()).lines());
      assertTrue(end.contains("refused: " + stages.size() + " stage(s)' edits were refused: path \"../evil.md\""
          + " climbs out with '..'"), end);
      assertTrue(end.contains("the improver answered, and its edits were refused"), end);
      assertFalse(end.contains("check the improver role in --config"), end);
    }
  }

  /**
   * A selector reply without its ```choice block failed the selection but was cached as a success, so every resume
   * replayed it and the task could never succeed. It is a failed attempt of its session (retried within the session's
   * attempts), never cached as a success, and the resume asks the selector again.
   */
  @Test
  void aSelectorReplyWithoutItsChoiceIsAFailedAttemptAndTheResumeAsksAgain(@TempDir Path tmp) throws Exception {
    AtomicInteger selections = new AtomicInteger();
    // the first two selector replies (both attempts of the first session) lose their choice block; then as usual
    ScriptedModelServer.Brain brain = twisted("selector", answer -> selections.getAndIncrement() < 2
        ? answer.replaceAll("```choice\\s*\\n?\\s*([A-Za-z0-9_-]+)\\s*\\n?\\s*```", "I choose $1.") : answer);
    try (ScriptedModelServer server = ScriptedModelServer.start(brain)) {
      Run first = sweep(tmp, server.baseUrl(), 2);
      assertEquals(2, selections.get(), "one session, two attempts");
      assertEquals(1, Sweep.doneFailed(first.record())[1], first.record().toString());
      assertTrue(first.record().toString().contains("no ```choice block in the reply"), first.record().toString());
      List<JsonNode> failed = metas(tmp.resolve("runs"), "select.");
      assertEquals(1, failed.size());
      assertFalse(failed.get(0).path("ok").asBoolean(true), "never cached as a success: " + failed.get(0));
      assertEquals(2, failed.get(0).path("attempts").asInt(), failed.get(0).toString());

      Run again = sweep(tmp, server.baseUrl(), 2);
      assertEquals(3, selections.get(), "the resume asks the selector again");
      assertEquals(1, Sweep.doneFailed(again.record())[0], again.record().toString());
      assertEquals(0, Sweep.doneFailed(again.record())[1], again.record().toString());
      List<JsonNode> ok = metas(tmp.resolve("runs"), "select.");
      assertEquals(1, ok.size());
      assertTrue(ok.get(0).path("ok").asBoolean(), ok.get(0).toString());
      assertFalse(ok.get(0).has("refused"), "a successful selector reply's meta keeps harness2's keys: " + ok.get(0));
    }
  }
}
