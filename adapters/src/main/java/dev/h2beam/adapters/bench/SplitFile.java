package dev.h2beam.adapters.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * harness2's split file ({@code {"benchmark": "jb", "train": [...], "test": [...]}}), read and checked: both sides
 * are lists of task ids of this benchmark, none listed twice, none on both sides, and, for a benchmark that says which
 * name it expects, {@code benchmark} names it. Every problem is collected and named by the file, so one run shows them
 * all.
 *
 * @param train the train side, as listed
 * @param test the test side, as listed
 */
public record SplitFile(Path file, List<String> train, List<String> test) {
  /** The keys harness2's split script writes; any other is a typo. */
  static final Set<String> KEYS = Set.of("benchmark", "train", "test", "seed", "train_fraction");

  public SplitFile {
    train = List.copyOf(train);
    test = List.copyOf(test);
  }

  /** Whether {@code split} is {@code all}, {@code train} or {@code test}; otherwise adds a problem naming the flag. */
  public static boolean known(String split, List<String> problems) {
    if (split.equals("all") || split.equals("train") || split.equals("test")) return true;
    problems.add("--split=" + split + ": must be all, train or test");
    return false;
  }

  /**
   * Reads and checks {@code file}; adds every problem to {@code problems} and returns null when there is any.
   *
   * @param benchmark the name {@code benchmark} must hold, or null to accept any (or none)
   * @param known the benchmark's task ids
   */
  public static SplitFile read(Path file, String benchmark, Set<String> known, List<String> problems) {
    if (!Files.isRegularFile(file)) {
      problems.add(file + ": not a file; name an existing split file {\"train\": [...], \"test\": [...]}");
      return null;
    }
    JsonNode n;
    try {
      n = Json.readTree(file);
    } catch (IOException e) {
      problems.add(file + ": not valid JSON: " + Json.syntaxProblem(e));
      return null;
    }
    if (n == null || !n.isObject()) {
      problems.add(file + ": must be a JSON object with train and test lists");
      return null;
    }
    int before = problems.size();
    for (var it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!KEYS.contains(k)) problems.add(file + ": " + k + ": unknown key; known: " + new TreeSet<>(KEYS));
    }
    if (benchmark != null && !n.path("benchmark").asText("").equals(benchmark)) {
      problems.add(file + ": benchmark: " + n.path("benchmark") + " is not \"" + benchmark + "\"; this split file"
          + " was made for another benchmark (a split for this one says \"benchmark\": \"" + benchmark + "\")");
    }
    List<String> train = side(n, "train", file, known, problems);
    List<String> test = side(n, "test", file, known, problems);
    for (String s : train) {
      if (test.contains(s)) problems.add(file + ": '" + s + "' is in both train and test");
    }
    return problems.size() > before ? null : new SplitFile(file, train, test);
  }

  private static List<String> side(JsonNode n, String side, Path file, Set<String> known, List<String> problems) {
    JsonNode arr = n.get(side);
    if (arr == null || !arr.isArray()) {
      problems.add(file + ": " + side + ": must be a list of task ids (<domain>/<task>)");
      return List.of();
    }
    Set<String> ids = new LinkedHashSet<>();
    for (JsonNode id : arr) {
      if (!id.isTextual()) {
        problems.add(file + ": " + side + ": " + id + " is not a task id (<domain>/<task>, in quotes)");
        continue;
      }
      String s = id.asText();
      if (!known.contains(s)) problems.add(file + ": " + side + ": '" + s + "' is not a task of this benchmark");
      if (!ids.add(s)) problems.add(file + ": " + side + ": '" + s + "' is listed twice");
    }
    return new ArrayList<>(ids);
  }

  /** The tasks of {@code train} or {@code test} (anything else: both sides), in the order of {@code order}. */
  public List<String> tasks(String split, Collection<String> order) {
    Set<String> wanted = new LinkedHashSet<>();
    if (!split.equals("test")) wanted.addAll(train);
    if (!split.equals("train")) wanted.addAll(test);
    List<String> out = new ArrayList<>();
    for (String t : order) if (wanted.contains(t)) out.add(t);
    return out;
  }
}
