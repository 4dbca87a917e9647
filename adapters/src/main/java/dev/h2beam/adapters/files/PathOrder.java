package dev.h2beam.adapters.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Python's path order (spec §19.3): paths compare as lists of components, each component by Unicode code point.
 * Fingerprints and reply-cache keys depend on this order.
 */
public final class PathOrder {
  private PathOrder() {}

  /** Compares two '/'-separated relative paths component by component, by code point. */
  public static final Comparator<String> RELATIVE = PathOrder::compare;

  public static int compare(String a, String b) {
    // Walks both strings once instead of splitting them: a '/' ends a component, so it sorts below every other code
    // point, and a path that runs out first is the smaller; that is the component-wise order, without allocating.
    int i = commonStart(a, b);
    int j = i;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        if (ca == '/') return -1;
        if (cb == '/') return 1;
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /**
   * Where two strings' code points may first differ: past their common run of equal chars, backed up one char when
   * that run ends inside a surrogate pair. A high surrogate never ends a pair, so the index returned starts a code
   * point in both strings, and the code-point walks above go on from it as if they had walked the run themselves (a
   * sorted listing's neighbours share most of their path; its chars are far cheaper to compare than its code points).
   */
  static int commonStart(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) i++;
    return i > 0 && Character.isHighSurrogate(a.charAt(i - 1)) ? i - 1 : i;
  }

  /** Python's order of two strings: by Unicode code point (Java's String order differs above the BMP). */
  public static final Comparator<String> STRINGS = PathOrder::compareCodePoints;

  public static int compareCodePoints(String a, String b) {
    int i = commonStart(a, b);
    int j = i;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) return Integer.compare(ca, cb);
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /**
   * Every regular file below {@code root} as a '/'-separated relative path, in Python path order; files under a
   * {@code __pycache__} component are skipped, and so are symbolic links and special files: a link is never followed,
   * so nothing outside the folder can enter a copy, a fingerprint or a cache key through one ({@link #skipped} lists
   * them). A missing root gives an empty list.
   */
  public static List<String> files(Path root) {
    return list(root).files();
  }

  /** The symbolic links and special files below {@code root} (relative paths, path order) that {@link #files} skips. */
  public static List<String> skipped(Path root) {
    return list(root).skipped();
  }

  /**
   * What {@link #files} and {@link #skipped} give, from one walk of the tree: each entry's attributes are read once
   * (without following links), where the two listings apart read them up to four times. {@code bare} are the folders
   * no listed file lies under (empty, or holding only skipped entries or {@code __pycache__} files), relative, in
   * path order: a reader that knows a tree by its files sees nothing else of them, yet their names are on disk.
   */
  public record Listing(List<String> files, List<String> skipped, List<String> bare) {
    /** A listing whose folders all hold a listed file, or whose bare folders do not matter to its reader. */
    public Listing(List<String> files, List<String> skipped) {
      this(files, skipped, List.of());
    }
  }

  /** Both listings of {@code root} at once; a missing root gives two empty lists. */
  public static Listing list(Path root) {
    // the root looked at once, without following a link: a folder is listed relative to its open folders; a link to
    // a folder is one skipped entry (the walk's answer); anything else, or nothing there, lists empty
    BasicFileAttributes top;
    try {
      top = Files.readAttributes(root, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return new Listing(List.of(), List.of());
    }
    if (!top.isDirectory() && !(top.isSymbolicLink() && Files.isDirectory(root))) {
      return new Listing(List.of(), List.of());
    }
    List<String> files = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> bare = new ArrayList<>();
    try {
      boolean relative = false;
      if (top.isDirectory()) {
        try (DirectoryStream<Path> in = Files.newDirectoryStream(root)) {
          if (in instanceof SecureDirectoryStream<Path> secure) {
            listIn(secure, root, "", 0, false, files, skipped, bare);
            relative = true;
          }
        }
      }
      if (!relative) walk(root, false, files, skipped, bare);
    } catch (DirectoryIteratorException e) {
      throw new UncheckedIOException("cannot list " + root, e.getCause());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    files.sort(RELATIVE);
    skipped.sort(RELATIVE);
    bare.sort(RELATIVE);
    return new Listing(files, skipped, bare);
  }

  /** Below this depth a tree is listed relative to its open folders; deeper by the JDK's walk (see {@link #listIn}). */
  private static final int RELATIVE_DEPTH = 64;

  /**
   * Lists the open folder {@code in} (at {@code path}, relative path {@code prefix}) into the two lists, each entry
   * looked at once relative to its folder ({@code fstatat}) and each sub-folder opened relative to its parent without
   * following a link. The JDK's walk resolved every entry's whole path; listing trees was a twentieth of a sweep's
   * CPU (BENCHMARKS.md, issue 11). {@code inCache}: {@code in} is a {@code __pycache__} folder or below one.
   */
  private static void listIn(SecureDirectoryStream<Path> in, Path path, String prefix, int depth, boolean inCache,
      List<String> files, List<String> skipped, List<String> bare) throws IOException {
    for (Path entry : in) {
      Path name = entry.getFileName();
      String rel = prefix + name;
      BasicFileAttributes a =
          in.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
      if (a.isDirectory()) {
        boolean cache = inCache || name.toString().equals("__pycache__");
        int listed = files.size();
        if (depth + 1 >= RELATIVE_DEPTH) {
          walkBelow(path.resolve(name), rel + "/", cache, files, skipped, bare);
        } else {
          try (SecureDirectoryStream<Path> sub = in.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            listIn(sub, path.resolve(name), rel + "/", depth + 1, cache, files, skipped, bare);
          }
        }
        if (files.size() == listed) bare.add(rel);
      } else if (!a.isRegularFile()) {
        skipped.add(rel);
      } else if (!inCache) {
        files.add(rel);
      }
    }
  }

  /** The JDK's walk of the folder {@code dir} (relative path {@code prefix}) into the two lists. */
  private static void walkBelow(Path dir, String prefix, boolean inCache, List<String> files, List<String> skipped,
      List<String> bare) throws IOException {
    List<String> f = new ArrayList<>();
    List<String> s = new ArrayList<>();
    List<String> b = new ArrayList<>();
    walk(dir, inCache, f, s, b);
    for (String rel : f) files.add(prefix + rel);
    for (String rel : s) skipped.add(prefix + rel);
    for (String rel : b) bare.add(prefix + rel);
  }

  /**
   * The JDK's walk of {@code root} into the two lists, paths relative to it; {@code inCache}: {@code root} is below a
   * {@code __pycache__} folder. A root that is a link is one skipped entry, the empty path.
   */
  private static void walk(Path root, boolean inCache, List<String> files, List<String> skipped, List<String> bare)
      throws IOException {
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      /** How deep the walk is inside a {@code __pycache__} folder: its files are no files, its links still links. */
      private int cacheDepth = inCache ? 1 : 0;
      /** For each folder open in the walk, how many files were listed when it was entered. */
      private final ArrayDeque<Integer> listed = new ArrayDeque<>();

      @Override public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        if (cacheDepth > 0 || (!dir.equals(root) && dir.getFileName().toString().equals("__pycache__"))) cacheDepth++;
        listed.push(files.size());
        return FileVisitResult.CONTINUE;
      }

      @Override public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null) throw e;
        if (cacheDepth > 0) cacheDepth--;
        if (listed.pop() == files.size() && !dir.equals(root)) bare.add(relative(root, dir));
        return FileVisitResult.CONTINUE;
      }

      @Override public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (!attrs.isRegularFile()) skipped.add(relative(root, file));
        else if (cacheDepth == 0) files.add(relative(root, file));
        return FileVisitResult.CONTINUE;
      }

      @Override public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        throw e;
      }
    });
  }

  /**
   * Whether the relative path {@code rel} lies below a {@code __pycache__} folder, so that {@link #files} leaves it
   * out (a file itself named so is kept, as the walk keeps it).
   */
  public static boolean inCache(String rel) {
    int from = 0;
    int slash;
    while ((slash = rel.indexOf('/', from)) >= 0) {
      if (slash - from == "__pycache__".length() && rel.startsWith("__pycache__", from)) return true;
      from = slash + 1;
    }
    return false;
  }

  /** The '/'-separated path of {@code p} relative to {@code root}. */
  public static String relative(Path root, Path p) {
    // a path below the root, with no '.' or '..' to resolve, is the rest of its text past the root's: the paths' texts
    // are kept once made, and relativize compares them name by name and builds a new path (an evidence text each)
    String r = root.toString();
    String s = p.toString();
    if (!r.isEmpty() && s.length() > r.length() + 1 && s.charAt(r.length()) == '/' && s.startsWith(r)
        && r.charAt(r.length() - 1) != '/' && p.getFileSystem().getSeparator().equals("/")) {
      String rest = s.substring(r.length() + 1);
      if (rest.charAt(0) != '.' && !rest.contains("/.")) return rest.replace('\\', '/');
    }
    return root.relativize(p).toString().replace('\\', '/');
  }
}
