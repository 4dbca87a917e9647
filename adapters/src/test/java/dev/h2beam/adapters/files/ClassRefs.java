package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which compiled classes refer to which packages, read from their class files' constant pools, where every type a
 * class refers to is named ({@code dev/h2beam/...}). The tests that keep the method and the sweep away from the judge
 * use it on their module's {@code target/classes}.
 */
public final class ClassRefs {
  private ClassRefs() {}

  /** What {@link #scan} found: how many classes it read, and each "class -> prefix" reference, in path order. */
  public record Found(int scanned, List<String> references) {}

  /**
   * The classes under {@code root} ({@code deep}: every folder under it; else its own files only) that refer to a
   * type whose internal name starts with one of {@code prefixes}, named relative to {@code base}.
   */
  public static Found scan(Path base, Path root, boolean deep, List<String> prefixes) throws IOException {
    List<String> refs = new ArrayList<>();
    int scanned = 0;
    try (Stream<Path> s = deep ? Files.walk(root) : Files.list(root)) {
      for (Path p : s.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
        scanned++;
        String pool = pool(p);
        for (String f : prefixes) if (pool.contains(f)) refs.add(base.relativize(p) + " -> " + f);
      }
    }
    return new Found(scanned, refs);
  }

  /** Whether the class file names a type whose internal name starts with {@code prefix}. */
  public static boolean refersTo(Path classFile, String prefix) throws IOException {
    return pool(classFile).contains(prefix);
  }

  private static String pool(Path classFile) throws IOException {
    return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
  }
}
