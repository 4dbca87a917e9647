package dev.h2beam.demo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What this process has used so far, read the cheap way: its CPU time (every JVM thread, through the
 * {@code OperatingSystemMXBean}), the CPU time of the children it waited for (the rollouts' scripts, from
 * {@code /proc/self/stat}), its peak resident memory ({@code VmHWM}) and the load average of the machine. The
 * {@code /proc} values are Linux's; elsewhere they read as -1.
 */
record ProcessStats(double cpuSeconds, double childCpuSeconds, long peakRssKb, String loadAverage) {

  /** Clock ticks per second of {@code /proc/self/stat}'s times: USER_HZ, 100 on every Linux h2beam runs on. */
  private static final double TICKS = 100.0;

  static ProcessStats now() {
    double cpu = -1;
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      cpu = os.getProcessCpuTime() / 1e9;
    }
    return new ProcessStats(cpu, readChildCpu(), readPeakRssKb(), readLoadAverage());
  }

  /** {@code cutime + cstime}: fields 16 and 17 of /proc/self/stat, counted after the parenthesised command name. */
  static double readChildCpu() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static long readPeakRssKb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
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
   * hundreds a set of objects would add to the peak memory the bench reports.
   */
  static FileCount files(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) return new FileCount(0, new long[0]);
    long[] keys = new long[1024];
    int n = 0;
    long names = 0;
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(p,
            java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) continue;
        names++;
        if (n == keys.length) keys = java.util.Arrays.copyOf(keys, n * 2);
        keys[n++] = key(a.fileKey(), p);
      }
    }
    keys = java.util.Arrays.copyOf(keys, n);
    java.util.Arrays.sort(keys);
    int distinct = 0;
    for (int i = 0; i < n; i++) if (i == 0 || keys[i] != keys[i - 1]) keys[distinct++] = keys[i];
    return new FileCount(names, java.util.Arrays.copyOf(keys, distinct));
  }

  private static final java.util.regex.Pattern UNIX_KEY = java.util.regex.Pattern.compile(
      "dev=([0-9a-fA-F]+),ino=(\\d+)");

  /** Device and inode as one number ({@code (dev=<hex>,ino=I)} on Linux); the path's hash where there is none. */
  private static long key(Object fileKey, Path p) {
    java.util.regex.Matcher m = fileKey == null ? null : UNIX_KEY.matcher(fileKey.toString());
    if (m == null || !m.find()) return p.toAbsolutePath().toString().hashCode();
    return Long.parseLong(m.group(2)) ^ (Long.parseLong(m.group(1), 16) << 40);
  }

  /** Names of regular files and the distinct files (inodes, sorted) behind them. */
  record FileCount(long names, long[] files) {
    /** Distinct files here that were not among {@code before}'s: the files written since. */
    long newFiles(FileCount before) {
      long count = 0;
      for (long k : files) if (java.util.Arrays.binarySearch(before.files, k) < 0) count++;
      return count;
    }
  }
}
