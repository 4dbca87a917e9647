package dev.h2beam.pipelines.sweep;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.config.KeyShapes;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.folder.FolderBenchmark;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.transforms.safety.CredentialScreen;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Screens what each task gives the executor and the method before anything runs: its instruction, its source files
 * and its checks reach the executor's and the improver's, selector's and reflector's prompts, the session folders and
 * the evidence under the runs root, so a key in them would reach a model and be written (dogAK F1).
 *
 * <p>Task inputs are data, not a harness, so the screen is narrower than a harness's: it refuses the value of a key
 * h2beam holds (in any of its forms) and a provider-shaped key ({@code sk-}, {@code AKIA}, {@code ghp_}, {@code hf_},
 * {@code AIza}, a PEM private key) on a line that does not call it an example; it passes what a harness screen also
 * refuses but real task data is full of: credential-named fields holding a value ({@code "tokens": [...]} of a
 * tokenised text), JSON Web Tokens and {@code Bearer} values, documented example keys (dogAM F1). Every finding names
 * the file and line, never the value.
 */
public final class TaskInputs {
  private TaskInputs() {}

  /** What the findings say must never carry credentials. */
  static final String CARRIERS = "a task's instruction, sources and checks (they reach the executor and the method's"
      + " prompts)";

  /** The most characters of one file the screen reads: a folder benchmark's sources are capped far below it. */
  private static final int MAX_CHARS = 8 << 20;

  /** Whether a key shape's sample is one task data holds for reasons of its own: a JWT or a Bearer value. */
  private static boolean dataShape(String sample) {
    return sample.startsWith("eyJ") || sample.toLowerCase(Locale.ROOT).startsWith("bearer");
  }

  /** Words that mark a line's key as a documented example, not a live one. */
  private static final List<String> EXAMPLE_WORDS = List.of("example", "dummy", "placeholder", "redacted", "fake",
      "xxxx", "changeme", "your");

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
      Map<String, String> files = new LinkedHashMap<>();
      for (Optional<Path> dir : List.of(bench.taskFiles(task), bench.checks(task))) {
        if (dir.isEmpty()) continue;
        for (String rel : PathOrder.files(dir.get())) {
          Path f = dir.get().resolve(rel);
          try {
            files.put(f.toString(), TextFiles.readCapped(f, MAX_CHARS));
          } catch (IOException e) {
            out.add(f + ": cannot be read to screen it for credentials (" + e.getMessage() + ")");
          }
        }
      }
      List<String> found = new ArrayList<>();
      Set<String> samples = new TreeSet<>();
      files.forEach((name, text) -> found.addAll(findings(name, text, samples)));
      // the instruction: a folder task's task.md, which is none of the files above; another benchmark's, which may
      // be one of them (a JobBench task's TASK_INSTRUCTIONS.txt), only for a key none of them showed, so that a key
      // is named once, by its file (dogAM F2)
      boolean folder = bench instanceof FolderBenchmark;
      String instruction = folder ? ((FolderBenchmark) bench).root().resolve("tasks").resolve(task)
          .resolve("task.md").toString() : "task " + task + ": its instruction";
      Set<String> own = new TreeSet<>();
      List<String> inInstruction = findings(instruction, bench.taskPrompt(task), own);
      if (folder || !samples.containsAll(own)) found.addAll(0, inInstruction);
      out.addAll(found);
    }
    return out;
  }

  /**
   * The findings of one file ({@code name}) holding {@code text}: its name, then each line with a held key's value or
   * a live provider-shaped key; {@code samples} collects what each finding shows of its key.
   */
  static List<String> findings(String name, String text, Set<String> samples) {
    List<String> out = new ArrayList<>();
    Optional<String> inName = CredentialScreen.inPath(name);
    if (inName.isPresent()) {
      samples.add(inName.get());
      out.add(CredentialScreen.redact(name) + " holds what looks like a credential in its name (" + inName.get()
          + "); " + CARRIERS + " must never carry credentials, in a file's name or its text: "
          + CredentialScreen.WHAT_TO_DO);
    }
    // the whole text first: most data holds neither, and is not read line by line (dogAM F4)
    if (EnvKeys.foundIn(text) == null && KeyShapes.sample(text).isEmpty()) return out;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String sample = keyOn(lines[i]);
      if (sample == null) continue;
      samples.add(sample);
      out.add(CredentialScreen.redact(name) + " line " + (i + 1) + " (" + sample + ") holds what looks like a"
          + " literal credential; " + CARRIERS + " must never carry credentials: " + CredentialScreen.WHAT_TO_DO);
    }
    return out;
  }

  /** What a line shows of the key it holds ({@code the value of $VAR}, {@code sk-…}), or null for none. */
  private static String keyOn(String line) {
    EnvKeys.Held held = EnvKeys.foundIn(line);
    if (held != null) return "the value of $" + held.variable();
    Optional<String> shaped = KeyShapes.sample(line);
    if (shaped.isEmpty() || dataShape(shaped.get())) return null;
    String lower = line.toLowerCase(Locale.ROOT);
    for (String w : EXAMPLE_WORDS) if (lower.contains(w)) return null;
    return shaped.get();
  }
}
