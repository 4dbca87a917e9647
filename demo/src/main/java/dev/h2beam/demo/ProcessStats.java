package dev.h2beam.demo;

import dev.h2beam.adapters.exec.OwnUsage;
import java.io.IOException;
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
import java.util.Arrays;

/**
 * What this process has used so far ({@link OwnUsage}: its CPU, its waited-for children's CPU, which are the
 * rollouts' scripts, and its peak resident memory) and the load average of the machine.
 */
record ProcessStats(double cpuSeconds, double childCpuSeconds, long peakRssKb, String loadAverage) {

  static ProcessStats now() {
    return new ProcessStats(OwnUsage.cpuSeconds(), OwnUsage.childCpuSeconds(), OwnUsage.peakRssKb(),
        readLoadAverage());
  }

  static String readLoadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /**
   * The regular files below {@code dir}: their names, and the distinct files behind them (hard links share one),
   * kept as sorted numbers (device and inode) so that counting a tree of millions of files costs megabytes, not the
   * hundreds a set of objects would add to the peak memory the bench reports. Each name is looked at once, relative
   * to its open folder where the platform allows ({@code fstatat}): a 2,000-task bench's output holds three million
   * names, and the JDK's walk, which resolves every whole path, took 16 CPU-s for each count there. A name removed
   * while the count reads its folder is not counted.
   */
  static FileCount files(Path dir) throws IOException {
    Count count = new Count();
    if (!Files.isDirectory(dir)) return count.result();
    try (DirectoryStream<Path> in = Files.newDirectoryStream(dir)) {
      if (in instanceof SecureDirectoryStream<Path> secure) {
        count.in(secure, dir, 0);
        return count.result();
      }
    } catch (DirectoryIteratorException e) {
      throw e.getCause();
    }
    count.walk(dir);
    return count.result();
  }

  /** The numbers {@link #files} gathers. */
  private static final class Count {
    /** Below this depth folders are read relative to their parents; deeper by the JDK's walk (no stack per level). */
    private static final int RELATIVE_DEPTH = 64;
    private long[] keys = new long[1024];
    private int n;
    private long names;

    void add(BasicFileAttributes a, Path p) {
      names++;
      if (n == keys.length) keys = Arrays.copyOf(keys, n * 2);
      keys[n++] = key(a.fileKey(), p);
    }

    void in(SecureDirectoryStream<Path> folder, Path path, int depth) throws IOException {
      for (Path entry : folder) {
        Path name = entry.getFileName();
        BasicFileAttributes a;
        try {
          a = folder.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
              .readAttributes();
        } catch (NoSuchFileException e) {
          continue;
        }
        if (a.isRegularFile()) {
          add(a, path.resolve(name));
        } else if (a.isDirectory() && depth + 1 >= RELATIVE_DEPTH) {
          walk(path.resolve(name));
        } else if (a.isDirectory()) {
          try (SecureDirectoryStream<Path> sub = folder.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
            in(sub, path.resolve(name), depth + 1);
          } catch (NoSuchFileException e) {
            // removed since it was looked at: not counted
          }
        }
      }
    }

    void walk(Path dir) throws IOException {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override public FileVisitResult visitFile(Path p, BasicFileAttributes a) {
          if (a.isRegularFile()) add(a, p);
          return FileVisitResult.CONTINUE;
        }

        @Override public FileVisitResult visitFileFailed(Path p, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) return FileVisitResult.CONTINUE;
          throw e;
        }
      });
    }

    FileCount result() {
      long[] sorted = Arrays.copyOf(keys, n);
      Arrays.sort(sorted);
      int distinct = 0;
      for (int i = 0; i < sorted.length; i++) if (i == 0 || sorted[i] != sorted[i - 1]) sorted[distinct++] = sorted[i];
      return new FileCount(names, Arrays.copyOf(sorted, distinct));
    }
  }

  /**
   * Device and inode as one number, read from the key's text on Linux ({@code (dev=<hex>,ino=<decimal>)}); the
   * path's hash where there is no such key.
   */
  static long key(Object fileKey, Path p) {
    String s = fileKey == null ? "" : fileKey.toString();
    int dev = s.indexOf("dev=");
    int ino = s.indexOf(",ino=", dev + 1);
    int end = ino < 0 ? -1 : s.indexOf(')', ino);
    try {
      if (dev >= 0 && end > ino) {
        return Long.parseLong(s, ino + 5, end, 10) ^ (Long.parseLong(s, dev + 4, ino, 16) << 40);
      }
    } catch (NumberFormatException e) {
      // not the key Linux gives: the path's hash below
    }
    return p.toAbsolutePath().toString().hashCode();
  }

  /** Names of regular files and the distinct files (inodes, sorted) behind them. */
  record FileCount(long names, long[] files) {
    /** Distinct files here that were not among {@code before}'s: the files written since. */
    long newFiles(FileCount before) {
      long count = 0;
      for (long k : files) if (Arrays.binarySearch(before.files, k) < 0) count++;
      return count;
    }
  }
}
