package dev.h2beam.transforms.evidence;

import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Copying and deleting whole folders. */
public final class FileTrees {
  private FileTrees() {}

  /**
   * Copies every regular file under {@code from} (skipping {@code __pycache__} and {@code *.pyc}) into {@code to}.
   * Symbolic links and special files are never followed nor copied; each is named in a warning.
   */
  public static void copy(Path from, Path to) throws IOException {
    copy(from, to, PathOrder.list(from));
  }

  /**
   * The same with the listing of {@code from} already made by {@link PathOrder#list}. A copy has its source's bytes
   * and mode, not its owner, times or extended attributes (nothing reads them, and each cost a system call a file).
   */
  public static void copy(Path from, Path to, PathOrder.Listing listing) throws IOException {
    warnSkipped(from, listing);
    place(from, to, listing.files(), (i, source, target) -> copyFile(source, target));
  }

  /**
   * The same from files already read ({@link HeldTree}): a held file is written from memory, the rest copied from
   * where the tree reads them.
   */
  static void copy(HeldTree tree, Path to, String under) throws IOException {
    warnSkipped(tree.root(), tree.listing());
    place(tree.root(), to, tree.files(), under, (i, source, target) -> {
      byte[] bytes = tree.bytes(i);
      if (bytes == null) {
        copyFile(tree.source(i), target);
      } else {
        try (SeekableByteChannel out = Files.newByteChannel(target, EnumSet.of(StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(tree.mode(i)))) {
          ByteBuffer buf = ByteBuffer.wrap(bytes);
          while (buf.hasRemaining()) out.write(buf);
        }
      }
    });
  }

  private static void copyFile(Path source, Path target) throws IOException {
    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
  }

  private static void warnSkipped(Path from, PathOrder.Listing listing) {
    for (String rel : listing.skipped()) {
      System.err.println("h2beam: skipped " + from.resolve(rel) + " (a symbolic link or special file; links are never"
          + " followed)");
    }
  }

  /** Puts one file of a tree (the {@code index}-th of its listing) at its place in another. */
  private interface Placer {
    void place(int index, Path source, Path target) throws IOException;
  }

  /**
   * Puts each listed file of {@code from} (but {@code .pyc}) at the same relative path under {@code to}, making each
   * folder once: files come in path order, so a folder's files mostly follow each other. The number placed.
   */
  private static int place(Path from, Path to, List<String> files, Placer placer) throws IOException {
    return place(from, to, files, "", placer);
  }

  /** The same for the files whose relative path starts with {@code under} alone ("" for all). */
  private static int place(Path from, Path to, List<String> files, String under, Placer placer) throws IOException {
    Files.createDirectories(to);
    Set<Path> made = new HashSet<>();
    made.add(to);
    return place(from, to, files, under, placer, made);
  }

  /**
   * The same below {@code to}, a folder under one of {@code made} (folders known to exist, to which those made here
   * are added): each missing folder is made from the nearest one known, never by the JDK's climb, which fails once
   * for every folder that is not there yet.
   */
  private static int place(Path from, Path to, List<String> files, String under, Placer placer, Set<Path> made)
      throws IOException {
    makeFolder(to, made);
    int n = 0;
    for (int i = 0; i < files.size(); i++) {
      String rel = files.get(i);
      if (!copied(rel) || !rel.startsWith(under)) continue;
      Path target = to.resolve(rel);
      makeFolder(target.getParent(), made);
      placer.place(i, from.resolve(rel), target);
      n++;
    }
    return n;
  }

  /** Whether a listed file is placed in a copy or a link of its tree: all but compiled Python ({@code .pyc}). */
  static boolean copied(String rel) {
    return !rel.endsWith(".pyc");
  }

  /**
   * Makes {@code dir} below a folder in {@code made}, each missing folder with one system call: the JDK's {@code
   * createDirectories} first tries the deepest folder, and for a nested new one fails, throws and climbs back up
   * (a few percent of a sweep's CPU, BENCHMARKS.md, issue 11). A folder already there is fine.
   */
  static void makeFolder(Path dir, Set<Path> made) throws IOException {
    if (made.contains(dir)) return;
    if (dir.getParent() == null) throw new IOException("a listed file lies outside the folder it is placed in");
    makeFolder(dir.getParent(), made);
    try {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) throw e;
    }
    made.add(dir);
  }

  /**
   * Copies a folder an agent session left behind, refusing it whole when the session planted a symbolic link or a
   * special file there: a link could make the harness read or overwrite files outside it. Returns the files now in
   * {@code to} (relative, path order), so a reader of the copy need not list it again.
   */
  public static List<String> copyRefusingLinks(Path from, Path to) throws IOException {
    PathOrder.Listing listing = refusingLinks(from);
    copy(from, to, listing);
    return placed(listing);
  }

  /**
   * The same, moving the folder (one rename) where the copy would hold the same files: the session is over, its
   * folder is used up, and copying a harvested harness out of it was a percent or two of a sweep's CPU at L = 0
   * (BENCHMARKS.md, issue 11). {@code to} must not exist. Copied as {@link #copyRefusingLinks} copies when the folder
   * holds compiled Python ({@code .pyc}, which a copy leaves out) or cannot be renamed there (another file system).
   * What a rename keeps that a copy would not, {@code __pycache__} folders and empty folders, no listed file shows
   * (the listing's bare folders do).
   */
  public static List<String> moveRefusingLinks(Path from, Path to) throws IOException {
    PathOrder.Listing listing = refusingLinks(from);
    if (listing.files().stream().allMatch(FileTrees::copied)) {
      try {
        Files.move(from, to);
        return listing.files();
      } catch (IOException e) {
        // another file system (a folder is not moved across them), or no folder to move: copied below
      }
    }
    copy(from, to, listing);
    return placed(listing);
  }

  /** The files of a listing a copy places (all but compiled Python), in the listing's order. */
  private static List<String> placed(PathOrder.Listing listing) {
    return listing.files().stream().filter(FileTrees::copied).toList();
  }

  /** The listing of a folder a session left behind, refused whole when it holds a link or a special file. */
  private static PathOrder.Listing refusingLinks(Path from) throws IOException {
    PathOrder.Listing listing = PathOrder.list(from);
    List<String> links = listing.skipped();
    if (!links.isEmpty()) {
      throw new IOException("the session left symbolic links or special files in " + from + ": "
          + links.subList(0, Math.min(5, links.size())) + "; a harness holds regular files only");
    }
    return listing;
  }

  /**
   * Puts every file under {@code from} into {@code to} as a hard link (a copy where the file system cannot link,
   * e.g. across devices). For evidence only: nothing edits an evidence folder in place (sessions work on copies, and
   * a rejected harness is written back as new files), so the shared bytes never change under another folder.
   */
  public static void link(Path from, Path to) throws IOException {
    link(from, to, PathOrder.files(from));
  }

  /**
   * The same with the listing of {@code from} already made ({@link PathOrder#files}); the number of files put in
   * {@code to} ({@code .pyc} files are left out).
   */
  public static int link(Path from, Path to, List<String> files) throws IOException {
    return place(from, to, files, (i, source, target) -> placeLink(source, target));
  }

  /**
   * The same into {@code to}, below a folder of {@code made} (folders known to exist, to which the ones made here are
   * added; see {@link #place(Path, Path, List, String, Placer, Set)}).
   */
  static int link(Path from, Path to, List<String> files, Set<Path> made) throws IOException {
    return place(from, to, files, "", (i, source, target) -> placeLink(source, target), made);
  }

  /** One file as a hard link at {@code target} (a copy where the file system cannot link). */
  public static void linkFile(Path source, Path target) throws IOException {
    Files.createDirectories(target.getParent());
    placeLink(source, target);
  }

  /**
   * Links {@code source} at {@code target}, whose folder exists, replacing a file already there. The link is tried
   * first: evidence folders are made anew, so a target seldom exists, and deleting it first cost a failed system
   * call (and a thrown exception inside the JDK) for every file.
   */
  private static void placeLink(Path source, Path target) throws IOException {
    try {
      Files.createLink(target, source);
      return;
    } catch (FileAlreadyExistsException e) {
      Files.deleteIfExists(target);
    } catch (IOException | UnsupportedOperationException e) {
      // no hard links here (another device, a file system without them): copied below
    }
    try {
      Files.createLink(target, source);
    } catch (IOException | UnsupportedOperationException e) {
      copyFile(source, target);
    }
  }

  /** Deletes a file or folder tree; a missing path is fine. */
  public static void delete(Path p) throws IOException {
    Trees.delete(p);
  }

  public static void deleteQuietly(Path p) {
    try {
      delete(p);
    } catch (IOException e) {
      // best effort: a temp folder that cannot be removed is left behind
    }
  }

  /** Deletes and recreates {@code dir}. */
  public static void recreate(Path dir) {
    try {
      delete(dir);
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot recreate " + dir, e);
    }
  }
}
