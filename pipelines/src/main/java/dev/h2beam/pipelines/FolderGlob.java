package dev.h2beam.pipelines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folders a glob of {@code --namespaces} names, for every command that takes one (the judge and the report read
 * them alike): a glob may stand in any part of the path ({@code runs*}{@code /wordy-oc-agg*}), and, as in a shell,
 * a part matches a hidden folder (a killed run's {@code .tmp}) only when it starts with a dot itself.
 */
public final class FolderGlob {
  private FolderGlob() {}

  /** Whether {@code spec} holds a glob's special characters. */
  public static boolean isGlob(String spec) {
    return spec.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
  }

  /** The folders matching an absolute glob, sorted by path; none when its fixed start is not a folder. */
  public static List<Path> folders(Path pattern) {
    Path base = pattern.getRoot();
    int first = 0;
    while (first < pattern.getNameCount() && !isGlob(pattern.getName(first).toString())) {
      base = base.resolve(pattern.getName(first).toString());
      first++;
    }
    int depth = pattern.getNameCount() - first;
    if (!Files.isDirectory(base)) return List.of();
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    int from = first;
    try (Stream<Path> s = Files.walk(base, depth)) {
      return s.filter(p -> p.getNameCount() == pattern.getNameCount() && Files.isDirectory(p) && matcher.matches(p))
          .filter(p -> noHiddenUnasked(p, pattern, from)).sorted().toList();
    } catch (IOException | UncheckedIOException e) {
      // a folder this user may not list (another user's, kept to them): the walk ends there, and what it matched so
      // far would silently be fewer namespaces (dogAB 8); refused naming it
      Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
      if (cause instanceof java.nio.file.AccessDeniedException denied) {
        throw new IllegalArgumentException(pattern + " cannot be matched: this user may not list " + denied.getFile()
            + " (ask its owner for read and search permission, or name the folders it may read)", denied);
      }
      throw e instanceof UncheckedIOException u ? u : new UncheckedIOException((IOException) e);
    }
  }

  /** Whether every part the glob matched is hidden only where the pattern's part starts with a dot too. */
  private static boolean noHiddenUnasked(Path p, Path pattern, int from) {
    for (int i = from; i < pattern.getNameCount(); i++) {
      if (p.getName(i).toString().startsWith(".") && !pattern.getName(i).toString().startsWith(".")) return false;
    }
    return true;
  }
}
