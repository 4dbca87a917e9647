package dev.h2beam.pipelines.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.ScriptedModelServer;
import dev.h2beam.pipelines.judge.JudgeCommand;
import dev.h2beam.pipelines.judge.JudgeOptions;
import dev.h2beam.pipelines.report.ReportCommand;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepCommand;
import dev.h2beam.pipelines.sweep.SweepOptions;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A review's report (dogZ #9): an improver endpoint that refused some sessions for a while left their stages fallen
 * back for good; a resume kept them, and the only remedy was a new runs root, which rolls and pays for everything
 * again. {@code --retryFailedSessions} runs those tasks again over real HTTP: the failed sessions are asked again,
 * what did not change is replayed from the reply cache and the rollout markers at no cost, and the task ends as a run whose
 * endpoint never failed ends; the earlier result is kept beside it and the report says it was replaced.
 */
class RetryFailedSessionsTest {
  /** What the INV stages' prompts hold, and the DOM stages' (ProposePrompts). */
  private static final String INV = "DIMENSION: INV";
  private static final String DOM = "DIMENSION: DOM";

  static SweepOptions options(Path dir, String baseUrl, String... extra) throws Exception {
    Path config = FolderSweepTest.config(Files.createDirectories(dir.resolve("cfg")), baseUrl);
    List<String> args = new ArrayList<>(List.of("--bench=folder", "--benchRoot=" + FolderSweepTest.EXAMPLE,
        "--config=" + config, "--runsRoot=" + dir.resolve("runs"), "--k=2", "--modes=parallel",
        "--onlyDomains=ledgers", "--sessionRetryWaitSeconds=0"));
    args.addAll(List.of(extra));
    // one task (april) unless the caller asks for more
    if (args.stream().noneMatch(a -> a.startsWith("--maxTasks="))) args.add("--maxTasks=1");
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(SweepOptions.class);
  }

  static Map<String, Object> sweep(Path dir, String baseUrl, String... extra) throws Exception {
    SweepOptions o = options(dir, baseUrl, extra);
    Sweep.Plan plan = Sweep.plan(o, Instant.parse("2026-01-01T00:00:00Z"));
    Map<String, Object> record = Sweep.run(plan, o);
    record.put("end", String.join("\n", SweepCommand.stages(plan, record).lines()));
    return record;
  }

  static Path summary(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir.resolve("runs").resolve("signed_sums-oc-agg2"))) {
      return s.filter(Files::isDirectory).map(d -> d.resolve("summary.json")).filter(Files::isRegularFile)
          .findFirst().orElseThrow();
    }
  }

  /**
   * The worked example's model, whose provider answers the requests {@code what} picks with 403 (quota exceeded)
   * while {@code down} is set, and serves them once it is cleared.
   */
  static ScriptedModelServer refusing(java.util.function.Predicate<String> what, AtomicBoolean down)
      throws Exception {
    ScriptedModelServer server = ScriptedModelServer.start(new SignedSumsModel());
    ScriptedModelServer.Route model = server.routeOf(ScriptedModelServer.CHAT_PATH);
    server.route(ScriptedModelServer.CHAT_PATH, call -> {
      if (down.get() && what.test(call.request().rawBody())) {
        call.sendJson(403, "{\"error\": {\"message\": \"quota exceeded for this key\"}}");
      } else {
        model.handle(call);
      }
    });
    return server;
  }

  static long asked(ScriptedModelServer server, String what) {
    return server.requests().stream().filter(r -> r.rawBody().contains(what)).count();
  }

  @Test
  void aResumeWithRetryFailedSessionsAsksTheFailedSessionsAgainAndEndsAsACleanRunDoes(@TempDir Path tmp)
      throws Exception {
    AtomicBoolean down = new AtomicBoolean(true);
    // the improver's provider refuses the INV sessions while it is "down" (its quota spent), then serves them
    try (ScriptedModelServer server = refusing(body -> body.contains(INV), down)) {
      Path a = tmp.resolve("a");
      Map<String, Object> first = sweep(a, server.baseUrl());
      Path summary = summary(a);
      String before = Files.readString(summary);
      Map<String, Object> cached = Json.readMap(summary);
      Map<String, List<String>> failed = SummaryFile.failedSessions(cached, List.of("agg"));
      assertEquals(List.of("agg"), List.copyOf(failed.keySet()), before);
      assertEquals(2, failed.get("agg").size(), "both INV stages fell back: " + failed);
      String end = String.valueOf(first.get("end"));
      assertTrue(end.contains("retry: once the endpoints answer again, the same sweep command with"
          + " --retryFailedSessions runs again the tasks whose sessions failed"), end);

      // judged as it stands (the stages fell back), before the endpoint is back
      Path ns = summary.getParent().getParent();
      judge(ns);

      down.set(false);
      long requests = server.requests().size();
      // a dry run says what the flag would run again, and writes nothing
      SweepOptions dry = options(a, server.baseUrl(), "--retryFailedSessions", "--dryRun=true");
      assertEquals(List.of("--retryFailedSessions would run again 1 task for 2 session(s) that failed: ledgers/april"), Sweep.dryRunNotes(Sweep.plan(dry, Instant.parse("2026-01-01T00:00:00Z"))).stream()
          .filter(n -> n.contains("retryFailedSessions")).toList());
      assertEquals(before, Files.readString(summary));
      sweep(a, server.baseUrl());
      assertEquals(requests, server.requests().size(), "without the flag a resume keeps the task as it is");
      assertEquals(before, Files.readString(summary));

      long inv = asked(server, INV);
      long dom = asked(server, DOM);
      long all = server.requests().size();
      // the re-run is lost once after its proposals and their rollouts (a worker killed) and before its mode
      // recorded a result; the command, repeated, keeps the earlier result once and asks no session twice
      String crash = "--inject=crash-once@ledgers/april/parallel";
      Throwable lost = null;
      try {
        sweep(a, server.baseUrl(), "--retryFailedSessions", crash);
      } catch (Throwable e) {
        lost = e;
      }
      assertTrue(lost != null && String.valueOf(lost).contains("injected crash-once@ledgers/april/agg"),
          String.valueOf(lost));
      // it had replaced nothing yet: its copy is kept but listed nowhere, and a resume without the flag keeps the
      // result as it was, with no claim that it was run again (dogAF #3)
      assertEquals(before, Files.readString(summary.resolveSibling("summary.retried-1.json")));
      long afterLoss = server.requests().size();
      sweep(a, server.baseUrl());
      assertEquals(afterLoss, server.requests().size());
      assertEquals(before, Files.readString(summary));
      assertFalse(Json.readTree(summary).has(SummaryFile.RETRIED));
      Map<String, Object> retried = sweep(a, server.baseUrl(), "--retryFailedSessions", crash);
      assertEquals(inv + 2, asked(server, INV), "each failed INV session asked again, once");
      assertEquals(dom, asked(server, DOM), "the DOM sessions' replies are replayed from the cache, not sent again");
      assertTrue(server.requests().size() - all < requests, "the re-run sends fewer requests than the first run");
      assertEquals(1, Sweep.doneFailed(retried)[0], retried.toString());

      // the earlier result kept, byte for byte, and listed in the new one
      Path keptFile = summary.resolveSibling("summary.retried-1.json");
      assertEquals(before, Files.readString(keptFile));
      JsonNode now = Json.readTree(summary);
      assertEquals(Json.readTree(Json.pretty(List.of(Map.of("summary", "summary.retried-1.json", "failed",
          failed)))), now.path("retried"), now.toString());
      assertTrue(SummaryFile.failedSessions(Json.readMap(summary), List.of("agg")).isEmpty(), now.toString());

      // the same task swept where the endpoint never failed: the same result (its runs root's paths aside)
      Path b = tmp.resolve("b");
      sweep(b, server.baseUrl());
      JsonNode clean = Json.readTree(Files.readString(summary(b)).replace(b.toString(), a.toString()));
      for (String key : List.of("modes", "selections", "base")) {
        assertEquals(clean.path(key), now.path(key), key);
      }
      assertFalse(clean.has("retried"));

      // a report from the grades made before the retry says they may be of the replaced result (dogAF #2)
      String stale = report(ns, tmp.resolve("report-stale"));
      assertTrue(stale.contains("! 1 task at " + ns + " was run again by --retryFailedSessions after its judged.json"
          + " was written (ledgers/april): their judged rows may grade the results they replaced"), stale);
      assertTrue(stale.contains("run ./h2beam judge --namespaces=" + ns + " again, then this report"), stale);

      // judged again: the report counts the task as run again, and says its replaced result's spend is in no
      // figure of it
      judge(ns);
      String text = report(ns, tmp.resolve("report"));
      assertTrue(text.contains("tasks run again by --retryFailedSessions after sessions failed: 1 (1 earlier"
          + " result replaced): their spend figures here are the re-runs'"), text);
      assertFalse(text.contains("after its judged.json was written"), "judged after the re-run: " + text);
      assertTrue(text.contains("summary.retried-<n>.json"), text);

      // a second retry with nothing fallen back runs nothing and keeps no other copy
      long settled = server.requests().size();
      sweep(a, server.baseUrl(), "--retryFailedSessions");
      assertEquals(settled, server.requests().size());
      assertFalse(Files.exists(summary.resolveSibling("summary.retried-2.json")));
    }
  }

  /**
   * A review's report (dogAF #1): a reflector outage recorded {@code experience: {}} with no error, as a reflector
   * that chose to write no lesson does; the lesson was lost to the library without a word, and nothing could bring
   * it back. Now the selection records why, the sweep's end counts it, and the retry asks the reflector again while
   * every improver session and rollout is reused.
   */
  @Test
  void aReflectorOutageIsALessonLostSaidAndRetried(@TempDir Path tmp) throws Exception {
    AtomicBoolean down = new AtomicBoolean(true);
    try (ScriptedModelServer server = refusing(body -> body.contains("NO_ENTRY"), down)) {
      Path a = tmp.resolve("a");
      Map<String, Object> first = sweep(a, server.baseUrl());
      Path summary = summary(a);
      JsonNode sel = Json.readTree(summary).at("/selections/agg");
      assertTrue(sel.path("ok").asBoolean(), sel.toString());
      assertTrue(sel.path("experience").isEmpty(), sel.toString());
      assertTrue(sel.path("reflection_error").asText().startsWith("the reflector's session failed:"), sel.toString());
      assertEquals(0, lessons(a), "no lesson reached the library");
      String end = String.valueOf(first.get("end"));
      assertTrue(end.contains("lessons: 1 of 1 reflections of the 1 task(s) run now failed, so no lesson of theirs"
          + " reached the (mode, domain) library"), end);
      assertTrue(end.contains("retry: once the endpoints answer again, the same sweep command with"
          + " --retryFailedSessions runs again the tasks whose sessions failed"), end);
      assertEquals(Map.of("agg", List.of(SummaryFile.REFLECTION)),
          SummaryFile.failedSessions(Json.readMap(summary), List.of("agg")));

      down.set(false);
      long inv = asked(server, INV);
      long dom = asked(server, DOM);
      long reflections = asked(server, "NO_ENTRY");
      sweep(a, server.baseUrl(), "--retryFailedSessions");
      assertEquals(reflections + 1, asked(server, "NO_ENTRY"), "the reflector asked again, once");
      assertEquals(inv, asked(server, INV), "every improver reply replayed from the cache");
      assertEquals(dom, asked(server, DOM));
      assertEquals(1, lessons(a), "the lesson is in the library");
      JsonNode now = Json.readTree(summary);
      assertFalse(now.at("/selections/agg").has("reflection_error"), now.toString());

      Path b = tmp.resolve("b");
      sweep(b, server.baseUrl());
      JsonNode clean = Json.readTree(Files.readString(summary(b)).replace(b.toString(), a.toString()));
      for (String key : List.of("modes", "selections", "base")) {
        assertEquals(clean.path(key), now.path(key), key);
      }
    }
  }

  static void judge(Path ns) throws Exception {
    ByteArrayOutputStream judged = new ByteArrayOutputStream();
    int code = JudgeCommand.run(PipelineOptionsFactory.fromArgs("--namespaces=" + ns).as(JudgeOptions.class),
        new PrintStream(judged, true, StandardCharsets.UTF_8));
    assertEquals(0, code, judged.toString(StandardCharsets.UTF_8));
  }

  static String report(Path ns, Path out) throws Exception {
    ByteArrayOutputStream report = new ByteArrayOutputStream();
    int code = new ReportCommand().run(new String[] {"--namespaces=" + ns, "--modes=parallel", "--output=" + out},
        new PrintStream(report, true, StandardCharsets.UTF_8), System.err);
    String text = report.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    return text;
  }

  /**
   * A review's report (dogAF #5): a retried task's new lesson reaches its chain's library, but the later tasks of
   * the chain, finished before, keep what they made without it, and nothing named them. The sweep's end now does.
   */
  @Test
  void theLaterTasksOfARetriedTasksChainAreNamed(@TempDir Path tmp) throws Exception {
    AtomicBoolean down = new AtomicBoolean(true);
    // only april's INV sessions are refused: march, after it in the chain, finishes with nothing failed
    // (april's source holds "invoice 17", march's does not)
    try (ScriptedModelServer server = refusing(body -> body.contains(INV) && body.contains("invoice 17"), down)) {
      Path a = tmp.resolve("a");
      sweep(a, server.baseUrl(), "--maxTasks=2");
      down.set(false);
      Map<String, Object> retried = sweep(a, server.baseUrl(), "--maxTasks=2", "--retryFailedSessions");
      String end = String.valueOf(retried.get("end"));
      assertTrue(end.contains("library: 1 task(s) ran again for --retryFailedSessions, which may have changed the"
          + " lessons their (mode, domain) chains pass on; 1 later task(s) of those chains kept the results they"
          + " made with the library as it was: ledgers/march"), end);
    }
  }

  /** The lessons in the runs root's libraries. */
  static long lessons(Path dir) throws Exception {
    try (Stream<Path> s = Files.walk(dir.resolve("runs"))) {
      return s.filter(p -> p.getFileName().toString().equals("EXPERIENCE.md")).count();
    }
  }
}
