package dev.h2beam.adapters.files;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes that never leave a half-written file behind: a sibling temp file, then an atomic rename. The file gets the
 * permissions of any file this process creates (0666 less the umask, so 0644 with the usual umask): other users
 * and workers on a shared file system read what h2beam writes. {@code Files.createTempFile} is not used because it
 * makes every file 0600.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  private static final AtomicLong COUNTER = new AtomicLong();

  public static void writeString(Path target, String text) throws IOException {
    writeBytes(target, text.getBytes(StandardCharsets.UTF_8));
  }

  public static void writeBytes(Path target, byte[] bytes) throws IOException {
    move(temp(target, false, out -> out.write(bytes)), target);
  }

  /** What goes into a file, written to its stream. */
  @FunctionalInterface
  public interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Like {@link #writeBytes}, the content streamed by {@code body} (buffered), so a large file is never held whole in
   * memory. {@code ownerOnly} creates the file readable and writable by its owner alone (0600) from its first byte,
   * for content not everyone may read; on a file system without POSIX permissions it gets the defaults.
   */
  public static void write(Path target, boolean ownerOnly, Body body) throws IOException {
    move(temp(target, ownerOnly, out -> {
      BufferedOutputStream buffered = new BufferedOutputStream(out, 1 << 16);
      body.writeTo(buffered);
      buffered.flush();
    }), target);
  }

  /** Renames a complete temp file onto {@code target}, replacing it atomically where the file system can. */
  private static void move(Path tmp, Path target) throws IOException {
    boolean moved = false;
    try {
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      moved = true;
    } finally {
      // a moved file is gone from its temporary name: removing it again only failed, once for every file written
      if (!moved) Files.deleteIfExists(tmp);
    }
  }

  /**
   * Creates {@code target} with {@code text} unless it exists, and never replaces a file, even one another process
   * created first. Returns whether this call created it.
   */
  public static boolean createIfAbsent(Path target, String text) throws IOException {
    if (Files.exists(target)) return false;
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    Path tmp = temp(target, false, out -> out.write(bytes));
    try {
      Files.move(tmp, target); // no REPLACE_EXISTING: a file another process created first wins
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The names {@link #temp} gives: {@code .<target name>.<pid>.<counter>.tmp}. */
  private static final java.util.regex.Pattern TEMP_NAME = java.util.regex.Pattern.compile("\\..+\\.[0-9]+\\.[0-9]+\\.tmp");

  /**
   * Whether {@code fileName} is one of this class's temp files: a write that a killed process never renamed into
   * place. Such a file holds nothing anyone needs; its target still holds the previous complete version (or is
   * absent).
   */
  public static boolean isLeftover(String fileName) {
    // the cheap test first: a namespace's folder holds a name per task, none of them a temp
    return fileName.startsWith(".") && fileName.endsWith(".tmp") && TEMP_NAME.matcher(fileName).matches();
  }

  /**
   * Removes the temp files of writes of {@code targets} (file names) left directly in {@code dir}; returns them,
   * sorted. Only for a writer that is the one writer of those targets, and holds {@code dir}'s writer lock: then every
   * such temp is a killed writer's.
   */
  public static java.util.List<Path> removeLeftovers(Path dir, java.util.Collection<String> targets)
      throws IOException {
    return removeLeftovers(dir, name -> targets.stream().anyMatch(t -> name.startsWith("." + t + ".")));
  }

  /**
   * The same for the temps whose names {@code ofTarget} accepts: every temp in {@code dir} for the one writer of all
   * its files (a folder of kept grades).
   */
  public static java.util.List<Path> removeLeftovers(Path dir, java.util.function.Predicate<String> ofTarget)
      throws IOException {
    java.util.List<Path> removed = new java.util.ArrayList<>();
    if (!Files.isDirectory(dir)) return removed;
    // the names only (a namespace holds a folder per task), then a path for each temp among them, sorted
    String[] names = dir.toFile().list();
    if (names == null) throw new IOException("cannot list " + dir);
    java.util.List<Path> temps = new java.util.ArrayList<>();
    for (String name : names) {
      if (isLeftover(name) && ofTarget.test(name)) {
        temps.add(dir.resolve(name));
      }
    }
    temps.sort(null);
    for (Path p : temps) {
      if (!Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) continue;
      Files.delete(p);
      removed.add(p);
    }
    return removed;
  }

  /**
   * What to tell the user of the half-written files a killed {@code what} (a run, a judge, a report) left and that were
   * removed; none when none were.
   */
  public static java.util.Optional<String> removedMessage(java.util.List<Path> removed, String what) {
    if (removed.isEmpty()) return java.util.Optional.empty();
    return java.util.Optional.of("h2beam: removed " + removed.size() + " half-written file(s) an interrupted " + what
        + " left behind, e.g. " + removed.get(0) + " (each file it was writing still holds its last complete version)");
  }

  /** A new sibling temp file holding what {@code body} writes, created with the default permissions or 0600. */
  private static Path temp(Path target, boolean ownerOnly, Body body) throws IOException {
    Path parent = target.toAbsolutePath().getParent();
    Trees.makeFolder(parent);
    String prefix = "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".";
    while (true) {
      // pid and a process-wide counter make the name unique on this host; CREATE_NEW settles a clash with another
      // host sharing the folder
      Path tmp = parent.resolve(prefix + COUNTER.incrementAndGet() + ".tmp");
      OutputStream out;
      try {
        out = create(tmp, ownerOnly);
      } catch (FileAlreadyExistsException e) {
        continue;
      }
      boolean written = false;
      try (out) {
        body.writeTo(out);
        written = true;
      } catch (IOException e) {
        // a full disk fails the write without naming the file: the failure line names the one being written
        throw DiskFull.naming(target, e);
      } finally {
        if (!written) Files.deleteIfExists(tmp);
      }
      return tmp;
    }
  }

  private static OutputStream create(Path tmp, boolean ownerOnly) throws IOException {
    Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    if (ownerOnly && tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return Channels.newOutputStream(Files.newByteChannel(tmp, options,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))));
    }
    return Channels.newOutputStream(Files.newByteChannel(tmp, options));
  }
}
