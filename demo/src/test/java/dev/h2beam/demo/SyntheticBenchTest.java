package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.summary.SummaryFile;
import dev.h2beam.transforms.sweep.RootToken;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code h2beam bench}: the synthetic benchmark (2 domains x 2 tasks, k = 2, both modes, 5 ms latencies) sweeps,
 * judges and reports, prints its measurements, resumes for free, and writes the same files on embedded Flink.
 */
class SyntheticBenchTest {
  static final String[] SMALL = {"--domains=2", "--tasksPerDomain=2", "--k=2", "--executorLatencyMs=5",
      "--sessionLatencyMs=uniform:2:8", "--latencySeed=3", "--sessionRetryWaitSeconds=0"};
  static final List<String> TASKS = List.of("d01-t01", "d01-t02", "d02-t01", "d02-t02");

  /** Runs the bench into {@code out}; returns what it printed, after checking it exited 0. */
  static String bench(Path out, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of(SMALL));
    args.add("--output=" + out);
    args.addAll(List.of(more));
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit = new BenchCommand().run(args.toArray(new String[0]), new PrintStream(printed, true,
        StandardCharsets.UTF_8));
    String text = printed.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, text);
    return text;
  }

  /**
   * A resume refused as another experiment (here, another task set) writes nothing into the benchmark: the tasks it
   * lacks are not added to the folder the namespace's input digests describe.
   */
  @Test
  void aRefusedResumeOfAnotherTaskSetWritesNoTaskIntoTheBenchmark(@TempDir Path out) throws Exception {
    List<String> one = List.of("--domains=1", "--tasksPerDomain=1", "--k=1", "--output=" + out,
        "--sessionRetryWaitSeconds=0");
    assertEquals(0, new BenchCommand().run(one.toArray(new String[0]), new PrintStream(new ByteArrayOutputStream(),
        true, StandardCharsets.UTF_8)));
    List<String> two = new ArrayList<>(one);
    two.set(1, "--tasksPerDomain=2");
    String text = org.junit.jupiter.api.Assertions.assertThrows(dev.h2beam.pipelines.UsageError.class,
        () -> new BenchCommand().run(two.toArray(new String[0]), new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8))).getMessage();
    assertTrue(text.contains("records a different run identity (tasks:"), text);
    for (String folder : List.of("sources", "checks")) {
      assertTrue(Files.isDirectory(out.resolve(folder).resolve("d01-t01")), folder);
      assertFalse(Files.exists(out.resolve(folder).resolve("d01-t02")), folder + " gained the refused run's task");
    }
  }

  /**
   * A {@code --libraryRoot} naming another run's library (seed 2's, given to seed 1) is refused before anything runs,
   * naming an entry and its run: the sweep would have replaced that run's entries with its own.
   */
  @Test
  void anotherRunsLibraryIsRefusedAndKept(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    java.util.function.Function<String, String[]> sweep = extra -> new String[] {"--bench=synthetic",
        "--benchSettings={\"domains\": 1, \"tasksPerDomain\": 2}", "--k=1", "--modes=parallel",
        "--benchRoot=" + bench, "--sessionRetryWaitSeconds=0", extra};
    assertEquals(0, new dev.h2beam.pipelines.sweep.SweepCommand().run(sweep.apply("--seed=2")));
    Path library = bench.resolve("library/k1-oc-s2");
    Path entry = library.resolve("agg/d01/harnesses/d01-t01/EXPERIENCE.md");
    String before = Files.readString(entry);

    String why = org.junit.jupiter.api.Assertions.assertThrows(dev.h2beam.pipelines.UsageError.class,
        () -> new dev.h2beam.pipelines.sweep.SweepCommand().run(new String[] {"--bench=synthetic",
            "--benchSettings={\"domains\": 1, \"tasksPerDomain\": 2}", "--k=1", "--modes=parallel",
            "--benchRoot=" + bench, "--sessionRetryWaitSeconds=0", "--seed=1", "--libraryRoot=" + library}))
        .getMessage();

    assertTrue(why.contains(entry + " (run `synthetic-oc-agg1-s2/d01-t01/"), why);
    assertTrue(why.contains("Give this run a library of its own"), why);
    assertEquals(before, Files.readString(entry), "the other run's entry is kept");
    assertFalse(Files.exists(bench.resolve("runs/synthetic-oc-agg1-s1")), "nothing ran");
  }

  @Test
  void theSyntheticBenchSweepsJudgesReportsAndPrintsItsMeasurements(@TempDir Path out) throws Exception {
    String printed = bench(out);
    for (String line : List.of("critical path", "harness2's form", "session bound", "rollout bound", "wall ",
        "wall / max(bounds)", "sessions in flight: peak", "rollouts in flight: peak", "CPU in the sweep",
        "files written", "file names", "peak memory", "load average")) {
      assertTrue(printed.contains("  " + line), line + " in\n" + printed);
    }
    // 4 tasks x 2 modes x (3k stages + selection + reflection); 4 x (k bases + 3k per mode)
    assertTrue(printed.contains("(64 sessions run, 64 expected)"), printed);
    assertTrue(printed.contains("(56 rollouts run, 56 expected)"), printed);
    assertTrue(printed.contains("sessions in flight: peak 2,") || printed.contains("sessions in flight: peak 1,"),
        "never more than --sessionLimit=2: " + printed);
    for (String kind : List.of("sessions", "rollouts")) {
      assertTrue(printed.matches("(?s).*  " + kind + " in flight: [^\n]*; job-wide peak [12] from the journals\n.*"),
          kind + ": the journals' intervals never overlap beyond the limit of 2: " + printed);
    }

    Path runs = out.resolve("runs");
    JsonNode judged = Json.readTree(runs.resolve("synthetic-oc-agg2").resolve("judged.json"));
    assertEquals(8, judged.size(), "4 tasks x 2 modes");
    for (JsonNode row : judged) assertTrue(row.path("all_pass").asBoolean(), row.toString());
    assertTrue(Files.isRegularFile(out.resolve("report").resolve("report.txt")));

    for (String task : TASKS) {
      assertEquals("ok", SummaryFile.read(runs.resolve("synthetic-oc-agg2").resolve(task).resolve("summary.json"))
          .get("status"), task);
      for (String[] finals : new String[][] {{"synthetic-oc-agg2", "agg1", "agg2"}, {"synthetic-oc-seq2", "c1", "c2"}}) {
        Path harnesses = runs.resolve(finals[0]).resolve(task).resolve("harnesses");
        assertNotEquals(Files.readString(harnesses.resolve(finals[1]).resolve(DemoSetup.SCRIPT)),
            Files.readString(harnesses.resolve(finals[2]).resolve(DemoSetup.SCRIPT)), "finals differ: " + task);
      }
    }
    // this JVM's board of the run carries what the worker used, as a board on a cluster's worker does for its bench
    WorkerUsage usage = WorkerUsage.read(runs.resolve("_audit/synthetic-oc-agg2/progress"), RootToken.read(runs),
        "another process");
    assertEquals(1, usage.workers().size(), "one worker: this JVM");
    WorkerUsage.Board board = usage.workers().get(0);
    assertTrue(board.cpuSeconds() > 0 && board.childCpuSeconds() > 0 && board.peakRssKb() > 0, board.toString());

    String t1 = Files.readString(out.resolve("sources/d01-t01/ledger.csv"));
    assertNotEquals(t1, Files.readString(out.resolve("sources/d01-t02/ledger.csv")), "generated tasks differ");

    String again = bench(out);
    assertTrue(again.contains("(0 sessions run, 64 expected)") && again.contains("(0 rollouts run, 56 expected)"),
        "the repeat resumes and runs nothing: " + again);
    // and says so where a fresh run gives its runner's setting and its wall time over the bounds
    assertTrue(again.contains(", nothing ran (every task resumed)\n") && again.contains("  wall / max(bounds) n/a"
        + " (nothing ran)    wall / harness2's form n/a (nothing ran)\n"), again);
    assertTrue(printed.contains(", targetParallelism ")
        && printed.matches("(?s).*  wall / max\\(bounds\\) +[0-9.]+ .*"), printed);
  }

  @Test
  void onEmbeddedFlinkTheBenchWritesTheSameFilesAsOnTheDirectRunner(@TempDir Path direct, @TempDir Path flink)
      throws Exception {
    bench(direct);
    String printed = bench(flink, FlinkDemoTest.FLINK);
    assertTrue(printed.contains("runner FlinkRunner"), printed);
    FlinkDemoTest.assertSameFiles(direct, flink);
  }

  @Test
  void theSweepShowsLiveProgressReadFromTheRunFolders(@TempDir Path out) throws Exception {
    List<String> args = List.of("--domains=2", "--tasksPerDomain=2", "--k=1", "--executorLatencyMs=150",
        "--sessionLatencyMs=150", "--sessionRetryWaitSeconds=0", "--progress=lines", "--progressSeconds=1",
        "--output=" + out);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    assertEquals(0, new BenchCommand().run(args.toArray(new String[0]), new PrintStream(printed, true,
        StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8)));
    String shown = progress.toString(StandardCharsets.UTF_8);
    List<String> totals = shown.lines().filter(l -> l.startsWith("progress ")).toList();
    assertTrue(totals.size() >= 2, "a line a second while it runs, and the last state: " + shown);
    assertTrue(totals.subList(0, totals.size() - 1).stream().anyMatch(l -> l.matches(".*in flight [1-9].*")
        || l.matches(".*[1-9] running\\).*")), "work was seen running while it ran: " + shown);
    String last = totals.get(totals.size() - 1);
    assertTrue(last.contains("bases 4/4  agg 4/4 (0 resumed, 0 failed, 0 running)  seq 4/4 (0 resumed, 0 failed,"
        + " 0 running)") && last.contains("in flight 0 sessions, 0 rollouts") && last.endsWith("left ~00:00:00"),
        last);
    // the finished counts are the journals' lines of this run, the same the bench counts itself
    String text = printed.toString(StandardCharsets.UTF_8);
    java.util.regex.Matcher sessions = java.util.regex.Pattern.compile("\\((\\d+) sessions run").matcher(text);
    java.util.regex.Matcher rollouts = java.util.regex.Pattern.compile("\\((\\d+) rollouts run").matcher(text);
    assertTrue(sessions.find() && rollouts.find(), text);
    assertTrue(last.contains("finished " + sessions.group(1) + " sessions, " + rollouts.group(1) + " rollouts"),
        last + " vs " + text);
    for (String chain : List.of("agg/d01 2/2", "agg/d02 2/2", "seq/d01 2/2", "seq/d02 2/2")) {
      assertTrue(shown.contains("  " + chain), chain + " in " + shown);
    }

    progress.reset();
    assertEquals(0, new BenchCommand().run(args.toArray(new String[0]), new PrintStream(new ByteArrayOutputStream(),
        true, StandardCharsets.UTF_8), new PrintStream(progress, true, StandardCharsets.UTF_8)));
    // every task is complete: the client replays them without a pipeline, so there is no run to show
    assertEquals(List.of(), progress.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("progress "))
        .toList());
  }
}
