package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.pipelines.UsageError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Resolves {@code --namespaces} (directories or globs, comma separated) to summary namespaces. A sequential or gated
 * namespace stands for its {@code agg} sibling, where its judged rows and summaries live; a glob skips directories
 * that are not namespaces ({@code _audit}, {@code _sweeps}, {@code _report}); a named directory must be one.
 */
final class Namespaces {
  private Namespaces() {}

  static List<NamespaceRef> resolve(List<String> specs, Path cwd) {
    Map<String, NamespaceRef> out = new LinkedHashMap<>();
    for (String spec : specs) {
      if (isGlob(spec)) {
        List<NamespaceRef> found = new ArrayList<>();
        for (Path dir : glob(cwd.resolve(spec).toAbsolutePath().normalize())) {
          NamespaceRef.parse(dir).ifPresent(found::add);
        }
        if (found.isEmpty()) {
          throw new UsageError("--namespaces: '" + spec + "' matched no namespace directory (names like"
              + " demo-oc-agg2 or demo-oc-agg2-s7); check the path, and quote globs so the shell does not expand them");
        }
        for (NamespaceRef ref : found) out.putIfAbsent(ref.summary().dir(), ref.summary());
      } else {
        Path dir = cwd.resolve(spec).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
          throw new UsageError("--namespaces: " + dir + " is not a directory; name a namespace folder such as"
              + " runs/demo-oc-agg2, or a glob");
        }
        NamespaceRef ref = NamespaceRef.parse(dir).orElseThrow(() -> new UsageError("--namespaces: " + dir
            + " is not a namespace (<bench>-<substrate>-<" + String.join("|", Namespace.MODES)
            + "><k>[-s<seed>]); name the namespace folder itself,"
            + " not the runs root, or use a glob such as " + dir + "/*"));
        out.putIfAbsent(ref.summary().dir(), ref.summary());
      }
    }
    return List.copyOf(out.values());
  }

  static boolean isGlob(String spec) {
    return spec.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
  }

  /** Directories matching an absolute glob, sorted by path. */
  static List<Path> glob(Path pattern) {
    Path base = pattern.getRoot();
    int first = 0;
    while (first < pattern.getNameCount() && !isGlob(pattern.getName(first).toString())) {
      base = base.resolve(pattern.getName(first).toString());
      first++;
    }
    int depth = pattern.getNameCount() - first;
    if (!Files.isDirectory(base)) return List.of();
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    try (Stream<Path> s = Files.walk(base, depth)) {
      // as in a shell, a glob matches a hidden folder (a killed run's .tmp) only when it starts with a dot
      boolean dots = pattern.getFileName().toString().startsWith(".");
      return s.filter(p -> p.getNameCount() == pattern.getNameCount() && Files.isDirectory(p) && matcher.matches(p))
          .filter(p -> dots || !p.getFileName().toString().startsWith(".")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
