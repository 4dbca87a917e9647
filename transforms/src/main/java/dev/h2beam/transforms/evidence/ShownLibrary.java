package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.LeakGlobs;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.model.HarnessRejected;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A domain library as one task's improvers are shown it (spec §5.1, {@code context/library/}): listed, read and
 * scanned for grader verdicts once for the task, where every stage used to link, list, read and scan the whole library
 * again. Every session still gets the whole library in its own copy of the evidence, from these bytes; the evidence
 * folder kept in the run holds only the library's INDEX.md as read here, which names the entries it held: the entries
 * stay in the library folder. A domain's n-th task thus costs each of its stages its own evidence plus one copy of
 * the library for the session, not a second, linked copy kept for good (a domain of 200 tasks left 1.4 million names
 * behind, nearly all of them library entries in its evidence folders; BENCHMARKS.md, "A domain's library shown once
 * per task").
 *
 * <p>The sessions see the bytes that were scanned: a library edited on disk while the task runs is read again by the
 * next task only.
 */
public final class ShownLibrary {
  /** The library's own index, the one file of it an evidence folder keeps (written from the bytes read here). */
  static final String INDEX = "INDEX.md";
  /** Its folder in an evidence folder (spec §5.1). */
  static final String PLACE = "library";

  private final HeldTree held;
  private final Map<String, Integer> index = new HashMap<>();
  private final HarnessRejected verdict;
  /** The answer-key globs its files were last found clear of, at {@link #PLACE} (stages may run at once). */
  private volatile LeakGlobs leakFreeFor;

  private ShownLibrary(HeldTree held, ShownLibrary before) {
    this.held = held;
    List<String> files = held.files();
    for (int i = 0; i < files.size(); i++) index.put(files.get(i), i);
    HarnessRejected found = null;
    try {
      for (int i = 0; i < files.size(); i++) {
        // a file with the bytes it had when the library was last shown, found clear then, is clear now
        if (!unchanged(before, files.get(i), held.bytes(i))) VerdictTripwire.assertNone(held, i);
      }
    } catch (HarnessRejected e) {
      found = e;
    }
    this.verdict = found;
  }

  /** Whether {@code before} (null for none) showed {@code rel} with these bytes (held) and found no verdict in it. */
  private static boolean unchanged(ShownLibrary before, String rel, byte[] bytes) {
    return before != null && before.verdict == null && bytes != null && before.holdsSame(rel, bytes);
  }

  /** The library at {@code dir} as it is now, or null for none (no folder, or a folder without files). */
  public static ShownLibrary of(Path dir) {
    return of(dir, null, HeldTree.BUDGET);
  }

  /**
   * The same, scanning for verdicts only the files whose bytes differ from {@code before}'s (the same library shown to
   * an earlier task; null for none): a domain's n-th task scans its new entry, not all n.
   */
  public static ShownLibrary of(Path dir, ShownLibrary before) {
    return of(dir, before, HeldTree.BUDGET);
  }

  /**
   * The same holding at most {@code budget} bytes: a file past it is scanned now and read from the library again
   * where it is used.
   */
  static ShownLibrary of(Path dir, ShownLibrary before, long budget) {
    if (dir == null || !Files.isDirectory(dir)) return null;
    PathOrder.Listing listing = PathOrder.list(dir);
    if (listing.files().isEmpty()) return null;
    return new ShownLibrary(HeldTree.read(dir, new PathOrder.Listing(listing.files(), List.of()), budget), before);
  }

  public Path dir() {
    return held.root();
  }

  /** Its files, relative to {@link #dir}, in path order. */
  public List<String> files() {
    return held.files();
  }

  /** Whether it has its own index, which an evidence folder keeps. */
  boolean hasIndex() {
    return index.containsKey(INDEX);
  }

  /** Whether any of its files is a lesson (an EXPERIENCE.md at any depth): a library without one is shown to no one. */
  public boolean hasLesson() {
    for (String rel : files()) if (rel.equals("EXPERIENCE.md") || rel.endsWith("/EXPERIENCE.md")) return true;
    return false;
  }

  /**
   * Whether it holds its file {@code rel} with exactly {@code bytes} (a file past the budget is not held: read where
   * it is used, it is never taken for the same).
   */
  public boolean holdsSame(String rel, byte[] bytes) {
    Integer i = index.get(rel);
    return i != null && held.bytes(i) != null && Arrays.equals(held.bytes(i), bytes);
  }

  /**
   * The bytes of its file {@code rel} as the sessions are given them: held, or read from the library (a file past the
   * budget).
   */
  public byte[] bytes(String rel) throws IOException {
    Integer i = index.get(rel);
    if (i == null) throw new IllegalArgumentException(rel + " is not a file of the library " + dir());
    byte[] held = this.held.bytes(i);
    return held != null ? held : Files.readAllBytes(this.held.source(i));
  }

  /**
   * Fails as {@code leaks} would over its files shown at {@link #PLACE}; once for the same globs, as every stage of
   * the task shows the same files.
   */
  void requireNoLeaks(LeakGlobs leaks) {
    if (leaks.sameGlobs(leakFreeFor)) return;
    List<String> shown = new ArrayList<>(files().size());
    for (String rel : files()) shown.add(PLACE + "/" + rel);
    leaks.assertNone(shown);
    leakFreeFor = leaks;
  }

  /** The file {@code rel} as this library holds it, for a tree that shows it. */
  HeldTree.From file(String rel) {
    Integer i = index.get(rel);
    if (i == null) throw new IllegalArgumentException(rel + " is not a file of the library " + dir());
    return new HeldTree.From(held, i);
  }

  /**
   * Throws what the scan for grader verdicts found in the library, as a scan of an evidence folder holding it would
   * (each stage that shows the library then fails alike, as before).
   */
  void requireNoVerdicts() {
    if (verdict != null) throw new HarnessRejected(verdict.getMessage());
  }
}
