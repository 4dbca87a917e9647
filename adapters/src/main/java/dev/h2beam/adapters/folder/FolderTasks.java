package dev.h2beam.adapters.folder;

import dev.h2beam.adapters.bench.SplitFile;
import dev.h2beam.adapters.files.LeakGlobs;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.model.Namespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The tasks of a folder benchmark ({@code tasks/<domain>/<task>/}), found and checked: every domain has a task,
 * every task a {@code task.md}, every grading file is covered by a leak glob (so a copy that ever reached an evidence
 * folder would be caught), no source file is larger than the limit, no symbolic link is followed, and the optional
 * {@code splits.json} is disjoint and names known tasks.
 */
final class FolderTasks {
  private FolderTasks() {}

  static final String NAME = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}";

  /** {@link #NAME} in words, its length limit included (a name of letters only can still be too long). */
  static final String NAME_RULE = "1 to 100 letters, digits, _, . or - (not starting with . or -)";

  /**
   * Task id → task folder, in stream order (domain, then task, by code point); {@code key} the grading file the
   * benchmark's grader reads ({@code expected.txt}, {@code rubric.json}; null for another grader).
   */
  static LinkedHashMap<String, Path> scan(Path root, LeakGlobs leaks, long maxSourceBytes, String key,
      List<String> problems) {
    LinkedHashMap<String, Path> tasks = new LinkedHashMap<>();
    // each task's run folder is its id with every / as __ (Namespace.slug): two ids with one folder would overwrite
    // each other's summaries and library entries
    Map<String, Path> folders = new HashMap<>();
    Path dir = root.resolve("tasks");
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      problems.add(dir + ": missing; put each task in tasks/<domain>/<task>/task.md");
      return tasks;
    }
    for (Path domain : children(dir, problems)) {
      String d = domain.getFileName().toString();
      if (!Files.isDirectory(domain, LinkOption.NOFOLLOW_LINKS)) {
        problems.add(domain + ": not a folder (a domain is a folder of task folders; symbolic links are not followed)");
        continue;
      }
      if (!d.matches(NAME)) {
        problems.add(domain + ": domain name must be " + NAME_RULE + " (it is part of every task id)");
        continue;
      }
      List<Path> ts = children(domain, problems);
      if (ts.isEmpty()) problems.add(domain + ": empty domain; add a task folder or remove the domain");
      for (Path task : ts) {
        String t = task.getFileName().toString();
        if (!Files.isDirectory(task, LinkOption.NOFOLLOW_LINKS)) {
          problems.add(task + ": not a folder (a task is a folder holding task.md)");
          continue;
        }
        if (!t.matches(NAME)) {
          problems.add(task + ": task name must be " + NAME_RULE + " (it is part of the task id)");
          continue;
        }
        checkTask(task, leaks, maxSourceBytes, key, problems);
        Path other = folders.putIfAbsent(Namespace.slug(d + "/" + t), task);
        if (other != null) {
          problems.add(task + ": shares its run folder " + Namespace.slug(d + "/" + t) + " with " + other
              + " (a task id's / becomes __ in its folder's name); rename one of the two");
          continue;
        }
        tasks.put(d + "/" + t, task);
      }
    }
    return tasks;
  }

  private static void checkTask(Path task, LeakGlobs leaks, long maxSourceBytes, String key, List<String> problems) {
    Path md = task.resolve("task.md");
    if (!Files.isRegularFile(md, LinkOption.NOFOLLOW_LINKS)) {
      problems.add(md + ": missing; it holds the instruction the executor receives");
    } else if (size(md) == 0) {
      problems.add(md + ": empty; write the instruction the executor receives");
    }
    Path source = task.resolve("source");
    for (Path f : walk(source, problems)) {
      // the evidence leaves such a file out, but the executor gets its task's sources whole, and what a rollout
      // prints of them reaches the improvers through its trajectory (dogAD F6)
      if (leaks.matches("source/" + PathOrder.relative(source, f))) {
        problems.add(f + ": a source file that a leak glob covers: the executor would get it, and the method would"
            + " read what a rollout prints of it; move it to grading/ if it holds an answer, else rename it or narrow"
            + " leak_globs in bench.json");
      }
      if (size(f) > maxSourceBytes) {
        problems.add(f + ": " + size(f) + " bytes, over limits.max_source_bytes (" + maxSourceBytes
            + "); shrink it or raise the limit in bench.json");
      }
    }
    Path grading = task.resolve("grading");
    List<Path> gradingFiles = walk(grading, problems);
    // a grading folder without the file its grader reads, beside one of another name: a misspelt expected.txt is
    // named so first, not only as a file to add to the globs (dogAK F7)
    boolean keyless = key != null && !Files.isRegularFile(grading.resolve(key), LinkOption.NOFOLLOW_LINKS);
    for (Path f : gradingFiles) {
      String rel = PathOrder.relative(grading, f);
      if (!leaks.matches(rel)) {
        problems.add(f + ": grading file not covered by any leak glob; " + (keyless ? "if it is the task's " + key
            + " (which its grader reads, and which is missing), rename it; else add \"" : "add \"")
            + f.getFileName() + "\" to leak_globs in bench.json so that a copy reaching an evidence folder is caught");
      }
    }
    Path checks = task.resolve("checks");
    List<Path> checkFiles = walk(checks, problems);
    if (Files.isDirectory(checks, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(checks.resolve("check.sh"),
        LinkOption.NOFOLLOW_LINKS)) {
      problems.add(checks + ": no check.sh; a checks/ folder holds the check.sh the gated mode's method runs"
          + " (" + checkFiles.size() + " other file(s) found)");
    }
    try (Stream<Path> s = Files.list(task)) {
      for (Path p : s.toList()) {
        String n = p.getFileName().toString();
        if (!Set.of("task.md", "source", "grading", "checks").contains(n)) {
          problems.add(p + ": unknown entry in a task folder; a task holds task.md, source/, grading/ and"
              + " checks/");
        }
      }
    } catch (IOException e) {
      problems.add(task + ": cannot be listed (" + e.getMessage() + ")");
    }
  }

  /** Regular files below {@code dir}, refusing symbolic links and special files by name. */
  static List<Path> walk(Path dir, List<String> problems) {
    List<Path> out = new ArrayList<>();
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return out;
    if (Files.isSymbolicLink(dir)) {
      problems.add(dir + ": a symbolic link; copy the files in instead (links could reach outside the benchmark)");
      return out;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.toList()) {
        if (p.getFileName().toString().indexOf('\uFFFD') >= 0) {
          // the JVM shows a name that is not UTF-8 with U+FFFD and cannot name the file again by that text: every
          // later step that reads it by its relative name (the run identity's digest, the copy into a workspace)
          // would fail, after the sweep had begun
          problems.add(p + ": its name is not valid UTF-8 (shown here with \uFFFD); rename it with a UTF-8 name");
        } else if (Files.isSymbolicLink(p)) {
          problems.add(p + ": a symbolic link; copy the file in instead (links could reach outside the benchmark)");
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          out.add(p);
        } else if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          problems.add(p + ": not a regular file or folder; remove it");
        }
      }
    } catch (IOException e) {
      problems.add(dir + ": cannot be read (" + e.getMessage() + ")");
    }
    return out;
  }

  private static List<Path> children(Path dir, List<String> problems) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> !p.getFileName().toString().startsWith("."))
          .sorted((a, b) -> PathOrder.compareCodePoints(a.getFileName().toString(), b.getFileName().toString()))
          .toList();
    } catch (IOException e) {
      problems.add(dir + ": cannot be listed (" + e.getMessage() + ")");
      return List.of();
    }
  }

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * The tasks of a split: {@code all} is every task; {@code train}/{@code test} come from {@code splits.json}
   * (harness2's split file, see {@link SplitFile}), which is checked whenever it exists.
   */
  static List<String> split(Path root, String split, Set<String> known, List<String> problems) {
    Path file = root.resolve("splits.json");
    if (!SplitFile.known(split, problems)) return List.of();
    if (!Files.exists(file)) {
      if (!split.equals("all")) {
        problems.add(file + ": missing; --split=" + split + " needs a split file {\"train\": [...], \"test\": [...]}");
      }
      return split.equals("all") ? new ArrayList<>(known) : List.of();
    }
    SplitFile f = SplitFile.read(file, null, known, problems);
    if (f == null) return List.of();
    return split.equals("all") ? new ArrayList<>(known) : f.tasks(split, known);
  }
}
