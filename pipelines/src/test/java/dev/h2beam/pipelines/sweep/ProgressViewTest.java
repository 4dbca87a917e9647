package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.llm.EndpointLoad;
import dev.h2beam.pipelines.UsageError;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client's live view reads the workers' boards and the journals: this run's boards only, the newest report of a
 * chain, nothing in flight from a silent worker, only this run's journal lines (a torn line counted, its cost not
 * known), and an estimate of the time left from the rate so far. On a terminal, the bar is redrawn below the lines
 * printed while it is up, never over them, and none of its lines wraps.
 */
class ProgressViewTest {
  @TempDir Path audit;
  final AtomicLong now = new AtomicLong(1_000_000);
  final Map<String, List<String>> stream = new LinkedHashMap<>(Map.of("d01", List.of("d01-t01", "d01-t02")));

  ProgressView view(ProgressView.Style style) {
    return view(style, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), 80);
  }

  ProgressView view(ProgressView.Style style, PrintStream out, int width) {
    stream.put("d02", List.of("d02-t01", "d02-t02"));
    return new ProgressView(audit, "tok", List.of("agg", "seq"), stream, style, 1000, out, width, now::get);
  }

  void board(String worker, String token, long updated, int sessions, int rollouts, String chains)
      throws Exception {
    Files.createDirectories(audit.resolve("progress"));
    Files.writeString(audit.resolve("progress").resolve(worker + ".json"), "{\"format\":1,\"root_token\":\"" + token
        + "\",\"worker\":\"" + worker + "\",\"updated_ms\":" + updated + ",\"sessions_in_flight\":" + sessions
        + ",\"rollouts_in_flight\":" + rollouts + ",\"bases\":{\"failed\":0,\"resumed\":1,\"rolled\":1},"
        + "\"chains\":[" + chains + "]}");
  }

  static String chain(String mode, String domain, int done, int failed, String running) {
    return "{\"mode\":\"" + mode + "\",\"domain\":\"" + domain + "\",\"done\":" + done + ",\"resumed\":0,"
        + "\"failed\":" + failed + ",\"running\":\"" + running + "\",\"ended\":false}";
  }

  /**
   * After a job restart, a worker that ran a chain in the first attempt goes on rewriting its board for its other
   * chains, with the chain's old counts in it; the chain's restart on another worker is newer by the chain's own time
   * ({@code changed_ms}), though that board was rewritten earlier. Picked by the boards' times, the view flipped
   * between the two and, with the old counts added to the new, showed more tasks done than the mode has.
   */
  @Test
  void aChainIsTakenFromTheBoardThatChangedItLastNotFromTheBoardWrittenLast() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    long t = now.get();
    String stale = chain("agg", "d01", 2, 0, "").replace("}", ",\"changed_ms\":" + (t - 30_000) + "}");
    String restarted = chain("agg", "d01", 1, 0, "d01-t02").replace("}", ",\"changed_ms\":" + (t - 5_000) + "}");
    board("survivor", "tok", t, 0, 1, stale + "," + chain("agg", "d02", 1, 0, "d02-t02"));
    board("replacement", "tok", t - 4_000, 0, 1, restarted);
    ProgressView.Snapshot s = v.read();
    assertEquals(2, s.modes().get("agg").done, "d01's restart (1 done) and d02 (1 done), not d01's old 2");
    assertEquals(2, s.modes().get("agg").running);
  }

  /**
   * A worker's board lags its chains' ends by up to its rewrite interval: once every task of every mode has
   * finished, what such a board still counts in flight is not shown beside "all finished".
   */
  @Test
  void nothingIsInFlightOnceEveryTaskOfEveryModeHasFinished() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    board("w1", "tok", now.get(), 1, 2, chain("agg", "d01", 2, 0, "") + "," + chain("agg", "d02", 2, 0, "")
        + "," + chain("seq", "d01", 2, 0, ""));
    board("w2", "tok", now.get(), 0, 0, chain("seq", "d02", 1, 0, "d02-t02"));
    ProgressView.Snapshot running = v.read();
    assertEquals(1, running.sessionsInFlight(), "a task still runs: the boards' counts stand");
    assertEquals(2, running.rolloutsInFlight());
    board("w2", "tok", now.get(), 0, 0, chain("seq", "d02", 2, 0, ""));
    ProgressView.Snapshot done = v.read();
    assertEquals(0, done.sessionsInFlight());
    assertEquals(0, done.rolloutsInFlight());
    assertTrue(v.lines(done, true).get(0).contains("in flight 0 sessions, 0 rollouts"), v.lines(done, true).get(0));
  }

  @Test
  void boardsOfThisRunAddUpAndTheNewestReportOfAChainWins() throws Exception {
    Files.writeString(audit.resolve("sessions.w1.jsonl"), "{\"cost_usd\":5.0}\n"); // an earlier run's
    ProgressView v = view(ProgressView.Style.LINES);
    board("w1", "tok", now.get(), 2, 1, chain("agg", "d01", 1, 0, "d01-t02"));
    board("w2", "tok", now.get(), 1, 2, chain("seq", "d01", 1, 1, ""));
    board("old", "other-run", now.get(), 9, 9, chain("agg", "d02", 2, 0, ""));
    // a chain restarted elsewhere after its first worker was lost: the later board speaks for it
    board("w0", "tok", now.get() - 60_000, 4, 4, chain("agg", "d01", 0, 0, "d01-t01"));
    // a worker whose chain ended long ago and that holds nothing is at rest, not lost
    board("w3", "tok", now.get() - 60_000, 0, 0, chain("agg", "d02", 0, 0, ""));
    Files.writeString(audit.resolve("sessions.w1.jsonl"), "{\"cost_usd\":0.25}\n{\"cost_usd\":0.5}\n{\"torn",
        StandardOpenOption.APPEND);
    Files.writeString(audit.resolve("executions.w2.jsonl"), "{\"cost_usd\":0.125}\n");
    now.addAndGet(10_000);

    ProgressView.Snapshot s = v.read();
    assertEquals(4, s.workers(), "boards of another run are not this run's workers");
    assertEquals(1, s.silentWorkers());
    assertEquals(3, s.sessionsInFlight(), "the silent worker's sessions are not in flight");
    assertEquals(3, s.rolloutsInFlight());
    assertEquals(4, s.bases(), "4 boards of 2 bases each, capped at the 4 tasks");
    assertEquals(1, s.modes().get("agg").done);
    assertEquals(1, s.modes().get("agg").running);
    assertEquals(2, s.modes().get("seq").finished());
    assertEquals(1, s.modes().get("seq").failed);
    assertEquals(2, s.sessionsDone(), "the torn line is not yet complete: it waits");
    assertEquals(1, s.rolloutsDone());
    assertEquals(0.875, s.spendUsd(), 1e-9, "only this run's lines cost");
    // 3 of 8 task-modes ran in 10 s: 5 left at that rate
    assertEquals(16_667, s.leftMs());

    List<String> lines = v.lines(s, false);
    assertTrue(lines.get(0).startsWith("progress 00:00:10  bases 4/4  agg 1/4 (0 resumed, 0 failed, 1 running)"
        + "  seq 2/4 (0 resumed, 1 failed, 0 running)"), lines.get(0));
    assertTrue(lines.get(0).contains("spend $0.8750") && lines.get(0).endsWith("left ~00:00:16"), lines.get(0));
    assertTrue(lines.get(0).contains("1 silent for 20 s"), lines.get(0));
    assertEquals(List.of("  agg/d01 1/2 running d01-t02", "  seq/d01 2/2 (1 failed)"), lines.subList(1, 3));
    assertEquals(1, v.lines(v.read(), false).size(), "unchanged chains are not repeated");
    assertEquals(3, v.lines(v.read(), true).size(), "the last look lists every chain that did something");
  }

  /**
   * A journal line whose cost is not all its {@code cost_usd} ({@code cost_known: false}), one that names no cost, and
   * a torn line (its writer killed mid-append, the next append glued to it) are counted beside the spend, which is
   * what is known: an unknown cost never shows as part of a smaller sum without a word. With none, the line is as
   * before.
   */
  @Test
  void linesOfUnknownCostAndTornLinesAreCountedBesideTheSpend() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    Path sessions = audit.resolve("sessions.w1.jsonl");
    Path executions = audit.resolve("executions.w1.jsonl");
    Files.writeString(sessions, "{\"cost_usd\":0.25}\n{\"cost_usd\":0.125,\"cost_known\":true}\n");
    ProgressView.Snapshot known = v.read();
    assertEquals(0, known.unknownCost());
    assertTrue(v.lines(known, false).get(0).contains("; spend $0.3750; workers 0"), v.lines(known, false).get(0));

    Files.writeString(sessions, "{\"cost_usd\":0.5,\"cost_known\":false}\n{\"cost_usd\":0.0625{\"cost_usd\":0.1}\n",
        StandardOpenOption.APPEND);
    Files.writeString(executions, "{\"cost_usd\":0,\"cost_known\":false}\n{\"run_id\":\"r\"}\n{\"cost_usd\":0.125}\n");
    ProgressView.Snapshot s = v.read();
    assertEquals(4, s.sessionsDone());
    assertEquals(3, s.rolloutsDone());
    assertEquals(1.0, s.spendUsd(), 1e-9, "what is known: the unknown lines' known parts, nothing for the others");
    assertEquals(4, s.unknownCost(), "two marked, one torn, one without a cost");
    // the torn line's tokens are not known either; the others called no model (they name no tokens)
    String shown = "spend $1.0000 (+4 of unknown cost); tokens 0 in, 0 out (+1 not all counted); workers 0";
    assertTrue(v.lines(s, false).get(0).contains(shown), v.lines(s, false).get(0));
    assertTrue(v.bar(s, 200).stream().anyMatch(l -> l.contains(shown)), v.bar(s, 200).toString());
  }

  /**
   * The model tokens the finished sessions and rollouts spent add up beside the spend (with a local model every cost
   * is a known $0, and the tokens are what shows the work); lines whose tokens are only partly counted, or whose
   * counts cannot be read, are counted beside them, never as a smaller sum without a word. A sweep that called no
   * model says nothing of tokens.
   */
  @Test
  void theTokensOfFinishedWorkAddUpAndThoseNotAllCountedAreCountedBeside() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    Path sessions = audit.resolve("sessions.w1.jsonl");
    Path executions = audit.resolve("executions.w1.jsonl");
    Files.writeString(sessions, "{\"cost_usd\":0}\n");
    Files.writeString(executions, "{\"run_id\":\"a\",\"cost_usd\":0}\n");
    ProgressView.Snapshot none = v.read();
    assertTrue(v.lines(none, false).get(0).contains("; spend $0.0000; workers 0"), v.lines(none, false).get(0));

    Files.writeString(sessions, "{\"cost_usd\":0,\"tokens\":{\"input\":1200,\"output\":34}}\n"
        + "{\"cost_usd\":0,\"tokens\":{\"input\":300,\"output\":6},\"tokens_known\":false}\n",
        StandardOpenOption.APPEND);
    Files.writeString(executions, "{\"run_id\":\"b\",\"cost_usd\":0,\"tokens\":{\"input\":500,\"output\":10}}\n"
        + "{\"run_id\":\"c\",\"cost_usd\":0,\"tokens\":{\"input\":-1,\"output\":\"x\"}}\n",
        StandardOpenOption.APPEND);
    ProgressView.Snapshot s = v.read();
    assertEquals(2000, s.tokensIn(), "the counts read, the unreadable left out");
    assertEquals(50, s.tokensOut());
    assertEquals(2, s.tokensUncounted(), "one marked partial, one with counts that are no counts");
    String shown = "spend $0.0000; tokens 2000 in, 50 out (+2 not all counted); workers 0";
    assertTrue(v.lines(s, false).get(0).contains(shown), v.lines(s, false).get(0));
    assertTrue(v.bar(s, 200).stream().anyMatch(l -> l.contains(shown)), v.bar(s, 200).toString());
  }

  /**
   * A session or rollout whose journal line says it failed ({@code "ok": false}) is finished all the same, and its
   * cost is spent; the line says how many of each failed, and nothing when none did.
   */
  @Test
  void failedSessionsAndRolloutsAreCountedAmongTheFinished() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    Files.writeString(audit.resolve("sessions.w1.jsonl"), "{\"ok\":true,\"cost_usd\":0.25}\n");
    Files.writeString(audit.resolve("executions.w1.jsonl"), "{\"run_id\":\"a\",\"cost_usd\":0.125}\n");
    ProgressView.Snapshot none = v.read();
    assertTrue(v.lines(none, false).get(0).contains("finished 1 sessions, 1 rollouts; spend $0.3750"),
        v.lines(none, false).get(0));
    Files.writeString(audit.resolve("sessions.w1.jsonl"), "{\"ok\":false,\"cost_usd\":0.5,\"error\":\"x\"}\n",
        StandardOpenOption.APPEND);
    Files.writeString(audit.resolve("executions.w1.jsonl"), "{\"run_id\":\"b\",\"ok\":false,\"cost_usd\":0.0625}\n"
        + "{\"run_id\":\"b\",\"ok\":false,\"cost_usd\":0}\n", StandardOpenOption.APPEND);
    ProgressView.Snapshot s = v.read();
    assertEquals(1, s.sessionsFailed());
    assertEquals(2, s.rolloutsFailed());
    assertTrue(v.lines(s, false).get(0).contains("finished 2 sessions (1 failed), 3 rollouts (2 failed); spend"
        + " $0.9375"), v.lines(s, false).get(0));
  }

  /**
   * Each worker's board counts its model calls per endpoint, sending and waiting for their turn: the view adds them
   * up over the workers that are alive, so a sweep held back by an endpoint's limit shows it while it runs. The calls
   * that ended, failed, and their wait for their turn add up over every worker, a silent one's included: they ended.
   */
  @Test
  void theEndpointsCallsSendingAndWaitingAddUpOverTheLiveWorkers() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    board("w1", "tok", now.get(), 1, 2, chain("agg", "d01", 0, 0, "d01-t01"));
    board("w2", "tok", now.get(), 1, 2, chain("seq", "d01", 0, 0, "d01-t01"));
    board("lost", "tok", now.get() - 60_000, 1, 1, chain("agg", "d02", 0, 0, "d02-t01"));
    endpoints("w1", "{\"local\":{\"waiting\":3,\"sending\":2,\"calls\":10,\"failed\":1,\"waited_ms\":1500},"
        + "\"judge\":{\"waiting\":0,\"sending\":0}}");
    endpoints("w2", "{\"local\":{\"waiting\":5,\"sending\":2,\"calls\":20,\"failed\":0,\"waited_ms\":2250}}");
    endpoints("lost", "{\"local\":{\"waiting\":9,\"sending\":9,\"calls\":4,\"failed\":2,\"waited_ms\":250}}");
    ProgressView.Snapshot s = v.read();
    assertEquals(new EndpointLoad.Counts(8, 4, 34, 3, 4000), s.endpoints().get("local"),
        "the lost worker's calls in flight are not counted, those it ended are");
    assertEquals(new EndpointLoad.Counts(0, 0, 0, 0, 0), s.endpoints().get("judge"), "a board written before the"
        + " totals were: none");
    String line = v.lines(s, false).get(0);
    String shown = "endpoints: judge 0 sending, 0 waiting; local 4 sending, 8 waiting (34 calls done, 3 failed, 4.0 s"
        + " waited)";
    assertTrue(line.endsWith(shown), line);
    assertTrue(v.bar(s, 200).contains(shown), v.bar(s, 200).toString());

    // a sweep that calls no endpoint (the demo's scripted roles) shows no such line
    for (String w : List.of("w1", "w2", "lost")) endpoints(w, "{}");
    ProgressView.Snapshot none = v.read();
    assertTrue(none.endpoints().isEmpty());
    assertFalse(v.bar(none, 200).stream().anyMatch(l -> l.contains("endpoints")), v.bar(none, 200).toString());
  }

  /** Puts {@code json} as the endpoints of the worker's board. */
  void endpoints(String worker, String json) throws Exception {
    Path f = audit.resolve("progress").resolve(worker + ".json");
    String b = Files.readString(f);
    int at = b.indexOf(",\"endpoints\":");
    if (at >= 0) b = b.substring(0, at) + "}";
    Files.writeString(f, b.substring(0, b.length() - 1) + ",\"endpoints\":" + json + "}");
  }

  @Test
  void theBarFitsTheWidthAndNamesWhatIsRunning() throws Exception {
    ProgressView v = view(ProgressView.Style.BAR);
    board("w1", "tok", now.get(), 1, 0, chain("agg", "d01", 1, 0, "d01-t02") + "," + chain("agg", "d02", 2, 0, ""));
    List<String> bar = v.bar(v.read(), 60);
    assertTrue(bar.get(0).startsWith("[" + "#".repeat(11) + ".".repeat(19) + "]  37%  3/8 task-modes"), bar.get(0));
    assertTrue(bar.stream().allMatch(l -> l.length() <= 60), bar.toString());
    assertTrue(bar.stream().anyMatch(l -> l.contains("agg/d01 1/2 running d01-t02")), bar.toString());
    assertFalse(bar.stream().anyMatch(l -> l.contains("agg/d02")), "a chain at rest is not listed: " + bar);
  }

  /**
   * A TaskManager killed mid-sweep leaves its board as it was, busy; the job restarts and a replacement takes its
   * chains. Counted until it fell silent, the dead board showed 3 sessions in flight with a limit of 2, and once silent
   * it said "silent for 20 s: lost or hung" to the end, though the job ran on (dogAC F7). A busy board last written
   * before the job's last restart is its lost worker's: nothing of it is in flight, and it is no worker of the job.
   */
  @Test
  void aBusyBoardLastWrittenBeforeTheJobsLastRestartIsALostWorkersNotInFlightNorSilent() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    long t = now.get();
    v.job = () -> new JobWatch.Status("http://127.0.0.1:1", "RUNNING", 2, t - 8_000, 0, 24, -1, "");
    board("dead", "tok", t - 11_000, 1, 1, chain("agg", "d01", 0, 0, "d01-t01"));
    board("survivor", "tok", t - 1_000, 1, 0, chain("agg", "d02", 0, 0, "d02-t01"));
    board("replacement", "tok", t, 1, 1, chain("seq", "d01", 0, 0, "d01-t01"));
    ProgressView.Snapshot s = v.read();
    assertEquals(2, s.sessionsInFlight(), "the dead worker's session is not in flight");
    assertEquals(1, s.rolloutsInFlight());
    assertEquals(2, s.workers());
    assertEquals(1, s.lostWorkers());
    assertEquals(1, s.modes().get("agg").running, "the lost worker's task was cancelled by the restart");
    String line = v.lines(s, false).get(0);
    assertTrue(line.contains("workers 2 (1 lost at a restart); job RUNNING after 2 restarts"), line);
    now.addAndGet(60_000);
    board("survivor", "tok", now.get(), 1, 0, chain("agg", "d02", 0, 0, "d02-t01"));
    board("replacement", "tok", now.get(), 1, 1, chain("seq", "d01", 0, 0, "d01-t01"));
    line = v.lines(v.read(), false).get(0);
    assertFalse(line.contains("silent"), "the job runs on: nothing is silent: " + line);
  }

  /**
   * The JobManager's word on the job goes on the line: restarting, and waiting for slots (a second job whose slots
   * another holds showed "workers 0" and nothing else for 40 s: dogAC F9); a job running with no restart gets none.
   */
  @Test
  void theLineSaysWhatTheJobManagerSaysOfTheJob() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    // a task done, so the rate so far gives an estimate while the job works, and none while it does not
    board("w1", "tok", now.get(), 0, 0, chain("agg", "d01", 1, 0, ""));
    v.job = () -> new JobWatch.Status("http://127.0.0.1:1", "RESTARTING", 1, now.get(), 0, 24, -1, "");
    String line = v.lines(v.read(), false).get(0);
    assertTrue(line.contains("workers 1; job RESTARTING after 1 restart") && line.endsWith("left ~--:--:--"), line);
    v.job = () -> new JobWatch.Status("http://127.0.0.1:1", "RUNNING", 0, 0, 24, 24, -1, "");
    line = v.lines(v.read(), false).get(0);
    assertTrue(line.contains("workers 1; job RUNNING, waiting for slots (24 of 24 subtasks)")
        && line.endsWith("left ~--:--:--"), line);
    v.job = () -> new JobWatch.Status("http://127.0.0.1:1", "RUNNING", 0, 0, 0, 24, -1, "");
    line = v.lines(v.read(), false).get(0);
    assertTrue(line.contains("workers 1  left") && !line.endsWith("left ~--:--:--"), line);
  }

  /**
   * A JobManager that does not answer is said at once, with the time it stopped, and the time left is unknown: the
   * job may not run at all. A killed JobManager's client showed frozen counts and a growing estimate (dogAC F3).
   */
  @Test
  void aJobManagerThatDoesNotAnswerIsSaidWithSinceWhenAndTheTimeLeftIsUnknown() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    long since = now.get() - 5_000;
    v.job = () -> new JobWatch.Status("http://127.0.0.1:1", "RUNNING", 0, 0, 0, 24, since, "Connection refused");
    board("w1", "tok", now.get(), 0, 0, chain("agg", "d01", 1, 0, ""));
    now.addAndGet(10_000);
    ProgressView.Snapshot s = v.read();
    assertEquals(-1, s.leftMs());
    String hms = java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss", java.util.Locale.ROOT)
        .format(java.time.Instant.ofEpochMilli(since).atZone(java.time.ZoneId.systemDefault()));
    String line = v.lines(s, false).get(0);
    assertTrue(line.contains("; the JobManager at http://127.0.0.1:1 does not answer since " + hms
        + " (Connection refused)") && line.endsWith("left ~--:--:--"), line);
    // on a terminal, a line of its own under the bar: at the end of the in-flight line the width cut it off
    assertEquals("the JobManager at http://127.0.0.1:1 does not answer since " + hms + " (Connection refused)",
        v.bar(s, 100).get(1));
  }

  /**
   * A restarted chain skips the tasks its job finished before the restart as if resumed. A first-time sweep's bar
   * said "agg 9/9 (1 resumed ...)" though this command ran that task (dogAC F7): only a task done before the command
   * started is resumed, the others are done before a restart, and their time counts toward the rate.
   */
  @Test
  void aTaskThisCommandFinishedBeforeARestartIsDoneBeforeARestartNotResumed() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    v.doneBefore = java.util.Set.of("d02-t01");
    board("w1", "tok", now.get(), 0, 0, chain("agg", "d01", 1, 0, "").replace("\"resumed\":0", "\"resumed\":1")
        + "," + chain("agg", "d02", 1, 0, "").replace("\"resumed\":0", "\"resumed\":1"));
    now.addAndGet(10_000);
    ProgressView.Snapshot s = v.read();
    assertEquals(1, s.modes().get("agg").resumed);
    assertEquals(1, s.modes().get("agg").doneBeforeRestart);
    // 3 of 8 task-modes ran (1 before the restart) in 10 s, 4 left
    assertEquals(13_333, s.leftMs());
    String line = v.lines(s, false).get(0);
    assertTrue(line.contains("agg 4/4 (1 resumed, 1 done before a restart, 0 failed, 0 running)"), line);
  }

  @Test
  void beforeAnythingFinishedTheTimeLeftIsUnknownNotZero() throws Exception {
    ProgressView v = view(ProgressView.Style.LINES);
    ProgressView.Snapshot s = v.read();
    assertEquals(-1, s.leftMs());
    assertTrue(v.lines(s, false).get(0).endsWith("left ~--:--:--"), v.lines(s, false).get(0));
  }

  @Test
  void theStyleFollowsTheFlagTheTerminalAndTheRunner() {
    assertEquals(ProgressView.Style.BAR, ProgressView.style("auto", true, false));
    assertEquals(ProgressView.Style.LINES, ProgressView.style("auto", false, true));
    assertEquals(ProgressView.Style.OFF, ProgressView.style("auto", false, false));
    assertEquals(ProgressView.Style.LINES, ProgressView.style("lines", true, false));
    UsageError e = assertThrows(UsageError.class, () -> ProgressView.style("fancy", true, true));
    assertTrue(e.getMessage().contains("--progress") && e.getMessage().contains("fancy"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {80, 40})
  void taskLinesPrintedWhileTheBarIsUpStayAboveItAndNoBarLineWraps(int width) throws Exception {
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    PrintStream terminal = new PrintStream(written, true, StandardCharsets.UTF_8);
    ProgressView v = view(ProgressView.Style.BAR, terminal, width);
    PrintStream tasks = v.screen.lines(terminal); // what System.out is while the bar is up
    List<String> printed = List.of("  [d01] 1/2 ok           d01-t01",
        "  [d02] 1/2 failed       d02-t01  :: error: the executor exited 1 after 3 attempts; the last said: "
            + "connection refused by the session host", "  [d01] 2/2 ok           d01-t02");
    board("w1", "tok", now.get(), 2, 1, chain("agg", "d01", 0, 0, "d01-t01") + "," + chain("agg", "d02", 0, 0,
        "d02-t01"));
    v.show(false);
    tasks.println(printed.get(0));
    board("w1", "tok", now.get(), 1, 1, chain("agg", "d01", 1, 0, "d01-t02") + "," + chain("agg", "d02", 0, 0,
        "d02-t01"));
    now.addAndGet(1000);
    v.show(false);
    tasks.print(printed.get(1) + "\n" + printed.get(2).substring(0, 9)); // a line arriving in two writes
    v.show(false);
    tasks.println(printed.get(2).substring(9));
    board("w1", "tok", now.get(), 0, 0, chain("agg", "d01", 2, 0, "") + "," + chain("agg", "d02", 1, 1, ""));
    now.addAndGet(1000);
    v.show(false);
    v.show(true);

    List<String> screen = screen(written.toString(StandardCharsets.UTF_8), width);
    List<String> expected = new ArrayList<>();
    for (String line : printed) {
      for (int at = 0; at < line.length(); at += width) expected.add(line.substring(at, Math.min(line.length(),
          at + width)));
    }
    List<String> bar = v.bar(v.read(), width - 1);
    expected.addAll(bar);
    assertEquals(expected, screen, "every task line, in order, then one bar");
    assertTrue(bar.stream().allMatch(l -> l.length() < width), bar.toString());
  }

  private static final Pattern CSI = Pattern.compile("\033\\[(\\d*)([AK])");

  /**
   * What a terminal {@code width} columns wide shows for what was written, its empty rows at the bottom left out:
   * {@code \r}, {@code \n} (as the terminal's driver sends it, a new line at column 0), the cursor moved up
   * ({@code ESC[nA}), a row erased ({@code ESC[2K}) or its end ({@code ESC[K}), and a row that is full wrapping
   * to the next at the next character.
   */
  static List<String> screen(String written, int width) {
    List<StringBuilder> rows = new ArrayList<>();
    int row = 0;
    int col = 0;
    for (int i = 0; i < written.length(); i++) {
      while (rows.size() <= row) rows.add(new StringBuilder());
      char ch = written.charAt(i);
      if (ch == '\033') {
        Matcher m = CSI.matcher(written).region(i, written.length());
        assertTrue(m.lookingAt(), "an escape this terminal does not know at " + i);
        if (m.group(2).equals("A")) {
          row = Math.max(0, row - (m.group(1).isEmpty() ? 1 : Integer.parseInt(m.group(1))));
        } else if (m.group(1).equals("2")) {
          rows.get(row).setLength(0);
        } else {
          rows.get(row).setLength(Math.min(col, rows.get(row).length()));
        }
        i = m.end() - 1;
      } else if (ch == '\r') {
        col = 0;
      } else if (ch == '\n') {
        row++;
        col = 0;
      } else {
        if (col == width) {
          row++;
          col = 0;
          while (rows.size() <= row) rows.add(new StringBuilder());
        }
        StringBuilder r = rows.get(row);
        while (r.length() < col) r.append(' ');
        if (col < r.length()) r.setCharAt(col, ch);
        else r.append(ch);
        col++;
      }
    }
    List<String> shown = new ArrayList<>();
    for (StringBuilder r : rows) shown.add(r.toString());
    while (!shown.isEmpty() && shown.get(shown.size() - 1).isBlank()) shown.remove(shown.size() - 1);
    return shown;
  }

  @Test
  void theWidthIsColumnsThenWhatTheTerminalSaysThen80() {
    assertEquals(120, BarScreen.width("120", () -> "50 90"));
    assertEquals(90, BarScreen.width(null, () -> "50 90\n"), "bash does not export COLUMNS: ask the terminal");
    assertEquals(90, BarScreen.width("wide", () -> "50 90"));
    assertEquals(80, BarScreen.width(null, () -> ""), "no terminal to ask");
    assertEquals(80, BarScreen.width(null, () -> "0 0"), "a terminal that does not know its size");
  }

  @Test
  void theHeightIsLinesThenWhatTheTerminalSaysThenNotKnown() {
    assertEquals(40, BarScreen.height("40", () -> "50 90"));
    assertEquals(50, BarScreen.height(null, () -> "50 90\n"));
    assertEquals(0, BarScreen.height(null, () -> ""), "no terminal to ask: not known, no limit");
    assertEquals(0, BarScreen.height("tall", () -> "0 0"));
  }

  /**
   * On a terminal lower than the bar, the bar would scroll and its redraw could not move up over all of it: the
   * chains' lines are left out first, with a line saying how many, and the header is cut last.
   */
  @Test
  void theBarFitsTheTerminalsHeightLeavingOutChainsFirst() throws Exception {
    for (int d = 3; d <= 10; d++) stream.put(String.format("d%02d", d), List.of(String.format("d%02d-t01", d)));
    ProgressView v = view(ProgressView.Style.BAR);
    StringBuilder chains = new StringBuilder();
    for (int d = 1; d <= 10; d++) {
      if (d > 1) chains.append(',');
      chains.append(chain("agg", String.format("d%02d", d), 0, 0, String.format("d%02d-t01", d)));
    }
    board("w1", "tok", now.get(), 10, 0, chains.toString());
    ProgressView.Snapshot s = v.read();
    List<String> unlimited = v.bar(s, 200);
    assertEquals(12, unlimited.size(), "3 header lines, 8 chains, and how many more: " + unlimited);
    List<String> six = v.bar(s, 200, 6);
    assertEquals(6, six.size(), six.toString());
    assertTrue(six.get(3).startsWith("  agg/d01"), six.toString());
    assertEquals("  ... and 8 more chains running", six.get(5));
    assertEquals(unlimited.subList(0, 2), v.bar(s, 200, 2), "lower than the header: its first lines");
  }

  /**
   * A terminal resized while the bar is up (its SIGWINCH, sent here for real) gets the bar at its new size at the next
   * redraw, and the bar on screen erased as the narrower terminal now wraps it; without a resize the size is not
   * read again.
   */
  @Test
  void aResizedTerminalGetsTheBarAtItsNewSizeWithTheOldOneErasedAsItNowWraps() throws Exception {
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    ProgressView v = view(ProgressView.Style.BAR, new PrintStream(written, true, StandardCharsets.UTF_8), 80);
    board("w1", "tok", now.get(), 2, 1, chain("agg", "d01", 0, 0, "d01-t01") + "," + chain("agg", "d02", 0, 0,
        "d02-t01"));
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    v.watchWindow(name -> null, () -> {
      asked.incrementAndGet();
      return "6 30";
    });
    try {
      v.show(false);
      v.show(false);
      assertEquals(0, asked.get(), "no resize: the size is not read again");
      List<String> before = v.bar(v.read(), 79);
      assertTrue(before.stream().anyMatch(l -> l.length() > 30), "a line the narrower terminal wraps: " + before);
      written.reset();
      Process kill = new ProcessBuilder("sh", "-c", "kill -WINCH " + ProcessHandle.current().pid()).start();
      assertEquals(0, kill.waitFor());
      for (int i = 0; i < 500 && !v.windowChanged(); i++) Thread.sleep(10);
      assertTrue(v.windowChanged(), "the resize was heard");
      v.show(false);
      assertEquals(1, asked.get(), "the size read once again");
      assertEquals(30, v.screen.width());
      assertEquals(6, v.screen.height());
      int rows = 0;
      for (String l : before) rows += Math.max(1, (l.length() + 29) / 30);
      String redraw = written.toString(StandardCharsets.UTF_8);
      assertTrue(rows > before.size());
      assertTrue(redraw.startsWith("\r" + "\033[1A\033[2K".repeat(rows) + "["), redraw);
      List<String> after = screen(redraw.substring(("\r" + "\033[1A\033[2K".repeat(rows)).length()), 30);
      assertEquals(v.bar(v.read(), 29, 5), after, "the bar at 29 columns and 5 rows");
    } finally {
      v.close();
    }
  }
}
