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

  /** The regular files below {@code dir}: their names, and the distinct files behind them (hard links share one). */
  static FileCount files(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) return new FileCount(0, java.util.Set.of());
    java.util.Set<Object> keys = new java.util.HashSet<>();
    long names = 0;
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(p,
            java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) continue;
        names++;
        keys.add(a.fileKey() == null ? p : a.fileKey());
      }
    }
    return new FileCount(names, keys);
  }

  /** Names of regular files and the distinct files (inodes) behind them. */
  record FileCount(long names, java.util.Set<Object> files) {
    /** Distinct files here that were not among {@code before}'s: the files written since. */
    long newFiles(FileCount before) {
      return files.stream().filter(k -> !before.files.contains(k)).count();
    }
  }
}
