package dev.h2beam.adapters.proposer;

import dev.h2beam.adapters.files.PathOrder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A session's evidence as a channel reads it: the regular files of {@code context/} in path order, each with its size
 * and bytes. Either a folder on disk ({@link #of}), or the evidence the method already holds in memory, given to a
 * channel that reads it from there ({@link ProposerChannel#readsEvidenceFromMemory}) rather than from a copy in its
 * working folder. Both show the same files with the same bytes.
 */
public interface EvidenceView {

  /** Every regular file, relative to {@code context/}, '/'-separated, in path order ({@link PathOrder#RELATIVE}). */
  List<String> files();

  /**
   * The entries that are not regular files (symbolic links, special files, unreadable entries), each with why it is
   * not shown, in path order; never followed nor read. Evidence the method built has none.
   */
  Map<String, String> skipped();

  /** The size in bytes of a listed file. */
  long size(String rel) throws IOException;

  /** The bytes of a listed file, from the start; a symbolic link is never followed. */
  InputStream open(String rel) throws IOException;

  /** Whether {@code rel} is a listed file. */
  default boolean has(String rel) {
    return Collections.binarySearch(files(), rel, PathOrder.RELATIVE) >= 0;
  }

  /** The whole file. */
  default byte[] bytes(String rel) throws IOException {
    try (InputStream in = open(rel)) {
      return in.readAllBytes();
    }
  }

  /**
   * The files directly in the folder {@code dir} (relative, without a trailing '/'; not below its sub-folders), in
   * path order.
   */
  default List<String> filesIn(String dir) {
    String prefix = dir.isEmpty() ? "" : dir + "/";
    List<String> in = new ArrayList<>();
    for (String rel : files()) {
      if (rel.startsWith(prefix) && rel.indexOf('/', prefix.length()) < 0) in.add(rel);
    }
    return in;
  }

  /**
   * The folder {@code context} as it is on disk, listed now: its regular files (but those under a {@code
   * __pycache__} folder, as {@link PathOrder#files}), and its links, special and unreadable entries as skipped. A
   * missing folder is empty.
   */
  static EvidenceView of(Path context) throws IOException {
    Map<String, Long> files = new TreeMap<>(PathOrder.RELATIVE);
    Map<String, String> skipped = new TreeMap<>(PathOrder.RELATIVE);
    if (Files.isDirectory(context, LinkOption.NOFOLLOW_LINKS)) {
      Files.walkFileTree(context, new SimpleFileVisitor<>() {
        @Override public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          // the same files the reply cache hashes (PathOrder.files): compiled Python caches are not evidence
          return dir.getFileName().toString().equals("__pycache__") ? FileVisitResult.SKIP_SUBTREE
              : FileVisitResult.CONTINUE;
        }

        @Override public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          String rel = PathOrder.relative(context, file);
          if (attrs.isSymbolicLink()) skipped.put(rel, "symbolic link, not followed");
          else if (attrs.isRegularFile()) files.put(rel, attrs.size());
          else skipped.put(rel, "special file, skipped");
          return FileVisitResult.CONTINUE;
        }

        @Override public FileVisitResult visitFileFailed(Path file, IOException e) {
          skipped.put(PathOrder.relative(context, file), "unreadable (" + e.getClass().getSimpleName() + ")");
          return FileVisitResult.CONTINUE;
        }
      });
    }
    List<String> listed = List.copyOf(files.keySet());
    Map<String, String> notShown = Collections.unmodifiableMap(skipped);
    return new EvidenceView() {
      @Override public List<String> files() {
        return listed;
      }

      @Override public Map<String, String> skipped() {
        return notShown;
      }

      @Override public long size(String rel) throws IOException {
        Long size = files.get(rel);
        if (size == null) throw new IOException(rel + " is not a file of the evidence in " + context);
        return size;
      }

      @Override public InputStream open(String rel) throws IOException {
        if (!files.containsKey(rel)) throw new IOException(rel + " is not a file of the evidence in " + context);
        return Files.newInputStream(context.resolve(rel), LinkOption.NOFOLLOW_LINKS);
      }
    };
  }

  /** No evidence at all. */
  static EvidenceView empty() {
    return new EvidenceView() {
      @Override public List<String> files() {
        return List.of();
      }

      @Override public Map<String, String> skipped() {
        return Map.of();
      }

      @Override public long size(String rel) throws IOException {
        throw new IOException(rel + ": the session was given no evidence");
      }

      @Override public InputStream open(String rel) throws IOException {
        throw new IOException(rel + ": the session was given no evidence");
      }
    };
  }
}
