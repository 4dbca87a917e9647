package dev.h2beam.adapters.exec;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process has used so far, read the cheap way: its CPU time (every JVM thread, through the
 * {@code OperatingSystemMXBean}), the CPU time of the children it waited for (the programs it ran, from
 * {@code /proc/self/stat}) and its peak resident memory ({@code VmHWM}). The {@code /proc} values are Linux's; where a
 * value cannot be read it is -1, an unknown, never a zero.
 */
public final class OwnUsage {
  private OwnUsage() {}

  /** Clock ticks per second of {@code /proc/self/stat}'s times: USER_HZ, 100 on every Linux h2beam runs on. */
  private static final double TICKS = 100.0;

  /** This JVM's CPU time in seconds, every thread; -1 where the platform does not tell. */
  public static double cpuSeconds() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      long ns = os.getProcessCpuTime();
      return ns < 0 ? -1 : ns / 1e9;
    }
    return -1;
  }

  /** {@code cutime + cstime}: fields 16 and 17 of /proc/self/stat, counted after the parenthesised command name. */
  public static double childCpuSeconds() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The peak resident memory of this process in its life so far, in KiB ({@code VmHWM}); -1 unknown. */
  public static long peakRssKb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
