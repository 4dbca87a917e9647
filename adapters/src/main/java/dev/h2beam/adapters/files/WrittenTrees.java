package dev.h2beam.adapters.files;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The candidates' harness folders the tasks running in this process wrote, as they were right after: their files
 * (path order) and their trees as a surface reads them. A candidate's harness is written once and then listed and
 * read by every later stage of its task (its pool entry, its diff, the reflection), which cost a sixth of a sweep's
 * CPU (BENCHMARKS.md, issue 11); those stages read these instead. Only those stages: every check of what is stored
 * (credentials, the library, a resume) reads the disk, and a task forgets its folders when its mode ends. An entry
 * is also forgotten when its folder is written again or deleted through {@link Trees#delete}. Bounded: the least
 * recently used entries go first.
 */
public final class WrittenTrees {
  private WrittenTrees() {}

  /** A folder as written: its files, and the tree the surface {@code surface} reads from it. */
  public record Entry(String surface, List<String> files, Map<String, String> tree) {}

  private static final int MAX = 2048;

  private static final Map<Path, Entry> ENTRIES = new LinkedHashMap<>(256, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override protected boolean removeEldestEntry(Map.Entry<Path, Entry> eldest) {
      return size() > MAX;
    }
  };

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }

  /** Notes {@code dir} as just written, holding exactly {@code files}, its tree as {@code surface} reads it. */
  public static void remember(Path dir, String surface, List<String> files, Map<String, String> tree) {
    Entry e = new Entry(surface, List.copyOf(files), java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tree)));
    synchronized (ENTRIES) {
      ENTRIES.put(key(dir), e);
    }
  }

  /** What {@code dir} held when this process last wrote it, or null when it did not (or forgot). */
  public static Entry of(Path dir) {
    synchronized (ENTRIES) {
      return ENTRIES.get(key(dir));
    }
  }

  /** Forgets {@code path} and every folder below it (deleted, or about to be written again). */
  public static void forget(Path path) {
    Path p = key(path);
    synchronized (ENTRIES) {
      if (ENTRIES.isEmpty()) return;
      ENTRIES.keySet().removeIf(k -> k.startsWith(p));
    }
  }
}
