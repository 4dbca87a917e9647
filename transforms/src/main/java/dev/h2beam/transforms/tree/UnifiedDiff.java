package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.model.SurfaceSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Unified diffs in the exact shape of Python's {@code difflib.unified_diff} (three context lines, lines keep their own
 * line ends, no "no newline" marker), and the pool diff of an evidence folder (spec §5.1).
 */
public final class UnifiedDiff {
  private UnifiedDiff() {}

  private static final int CONTEXT = 3;

  /** The unified diff from text {@code a} (named {@code fromName}) to {@code b}; empty when they are equal. */
  public static String diff(String fromName, String toName, String a, String b) {
    // difflib yields no group for equal sequences: most files of a candidate are its parent's, unchanged
    if (a.equals(b)) return "";
    Pair key = new Pair(fromName, toName, a, b);
    String known;
    synchronized (RECENT) {
      known = RECENT.get(key);
    }
    if (known != null) return known;
    String made = matched(a, b, fromName, toName);
    synchronized (RECENT) {
      RECENT.put(key, made);
    }
    return made;
  }

  /**
   * Two texts to diff, with their names; equality and hash written out, not linked on first use as a record's are
   * (see {@code SweepConfig#hashCode}).
   */
  private record Pair(String fromName, String toName, String a, String b) {
    @Override public boolean equals(Object o) {
      return o instanceof Pair p && a.equals(p.a) && b.equals(p.b) && fromName.equals(p.fromName)
          && toName.equals(p.toName);
    }

    @Override public int hashCode() {
      return ((fromName.hashCode() * 31 + toName.hashCode()) * 31 + a.hashCode()) * 31 + b.hashCode();
    }
  }

  /**
   * The diffs made last (at most {@link #REMEMBERED}, the least recently used forgotten first). The stages of a task
   * show the same pool against the same tree: the k compositions of the parallel mode, and each round's two
   * proposals of the sequential one, so most pool diffs were made again, a percent of a sweep's CPU at L = 0
   * (BENCHMARKS.md, issue 11). The texts are the harnesses' own, held by the stages anyway.
   */
  private static final int REMEMBERED = 256;

  private static final Map<Pair, String> RECENT = new java.util.LinkedHashMap<>(64, 0.75f, true) {
    @Override protected boolean removeEldestEntry(Map.Entry<Pair, String> eldest) {
      return size() > REMEMBERED;
    }
  };

  private static String matched(String a, String b, String fromName, String toName) {
    List<String> la = Py.splitlines(a, true);
    List<String> lb = Py.splitlines(b, true);
    StringBuilder out = new StringBuilder();
    for (List<LineMatcher.Opcode> group : new LineMatcher(la, lb).groupedOpcodes(CONTEXT)) {
      if (out.length() == 0) out.append("--- ").append(fromName).append('\n').append("+++ ").append(toName).append('\n');
      LineMatcher.Opcode first = group.get(0);
      LineMatcher.Opcode last = group.get(group.size() - 1);
      out.append("@@ -").append(range(first.i1(), last.i2())).append(" +").append(range(first.j1(), last.j2()))
          .append(" @@\n");
      for (LineMatcher.Opcode op : group) {
        if (op.tag() == LineMatcher.Opcode.EQUAL) {
          for (String line : la.subList(op.i1(), op.i2())) out.append(' ').append(line);
          continue;
        }
        if (op.tag() != LineMatcher.Opcode.INSERT) {
          for (String line : la.subList(op.i1(), op.i2())) out.append('-').append(line);
        }
        if (op.tag() != LineMatcher.Opcode.DELETE) {
          for (String line : lb.subList(op.j1(), op.j2())) out.append('+').append(line);
        }
      }
    }
    return out.toString();
  }

  /** difflib's {@code start,length} range: 1-based, the length omitted when it is 1, an empty range ends before. */
  private static String range(int start, int stop) {
    int length = stop - start;
    if (length == 1) return Integer.toString(start + 1);
    return (length == 0 ? start : start + 1) + "," + length;
  }

  /**
   * The pool diff of one candidate: for each path in the union of both on-surface trees (plain string order), the
   * diff from {@code current/<path>} to {@code <label>/<path>}, concatenated. A missing harness or file is empty.
   */
  public static String poolDiff(SurfaceSpec surface, Path currentHarness, Path candidateHarness, String label) {
    return poolDiff(surface, TreeIO.read(surface, currentHarness, null), candidateHarness, label);
  }

  /** The same, from the current tree already read with {@link TreeIO#read}: a pool reads it once, not per item. */
  public static String poolDiff(SurfaceSpec surface, Map<String, String> current, Path candidateHarness,
      String label) {
    Map<String, String> candidate = TreeIO.readHarness(surface, candidateHarness);
    TreeSet<String> names = new TreeSet<>(Py.CODE_POINT_ORDER);
    names.addAll(current.keySet());
    names.addAll(candidate.keySet());
    StringBuilder out = new StringBuilder();
    for (String name : names) {
      out.append(diff("current/" + name, label + "/" + name, current.getOrDefault(name, ""),
          candidate.getOrDefault(name, "")));
    }
    return out.toString();
  }
}
