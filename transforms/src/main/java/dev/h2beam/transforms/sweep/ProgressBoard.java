package dev.h2beam.transforms.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.exec.OwnUsage;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.EndpointLoad;
import dev.h2beam.transforms.proposer.HeldPermits;
import dev.h2beam.transforms.proposer.Journal;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * One worker JVM's view of a running sweep, written for the client's live progress display: which of its (mode, domain)
 * chains have started, how many of their tasks finished (run, resumed, failed) and which one is running, how many base
 * rollouts it finished, how many sessions and rollouts it has in flight (the permits this sweep holds of its limits),
 * how many model calls of each endpoint the process has waiting for their turn and sending, and how many ended (failed,
 * and their wait for their turn in all) since the board was made ({@link EndpointLoad}).
 * One writer per file: each JVM writes {@code _audit/<ns>/progress/<host>-<pid>.json}, replaced atomically at most once
 * a second while something changed, and at once when a chain ends. It carries the run's root token, so the client
 * ignores boards of earlier runs, and the time of its last write, so the client can tell a worker that stopped writing
 * (killed) from one that is busy. Diagnostic only: no result of the sweep is read from it.
 *
 * <p>It also carries what its worker process used since it opened the sweep ({@code usage}: the JVM's CPU, the CPU of
 * the programs it ran and waited for, and the process's peak resident memory in its life so far), so that a bench whose
 * sweep ran on a cluster's workers measures them, not its client. Every thread of the worker counts, the runner's own
 * included, and so would another job running there at the same time. A worker's finishing steps write the board at once
 * ({@link #stepDone}), so its last write follows its last step of the sweep.
 *
 * <p>The endpoints' counts are the process's, so they move with any job's calls. A board is rewritten for them only
 * while its sweep has work here (something running or held): once idle it keeps its last write, and the calls of what
 * the process runs next (the judge after the demo's sweep, another job on a session cluster's worker) leave it alone.
 */
public final class ProgressBoard {
  static final long TICK_MS = 1000;
  /** How often a board with work in flight is rewritten though nothing changed, so the client sees it alive. */
  static final long HEARTBEAT_MS = 5000;
  /** A board unchanged this long stops its heartbeat (a chain the runner abandoned, for example). */
  static final long QUIET_MS = 3_600_000;
  /**
   * The writer thread stops once every board has been idle this long (nothing running or held, nothing unwritten) and
   * starts again with the next change. A thread left running holds its job's classes: on a session cluster's
   * TaskManager every job that left one kept all its classes loaded, until the worker died of a full metaspace.
   */
  static volatile long idleStopMs = 10_000; // shorter only in tests
  private static final List<ProgressBoard> LIVE = new CopyOnWriteArrayList<>();
  private static Thread writer; // guarded by ProgressBoard.class

  private final Path file;
  private final String token;
  private final HeldPermits sessions;
  private final HeldPermits rollouts;
  private final TreeMap<String, Map<String, Object>> chains = new TreeMap<>();
  private int basesRolled;
  private int basesResumed;
  private int basesFailed;
  private long version;
  private long written = -1;
  private long writtenAtMs;
  private long changedAtMs = System.currentTimeMillis();
  private int lastSessions;
  private int lastRollouts;
  /** The endpoints' counts at the last write ({@link EndpointLoad#now}), as written. */
  private Map<String, Object> lastEndpoints = Map.of();
  /** The endpoints' counts when the board was made: its totals are this sweep's (and any other job's beside it). */
  private final Map<String, EndpointLoad.Counts> endpointsAtOpen;
  /** The endpoints' counts in this process ({@link EndpointLoad#now}); another source only in tests. */
  private final Supplier<Map<String, EndpointLoad.Counts>> load;
  /** This process's CPU and its children's when the board was made (the worker opening the sweep); -1 unknown. */
  private final double cpuAtOpen = OwnUsage.cpuSeconds();
  private final double childCpuAtOpen = OwnUsage.childCpuSeconds();
  /** Held while a text is made and written, so a write made later never lands before an earlier one. */
  private final Object writing = new Object();

  ProgressBoard(SweepConfig c, HeldPermits sessions, HeldPermits rollouts) {
    this(c, sessions, rollouts, EndpointLoad::now);
  }

  ProgressBoard(SweepConfig c, HeldPermits sessions, HeldPermits rollouts,
      Supplier<Map<String, EndpointLoad.Counts>> load) {
    this.load = load;
    this.endpointsAtOpen = load.get();
    this.file = folder(c.runs(), c.summaryNamespace().summary().toString()).resolve(Journal.writer() + ".json");
    this.token = c.rootToken();
    this.sessions = sessions;
    this.rollouts = rollouts;
  }

  /** The folder every worker's board of the sweep writing summary namespace {@code summaryNs} goes to. */
  public static Path folder(Path runs, String summaryNs) {
    return runs.resolve("_audit").resolve(summaryNs).resolve("progress");
  }

  /**
   * The boards under {@code folder} ({@link #folder}) of the run whose root token is {@code token}, by file name, and
   * the names of those that could not be read (a board is replaced whole, so such a one is damaged; whose run it is
   * cannot be told). Boards of other runs are passed over, and without a token none is this run's.
   */
  public record Boards(List<JsonNode> boards, List<String> unreadable) {}

  /** Reads the run's boards ({@link Boards}). */
  public static Boards read(Path folder, String token) throws IOException {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(folder)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder, "*.json")) {
        ds.forEach(files::add);
      }
    }
    files.sort(null);
    List<JsonNode> boards = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    for (Path f : files) {
      JsonNode b;
      try {
        b = Json.readTree(f);
      } catch (IOException e) {
        unreadable.add(f.getFileName() + " (unreadable: " + e.getMessage() + ")");
        continue;
      }
      if (!token.isEmpty() && token.equals(b.path("root_token").asText())) boards.add(b);
    }
    return new Boards(List.copyOf(boards), List.copyOf(unreadable));
  }

  /**
   * What a worker used, as its board says ({@link #usage()}): the JVM's and its waited-for children's CPU seconds
   * since it opened the sweep, and its process's peak resident memory in KiB (-1 when the board does not tell).
   */
  public record Usage(double cpuSeconds, double childCpuSeconds, long peakRssKb) {
    /** The usage {@code board} carries, or null when it does not tell its CPU (an older h2beam, no /proc). */
    public static Usage of(JsonNode board) {
      JsonNode u = board.path("usage");
      if (!u.path(CPU).isNumber() || !u.path(CHILDREN_CPU).isNumber()) return null;
      return new Usage(u.path(CPU).asDouble(), u.path(CHILDREN_CPU).asDouble(),
          u.path(RSS_PEAK).isNumber() ? u.path(RSS_PEAK).asLong() : -1);
    }
  }

  private static final String CPU = "cpu_s";
  private static final String CHILDREN_CPU = "children_cpu_s";
  private static final String RSS_PEAK = "rss_peak_kb";

  /** Starts ticking: from now on the board is written while it changes (into its folder, made now, never again). */
  void open() {
    try {
      java.nio.file.Files.createDirectories(file.getParent());
    } catch (IOException e) {
      return; // no folder, no board: the display shows nothing for this worker, the sweep runs on
    }
    LIVE.add(this);
    startWriter();
  }

  private static synchronized void startWriter() {
    if (writer != null) return;
    Thread t = new Thread(ProgressBoard::tick, "h2beam-progress");
    t.setDaemon(true);
    t.start();
    writer = t;
  }

  private static void tick() {
    long idleSince = -1;
    while (true) {
      try {
        Thread.sleep(TICK_MS);
      } catch (InterruptedException e) {
        synchronized (ProgressBoard.class) {
          writer = null;
        }
        return;
      }
      for (ProgressBoard b : LIVE) b.writeIfChanged();
      if (LIVE.stream().anyMatch(ProgressBoard::busy)) {
        idleSince = -1;
        continue;
      }
      long now = System.currentTimeMillis();
      if (idleSince < 0) idleSince = now;
      if (now - idleSince < idleStopMs) continue;
      // a change made from now on starts a writer again (startWriter, on the same lock)
      synchronized (ProgressBoard.class) {
        if (LIVE.stream().noneMatch(ProgressBoard::busy)) {
          writer = null;
          return;
        }
      }
    }
  }

  /** Whether the board has something running or held, or a change not yet written. */
  synchronized boolean busy() {
    return version != written || sessions.held() > 0 || rollouts.held() > 0
        || chains.values().stream().anyMatch(c -> !"".equals(c.get("running")));
  }

  /** Whether the writer thread runs now. */
  static synchronized boolean writing() {
    return writer != null;
  }

  /**
   * A change was made: the writer must be running to write it. Called outside the board's lock: the writer takes the
   * class's lock, then each board's.
   */
  private static void changed() {
    startWriter();
  }

  /** A base rollout phase of one task ended: rolled, resumed (nothing to do) or failed. */
  public void baseDone(boolean resumed, boolean failed) {
    synchronized (this) {
      if (resumed) basesResumed++;
      else if (failed) basesFailed++;
      else basesRolled++;
      version++;
    }
    changed();
  }

  /**
   * The chain (mode, domain) starts from its first task: its counts begin again. A job restarted after a lost worker
   * runs its chains again, some on the workers that ran them before, and this process's board outlives the attempt:
   * counting on, a chain showed more tasks done than it has (a 2,000-task sweep showed "agg 2938/2000").
   */
  public void chainStarted(String mode, String domain) {
    synchronized (this) {
      chains.remove(mode + "/" + domain);
      touch(chain(mode, domain));
    }
    changed();
  }

  /** The chain (mode, domain) begins {@code task}. */
  public void running(String mode, String domain, String task) {
    synchronized (this) {
      Map<String, Object> ch = chain(mode, domain);
      ch.put("running", task);
      touch(ch);
    }
    changed();
  }

  /**
   * Marks a change of one chain: the board's version, and the chain's own time ({@code changed_ms}), by which the
   * client takes each chain from the board that changed it last, not from whichever board was rewritten last (a
   * worker that ran the chain in an earlier attempt of the job goes on rewriting its board for its other chains).
   */
  private void touch(Map<String, Object> chain) {
    chain.put("changed_ms", System.currentTimeMillis());
    version++;
  }

  /** The chain's current task ended: {@code outcome} is {@code done}, {@code resumed} or {@code failed}. */
  public void finished(String mode, String domain, String outcome) {
    synchronized (this) {
      Map<String, Object> ch = chain(mode, domain);
      ch.merge(outcome, 1, (a, b) -> (Integer) a + (Integer) b);
      ch.put("running", "");
      touch(ch);
    }
    changed();
  }

  /** The chain ran all its tasks; written at once, so the client sees the chain's end without waiting a tick. */
  public void chainEnded(String mode, String domain) {
    synchronized (this) {
      Map<String, Object> ch = chain(mode, domain);
      ch.put("ended", true);
      touch(ch);
    }
    changed();
    writeIfChanged();
  }

  /**
   * The chain stopped before its end (its job cancelled: a restart after a lost worker, a lost JobManager, a failure):
   * its task no longer runs here. Left running, the board stayed busy, and on a session cluster's TaskManager its
   * writer rewrote the board every few seconds for as long as the worker lived, holding the job's classes (dogAC F1).
   */
  public void chainStopped(String mode, String domain) {
    synchronized (this) {
      Map<String, Object> ch = chain(mode, domain);
      if ("".equals(ch.get("running"))) return;
      ch.put("running", "");
      touch(ch);
    }
    changed();
  }

  private Map<String, Object> chain(String mode, String domain) {
    return chains.computeIfAbsent(mode + "/" + domain, k -> {
      Map<String, Object> m = new TreeMap<>();
      m.put("mode", mode);
      m.put("domain", domain);
      m.put("done", 0);
      m.put("resumed", 0);
      m.put("failed", 0);
      m.put("running", "");
      m.put("ended", false);
      return m;
    });
  }

  /** A step of the sweep's own ended here (a group of tasks finished): written at once, with the usage so far. */
  public void stepDone() {
    synchronized (this) {
      version++;
    }
    changed();
    writeIfChanged();
  }

  /**
   * The model calls of each endpoint this process has called, by name ({@link EndpointLoad}): {@code waiting} for a
   * slot or the rate window and {@code sending} now, and since the board was made, the {@code calls} that ended, how
   * many of them {@code failed} (no good answer) and the milliseconds they {@code waited_ms} for their turn in all.
   */
  private Map<String, Object> endpoints() {
    Map<String, Object> m = new TreeMap<>();
    load.get().forEach((name, now) -> {
      EndpointLoad.Counts c = now.since(endpointsAtOpen.get(name));
      Map<String, Object> e = new LinkedHashMap<>();
      e.put(WAITING, c.waiting());
      e.put(SENDING, c.sending());
      e.put("calls", c.calls());
      e.put("failed", c.failed());
      e.put("waited_ms", c.waitedMs());
      m.put(name, e);
    });
    return m;
  }

  static final String WAITING = "waiting";
  static final String SENDING = "sending";

  /**
   * What this process used since the board was made: {@code cpu_s} (the JVM's CPU), {@code children_cpu_s} (the
   * programs it ran and waited for) and {@code rss_peak_kb} (its peak resident memory in its life so far). A value that
   * cannot be read is null, an unknown.
   */
  private Map<String, Object> usage() {
    Map<String, Object> u = new LinkedHashMap<>();
    u.put(CPU, since(OwnUsage.cpuSeconds(), cpuAtOpen));
    u.put(CHILDREN_CPU, since(OwnUsage.childCpuSeconds(), childCpuAtOpen));
    long rss = OwnUsage.peakRssKb();
    u.put(RSS_PEAK, rss < 0 ? null : rss);
    return u;
  }

  private static Double since(double now, double then) {
    return now < 0 || then < 0 ? null : Math.round((now - then) * 1000) / 1000.0;
  }

  /** Writes the board when it changed since the last write (or the in-flight counts did); never throws. */
  void writeIfChanged() {
    synchronized (writing) {
      writeIfChangedInTurn();
    }
  }

  private void writeIfChangedInTurn() {
    if (!java.nio.file.Files.isDirectory(file.getParent())) {
      // the run's folder is gone (deleted, or moved away): the board is never recreated there, and stops for good
      // (a worker outlives its jobs on a session cluster, and a cancelled chain would keep its heartbeat going)
      LIVE.remove(this);
      return;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    synchronized (this) {
      int s = sessions.held();
      int r = rollouts.held();
      Map<String, Object> endpoints = endpoints();
      long now = System.currentTimeMillis();
      boolean active = s > 0 || r > 0 || chains.values().stream().anyMatch(c -> !"".equals(c.get("running")));
      // an idle board's sweep makes no calls here: the counts moved for another command's or job's
      boolean changed = version != written || s != lastSessions || r != lastRollouts
          || (active && !endpoints.equals(lastEndpoints));
      if (changed) {
        changedAtMs = now;
      } else if (!active || now - writtenAtMs < HEARTBEAT_MS || now - changedAtMs > QUIET_MS) {
        return;
      }
      writtenAtMs = now;
      lastSessions = s;
      lastRollouts = r;
      lastEndpoints = endpoints;
      written = version;
      m.put("format", 1);
      m.put("root_token", token);
      m.put("worker", Journal.writer());
      m.put("updated_ms", now);
      m.put("sessions_in_flight", s);
      m.put("rollouts_in_flight", r);
      m.put("endpoints", endpoints);
      Map<String, Object> bases = new TreeMap<>();
      bases.put("rolled", basesRolled);
      bases.put("resumed", basesResumed);
      bases.put("failed", basesFailed);
      m.put("bases", bases);
      m.put("chains", List.copyOf(chains.values().stream().map(TreeMap::new).toList()));
    }
    // read outside the board's lock: the chains that note their progress never wait for /proc
    m.put("usage", usage());
    try {
      AtomicFiles.writeString(file, Json.pretty(m) + "\n");
    } catch (IOException | RuntimeException e) {
      // progress is a view: a board that cannot be written costs the display, never the sweep
    }
  }
}
