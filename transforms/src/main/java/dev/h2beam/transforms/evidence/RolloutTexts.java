package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Runmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What a finished rollout shows, read once: its trajectory and deliverables, which every stage of its task renders
 * into its evidence again (22 evidence folders a task at k = 3), were read from its folder each time (two to three
 * percent of a sweep's CPU at L = 0, BENCHMARKS.md, issue 11). Kept only for a run folder with a completion marker
 * ({@link Runmark#MARKER}), and used only while that marker keeps its {@link FileMark}: a run rolled again gets a new
 * marker (written by replacing the old one) and is read again. A run folder without a marker is read every time, as
 * is everything that fails to read (the failure is rendered where it happens).
 */
final class RolloutTexts {
  private RolloutTexts() {}

  /**
   * One run folder's texts as read under one marker, each part (a trajectory per {@code obsTrunc}, the deliverable
   * files, the deliverable text) on first use.
   */
  private static final class Texts {
    final FileMark mark;
    final Map<String, Object> parts = new HashMap<>();
    /**
     * The characters held, counted against {@link #BUDGET}, with {@link #ENTRY} for the entry itself; and whether it is
     * still kept. Both guarded by {@link #SEEN}.
     */
    long chars = ENTRY;
    boolean kept = true;

    Texts(FileMark mark) {
      this.mark = mark;
    }
  }

  /**
   * The characters held at most, about twice as many bytes: a sweep's current tasks' rollouts (a few kilobytes each
   * on the synthetic benchmark) fit many times over, and a benchmark whose deliverables run to megabytes keeps only
   * its latest runs' texts instead of growing with the sweep. A text larger than an eighth of it is not kept.
   */
  private static final long BUDGET = 16L << 20;

  /** What an entry counts for without its texts (its key, marker and maps), in characters. */
  private static final long ENTRY = 256;

  /** Run folders' texts, most recently used last; the eldest go first once the budget is spent. */
  private static final LinkedHashMap<Path, Texts> SEEN = new LinkedHashMap<>(256, 0.75f, true);
  private static long held;

  /** {@link Benchmark#trajectory}, read once per marker and {@code obsTrunc}. */
  static String trajectory(Benchmark bench, Path runDir, int obsTrunc) throws IOException {
    return part(runDir, "trajectory " + obsTrunc, () -> bench.trajectory(runDir, obsTrunc), String::length);
  }

  /** {@link Benchmark#deliverableFiles}, read once per marker; kept in the benchmark's order, never changed. */
  static Map<String, String> deliverableFiles(Benchmark bench, Path runDir) throws IOException {
    return part(runDir, "files", () -> Collections.unmodifiableMap(new LinkedHashMap<>(bench.deliverableFiles(runDir))),
        files -> {
          long chars = 0;
          for (Map.Entry<String, String> e : files.entrySet()) chars += e.getKey().length() + e.getValue().length();
          return chars;
        });
  }

  /** {@link Benchmark#deliverableText}, read once per marker. */
  static String deliverableText(Benchmark bench, Path runDir) throws IOException {
    return part(runDir, "text", () -> bench.deliverableText(runDir), String::length);
  }

  /** A part of a run's texts, read from its benchmark. */
  private interface Read<T> {
    T read() throws IOException;
  }

  /**
   * The part {@code name} of {@code runDir}'s texts: as kept under its marker, or read now and kept when it fits
   * ({@code chars}: its size); read every time for a run folder without a marker.
   */
  @SuppressWarnings("unchecked")
  private static <T> T part(Path runDir, String name, Read<T> read, ToLongFunction<T> chars) throws IOException {
    Texts t = texts(runDir);
    if (t == null) return read.read();
    synchronized (t) {
      Object known = t.parts.get(name);
      if (known != null) return (T) known;
    }
    T value = read.read();
    if (keep(t, chars.applyAsLong(value))) {
      synchronized (t) {
        t.parts.put(name, value);
      }
    }
    return value;
  }

  /**
   * Counts {@code chars} more held for {@code t} and lets the eldest runs' texts go while past the budget; false (and
   * nothing counted) for a text too large to keep, or a run's texts no longer kept (replaced meanwhile).
   */
  private static boolean keep(Texts t, long chars) {
    if (chars > BUDGET / 8) return false;
    synchronized (SEEN) {
      if (!t.kept) return false;
      t.chars += chars;
      held += chars;
      trim(t);
      return true;
    }
  }

  /** Lets the eldest runs' texts but {@code t}'s go while past the budget (holding {@link #SEEN}). */
  private static void trim(Texts t) {
    var eldest = SEEN.values().iterator();
    while (held > BUDGET && eldest.hasNext()) {
      Texts gone = eldest.next();
      if (gone == t) continue;
      held -= gone.chars;
      gone.kept = false;
      eldest.remove();
    }
  }

  /**
   * The texts kept for {@code runDir} under its marker as it is now (made empty when it changed), or null when the
   * folder has no marker to tell whether it changed.
   */
  private static Texts texts(Path runDir) {
    FileMark now;
    try {
      now = FileMark.of(Files.readAttributes(runDir.resolve(Runmark.MARKER), BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      return null;
    }
    if (now == null) return null;
    Path key = runDir.toAbsolutePath().normalize();
    synchronized (SEEN) {
      Texts t = SEEN.get(key);
      if (t == null || !t.mark.equals(now)) {
        if (t != null) {
          held -= t.chars;
          t.kept = false;
        }
        t = new Texts(now);
        SEEN.put(key, t);
        held += t.chars;
        trim(t);
      }
      return t;
    }
  }
}
