package dev.h2beam.adapters.agents;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Watches, through /proc, every process whose environment holds one exact entry (a run's own {@code HOME}), or an
 * entry with a given prefix (the runs of one benchmark batch): what they were started with and how much memory they
 * took. Only the processes of one agent run carry its fresh {@code HOME}, so this sees the CLI and everything it
 * started, and nobody else's.
 */
final class ProcessWatch implements AutoCloseable {
  private static final Path PROC = Path.of("/proc");
  private static final long PERIOD_MS = 20;

  private final byte[] marker;
  private final boolean prefix;
  private final Map<Long, List<String>> seen = new LinkedHashMap<>();
  private final Thread thread;
  private volatile boolean stop;
  private long peakTotalKb;
  private long peakSingleKb;

  private ProcessWatch(String envEntry, boolean prefix) {
    this.marker = envEntry.getBytes(StandardCharsets.UTF_8);
    this.prefix = prefix;
    this.thread = new Thread(this::loop, "process-watch");
    thread.setDaemon(true);
  }

  /** Starts watching for processes whose environment has {@code name=value}. */
  static ProcessWatch start(String name, String value) {
    ProcessWatch w = new ProcessWatch(name + "=" + value, false);
    w.thread.start();
    return w;
  }

  /** Starts watching for processes whose environment has {@code name} set to a value starting with {@code prefix}. */
  static ProcessWatch startPrefix(String name, String prefix) {
    ProcessWatch w = new ProcessWatch(name + "=" + prefix, true);
    w.thread.start();
    return w;
  }

  /** The pids of the matching processes alive now (zombies excluded). */
  List<Long> alive() {
    List<Long> out = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path dir : dirs) {
        if (matches(dir) && !zombie(dir)) out.add(Long.parseLong(dir.getFileName().toString()));
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
    return out;
  }

  /** The command lines of every matching process seen so far, by pid. */
  synchronized Map<Long, List<String>> seen() {
    return Map.copyOf(seen);
  }

  /** The most resident memory the matching processes held at once, in KiB. */
  synchronized long peakTotalKb() {
    return peakTotalKb;
  }

  /** The most resident memory any one matching process held (its VmHWM), in KiB. */
  synchronized long peakSingleKb() {
    return peakSingleKb;
  }

  private void loop() {
    while (!stop) {
      long total = 0;
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, "[0-9]*")) {
        for (Path dir : dirs) {
          if (!matches(dir)) continue;
          long pid = Long.parseLong(dir.getFileName().toString());
          List<String> cmdline = cmdline(dir);
          long rss = status(dir, "VmRSS:");
          long hwm = status(dir, "VmHWM:");
          total += rss;
          synchronized (this) {
            if (!cmdline.isEmpty()) seen.putIfAbsent(pid, cmdline);
            peakSingleKb = Math.max(peakSingleKb, hwm);
          }
        }
      } catch (IOException e) {
        // a listing that races with exiting processes; the next sample sees the rest
      }
      synchronized (this) {
        peakTotalKb = Math.max(peakTotalKb, total);
      }
      try {
        Thread.sleep(PERIOD_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private boolean matches(Path dir) {
    byte[] env;
    try {
      env = Files.readAllBytes(dir.resolve("environ"));
    } catch (IOException e) {
      return false; // gone, or not ours to read
    }
    int start = 0;
    for (int i = 0; i <= env.length; i++) {
      if (i == env.length || env[i] == 0) {
        int len = prefix ? Math.min(i - start, marker.length) : i - start;
        if (len == marker.length && Arrays.equals(env, start, start + len, marker, 0, marker.length)) return true;
        start = i + 1;
      }
    }
    return false;
  }

  private static List<String> cmdline(Path dir) {
    try {
      String raw = new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8);
      return raw.isEmpty() ? List.of() : List.of(raw.split("\0"));
    } catch (IOException e) {
      return List.of();
    }
  }

  private static boolean zombie(Path dir) {
    try {
      String stat = Files.readString(dir.resolve("stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return true;
    }
  }

  /** A {@code kB} field of /proc/pid/status, 0 when absent (a zombie) or unreadable. */
  private static long status(Path dir, String field) {
    try {
      for (String line : Files.readAllLines(dir.resolve("status"))) {
        if (line.startsWith(field)) return Long.parseLong(line.substring(field.length()).strip().split("\\s+")[0]);
      }
    } catch (IOException | NumberFormatException e) {
      // gone between listing and reading
    }
    return 0;
  }

  @Override public void close() throws InterruptedException {
    stop = true;
    thread.interrupt();
    thread.join();
  }
}
