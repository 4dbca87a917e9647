package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.TextFiles;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    if (dir == null || !Files.isDirectory(dir)) return out;
    PathOrder.Listing listing = PathOrder.list(dir);
    for (String rel : listing.skipped()) {
      System.err.println("h2beam: skipped " + dir.resolve(rel) + " in a harness tree (a symbolic link or special"
          + " file; links are never followed)");
    }
    for (String rel : listing.files()) {
      if (surface.stubs().containsKey(rel)) continue;
      if (!TreePaths.isAllowed(surface, rel)) {
        if (rejected != null) rejected.add(rel);
        continue;
      }
      out.put(rel, readText(dir.resolve(rel)));
    }
    return out;
  }

  private static String readText(Path file) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1); // never more, whatever the file's size says or becomes
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read harness file " + file, e);
    }
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
    Map<String, String> entries = new LinkedHashMap<>();
    tree.forEach((rel, text) -> entries.put(TreePaths.normalize(rel), text));
    try {
      Files.createDirectories(dest);
      // PathOrder skips __pycache__, which never holds an on-surface or stub path.
      for (String rel : PathOrder.files(dest)) {
        if (TreePaths.isAllowed(surface, rel) || surface.stubs().containsKey(rel)) Files.delete(dest.resolve(rel));
      }
      for (String a : surface.alwaysOn()) {
        Path p = dest.resolve(a);
        if (!entries.containsKey(a) && !Files.exists(p)) writeText(p, "");
      }
      for (Map.Entry<String, String> e : entries.entrySet()) writeText(dest.resolve(e.getKey()), e.getValue());
      if (stubs) {
        for (Map.Entry<String, String> s : surface.stubs().entrySet()) {
          Path p = dest.resolve(s.getKey());
          if (!Files.exists(p)) writeText(p, s.getValue());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write harness tree to " + dest, e);
    }
    return dest;
  }

  private static void writeText(Path p, String text) throws IOException {
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  /** The always-on files' text in surface order (a missing file counts as empty), joined with a blank line. */
  public static String alwaysOnText(SurfaceSpec surface, Map<String, String> tree) {
    List<String> parts = new ArrayList<>();
    for (String a : surface.alwaysOn()) parts.add(tree.getOrDefault(a, ""));
    return String.join("\n\n", parts);
  }
}
