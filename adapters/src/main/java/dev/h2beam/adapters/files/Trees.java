package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/** Folder trees a benchmark owns (rollout folders it wipes before rolling again). */
public final class Trees {
  private Trees() {}

  /**
   * Below this depth a tree is removed entry by entry relative to its open folders; deeper (only a tree someone built
   * to be deep) by the JDK's walk, which keeps no Java stack per level.
   */
  private static final int RELATIVE_DEPTH = 64;

  /**
   * Makes the folder {@code dir} and the missing ones above it, as {@link Files#createDirectories} does, asking first
   * whether it is there: the JDK's call tries to make it and fails, an exception made and caught, for a folder that
   * exists, which is what most callers find (a journal's, an audit trail's, a file's folder), a few of them for every
   * session or rollout.
   */
  public static void makeFolder(Path dir) throws IOException {
    if (!dir.toFile().isDirectory()) Files.createDirectories(dir);
  }

  /**
   * Deletes a file or folder tree without following links out of it; a missing path is fine.
   *
   * <p>Where the platform offers it (Linux), every entry is looked at and removed relative to its open folder
   * ({@link SecureDirectoryStream}: {@code fstatat}, {@code unlinkat}), one look and one removal each. The JDK's walk
   * with {@link Files#delete} looked at every file twice and resolved its whole path three times, and removing the
   * sweep's used session folders this way was an eighth of its threads' CPU (BENCHMARKS.md, issue 11). Opening each
   * folder relative to its parent, without following a link, also means a folder swapped for a link while it is
   * removed cannot lead the removal out of the tree.
   *
   * <p>Nothing there, as most callers find (a folder cleared before it is made), is answered by two looks: one that
   * follows links and raises nothing, then, if it found nothing, a removal of the name, which takes away a link that
   * leads nowhere and raises nothing where there is none. Opening the parent folder and looking at the name in it cost
   * more than removing a small tree (BENCHMARKS.md, issue 11).
   */
  public static void delete(Path p) throws IOException {
    WrittenTrees.forget(p);
    if (!p.toFile().exists()) {
      // nothing there, or a link that leads nowhere (or to itself): removed as a name, as unlink never follows a
      // link; asking whether it was a link made and caught an exception for every path with nothing there
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // a link that could not be removed is refused, as before; a path that cannot even be looked at (a folder
        // above it closed to this user, a loop of links above it) is nothing this call can remove, as before
        if (Files.isSymbolicLink(p)) throw e;
      }
      return;
    }
    Path abs = p.toAbsolutePath();
    String last = abs.getFileName() == null ? "" : abs.getFileName().toString();
    if (last.equals(".") || last.equals("..")) {
      // names no entry of its parent folder: the folder it denotes, named without the dots (the walk took it for its
      // contents, then could not remove "." itself)
      abs = abs.normalize();
      last = abs.getFileName() == null ? "" : abs.getFileName().toString();
    }
    if (abs.getParent() != null && !last.isEmpty()) {
      DirectoryStream<Path> parent;
      try {
        parent = Files.newDirectoryStream(abs.getParent());
      } catch (NoSuchFileException e) {
        return;
      } catch (AccessDeniedException e) {
        parent = null;   // a parent that may be searched but not listed: the walk below needs no more than that
      }
      try (DirectoryStream<Path> in = parent) {
        if (in instanceof SecureDirectoryStream<Path> secure) {
          remove(secure, abs.getFileName(), abs, 0);
          return;
        }
      }
    }
    walkDelete(abs);
  }

  /** Removes entry {@code name} of the open folder {@code in} ({@code path} is where it is, for the deep case). */
  private static void remove(SecureDirectoryStream<Path> in, Path name, Path path, int depth) throws IOException {
    BasicFileAttributes a;
    try {
      a = in.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    } catch (NoSuchFileException e) {
      return;
    }
    try {
      if (!a.isDirectory()) {
        in.deleteFile(name);
        return;
      }
      if (depth >= RELATIVE_DEPTH) {
        walkDelete(path);
        return;
      }
      try (SecureDirectoryStream<Path> folder = in.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
        // the names first, then the removals: a folder is not changed while it is being read
        List<Path> names = new ArrayList<>();
        try {
          for (Path entry : folder) names.add(entry.getFileName());
        } catch (DirectoryIteratorException e) {
          throw e.getCause();
        }
        for (Path n : names) remove(folder, n, path.resolve(n), depth + 1);
      }
      in.deleteDirectory(name);
    } catch (NoSuchFileException e) {
      // removed meanwhile by someone else: gone is what was asked
    }
  }

  private static void walkDelete(Path p) throws IOException {
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
    Files.walkFileTree(p, new SimpleFileVisitor<>() {
      @Override public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
        Files.delete(f);
        return FileVisitResult.CONTINUE;
      }

      @Override public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        if (e != null) throw e;
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
