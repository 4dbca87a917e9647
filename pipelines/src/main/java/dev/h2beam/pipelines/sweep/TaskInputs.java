package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.transforms.safety.CredentialScreen;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Screens what each task gives the executor and the method before anything runs: its instruction, its source files
 * and its checks reach the executor's and the improver's, selector's and reflector's prompts, the session folders and
 * the evidence under the runs root, so a credential in them would reach a model and be written (dogAK F1). The same
 * screen as a harness's: a held key's value in any of its forms, or a provider-shaped key, in a file's name or text.
 * Every finding is returned, naming the file and line and never the value.
 */
public final class TaskInputs {
  private TaskInputs() {}

  /** What the findings say must never carry credentials. */
  static final String CARRIERS = "a task's instruction, sources and checks (they reach the executor and the method's"
      + " prompts)";

  /** The most characters of one file the screen reads: a folder benchmark's sources are capped far below it. */
  private static final int MAX_CHARS = 8 << 20;

  /** Refuses a benchmark with a credential in any task's inputs, listing them all and naming the benchmark's flag. */
  public static void require(Benchmark bench, String benchName) {
    List<String> problems = problems(bench);
    if (!problems.isEmpty()) {
      throw new UsageError("the tasks of --bench=" + benchName + " cannot be used:\n  "
          + String.join("\n  ", problems));
    }
  }

  /** One problem per credential in the tasks' inputs, in task order, then path order within a task. */
  public static List<String> problems(Benchmark bench) {
    List<String> out = new ArrayList<>();
    for (String task : bench.tasks()) {
      Map<String, String> named = new LinkedHashMap<>();
      Optional<Path> source = bench.taskFiles(task);
      // a folder benchmark's instruction is its task.md, beside the sources; another's is named by its task
      String instruction = source.map(s -> s.resolveSibling("task.md").toString())
          .orElse("task " + task + ": its instruction");
      named.put(instruction, bench.taskPrompt(task));
      for (Optional<Path> dir : List.of(source, bench.checks(task))) {
        if (dir.isEmpty()) continue;
        for (String rel : PathOrder.files(dir.get())) {
          Path f = dir.get().resolve(rel);
          try {
            named.put(f.toString(), TextFiles.readCapped(f, MAX_CHARS));
          } catch (IOException e) {
            out.add(f + ": cannot be read to screen it for credentials (" + e.getMessage() + ")");
          }
        }
      }
      out.addAll(CredentialScreen.findings(named, CARRIERS));
    }
    return out;
  }
}
