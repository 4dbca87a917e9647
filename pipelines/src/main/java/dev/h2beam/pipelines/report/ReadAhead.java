package dev.h2beam.pipelines.report;

import dev.h2beam.pipelines.files.Forked;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Namespaces read by the report command while Beam's option registry and the pipeline are being built, for the
 * DirectRunner, whose reading step runs in the same JVM and takes each namespace's read from here instead of reading
 * it again ({@code ReadNamespaceFn}). Building the registry keeps one core busy for most of a second before the
 * pipeline's first read; the other core reads namespaces meanwhile, in their order, on a daemon thread.
 *
 * <p>A read is the same whichever thread makes it ({@link NamespaceRead#of}): the reading step that wants a namespace
 * nobody has begun reads it itself, one being read is waited for, and each is taken once. Reads belong to a run,
 * named by the token {@link #start} returns; {@link #end} drops whatever its pipeline did not take, and stops its
 * thread. On another runner the reading step runs in other JVMs, finds nothing here and reads as it always does.
 */
final class ReadAhead {
  private ReadAhead() {}

  private static final Map<String, Map<String, Forked<NamespaceRead>>> RUNS = new ConcurrentHashMap<>();

  /** Starts reading {@code dirs} in order on a daemon thread; returns the run's token. */
  static String start(List<String> dirs) {
    String run = UUID.randomUUID().toString();
    Map<String, Forked<NamespaceRead>> reads = new LinkedHashMap<>();
    for (String dir : dirs) reads.putIfAbsent(dir, Forked.of(() -> NamespaceRead.of(dir)));
    List<Forked<NamespaceRead>> order = List.copyOf(reads.values());
    RUNS.put(run, new ConcurrentHashMap<>(reads));
    Thread t = new Thread(() -> {
      for (Forked<NamespaceRead> r : order) {
        if (!RUNS.containsKey(run)) return;
        r.help();
      }
    }, "h2beam-report-read-ahead");
    t.setDaemon(true);
    t.start();
    return run;
  }

  /**
   * The run's read of {@code dir}, made here if no thread has begun it and waited for if one has; null when there is
   * no such run in this JVM or the namespace was not among its folders or was taken already.
   */
  static NamespaceRead take(String run, String dir) {
    if (run == null) return null;
    Map<String, Forked<NamespaceRead>> reads = RUNS.get(run);
    Forked<NamespaceRead> r = reads == null ? null : reads.remove(dir);
    return r == null ? null : r.join();
  }

  /** Drops the run: its thread begins no further read, and what was read and not taken is let go. */
  static void end(String run) {
    if (run != null) RUNS.remove(run);
  }

  /** How many runs this JVM holds (for tests: a command ends its own). */
  static int runs() {
    return RUNS.size();
  }

  /** How many reads of the run are still to be taken (for tests); 0 for a run that ended. */
  static int pending(String run) {
    Map<String, Forked<NamespaceRead>> reads = RUNS.get(run);
    return reads == null ? 0 : reads.size();
  }
}
