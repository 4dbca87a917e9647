package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.Flags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The judge benchmark's two helpers (see scripts/bench-judge.sh): {@code generate DIR NAMESPACES TASKS} writes a runs
 * tree of finished namespaces with a selection in each mode the judge judges by default, and {@code loop DIR}
 * re-judges it with a plain single-threaded Java loop that reads the same files and writes the same judged.json and
 * metrics.json as {@code h2beam judge --grader=noop}, as the baseline.
 */
public final class JudgeBenchmark {
  private JudgeBenchmark() {}

  /** A chosen label of each mode at k=1: the parallel final, the sequential final, a gated step's episode. */
  private static final Map<String, String> FIRST_OUTPUT = Map.of("agg", "agg1", "seq", "c1", "gat", "g1");

  public static void main(String[] args) throws Exception {
    if (args.length == 4 && args[0].equals("generate")) {
      generate(Paths.get(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
    } else if (args.length == 2 && args[0].equals("loop")) {
      long t0 = System.nanoTime();
      int rows = loop(Paths.get(args[1]));
      System.out.printf("loop: %d rows in %.2f s%n", rows, (System.nanoTime() - t0) / 1e9);
    } else {
      System.err.println("usage: JudgeBenchmark generate DIR NAMESPACES TASKS | loop DIR");
      System.exit(1);
    }
  }

  static void generate(Path dir, int namespaces, int tasks) throws IOException {
    Path runs = dir.resolve("runs");
    List<String> modes = Flags.modes(JudgeOptions.DEFAULT_MODES);
    for (int t = 0; t < tasks; t++) {
      for (String mode : modes) {
        String label = FIRST_OUTPUT.get(mode);
        Path run = dir.resolve("executions").resolve("t" + t).resolve(label);
        Files.createDirectories(run);
        Files.writeString(run.resolve("answer.txt"), "Total: 1.00\n");
      }
    }
    for (int n = 0; n < namespaces; n++) {
      String ns = "bench-oc-agg1-s" + n;
      for (int t = 0; t < tasks; t++) {
        String task = "t" + t;
        Map<String, Object> sels = new LinkedHashMap<>();
        for (String mode : modes) {
          String label = FIRST_OUTPUT.get(mode);
          Map<String, Object> s = new LinkedHashMap<>();
          s.put("task_id", task);
          s.put("mode", mode);
          s.put("k", 1);
          s.put("chosen_id", "A");
          s.put("chosen_label", label);
          s.put("chosen_run_id", ns + "/" + task + "/" + label);
          s.put("chosen_is_base", false);
          s.put("ok", true);
          s.put("chosen_run_dir", dir.resolve("executions").resolve(task).resolve(label).toString());
          sels.put(mode, s);
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("task_id", task);
        summary.put("k", 1);
        summary.put("status", "ok");
        summary.put("selections", sels);
        Path f = runs.resolve(ns).resolve(task).resolve("summary.json");
        Files.createDirectories(f.getParent());
        Files.writeString(f, Json.pretty(summary));
      }
    }
  }

  static int loop(Path dir) throws Exception {
    Grader grader = new NoopGrader();
    List<String> modes = Flags.modes(JudgeOptions.DEFAULT_MODES);
    int total = 0;
    List<Path> namespaces;
    try (Stream<Path> s = Files.list(dir.resolve("runs"))) {
      namespaces = s.filter(Files::isDirectory).sorted().toList();
    }
    for (Path ns : namespaces) {
      List<JudgedRow> rows = new ArrayList<>();
      List<Path> summaries;
      try (Stream<Path> s = Files.list(ns)) {
        summaries = s.map(p -> p.resolve("summary.json")).filter(Files::isRegularFile).sorted().toList();
      }
      Map<String, MetricVector.Spend> spend = new HashMap<>();
      for (Path f : summaries) {
        JsonNode tree = Summaries.read(Files.readString(f));
        List<SelectionItem> items = Summaries.selections(ns.toString(), "noop", tree, modes);
        spend.putAll(JudgePipeline.spendOf(f.toString(), tree, items));
        for (SelectionItem item : items) {
          Map<String, Object> raw = grader.score(Paths.get(item.runDir()), item.taskId()).orElseThrow();
          rows.add(new JudgedRow(ns.toString(), item.taskId(), item.mode(), item.k(), item.label(), item.runId(),
              item.chosenIsBase(), (Number) raw.get("n_passed"), (Number) raw.get("n_criteria"), true, raw, "",
              null));
        }
      }
      List<JudgedRow> merged = JudgedFile.merge(List.of(), rows);
      JudgedFile.write(ns.resolve("judged.json"), merged);
      // the judge writes the metric vector beside judged.json too (issue 14): the same I/O, the same code
      MetricVector.write(ns, merged, false, spend);
      total += rows.size();
    }
    return total;
  }
}
