package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.pipelines.files.FileShapes;
import dev.h2beam.pipelines.judge.JudgeCommand;
import dev.h2beam.pipelines.judge.JudgeOptions;
import dev.h2beam.pipelines.sweep.Sweep;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that reports no token counts for some of its answers, over the worked example: what those calls cost is
 * not known, and every file that carries a cost says so instead of counting them as $0, from the rollout's marker and
 * the session's meta file through the ledger, the selection, the metric vector and the report; a resume says it
 * again.
 */
class FolderSweepCostTest {
  /** A line of one task's source (inventory/nuts), so only its rollouts' requests hold it. */
  private static final String NUTS = "issued to line 1,-260.00";
  /** The same for ledgers/april, whose rollouts of an improved harness the server refuses. */
  private static final String APRIL = "04-05,bank fee,-4.20";

  static ScriptedModelServer server;

  @BeforeAll
  static void start() throws Exception {
    server = ScriptedModelServer.start(new SignedSumsModel());
    // the executor's answers for one task and every selector's and reflector's answer carry no usage
    server.withoutUsage(r -> r.body().path("model").asText().equals("select-model")
        || (r.body().path("model").asText().equals("exec-model") && r.rawBody().contains(NUTS)));
    // one task's candidates fail on a refusal, which is not billed: they are dead, and their cost a known $0
    ScriptedModelServer.Route chat = server.routeOf(ScriptedModelServer.CHAT_PATH);
    server.route(ScriptedModelServer.CHAT_PATH, call -> {
      String raw = call.request().rawBody();
      if (call.request().body().path("model").asText().equals("exec-model") && raw.contains(APRIL)
          && raw.contains("Keep the sign of every amount")) {
        call.sendJson(400, "{\"error\": {\"message\": \"refused\", \"type\": \"invalid_request_error\"}}");
      } else {
        chat.handle(call);
      }
    });
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static final List<String> AGG_ROLLOUTS = List.of("base1", "base2", "inv1", "dom1", "inv2", "dom2", "agg1",
      "agg2");
  private static final List<String> SEQ_ROLLOUTS = List.of("base1", "base2", "inv1", "dom1", "c1", "inv2", "dom2",
      "c2");

  @Test
  void costsTheServerDidNotReportAreNamedAsNotKnownNeverCountedAsZero(@TempDir Path tmp) throws Exception {
    Path runs = tmp.resolve("runs");
    Map<String, Object> record = FolderSweepTest.sweep(runs, FolderSweepTest.config(tmp, server.baseUrl()));
    assertEquals(4, Sweep.doneFailed(record)[0] + Sweep.doneFailed(record)[1], record.toString());
    Path ns = runs.resolve("signed_sums-oc-agg2");

    // the task whose rollouts were not priced: its ledgers name every rollout, and no session
    JsonNode nuts = Json.readTree(ns.resolve("inventory__nuts/summary.json"));
    assertEquals(Json.MAPPER.valueToTree(Map.of("rollouts", AGG_ROLLOUTS, "sessions", List.of())),
        nuts.at("/modes/agg/ledger/cost_unknown"), nuts.toString());
    assertEquals(SEQ_ROLLOUTS, Json.MAPPER.convertValue(nuts.at("/modes/seq/ledger/cost_unknown/rollouts"),
        List.class));
    assertEquals(0.0, nuts.at("/modes/agg/ledger/rollout_usd").asDouble(), "the known part: none");
    assertTrue(nuts.at("/modes/agg/ledger/session_usd").asDouble() > 0, "the improver's calls were priced");
    for (JsonNode stage : nuts.at("/modes/agg/stages")) assertFalse(stage.has("usd_known"), stage.toString());

    // another task: every rollout and session priced, harness2's ledger keys; its selector was not priced
    JsonNode march = Json.readTree(ns.resolve("ledgers__march/summary.json"));
    for (String mode : List.of("agg", "seq")) {
      assertFalse(march.at("/modes/" + mode + "/ledger").has("cost_unknown"), march.toString());
      assertTrue(march.at("/modes/" + mode + "/ledger/rollout_usd").asDouble() > 0);
      JsonNode sel = march.at("/selections/" + mode);
      assertFalse(sel.path("usd_known").asBoolean(true), sel.toString());
    }
    // and so does every selection.json of the task, each mode's in its own namespace
    int selections = 0;
    try (Stream<Path> s = Files.walk(runs)) {
      for (Path f : s.filter(p -> p.getFileName().toString().equals("selection.json")
          && p.toString().contains("ledgers__march")).toList()) {
        assertFalse(Json.readTree(f).path("usd_known").asBoolean(true), f.toString());
        selections++;
      }
    }
    assertEquals(2, selections);

    // each rollout's marker and journal line says it too
    List<JsonNode> marks = new ArrayList<>();
    try (Stream<Path> s = Files.walk(runs.resolve("_executions"))) {
      for (Path m : s.filter(p -> p.getFileName().toString().equals(Runmark.MARKER)).toList()) {
        marks.add(Json.readTree(m));
      }
    }
    long unknown = marks.stream().filter(m -> !m.path("cost_known").asBoolean(true)).count();
    assertEquals(7 * 2, unknown, "the nuts task's rollouts (k shared bases, 3k per mode), of " + marks.size());
    long journalled = 0;
    try (Stream<Path> s = Files.list(runs.resolve("_audit/signed_sums-oc-agg2"))) {
      for (Path j : s.filter(p -> p.getFileName().toString().startsWith("executions")).toList()) {
        for (String line : Files.readAllLines(j)) {
          JsonNode l = Json.readTree(line);
          if (l.has("cost_known")) {
            assertTrue(l.path("run_id").asText().contains("inventory/nuts"), line);
            // nor are its tokens all counted: the server reported none
            assertFalse(l.path("tokens_known").asBoolean(true), line);
            journalled++;
          } else if (l.path("ok").asBoolean(true)) {
            // a priced rollout's line carries the tokens it was priced by, all counted
            assertTrue(l.at("/tokens/input").asLong() > 0 && l.at("/tokens/output").asLong() > 0, line);
            assertFalse(l.has("tokens_known"), line);
          }
        }
      }
    }
    assertEquals(unknown, journalled);
    // and each session's journal line the tokens its meta file records, for the live progress to add up
    int sessionLines = 0;
    Path audit = runs.resolve("_audit/signed_sums-oc-agg2");
    try (Stream<Path> s = Files.list(audit)) {
      for (Path j : s.filter(p -> p.getFileName().toString().startsWith("sessions")).toList()) {
        for (String line : Files.readAllLines(j)) {
          JsonNode l = Json.readTree(line);
          String ending = "." + l.path("key").asText() + ".meta.json";
          List<Path> metas;
          try (Stream<Path> w = Files.walk(audit)) {
            metas = w.filter(p -> p.getFileName().toString().endsWith(ending)).toList();
          }
          assertEquals(1, metas.size(), line);
          JsonNode meta = Json.readTree(metas.get(0));
          assertTrue(l.at("/tokens/input").asLong() > 0, line);
          assertEquals(meta.path("tokens"), l.path("tokens"), line);
          assertEquals(meta.path("tokens_known").asBoolean(true), l.path("tokens_known").asBoolean(true), line);
          sessionLines++;
        }
      }
    }
    assertTrue(sessionLines > 0);

    // the task whose candidates failed: dead rollouts keep what they cost (a refusal: a known $0), not unknown
    JsonNode april = Json.readTree(ns.resolve("ledgers__april/summary.json"));
    for (String mode : List.of("agg", "seq")) {
      assertFalse(april.at("/modes/" + mode + "/ledger").has("cost_unknown"), april.toString());
    }
    assertEquals("no candidate produced an artifact", april.at("/selections/agg/error").asText(), "they died");
    assertTrue(april.at("/modes/agg/ledger/rollout_usd").asDouble() > 0, "the bases' cost is counted");

    // the metric vector: the executor's cost of the nuts task is absent, with its reason, never 0, and so is the
    // selection's cost of every selection whose selector or reflector was not priced (the server priced none of
    // them); the cost, their sum, is then absent too
    // (the april task's two ungraded rows make the judge's exit status 1: ungraded, never zeros)
    JudgeOptions judging = PipelineOptionsFactory.fromArgs("--namespaces=" + ns).as(JudgeOptions.class);
    ByteArrayOutputStream judged = new ByteArrayOutputStream();
    JudgeCommand.run(judging, new PrintStream(judged, true, StandardCharsets.UTF_8));
    assertTrue(judged.toString(StandardCharsets.UTF_8).contains("6 graded, 2 ungraded"), judged.toString());
    JsonNode metrics = Json.readTree(ns.resolve("metrics.json"));
    int seen = 0;
    int unpricedSelections = 0;
    for (JsonNode row : metrics.path("rows")) {
      if (row.path("task_id").asText().equals("ledgers/april")) continue; // no pick: no spend asked of it
      boolean isNuts = row.path("task_id").asText().equals("inventory/nuts");
      assertEquals(isNuts, row.at("/absent/executor_cost").asText().equals("spend-unaccounted"), row.toString());
      String slug = dev.h2beam.adapters.model.Namespace.slug(row.path("task_id").asText());
      JsonNode selection = Json.readTree(ns.resolve(slug).resolve("summary.json"))
          .at("/selections/" + row.path("mode").asText());
      boolean selectionUnknown = !selection.path("usd_known").asBoolean(true);
      assertEquals(selectionUnknown, row.at("/absent/selection_cost").asText().equals("spend-unaccounted"),
          row + " of " + selection);
      assertEquals(!selectionUnknown, row.at("/values/selection_cost").isNumber(), row.toString());
      assertEquals(isNuts || selectionUnknown, row.at("/absent/cost").asText().equals("spend-unaccounted"),
          row.toString());
      assertTrue(row.at("/values/improver_cost").isNumber(), row.toString());
      if (isNuts) seen++;
      if (selectionUnknown) unpricedSelections++;
    }
    assertEquals(2, seen, "both modes of the nuts task");
    assertTrue(unpricedSelections >= 2, "the march task's two selections, at least: " + unpricedSelections);

    // the tokens: the server's counts, summed per mode, those it did not report named and never counted as 0
    for (String mode : List.of("agg", "seq")) {
      JsonNode n = nuts.at("/modes/" + mode + "/ledger");
      assertEquals(mode.equals("agg") ? AGG_ROLLOUTS : SEQ_ROLLOUTS,
          Json.MAPPER.convertValue(n.at("/tokens_unknown/rollouts"), List.class), n.toString());
      assertEquals(0, n.at("/tokens_unknown/sessions").size(), n.toString());
      assertTrue(n.at("/tokens/input").asLong() > 0 && n.at("/tokens/output").asLong() > 0, "its sessions counted");
      JsonNode m = march.at("/modes/" + mode + "/ledger");
      assertFalse(m.has("tokens_unknown"), m.toString());
      assertTrue(m.at("/tokens/input").asLong() > 0 && m.at("/tokens/output").asLong() > 0, m.toString());
      // the selector's and reflector's answers carried no usage: not known, the part counted none
      JsonNode sel = march.at("/selections/" + mode);
      assertFalse(sel.path("tokens_known").asBoolean(true), sel.toString());
      assertEquals(0, sel.at("/tokens/input").asLong(), sel.toString());
    }
    for (JsonNode row : metrics.path("rows")) {
      if (row.path("task_id").asText().equals("ledgers/april")) {
        // no selector ran (no candidate came back), and its refused candidates spent a known none (a refusal is not
        // billed): every token of the mode was counted, its bases' and sessions'
        assertTrue(row.at("/values/mode_tokens").asDouble() > 0, row.toString());
        assertEquals(row.at("/values/mode_tokens").asDouble(), row.at("/values/mode_input_tokens").asDouble()
            + row.at("/values/mode_output_tokens").asDouble(), row.toString());
        continue;
      }
      assertEquals("spend-unaccounted", row.at("/absent/mode_tokens").asText(), "no selection was counted: " + row);
      assertFalse(row.at("/values/mode_input_tokens").isNumber(), row.toString());
    }

    // the report counts what it could not add up
    String report = FolderSweepTest.report(ns);
    assertTrue(report.contains("not known"), report);
    // and each mode's tokens: the summaries' counts added up, the tasks whose counts are partial named beside them,
    // in the text and in the HTML page's table
    Path pages = tmp.resolve("report");
    int reported = new dev.h2beam.pipelines.report.ReportCommand().run(new String[] {"--namespaces=" + ns,
        "--output=" + pages}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertEquals(0, reported);
    String html = Files.readString(pages.resolve("report.html"));
    assertTrue(html.contains("<th>model tokens (in / out)</th></tr>"), html);
    for (String mode : List.of("agg", "seq")) {
      long in = 0;
      long out = 0;
      int partial = 0;
      try (Stream<Path> s = Files.list(ns)) {
        for (Path task : s.filter(p -> Files.isRegularFile(p.resolve("summary.json"))).toList()) {
          JsonNode summary = Json.readTree(task.resolve("summary.json"));
          Tokens t = FileShapes.modeTokens(summary.at("/modes/" + mode + "/ledger"), summary.at("/selections/" + mode));
          in += t.input();
          out += t.output();
          if (!t.known()) partial++;
        }
      }
      assertTrue(in > 0 && partial >= 2, "the nuts and march tasks' counts are partial: " + partial);
      String line = "    " + (mode.equals("agg") ? "parallel" : "sequential") + " k=2: " + in + " in, " + out
          + " out; " + partial + " task(s) not all counted (the part counted, not the whole)\n";
      assertTrue(report.contains(line), line + " in\n" + report);
      assertTrue(html.contains("<td>" + in + " / " + out + " + " + partial + " not all counted</td></tr>"), html);
    }

    // the task's folder lost: a resume rebuilds it from the reused rollouts' markers and the cached sessions' meta
    // files, calls nothing, and says again what was not known
    String before = Files.readString(ns.resolve("inventory__nuts/summary.json"));
    String marchBefore = Files.readString(ns.resolve("ledgers__march/summary.json"));
    dev.h2beam.transforms.evidence.FileTrees.deleteQuietly(ns.resolve("inventory__nuts"));
    int sent = server.requests().size();
    FolderSweepTest.sweep(runs, FolderSweepTest.config(tmp, server.baseUrl()));
    // nothing but the april task's dead candidates, which a resume rolls again by design
    for (ScriptedModelServer.Request r : server.requests().subList(sent, server.requests().size())) {
      assertTrue(r.rawBody().contains(APRIL) && r.rawBody().contains("Keep the sign"), "the resume called " + r);
    }
    assertEquals(before, Files.readString(ns.resolve("inventory__nuts/summary.json")));
    assertEquals(marchBefore, Files.readString(ns.resolve("ledgers__march/summary.json")));
  }
}
