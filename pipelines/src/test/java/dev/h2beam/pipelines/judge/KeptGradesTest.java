package dev.h2beam.pipelines.judge;

import static dev.h2beam.pipelines.judge.Namespaces.score;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A judge stopped part-way keeps the grades it made (a user's report: a judge killed after some grades kept none of
 * them, so the next judge paid for every grade again): the next judge serves them and calls the grader only for the
 * rest, and a changed deliverable, grader or repeat is graded anew.
 */
class KeptGradesTest {
  @TempDir Path root;
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach void stop() {
    pool.shutdownNow();
  }

  /** The lines of a file, none when it is missing. */
  private static int lines(Path file) throws Exception {
    return Files.isRegularFile(file) ? Files.readAllLines(file).size() : 0;
  }

  private static List<Path> kept(Path ns) throws Exception {
    Path dir = ns.resolve(KeptGrades.DIR);
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
  }

  /**
   * A command grader that appends its task to {@code calls} and, while {@code hang} exists, hangs after three grades
   * (recording its pid); it scores the answer: 1 of 1 when it is the original one, else 0 of 1.
   */
  private static String command(Path calls, Path hang, Path pid) {
    return "echo \"$H2BEAM_TASK\" >> '" + calls + "'; if [ -e '" + hang + "' ] && [ $(wc -l < '" + calls + "') -gt 3 ];"
        + " then echo $$ > '" + pid + "'; exec sleep 120; fi; case \"$(cat answer.txt)\" in *85.15*) echo '"
        + score(1, 1) + "';; *) echo '" + score(0, 1) + "';; esac";
  }

  private static int judgeHere(List<String> args, ByteArrayOutputStream err) throws Exception {
    JudgeOptions o = PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(JudgeOptions.class);
    PrintStream saved = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      return JudgeCommand.run(o, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    } finally {
      System.setErr(saved);
    }
  }

  @Test
  void aJudgeKilledPartWayKeepsItsGradesAndTheNextCallsTheGraderOnlyForTheRest() throws Exception {
    Path runs = root.resolve("runs");
    Path ns = Namespaces.python(runs, "demo-oc-agg1", 1, Map.of("t1", "x", "t2", "x", "t3", "x", "t4", "x"));
    Path calls = root.resolve("calls.txt");
    Path hang = Files.writeString(root.resolve("hang"), "");
    Path pid = root.resolve("pid");
    List<String> args = List.of("judge", "--namespaces=" + ns, "--grader=command",
        "--graderCommand=" + command(calls, hang, pid), "--graderConcurrency=1", "--judgeShards=1");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        "dev.h2beam.pipelines.Main"));
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(root.resolve("judge.log").toFile())
        .start();
    try {
      // three grades made and kept, the fourth call hanging: then the judge is killed, as kill -9 would
      for (int i = 0; i < 1200 && p.isAlive() && (kept(ns).size() < 3 || !Files.isRegularFile(pid)); i++) {
        Thread.sleep(50);
      }
      assertTrue(p.isAlive(), "the judge ended before it was killed: " + Files.readString(root.resolve("judge.log")));
    } finally {
      List<ProcessHandle> all = new ArrayList<>(List.of(p.toHandle()));
      all.addAll(p.descendants().toList());
      for (ProcessHandle h : all) h.destroyForcibly();
      p.waitFor();
    }
    assertFalse(Files.exists(ns.resolve("judged.json")), "the killed judge wrote no judged.json");
    List<Path> keptBefore = kept(ns);
    assertEquals(3, keptBefore.size(), keptBefore.toString());
    assertEquals(4, lines(calls), "three grades and the hanging call");

    // one of the kept grades' deliverable changes (a new rollout of that run): it is graded anew
    Map<String, Object> changedKey = castMap(Json.readMap(keptBefore.get(0)).get("key"));
    Path changedRun = Path.of((String) changedKey.get("run_dir"));
    Files.writeString(changedRun.resolve("answer.txt"), "Total: 1.00\n");
    Files.delete(hang);
    Files.delete(calls);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(0, judgeHere(args.subList(1, args.size()), err), err.toString(StandardCharsets.UTF_8));
    assertEquals(8 - 2, lines(calls), "the two kept grades of unchanged runs were served, the other six graded");
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("judge: 2 grade(s) kept from an earlier judge that"
        + " stopped, served without calling the grader"), err.toString(StandardCharsets.UTF_8));
    Map<String, Object> changed = JudgeCommandTest.row(ns, (String) changedKey.get("task_id"),
        (String) changedKey.get("mode"));
    assertEquals(0, changed.get("n_passed"), "the changed deliverable was graded anew: " + changed);
    assertFalse(Files.exists(ns.resolve(KeptGrades.DIR)), "a judge that wrote judged.json keeps nothing aside");

    // a clean single judge of the same runs writes the same judged.json, calling the grader for every row
    byte[] resumed = Files.readAllBytes(ns.resolve("judged.json"));
    Files.delete(ns.resolve("judged.json"));
    Files.delete(ns.resolve("metrics.json"));
    Files.delete(calls);
    assertEquals(0, judgeHere(args.subList(1, args.size()), new ByteArrayOutputStream()));
    assertEquals(8, lines(calls));
    assertArrayEquals(Files.readAllBytes(ns.resolve("judged.json")), resumed,
        Files.readString(ns.resolve("judged.json")));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Object o) {
    return (Map<String, Object>) o;
  }

  /** A grader that counts its calls and answers in turn from {@code answers} (an exception is thrown). */
  private static Grader counting(String identity, AtomicInteger calls, Object... answers) {
    return new Grader() {
      @Override public String identity() {
        return identity;
      }

      @Override public Optional<Map<String, Object>> score(Path runDir, String task) throws Exception {
        Object answer = answers[Math.min(calls.getAndIncrement(), answers.length - 1)];
        if (answer instanceof Exception e) throw e;
        return Optional.of(castMap(answer));
      }
    };
  }

  private JudgedRow judge(SelectionItem s, Grader g, int repeat, List<Integer> served) {
    return Judging.judge(s, g, Duration.ofSeconds(10), pool, new Semaphore(1), seen -> { }, repeat, served::add);
  }

  @Test
  void aKeptGradeIsServedOnlyForTheSameEvidenceGraderAndRepeatAndAFailedOneIsNeverKept() throws Exception {
    Path ns = Files.createDirectories(root.resolve("runs/demo-oc-agg1"));
    Path runDir = Files.createDirectories(root.resolve("executions/t1/agg1"));
    Files.writeString(runDir.resolve("answer.txt"), "Total: 85.15\n");
    Runmark.markComplete(runDir, "run-1", "base", 0.0,
        Map.of("deliverables", Map.of("answer.txt", Runmark.fileDigest(runDir.resolve("answer.txt")))));
    SelectionItem s = new SelectionItem(ns.toString(), "test", "t1", "agg", 1, "agg1", "run-1", runDir.toString(),
        false, true, "", "", true);
    AtomicInteger calls = new AtomicInteger();
    List<Integer> served = new ArrayList<>();
    Map<String, Object> one = Map.of("n_passed", 1, "n_criteria", 2, "judge_cost_usd", 0.25);
    Grader g = counting("rubric:local:m1:abc", calls, new IllegalStateException("rate limited"), one,
        Map.of("n_passed", 2, "n_criteria", 2));

    assertEquals("judge-failed", judge(s, g, 0, served).absence());
    assertTrue(kept(ns).isEmpty(), "a failed grade is not kept");
    JudgedRow graded = judge(s, g, 0, served);
    assertEquals(2, calls.get(), "the failed grade was tried again");
    assertEquals(1, kept(ns).size());
    assertEquals(graded, judge(s, g, 0, served), "served as it was graded");
    assertEquals(2, calls.get(), "served without calling the grader");
    assertEquals(List.of(0), served);

    judge(s, g, 1, served);
    assertEquals(3, calls.get(), "another repeat is another grade");
    judge(s, counting("rubric:local:m2:abc", calls, one), 0, served);
    assertEquals(4, calls.get(), "another model grades anew");

    // the run rolled again: a new deliverable, and a marker that records it
    Files.writeString(runDir.resolve("answer.txt"), "Total: 1.00\n");
    Runmark.markComplete(runDir, "run-1", "base", 1.0,
        Map.of("deliverables", Map.of("answer.txt", Runmark.fileDigest(runDir.resolve("answer.txt")))));
    judge(s, g, 0, served);
    assertEquals(5, calls.get(), "a changed deliverable is graded anew");
    assertEquals(List.of(0), served);

    // the judge's own test calls (no kept grades asked for) neither serve nor keep
    int before = kept(ns).size();
    Judging.judge(s, g, Duration.ofSeconds(10), pool);
    assertEquals(6, calls.get());
    assertEquals(before, kept(ns).size());
  }

  @Test
  void theJudgeModelsSpendLeavesOutTheGradesServedFromAnEarlierJudge() {
    JudgedRow paid = JudgedRow.absent("ns", "t1", "agg", 1, "a", "r1", false, Absence.JUDGE_FAILED, "x");
    JudgedRow graded = new JudgedRow("ns", "t2", "agg", 1, "a", "r2", false, 1, 2, false,
        Map.of("judge_cost_usd", 0.5), "", null);
    JudgedRow served = new JudgedRow("ns", "t3", "agg", 1, "a", "r3", false, 1, 2, false,
        Map.of("judge_cost_usd", 0.25), "", null);
    Map<String, Object> m = NamespaceWrite.judgeSpend(List.of(paid, graded, served), List.of(0, 0, 1));
    assertEquals(0.5, (double) m.get("judge_usd"), 1e-12);
    assertEquals(1L, m.get("judge_usd_rows"));
    assertEquals(1L, m.get("judge_usd_unknown_rows"));
  }
}
