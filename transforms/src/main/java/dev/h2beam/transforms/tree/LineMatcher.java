package dev.h2beam.transforms.tree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Matches two line sequences the way Python's {@code difflib.SequenceMatcher} does (no junk function, automatic
 * "popular line" heuristic on), so that a pool diff written here has the same hunks as one written by harness2:
 * repeatedly take the longest common run, then recurse on both sides of it.
 */
final class LineMatcher {
  /** One edit operation: {@code tag} over {@code a[i1:i2]} and {@code b[j1:j2]}. */
  record Opcode(char tag, int i1, int i2, int j1, int j2) {
    static final char EQUAL = '=';
    static final char REPLACE = 'r';
    static final char DELETE = 'd';
    static final char INSERT = 'i';
  }

  private record Match(int a, int b, int size) {}

  private final List<String> a;
  private final List<String> b;
  /** Line → its indices in {@code b}, without lines so frequent that difflib treats them as noise. */
  private final Map<String, List<Integer>> b2j = new HashMap<>();

  LineMatcher(List<String> a, List<String> b) {
    this.a = a;
    this.b = b;
    for (int j = 0; j < b.size(); j++) b2j.computeIfAbsent(b.get(j), k -> new ArrayList<>()).add(j);
    if (b.size() >= 200) {
      int ntest = b.size() / 100 + 1;
      b2j.values().removeIf(idx -> idx.size() > ntest);
    }
  }

  /** The longest matching run in {@code a[alo:ahi]} × {@code b[blo:bhi]}, earliest in {@code a}, then in {@code b}. */
  private Match longestMatch(int alo, int ahi, int blo, int bhi) {
    int besti = alo;
    int bestj = blo;
    int bestsize = 0;
    Map<Integer, Integer> j2len = new HashMap<>();
    for (int i = alo; i < ahi; i++) {
      Map<Integer, Integer> next = new HashMap<>();
      for (int j : b2j.getOrDefault(a.get(i), List.of())) {
        if (j < blo) continue;
        if (j >= bhi) break;
        int k = j2len.getOrDefault(j - 1, 0) + 1;
        next.put(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    // Popular lines were left out of b2j; grow the run over equal neighbours, as difflib does.
    while (besti > alo && bestj > blo && a.get(besti - 1).equals(b.get(bestj - 1))) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi
        && a.get(besti + bestsize).equals(b.get(bestj + bestsize))) {
      bestsize++;
    }
    return new Match(besti, bestj, bestsize);
  }

  private List<Match> matchingBlocks() {
    List<Match> found = new ArrayList<>();
    Deque<int[]> queue = new ArrayDeque<>();
    queue.push(new int[] {0, a.size(), 0, b.size()});
    while (!queue.isEmpty()) {
      int[] q = queue.pop();
      Match m = longestMatch(q[0], q[1], q[2], q[3]);
      if (m.size == 0) continue;
      found.add(m);
      if (q[0] < m.a && q[2] < m.b) queue.push(new int[] {q[0], m.a, q[2], m.b});
      if (m.a + m.size < q[1] && m.b + m.size < q[3]) queue.push(new int[] {m.a + m.size, q[1], m.b + m.size, q[3]});
    }
    found.sort(Comparator.comparingInt(Match::a).thenComparingInt(Match::b).thenComparingInt(Match::size));
    List<Match> blocks = new ArrayList<>();
    int i1 = 0;
    int j1 = 0;
    int k1 = 0;
    for (Match m : found) {
      if (i1 + k1 == m.a && j1 + k1 == m.b) {
        k1 += m.size;
      } else {
        if (k1 > 0) blocks.add(new Match(i1, j1, k1));
        i1 = m.a;
        j1 = m.b;
        k1 = m.size;
      }
    }
    if (k1 > 0) blocks.add(new Match(i1, j1, k1));
    blocks.add(new Match(a.size(), b.size(), 0));
    return blocks;
  }

  List<Opcode> opcodes() {
    List<Opcode> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    for (Match m : matchingBlocks()) {
      char tag = i < m.a && j < m.b ? Opcode.REPLACE : i < m.a ? Opcode.DELETE : j < m.b ? Opcode.INSERT : 0;
      if (tag != 0) out.add(new Opcode(tag, i, m.a, j, m.b));
      i = m.a + m.size;
      j = m.b + m.size;
      if (m.size > 0) out.add(new Opcode(Opcode.EQUAL, m.a, i, m.b, j));
    }
    return out;
  }

  /** The opcodes cut into hunks with {@code n} lines of context, as {@code get_grouped_opcodes(n)}. */
  List<List<Opcode>> groupedOpcodes(int n) {
    List<Opcode> codes = new ArrayList<>(opcodes());
    if (codes.isEmpty()) codes.add(new Opcode(Opcode.EQUAL, 0, 1, 0, 1));
    Opcode first = codes.get(0);
    if (first.tag() == Opcode.EQUAL) {
      codes.set(0, new Opcode(Opcode.EQUAL, Math.max(first.i1(), first.i2() - n), first.i2(),
          Math.max(first.j1(), first.j2() - n), first.j2()));
    }
    Opcode last = codes.get(codes.size() - 1);
    if (last.tag() == Opcode.EQUAL) {
      codes.set(codes.size() - 1, new Opcode(Opcode.EQUAL, last.i1(), Math.min(last.i2(), last.i1() + n),
          last.j1(), Math.min(last.j2(), last.j1() + n)));
    }
    List<List<Opcode>> groups = new ArrayList<>();
    List<Opcode> group = new ArrayList<>();
    for (Opcode c : codes) {
      int i1 = c.i1();
      int j1 = c.j1();
      if (c.tag() == Opcode.EQUAL && c.i2() - i1 > 2 * n) {
        group.add(new Opcode(Opcode.EQUAL, i1, Math.min(c.i2(), i1 + n), j1, Math.min(c.j2(), j1 + n)));
        groups.add(group);
        group = new ArrayList<>();
        i1 = Math.max(i1, c.i2() - n);
        j1 = Math.max(j1, c.j2() - n);
      }
      group.add(new Opcode(c.tag(), i1, c.i2(), j1, c.j2()));
    }
    if (!group.isEmpty() && !(group.size() == 1 && group.get(0).tag() == Opcode.EQUAL)) groups.add(group);
    return groups;
  }
}
