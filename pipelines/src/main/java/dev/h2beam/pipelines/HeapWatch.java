package dev.h2beam.pipelines;

import dev.h2beam.adapters.files.Causes;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Locale;

/**
 * A command whose heap is too small either fails where the runner's thread ran out of memory ("the sweep pipeline
 * ended RUNNING", the cause in a log line far above) or, worse, runs on for ever: the serial collector then spends
 * nearly all its time collecting a full heap and the run makes no progress (a sweep at {@code -Xmx12m} ran 10 minutes
 * at 90 % CPU before it was killed; dogX F4). This watch samples the collectors once a second: when, over the last
 * {@link #WINDOW_S} seconds, collection took at least {@link #THRASH_SHARE} of the time and the heap's old space stayed
 * at least {@link #FULL_SHARE} full after each collection, the command is stopped with one line that says so and how
 * to give the JVM more memory; and a command that failed for any reason once its heap was that full says so beside its
 * error ({@link #hint}).
 *
 * <p>The stop is a halt, as a kill -9 is: the collector cannot be trusted to let shutdown work finish, and every
 * command survives a kill anywhere (its locks are taken over as a dead process's, its scratch removed by the next run).
 * The watch starts sampling after {@link #FIRST_LOOK_S} seconds, so a short command never loads the management classes.
 * A heap already full by then may keep the watch from reading the beans at all; such a heap was filled by start-up
 * alone, which ends in the {@link OutOfMemoryError} the JVM throws, met by {@link #hint}.
 */
final class HeapWatch {
  /** Seconds of thrashing before a stop; a system property shortens it for tests. */
  static final int WINDOW_S = Integer.getInteger("h2beam.heapWatchSeconds", 20);
  static final double THRASH_SHARE = 0.8;
  static final double FULL_SHARE = 0.9;
  static final int FIRST_LOOK_S = 3;

  /** Whether the old space was seen at least {@link #FULL_SHARE} full after a collection. */
  private static volatile boolean filled;

  private HeapWatch() {}

  /** Starts the watch for command {@code name} (a daemon thread), which says on {@code err} why it stops one. */
  static void start(String name, PrintStream err) {
    Thread t = new Thread(() -> watch(name, err), "h2beam-heap-watch");
    t.setDaemon(true);
    t.setPriority(Thread.MAX_PRIORITY);
    t.start();
  }

  /**
   * One line to print beside a failure of a command whose heap was full ({@code e} or a cause an
   * {@link OutOfMemoryError}, or the old space seen full after a collection); empty otherwise.
   */
  static String hint(Throwable e) {
    if (!outOfMemory(e) && !filled) return "";
    return "the JVM ran out of heap memory (at most " + mib(Runtime.getRuntime().maxMemory()) + "); " + more();
  }

  /** Whether {@code e} or one of its causes is an {@link OutOfMemoryError}. */
  static boolean outOfMemory(Throwable e) {
    return Causes.any(e, t -> t instanceof OutOfMemoryError);
  }

  private static String more() {
    return "give it more (H2BEAM_JAVA_OPTS=-Xmx4g ./h2beam ..., or -Xmx on java's command line) and re-run the same"
        + " command: finished work is kept";
  }

  private static void watch(String name, PrintStream err) {
    // room for the watch's own work once the heap is full: the beans it reads and the line it prints are objects too
    byte[] reserve = new byte[(int) Math.min(1 << 20, Runtime.getRuntime().maxMemory() / 64)];
    // the line as far as it can be written now, for a heap too full to build the one with the numbers
    String told = "error: " + name + ": out of memory: the JVM did nothing but collect garbage for "
        + WINDOW_S + " s, its heap full (at most " + mib(Runtime.getRuntime().maxMemory()) + "), and the run made no"
        + " progress; " + more();
    List<GarbageCollectorMXBean> collectors = null;
    List<MemoryPoolMXBean> pools = null;
    Window window = new Window(WINDOW_S);
    try {
      Thread.sleep(FIRST_LOOK_S * 1000L);
      while (true) {
        try {
          if (pools == null) {
            collectors = List.copyOf(ManagementFactory.getGarbageCollectorMXBeans());
            // the old generation alone ("Tenured Gen", "G1 Old Gen", "PS Old Gen"): a survivor space is often full
            // after a collection in a healthy run, and would have made every later failure's line blame the heap
            pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()
                    && p.getUsage().getMax() > 0 && (p.getName().contains("Old") || p.getName().contains("Tenured")))
                .toList();
            if (pools.isEmpty()) return;
          }
          if (sample(window, collectors, pools)) {
            reserve = null; // room for the line
            try {
              err.println("error: " + name + ": out of memory: the JVM spent " + window.gcSeconds() + " s of the"
                  + " last " + window.seconds() + " s collecting garbage, its heap full (at most "
                  + mib(Runtime.getRuntime().maxMemory()) + "), and the run made no progress; " + more());
            } catch (OutOfMemoryError full) {
              err.println(told);
            } finally {
              err.flush();
              Runtime.getRuntime().halt(1);
            }
          }
        } catch (OutOfMemoryError e) {
          // the heap is full: free the reserve for the next look
          reserve = null;
          filled = true;
        }
        Thread.sleep(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      // the watch is a convenience: a JVM without these beans runs unwatched
    } finally {
      if (reserve != null) reserve[0] = 1;
    }
  }

  /**
   * Adds a sample of the collectors and pools to {@code window}; true when the JVM does nothing but collect. Nothing
   * here allocates but the pools' usage objects: on a heap so full that not even those fit (the collector has just
   * failed to free a few bytes), the heap is taken for full. The first version's samples failed there, again and
   * again, and a JVM that did nothing but collect for 100 s was never stopped (a CI run, 2026-12-07).
   */
  private static boolean sample(Window window, List<GarbageCollectorMXBean> collectors, List<MemoryPoolMXBean> pools) {
    long gcMs = 0;
    for (int i = 0; i < collectors.size(); i++) gcMs += Math.max(0, collectors.get(i).getCollectionTime());
    double fullest = 0;
    try {
      for (int i = 0; i < pools.size(); i++) {
        MemoryUsage after = pools.get(i).getCollectionUsage();
        if (after != null && after.getMax() > 0) fullest = Math.max(fullest, (double) after.getUsed() / after.getMax());
      }
    } catch (OutOfMemoryError full) {
      fullest = 1;
    }
    if (fullest >= FULL_SHARE) filled = true;
    return window.add(System.nanoTime() / 1_000_000, gcMs, fullest);
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%d MiB", bytes >> 20);
  }

  /**
   * The samples of the last {@code seconds}: whether collection took the run over, each sample's heap full. Held in
   * arrays made once, so that adding a sample allocates nothing: it is taken when the heap may have no room left.
   */
  static final class Window {
    private final long spanMs;
    /** Each sample's time, the collectors' total time then, and whether it found the heap full; a ring. */
    private final long[] at;
    private final long[] gcAt;
    private final boolean[] full;
    private int first;
    private int size;
    private long gcMs;
    private long wallMs;

    Window(int seconds) {
      this.spanMs = seconds * 1000L;
      // samples come a second apart at the least: room for a window of them and more
      int capacity = 4 * seconds + 64;
      at = new long[capacity];
      gcAt = new long[capacity];
      full = new boolean[capacity];
    }

    /**
     * Adds a sample at {@code nowMs} of the collectors' total time {@code totalGcMs} and the old space's fill after
     * its last collection; true when the samples span the window, collection took at least {@link #THRASH_SHARE} of
     * it, and every sample in it found the heap at least {@link #FULL_SHARE} full.
     */
    boolean add(long nowMs, long totalGcMs, double fill) {
      if (size == at.length) drop();
      int i = index(size);
      at[i] = nowMs;
      gcAt[i] = totalGcMs;
      full[i] = fill >= FULL_SHARE;
      size++;
      // the oldest sample kept is the newest at least the window old, once there is one
      while (size > 2 && nowMs - at[index(1)] >= spanMs) drop();
      wallMs = nowMs - at[first];
      gcMs = totalGcMs - gcAt[first];
      boolean allFull = true;
      for (int k = 0; k < size; k++) allFull &= full[index(k)];
      return wallMs >= spanMs && allFull && gcMs >= THRASH_SHARE * wallMs;
    }

    private int index(int k) {
      return (first + k) % at.length;
    }

    private void drop() {
      first = index(1);
      size--;
    }

    long gcSeconds() {
      return Math.round(gcMs / 1000.0);
    }

    long seconds() {
      return Math.round(wallMs / 1000.0);
    }
  }
}
