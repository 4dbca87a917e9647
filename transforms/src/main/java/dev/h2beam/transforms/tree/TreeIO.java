package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.files.WrittenTrees;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes harness trees (spec §4.4). In memory a tree is an insertion-ordered map from relative path to
 * UTF-8 text; on disk it is a directory whose off-surface files belong to someone else and are never touched.
 */
public final class TreeIO {
  private TreeIO() {}

  /**
   * The most bytes one harness file may hold (1 MiB). A harness is instructions and small scripts; the tree is held in
   * memory, hashed, copied into every stage's evidence and rendered into prompts, so a larger file is refused, named,
   * before it is read whole.
   */
  public static final int MAX_FILE_BYTES = 1 << 20;

  /**
   * Every on-surface file under {@code dir}, in Python path order, README stubs excluded, with universal newlines. A
   * missing directory is an empty tree.
   *
   * <p>harness2 decodes with replacement characters; h2beam refuses a file that is not UTF-8 instead, because the
   * tree is written back to disk and a replaced byte would silently change a script.
   *
   * <p>Symbolic links and special files are never followed; each is named in a warning and left out.
   *
   * @param rejected when not null, receives the off-surface paths found on disk, in path order
   * @throws HarnessRejected naming the file when a harness file is not UTF-8 text or holds more than
   *     {@link #MAX_FILE_BYTES}
   */
  public static LinkedHashMap<String, String> read(SurfaceSpec surface, Path dir, List<String> rejected) {
    return read(surface, dir, null, rejected);
  }

  /**
   * The same with the files of {@code dir} already known ({@code files}: relative, path order, regular files only,
   * e.g. what a harvest placed there), or null to list them here.
   */
  public static LinkedHashMap<String, String> read(SurfaceSpec surface, Path dir, List<String> files,
      List<String> rejected) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    if (dir == null || !Files.isDirectory(dir)) return out;
    if (files == null) {
      PathOrder.Listing listing = PathOrder.list(dir);
      for (String rel : listing.skipped()) {
        System.err.println("h2beam: skipped " + dir.resolve(EnvKeys.redact(rel)) + " in a harness tree (a symbolic"
            + " link or special file; links are never followed)");
      }
      files = listing.files();
    }
    for (String rel : files) {
      if (surface.stubs().containsKey(rel)) continue;
      if (!TreePaths.isAllowed(surface, rel)) {
        if (rejected != null) rejected.add(rel);
        continue;
      }
      out.put(rel, readText(dir.resolve(rel)));
    }
    return out;
  }

  /** Whether {@link #read} reads the file {@code rel} of a harness folder: on the surface, and not a README stub. */
  public static boolean isRead(SurfaceSpec surface, String rel) {
    return !surface.stubs().containsKey(rel) && TreePaths.isAllowed(surface, rel);
  }

  private static String readText(Path file) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1); // never more, whatever the file's size says or becomes
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read harness file " + file, e);
    }
    return text(file, bytes);
  }

  /**
   * A harness file's text as {@link #read} makes it, from bytes already read: refused, named, when it holds more than
   * {@link #MAX_FILE_BYTES} or is not UTF-8, with universal newlines.
   */
  public static String text(Path file, byte[] bytes) {
    if (bytes.length > MAX_FILE_BYTES) {
      throw new HarnessRejected("harness file " + file + " holds more than " + MAX_FILE_BYTES + " bytes (1 MiB), the"
          + " most a harness file may hold; shrink it or remove it: a harness holds instructions and small scripts,"
          + " not data");
    }
    try {
      return TextFiles.utf8(bytes, "harness file " + file).replace("\r\n", "\n").replace('\r', '\n');
    } catch (IOException e) {
      throw new HarnessRejected(e.getMessage() + ", or remove it: a harness holds text files only");
    }
  }

  /**
   * A candidate's harness as {@link #read} reads it (no off-surface list): from memory when this task wrote it with
   * {@link #writeHarness} ({@link WrittenTrees}), else from disk. For the stages of the task that wrote it only:
   * every check of what is stored (credentials, the library, a resume) reads the disk.
   */
  public static LinkedHashMap<String, String> readHarness(SurfaceSpec surface, Path dir) {
    WrittenTrees.Entry written = dir == null ? null : WrittenTrees.of(dir);
    if (written != null && written.surface().equals(surface.name())) return new LinkedHashMap<>(written.tree());
    return read(surface, dir, null);
  }

  /**
   * The files under {@code dir} as {@link PathOrder#files} lists them: from memory for a candidate's harness this
   * task wrote ({@link #writeHarness}), else from disk.
   */
  public static List<String> files(Path dir) {
    WrittenTrees.Entry written = WrittenTrees.of(dir);
    return written != null ? written.files() : PathOrder.files(dir);
  }

  /**
   * The exact text of each file of {@code dir} that {@link #writeHarness} put there, by relative path: its bytes are
   * that text in UTF-8. Empty for a folder this task did not write (or forgot), and without the files that write left
   * alone (off-surface files).
   */
  public static Map<String, String> writtenTexts(Path dir) {
    WrittenTrees.Entry written = WrittenTrees.of(dir);
    return written != null ? written.written() : Map.of();
  }

  /**
   * {@code tree} as {@link #write} materialises it, stubs aside: every always-on file it lacks is there, empty. A
   * mode that compares its trees with what sessions read back from disk starts from this, so that a base without
   * an always-on file is not read as an edit that created it (dogAK F10).
   */
  public static LinkedHashMap<String, String> asWritten(SurfaceSpec surface, Map<String, String> tree) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>(tree);
    for (String a : surface.alwaysOn()) {
      if (!tree.containsKey(a) && !tree.containsKey(TreePaths.normalize(a))) out.put(a, "");
    }
    return out;
  }

  /** Whether {@code dir} exists and holds at least one of the surface's always-on files. */
  public static boolean isTree(SurfaceSpec surface, Path dir) {
    if (dir == null || !Files.isDirectory(dir)) return false;
    for (String a : surface.alwaysOn()) {
      if (Files.isRegularFile(dir.resolve(a))) return true;
    }
    return false;
  }

  /**
   * Materialises exactly {@code tree} under {@code dest}: on-surface and stub files already there are deleted,
   * off-surface files are kept, every always-on file missing from the tree is created empty, and (when
   * {@code stubs}) each README stub that does not exist yet is written. Every path is checked before anything on
   * disk changes.
   *
   * @return {@code dest}
   * @throws dev.h2beam.adapters.model.HarnessRejected when a path escapes the harness
   */
  public static Path write(SurfaceSpec surface, Map<String, String> tree, Path dest, boolean stubs) {
    return write(surface, tree, dest, stubs, false);
  }

  /**
   * {@link #write} for a candidate's harness that the task's later stages list and read again and again (pool
   * entries, diffs, the reflection): what was written is noted ({@link WrittenTrees}), so they read it from memory
   * ({@link #readHarness}, {@link #files}) until the task forgets its folder.
   */
  public static Path writeHarness(SurfaceSpec surface, Map<String, String> tree, Path dest, boolean stubs) {
    return write(surface, tree, dest, stubs, true);
  }

  private static Path write(SurfaceSpec surface, Map<String, String> tree, Path dest, boolean stubs,
      boolean remember) {
    Map<String, String> entries = new LinkedHashMap<>();
    tree.forEach((rel, text) -> entries.put(TreePaths.normalize(rel), text));
    WrittenTrees.forget(dest);
    try {
      // a folder made here holds nothing yet (most are: a stage's candidate, a pool entry): not listed
      boolean fresh = !dest.toFile().exists();
      Files.createDirectories(dest);
      // PathOrder skips __pycache__, which never holds an on-surface or stub path.
      PathOrder.Listing before = fresh ? new PathOrder.Listing(List.of(), List.of()) : PathOrder.list(dest);
      List<String> kept = new ArrayList<>();
      for (String rel : before.files()) {
        if (TreePaths.isAllowed(surface, rel) || surface.stubs().containsKey(rel)) {
          Files.delete(dest.resolve(rel));
        } else {
          kept.add(rel);
        }
      }
      // the exact text of every file written here, by relative path: the later stages show these bytes
      Map<String, String> wrote = new LinkedHashMap<>();
      Set<Path> made = new HashSet<>();
      made.add(dest);
      for (String a : surface.alwaysOn()) {
        Path p = dest.resolve(a);
        if (!entries.containsKey(a) && !Files.exists(p)) writeText(p, "", a, wrote, made);
      }
      for (Map.Entry<String, String> e : entries.entrySet()) {
        writeText(dest.resolve(e.getKey()), e.getValue(), e.getKey(), wrote, made);
      }
      if (stubs) {
        for (Map.Entry<String, String> s : surface.stubs().entrySet()) {
          Path p = dest.resolve(s.getKey());
          if (!Files.exists(p)) writeText(p, s.getValue(), s.getKey(), wrote, made);
        }
      }
      if (remember) remember(surface, entries, wrote, dest, before, kept);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write harness tree to " + dest, e);
    }
    return dest;
  }

  /**
   * Notes what {@link #write} left in {@code dest} ({@link WrittenTrees}): every on-surface file there is one just
   * written (the rest were deleted first), so its text is known, read as {@link #read} would read it (universal
   * newlines). Not noted when {@link #read} would not simply read the folder: a link or special file in it (warned
   * about on each read), or a file past {@link #MAX_FILE_BYTES} (refused on each read). Its files are the ones kept
   * from the listing {@code before} the write and the ones written, where a listing after it would find exactly
   * those names; listing it again was a percent of a sweep's CPU at L = 0 (BENCHMARKS.md, issue 11). Where a file
   * system could name them otherwise (a name beyond ASCII, which one may normalise, or two names one may take for
   * the same regardless of case), the folder is listed again.
   */
  private static void remember(SurfaceSpec surface, Map<String, String> entries, Map<String, String> wrote,
      Path dest, PathOrder.Listing before, List<String> kept) {
    if (!before.skipped().isEmpty()) return;
    List<String> files = new ArrayList<>(kept.size() + wrote.size());
    files.addAll(kept);
    files.addAll(wrote.keySet());
    Set<String> folded = new HashSet<>();
    boolean listed = false;
    for (String rel : files) {
      if (!isAscii(rel) || !folded.add(rel.toLowerCase(Locale.ROOT))) {
        PathOrder.Listing after = PathOrder.list(dest);
        if (!after.skipped().isEmpty()) return;
        files = after.files();
        listed = true;
        break;
      }
    }
    if (!listed) files.sort(PathOrder.RELATIVE);
    LinkedHashMap<String, String> tree = new LinkedHashMap<>();
    for (String rel : files) {
      if (surface.stubs().containsKey(rel) || !TreePaths.isAllowed(surface, rel)) continue;
      String text = entries.getOrDefault(rel, "");
      if (text.length() > MAX_FILE_BYTES / 3 && text.getBytes(StandardCharsets.UTF_8).length > MAX_FILE_BYTES) return;
      tree.put(rel, text.replace("\r\n", "\n").replace('\r', '\n'));
    }
    WrittenTrees.remember(dest, surface.name(), files, tree, wrote);
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) if (s.charAt(i) >= 0x80) return false;
    return true;
  }

  /** Writes {@code text} at {@code p} (the tree's {@code rel}) and notes it in {@code wrote}. */
  private static void writeText(Path p, String text, String rel, Map<String, String> wrote, Set<Path> made)
      throws IOException {
    // each folder made once: the JDK's createDirectories asks the file system again for every file
    if (made.add(p.getParent())) Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
    wrote.put(rel, text);
  }

  /** The always-on files' text in surface order (a missing file counts as empty), joined with a blank line. */
  public static String alwaysOnText(SurfaceSpec surface, Map<String, String> tree) {
    List<String> parts = new ArrayList<>();
    for (String a : surface.alwaysOn()) parts.add(tree.getOrDefault(a, ""));
    return String.join("\n\n", parts);
  }
}
