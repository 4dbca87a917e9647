package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Python's path order of spec §19.3: component lists compared component by component, by code point. */
class PathOrderTest {
  @TempDir Path dir;

  private static void touch(Path root, String rel) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, rel);
  }

  @Test
  void sortsTheSpecExampleByComponents() {
    List<String> paths = new ArrayList<>(List.of("a.b", "a-b/x", "a/b", "a/a/z", "B"));
    paths.sort(PathOrder.RELATIVE);
    assertEquals(List.of("B", "a/a/z", "a/b", "a-b/x", "a.b"), paths);
  }

  @Test
  void componentOrderDiffersFromPlainStringOrder() {
    List<String> plain = new ArrayList<>(List.of("a.b", "a-b/x", "a/b", "a/a/z", "B"));
    plain.sort(null);
    assertEquals(List.of("B", "a-b/x", "a.b", "a/a/z", "a/b"), plain);
  }

  /** inCache agrees with the walk: a file below a __pycache__ folder is left out, a file so named is kept. */
  @Test
  void inCacheLeavesOutWhatTheWalkLeavesOut(@TempDir Path root) throws IOException {
    List<String> all = List.of("f/__pycache__", "__pycache__/x.pyc", "a/__pycache__/b/c.txt",
        "a/__pycache__x/c.txt", "x__pycache__/c.txt", "a/b__pycache__", "plain.txt");
    for (String rel : all) {
      Files.createDirectories(root.resolve(rel).getParent());
      Files.writeString(root.resolve(rel), rel);
    }
    List<String> kept = new ArrayList<>();
    for (String rel : all) if (!PathOrder.inCache(rel)) kept.add(rel);
    kept.sort(PathOrder.RELATIVE);
    assertEquals(PathOrder.files(root), kept);
    assertEquals(5, kept.size());
  }

  @Test
  void aPathSortsBeforeThePathsBelowIt() {
    assertTrue(PathOrder.compare("a", "a/b") < 0);
    assertTrue(PathOrder.compare("a/b", "ab") < 0);
    assertEquals(0, PathOrder.compare("a/b", "a/b"));
  }

  @Test
  void componentsCompareByCodePointNotUtf16Unit() {
    // U+FFFF is below U+1F600 as a code point, though its UTF-16 unit is above the surrogate 0xD83D.
    assertTrue(PathOrder.compare("\uFFFF", "\uD83D\uDE00") < 0);
    assertTrue("\uFFFF".compareTo("\uD83D\uDE00") > 0);
  }

  @Test
  void filesListsARealFolderInPathOrder() throws IOException {
    for (String rel : List.of("a.b", "a-b/x", "a/b", "a/a/z", "B")) touch(dir, rel);
    assertEquals(List.of("B", "a/a/z", "a/b", "a-b/x", "a.b"), PathOrder.files(dir));
  }

  @Test
  void filesSkipsPycache() throws IOException {
    touch(dir, "m.py");
    touch(dir, "__pycache__/m.cpython-311.pyc");
    touch(dir, "pkg/__pycache__/x.txt");
    assertEquals(List.of("m.py"), PathOrder.files(dir));
  }

  /**
   * One walk gives both listings: regular files (none under __pycache__), and every link (to a file or a folder, even
   * under __pycache__) and special file, never followed.
   */
  @Test
  void listSeparatesFilesFromLinksAndSpecialFilesInOneWalk() throws Exception {
    touch(dir, "a.txt");
    touch(dir, "sub/b.txt");
    touch(dir, "__pycache__/c.pyc");
    Path outside = Files.createTempDirectory("h2beam-outside-");
    try {
      touch(outside, "secret.txt");
      Files.createSymbolicLink(dir.resolve("to-file"), outside.resolve("secret.txt"));
      Files.createSymbolicLink(dir.resolve("sub/to-dir"), outside);
      Files.createSymbolicLink(dir.resolve("__pycache__/to-file"), outside.resolve("secret.txt"));
      Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve("sub/pipe").toString()).start();
      assertEquals(0, mkfifo.waitFor());

      PathOrder.Listing l = PathOrder.list(dir);
      assertEquals(List.of("a.txt", "sub/b.txt"), l.files());
      assertEquals(List.of("__pycache__/to-file", "sub/pipe", "sub/to-dir", "to-file"), l.skipped());
      assertEquals(l.files(), PathOrder.files(dir));
      assertEquals(l.skipped(), PathOrder.skipped(dir));
    } finally {
      Files.delete(outside.resolve("secret.txt"));
      Files.delete(outside);
    }
  }

  /**
   * A tree deeper than the listing follows relative to its open folders is listed the same below that depth: its files
   * with their whole relative paths, a {@code __pycache__} folder above the depth still leaving out what is below it.
   */
  @Test
  void aDeepTreeIsListedWholeBelowTheRelativeDepth() throws Exception {
    StringBuilder deep = new StringBuilder();
    for (int i = 0; i < 80; i++) deep.append("d").append(i).append('/');
    touch(dir, deep + "deep.txt");
    touch(dir, "x/__pycache__/" + deep + "cached.txt");
    Files.createSymbolicLink(dir.resolve(deep + "link"), dir.resolve("x"));
    touch(dir, "top.txt");

    PathOrder.Listing l = PathOrder.list(dir);

    assertEquals(List.of(deep + "deep.txt", "top.txt"), l.files());
    assertEquals(List.of(deep + "link"), l.skipped());
  }

  /**
   * The folders no listed file lies under (empty, holding only a link or compiled Python) are listed bare, in path
   * order, above the relative depth and below it; a folder with a file anywhere below it is not.
   */
  @Test
  void foldersNoFileLiesUnderAreListedBare() throws Exception {
    touch(dir, "a/b.txt");
    Files.createDirectories(dir.resolve("a/empty"));
    Files.createDirectories(dir.resolve("e/f"));
    touch(dir, "m/__pycache__/x.pyc");
    Files.createDirectories(dir.resolve("l"));
    Files.createSymbolicLink(dir.resolve("l/to-a"), dir.resolve("a"));
    StringBuilder deep = new StringBuilder();
    for (int i = 0; i < 70; i++) deep.append("d").append(i).append('/');
    touch(dir, deep + "f.txt");
    Files.createDirectories(dir.resolve(deep + "empty/below"));

    PathOrder.Listing l = PathOrder.list(dir);

    assertEquals(List.of("a/empty", deep + "empty", deep + "empty/below", "e", "e/f", "l", "m", "m/__pycache__"),
        l.bare());
    assertEquals(List.of("a/b.txt", deep + "f.txt"), l.files());
  }

  /** A root that is a link to a folder is one skipped entry, the empty path, and no file: it is never followed. */
  @Test
  void aRootThatIsALinkIsNotFollowed() throws Exception {
    touch(dir, "real/a.txt");
    Path link = Files.createSymbolicLink(dir.resolve("link"), dir.resolve("real"));
    PathOrder.Listing l = PathOrder.list(link);
    assertEquals(List.of(), l.files());
    assertEquals(List.of(""), l.skipped());
  }

  @Test
  void filesOfAMissingFolderIsEmpty() {
    assertEquals(List.of(), PathOrder.files(dir.resolve("missing")));
  }

  @Test
  void relativeUsesForwardSlashes() {
    assertEquals("a/b/c.txt", PathOrder.relative(dir, dir.resolve("a").resolve("b").resolve("c.txt")));
  }

  @Test
  void compareAgreesWithComparingSplitComponents() {
    String alphabet = "ab-./_\u00e9\uFFFF\uD83D\uDE00";
    java.util.Random random = new java.util.Random(11);
    for (int n = 0; n < 20_000; n++) {
      String a = randomPath(random, alphabet);
      String b = randomPath(random, alphabet);
      assertEquals(Integer.signum(bySplitComponents(a, b)), Integer.signum(PathOrder.compare(a, b)), a + " vs " + b);
    }
  }

  /**
   * The walks start past the strings' common chars: the same order as comparing whole code-point arrays, with strings
   * that share a high surrogate and differ in its low one, lone surrogates of either kind, and chars above them.
   */
  @Test
  void aCommonStartChangesNoOrder() {
    String[] units = {"a", "b", "/", "\uD83D", "\uDE00", "\uDE01", "\uD83E", "\uFFFF", "\u00e9", "\uE000"};
    java.util.Random random = new java.util.Random(5);
    for (int n = 0; n < 50_000; n++) {
      StringBuilder common = new StringBuilder();
      for (int k = random.nextInt(4); k > 0; k--) common.append(units[random.nextInt(units.length)]);
      StringBuilder a = new StringBuilder(common);
      StringBuilder b = new StringBuilder(common);
      for (int k = random.nextInt(4); k > 0; k--) a.append(units[random.nextInt(units.length)]);
      for (int k = random.nextInt(4); k > 0; k--) b.append(units[random.nextInt(units.length)]);
      String x = a.toString();
      String y = b.toString();
      int expected = Integer.signum(java.util.Arrays.compare(x.codePoints().toArray(), y.codePoints().toArray()));
      assertEquals(expected, Integer.signum(PathOrder.compareCodePoints(x, y)), x + " vs " + y);
      if (x.indexOf('/') < 0 && y.indexOf('/') < 0) {
        assertEquals(expected, Integer.signum(PathOrder.compare(x, y)), x + " vs " + y);
      }
      int differ = 0;
      while (differ < Math.min(x.length(), y.length()) && x.charAt(differ) == y.charAt(differ)) differ++;
      int start = PathOrder.commonStart(x, y);
      assertTrue(start == differ || start == differ - 1 && Character.isHighSurrogate(x.charAt(start)),
          x + " vs " + y);
    }
  }

  /** The rest of a path's text past its root's is what relativize gives, for paths below the root and others. */
  @Test
  void aRelativePathIsWhatRelativizeGives() {
    String[] names = {"a", "b", "..", ".", ".hidden", "x.txt", "a\\b", "é", "__pycache__"};
    java.util.Random random = new java.util.Random(9);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder root = new StringBuilder(random.nextInt(4) == 0 ? "" : "/");
      for (int k = random.nextInt(4); k > 0; k--) root.append(names[random.nextInt(names.length)]).append('/');
      StringBuilder below = new StringBuilder(random.nextInt(5) == 0 ? "/other/" : root.toString());
      for (int k = 1 + random.nextInt(4); k > 0; k--) below.append(names[random.nextInt(names.length)]).append('/');
      Path r = Path.of(root.toString());
      Path p = Path.of(below.toString());
      if (r.isAbsolute() != p.isAbsolute()) continue;
      String expected;
      try {
        expected = r.relativize(p).toString().replace('\\', '/');
      } catch (IllegalArgumentException e) {
        continue;
      }
      assertEquals(expected, PathOrder.relative(r, p), r + " to " + p);
    }
  }

  private static String randomPath(java.util.Random random, String alphabet) {
    StringBuilder sb = new StringBuilder();
    int length = random.nextInt(7);
    for (int i = 0; i < length; i++) {
      int at = random.nextInt(alphabet.length() - 1);
      if (Character.isHighSurrogate(alphabet.charAt(at))) {
        sb.append(alphabet, at, at + 2);
      } else if (!Character.isLowSurrogate(alphabet.charAt(at))) {
        sb.append(alphabet.charAt(at));
      }
    }
    return sb.toString();
  }

  /** The definition: split on '/', compare the component lists by code point. */
  private static int bySplitComponents(String a, String b) {
    String[] pa = a.split("/", -1);
    String[] pb = b.split("/", -1);
    for (int i = 0; i < Math.min(pa.length, pb.length); i++) {
      int c = PathOrder.compareCodePoints(pa[i], pb[i]);
      if (c != 0) return c;
    }
    return Integer.compare(pa.length, pb.length);
  }
}
