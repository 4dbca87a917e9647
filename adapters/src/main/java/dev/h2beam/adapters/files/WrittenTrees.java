package dev.h2beam.adapters.files;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

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

  /**
   * A folder as written: its files, the tree the surface {@code surface} reads from it, and the exact text of each
   * file that write put there ({@code written}: its bytes are that text in UTF-8; a file it left alone is not in it).
   */
  public record Entry(String surface, List<String> files, Map<String, String> tree, Map<String, String> written) {}

  private static final int MAX = 2048;

  /** The entries, least recently used first; guards {@link #BY_NAME} too. */
  private static final Map<Path, Entry> ENTRIES = new LinkedHashMap<>(256, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override protected boolean removeEldestEntry(Map.Entry<Path, Entry> eldest) {
      if (size() <= MAX) return false;
      BY_NAME.remove(eldest.getKey().toString());
      return true;
    }
  };

  /**
   * The same folders by name, so that {@link #forget} finds those below a path in a range of names instead of testing
   * every entry: every deleted folder is forgotten, and a sweep deletes one for every session it runs.
   */
  private static final NavigableMap<String, Path> BY_NAME = new TreeMap<>();

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }

  /**
   * Notes {@code dir} as just written, holding exactly {@code files}, its tree as {@code surface} reads it, and the
   * exact texts of the files written there ({@code written}).
   */
  public static void remember(Path dir, String surface, List<String> files, Map<String, String> tree,
      Map<String, String> written) {
    Entry e = new Entry(surface, List.copyOf(files), java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tree)),
        java.util.Collections.unmodifiableMap(new LinkedHashMap<>(written)));
    Path k = key(dir);
    synchronized (ENTRIES) {
      ENTRIES.put(k, e);
      BY_NAME.put(k.toString(), k);
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
    String name = p.toString();
    // the folders below are the names that start with "<name>/": from "<name>/" up to "<name>0" ('0' follows '/')
    String below = name.endsWith("/") ? name : name + "/";
    synchronized (ENTRIES) {
      if (ENTRIES.isEmpty()) return;
      if (BY_NAME.remove(name) != null) ENTRIES.remove(p);
      // most folders forgotten have none noted below them: one look, no range made
      String first = BY_NAME.ceilingKey(below);
      if (first == null || !first.startsWith(below)) return;
      Map<String, Path> range = BY_NAME.subMap(below, true, below.substring(0, below.length() - 1) + '0', false);
      for (Path k : range.values()) ENTRIES.remove(k);
      range.clear();
    }
  }
}
