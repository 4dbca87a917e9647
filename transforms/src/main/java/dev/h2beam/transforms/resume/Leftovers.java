package dev.h2beam.transforms.resume;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.transforms.recursion.TaskScope;
import dev.h2beam.transforms.sweep.SweepConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Removes what a writer killed mid-write leaves behind in the folders a sweep keeps across runs: temp files of atomic
 * writes that were never renamed into place ({@link AtomicFiles#isLeftover}) and half-harvested reply-cache
 * workspaces ({@code *.workspace.tmp}). Their targets still hold the last complete version, so nothing is lost; left in
 * place, a temp file in a library would be copied into the next improver's evidence and change its reply-cache key,
 * so a resumed sweep would pay for sessions it had already run.
 *
 * <p>Folders rebuilt on every run (evidence, rollout folders) are not visited. Call only while holding the writer
 * locks of the runs root and the library root.
 */
public final class Leftovers {
  private Leftovers() {}

  /** Removes the leftovers of an interrupted sweep with {@code c}'s folders; returns what was removed, sorted. */
  public static List<Path> remove(SweepConfig c) {
    List<Path> removed = new ArrayList<>();
    Path runs = c.runs();
    removeIn(runs, removed);
    removeIn(runs.resolve("_sweeps"), removed);
    TreeSet<Path> namespaces = new TreeSet<>();
    for (String m : c.modes()) namespaces.add(runs.resolve(c.namespace(m).toString()));
    for (Path ns : namespaces) {
      removeIn(ns, removed);
      for (Path task : children(ns)) {
        if (Files.isDirectory(task, LinkOption.NOFOLLOW_LINKS)) removeIn(task, removed);
      }
    }
    Path audit = TaskScope.auditDir(runs, c.summaryNamespace());
    removeIn(audit, removed);
    removeIn(audit.resolve("selector"), removed);
    removeTree(Path.of(c.libraryRoot()), removed);
    removed.sort(null);
    return removed;
  }

  /** The leftovers directly in {@code dir}. */
  private static void removeIn(Path dir, List<Path> removed) {
    for (Path p : children(dir)) {
      String name = p.getFileName().toString();
      boolean file = Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
      if (file && AtomicFiles.isLeftover(name) || !file && name.endsWith(".workspace.tmp")) delete(p, removed);
    }
  }

  /** The leftovers anywhere below {@code root} (a library: small, and never rebuilt). */
  private static void removeTree(Path root, List<Path> removed) {
    if (!Files.isDirectory(root)) return;
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)
          && AtomicFiles.isLeftover(f.getFileName().toString())).toList()) {
        delete(p, removed);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look for half-written files under " + root, e);
    }
  }

  private static List<Path> children(Path dir) {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  private static void delete(Path p, List<Path> removed) {
    try {
      Trees.delete(p);
      removed.add(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove the half-written " + p + "; remove it by hand", e);
    }
  }
}
