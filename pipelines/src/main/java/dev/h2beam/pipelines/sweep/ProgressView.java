package dev.h2beam.pipelines.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.llm.EndpointLoad;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.sweep.ProgressBoard;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The client's live view of a running sweep, read from the shared run folders only (so it works the same on the
 * DirectRunner and on a cluster whose workers write to shared storage): the workers' progress boards
 * ({@link ProgressBoard}: chains' tasks done, resumed, failed and running, base phases, sessions and rollouts in
 * flight) and the journals' new lines (sessions and rollouts finished, how many of them failed, and their spend, with
 * a count of the lines whose cost is not known: marked {@code cost_known: false}, naming no cost, or torn; and the
 * model tokens they spent, with a count of the lines whose tokens are not all counted). Shown as
 * a bar redrawn on a terminal or as plain lines; the estimate of the time left is the rate so far applied to what is
 * left.
 *
 * <p>Boards of earlier runs (another root token) are ignored. A chain is read from the board that changed it last
 * (after a worker is lost, the chain's restart on another worker reports there, and counts its tasks anew). A board
 * that says its worker is busy but was not rewritten for {@link #SILENT_MS} (a worker that died or hangs; a busy
 * worker rewrites its board every few seconds) no longer counts toward what is in flight; an idle worker's board may
 * rest.
 *
 * <p>On a remote cluster the view also shows what the JobManager says of the job ({@link JobWatch}): restarting,
 * restarted, waiting for slots, or not answering (then, and while it restarts or waits for slots, the time left is
 * not known, not a growing estimate). A busy
 * board last written before the job's last restart is its lost worker's: the restart cancelled everything it held, and
 * a worker that survived rewrites its board as its chains stop. Such a board counts neither toward what is in flight
 * nor among the workers, but as lost. A task this command finished before a restart of its job is skipped by the
 * restarted chains as if resumed; it is shown as done before a restart, and only a task finished before this command
 * started ({@code doneBefore}) as resumed.
 */
public final class ProgressView implements AutoCloseable {
  static final long SILENT_MS = 20_000;
  // the process's one reading mapper (Json.MAPPER), not a second one of this class's own
  private static final ObjectMapper JSON = Json.MAPPER;

  /** How the progress is shown. */
  public enum Style { BAR, LINES, OFF }

  private final Path audit;
  private final String token;
  private final List<String> modeOrder;
  private final Map<String, List<String>> stream;
  private final Style style;
  private final long everyMs;
  private final PrintStream out;
  private final LongSupplier clock;
  private final long startedMs;
  private final Map<Path, Long> offsets = new HashMap<>();
  private int sessionsDone;
  private int rolloutsDone;
  /** Of those, the ones whose journal line says they failed ({@code "ok": false}): each runs again if its task does. */
  private int sessionsFailed;
  private int rolloutsFailed;
  private double spend;
  /** Journal lines whose cost is not all in {@link #spend}: counted, as an unknown is never a zero. */
  private int unknownCost;
  /** The model tokens the journal lines counted ({@link Journal#putTokens}; a line without them called no model). */
  private long tokensIn;
  private long tokensOut;
  /** Journal lines whose tokens are not all in those counts ({@code tokens_known: false}, or torn). */
  private int tokensUncounted;
  final BarScreen screen; // the bar style's terminal rows, null for the others
  private String lastChains = "";
  private Thread thread;
  private volatile boolean stopping;
  /** The bar style's resizes of the terminal window, and how its size is read again then; null when not watched. */
  private WindowChanges window;
  private java.util.function.Function<String, String> env;
  private java.util.function.Supplier<String> sttySize;
  /** What the JobManager says of the job, on a remote cluster; null elsewhere. */
  java.util.function.Supplier<JobWatch.Status> job;
  /** The tasks done before this command started ({@code Sweep.summarized}): those a chain skips are resumed. */
  Set<String> doneBefore = Set.of();

  /**
   * @param audit the summary namespace's audit folder (boards in {@code progress/}, journals beside)
   * @param token the run's root token (boards of other runs are ignored)
   * @param modes the modes run, in order
   * @param stream the tasks by domain
   * @param width the terminal's width in columns (the bar style's only)
   */
  ProgressView(Path audit, String token, List<String> modes, Map<String, List<String>> stream, Style style,
      long everyMs, PrintStream out, int width, LongSupplier clock) {
    this(audit, token, modes, stream, style, everyMs, out, width, 0, clock);
  }

  /** The same on a terminal of {@code height} rows (0: not known). */
  ProgressView(Path audit, String token, List<String> modes, Map<String, List<String>> stream, Style style,
      long everyMs, PrintStream out, int width, int height, LongSupplier clock) {
    this.audit = audit;
    this.token = token;
    this.modeOrder = List.copyOf(modes);
    this.stream = stream;
    this.style = style;
    this.everyMs = everyMs;
    this.out = out;
    this.clock = clock;
    this.screen = style == Style.BAR ? new BarScreen(out, width, height) : null;
    this.startedMs = clock.getAsLong();
    // only this run's journal lines count: skip what earlier runs wrote
    for (Path f : journalFiles()) offsets.put(f, size(f));
  }

  /** The style {@code --progress} asks for, given whether the output is a terminal and the sweep runs remotely. */
  public static Style style(String flag, boolean terminal, boolean remote) {
    return switch (flag) {
      case "bar" -> Style.BAR;
      case "lines" -> Style.LINES;
      case "off" -> Style.OFF;
      case "auto" -> terminal ? Style.BAR : remote ? Style.LINES : Style.OFF;
      default -> throw new UsageError("--progress must be auto, bar, lines or off (got '" + flag + "')");
    };
  }

  /**
   * Whether the process's standard error is a terminal: {@link System#console} asks of standard input and output
   * only, and with {@code 2>log} the bar's escapes would go into the log. Where {@code /proc} cannot tell, yes.
   */
  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    } catch (IOException | RuntimeException e) {
      return true;
    }
  }

  /**
   * Starts showing the sweep's progress on {@code err}, or nothing when the options ask for none. While a bar is
   * shown, whatever the process prints goes above it (see {@link BarScreen}).
   */
  static ProgressView start(Sweep.Plan plan, SweepOptions o, PrintStream err, Set<String> doneBefore) {
    if (err == null) err = System.err;
    String term = System.getenv("TERM");
    boolean terminal = System.console() != null && term != null && !term.equals("dumb")
        && (err != System.err || stderrIsTerminal());
    Style style = style(o.getProgress(), terminal, !Sweep.runsLocally(o));
    // only a bar needs the size, and only then is there a terminal worth asking
    int[] size = style == Style.BAR ? terminalSize(System::getenv, BarScreen::sttySize) : new int[] {80, 0};
    ProgressView v = new ProgressView(plan.config().runs().resolve("_audit")
        .resolve(plan.config().summaryNamespace().summary().toString()), plan.config().rootToken(),
        plan.config().modes(), plan.stream(), style, style == Style.BAR ? 1000 : o.getProgressSeconds() * 1000L, err,
        size[0], size[1], System::currentTimeMillis);
    v.doneBefore = Set.copyOf(doneBefore);
    if (v.screen != null) {
      v.watchWindow(System::getenv, BarScreen::sttySize);
      v.screen.capture();
    }
    if (style != Style.OFF) {
      v.thread = new Thread(v::loop, "h2beam-progress-view");
      v.thread.setDaemon(true);
      v.thread.start();
    }
    return v;
  }

  private void loop() {
    while (!stopping) {
      try {
        Thread.sleep(everyMs);
      } catch (InterruptedException e) {
        return;
      }
      if (!stopping) show(false);
    }
  }

  /** Stops the display; shows the last state once (so a plain log ends on the final counts). */
  @Override public void close() {
    if (window != null) window.close();
    if (thread == null) return;
    stopping = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    show(true);
    if (screen != null) screen.release();
  }

  /**
   * Redraws the bar at the terminal's new size after each resize of its window: the size is read again as at the
   * start, {@code $COLUMNS} and {@code $LINES} from {@code env} when they are numbers, else from the terminal.
   */
  void watchWindow(java.util.function.Function<String, String> env, java.util.function.Supplier<String> sttySize) {
    this.env = env;
    this.sttySize = sttySize;
    this.window = WindowChanges.watch();
  }

  /**
   * The terminal's width and height: {@code $COLUMNS} and {@code $LINES} from {@code env} when they are numbers,
   * else what the terminal says (asked once for both), else 80 columns and an unknown height (0).
   */
  private static int[] terminalSize(java.util.function.Function<String, String> env,
      java.util.function.Supplier<String> sttySize) {
    java.util.function.Supplier<String> asked = BarScreen.once(sttySize);
    return new int[] {BarScreen.width(env.apply("COLUMNS"), asked), BarScreen.height(env.apply("LINES"), asked)};
  }

  /** Shows from now on what the JobManager says of the job. */
  void watch(JobWatch watch) {
    job = watch::status;
  }

  /** Whether a resize of the window waits for the next redraw. */
  boolean windowChanged() {
    return window != null && window.pending();
  }

  synchronized void show(boolean last) {
    try {
      Snapshot s = read();
      if (style == Style.BAR) {
        if (window != null && window.takeChanged()) {
          int[] size = terminalSize(env, sttySize);
          screen.resize(size[0], size[1]);
        }
        // the last column left free: a full row wraps on some terminals; the last row too: a full screen scrolls
        screen.draw(bar(s, screen.width() - 1, screen.height() > 0 ? Math.max(1, screen.height() - 1) : -1));
      } else {
        for (String l : lines(s, last)) out.println(l);
        out.flush();
      }
    } catch (RuntimeException | IOException e) {
      String m = "progress: cannot read the run folders (" + e.getMessage() + ")";
      if (screen != null) screen.above(out, m + "\n");
      else out.println(m);
    }
  }

  /** What the run folders say now. */
  Snapshot read() throws IOException {
    long now = clock.getAsLong();
    tailJournals();
    Map<String, JsonNode> chains = new TreeMap<>();
    Map<String, Long> chainAt = new HashMap<>();
    int bases = 0;
    int basesFailed = 0;
    int sessions = 0;
    int rollouts = 0;
    int workers = 0;
    int silent = 0;
    int lostAtRestart = 0;
    JobWatch.Status job = this.job == null ? null : this.job.get();
    long restarted = job == null ? 0 : job.restartedMs();
    Map<String, EndpointLoad.Counts> endpoints = new TreeMap<>();
    // a board replaced while read is read whole next time
    for (JsonNode b : ProgressBoard.read(audit.resolve("progress"), token).boards()) {
      long at = b.path("updated_ms").asLong();
      bases += b.path("bases").path("rolled").asInt() + b.path("bases").path("resumed").asInt()
          + b.path("bases").path("failed").asInt();
      basesFailed += b.path("bases").path("failed").asInt();
      // a board is rewritten while its worker has work (every 5 s at least), so only a busy one can fall silent
      boolean busy = b.path("sessions_in_flight").asInt() > 0 || b.path("rollouts_in_flight").asInt() > 0;
      for (JsonNode c : b.path("chains")) busy |= !c.path("running").asText().isEmpty();
      // its worker was lost: the restart cancelled what it held (a dead worker's board showed 3 sessions in flight
      // beside the replacement's, with a limit of 2, and stayed "silent" to the end: dogAC F7)
      boolean beforeRestart = busy && at < restarted;
      boolean lost = beforeRestart || busy && now - at > SILENT_MS;
      if (beforeRestart) {
        lostAtRestart++;
      } else {
        workers++;
      }
      if (lost) {
        if (!beforeRestart) silent++;
      } else {
        sessions += b.path("sessions_in_flight").asInt();
        rollouts += b.path("rollouts_in_flight").asInt();
      }
      // a silent worker's calls in flight are not counted, but the calls it ended did end
      b.path("endpoints").fields().forEachRemaining(e -> {
        JsonNode c = e.getValue();
        endpoints.merge(e.getKey(), new EndpointLoad.Counts(lost ? 0 : c.path("waiting").asInt(),
            lost ? 0 : c.path("sending").asInt(), c.path("calls").asLong(), c.path("failed").asLong(),
            c.path("waited_ms").asLong()), EndpointLoad.Counts::plus);
      });
      for (JsonNode c : b.path("chains")) {
        String key = c.path("mode").asText() + "/" + c.path("domain").asText();
        // the chain's own time where the board tells it (older boards: the board's)
        long changed = c.path("changed_ms").asLong(at);
        if (changed >= chainAt.getOrDefault(key, Long.MIN_VALUE)) {
          // the restart cancelled a lost worker's task: the chain runs it again elsewhere, or waits to
          chains.put(key, beforeRestart ? ((ObjectNode) c.deepCopy()).put("running", "") : c);
          chainAt.put(key, changed);
        }
      }
    }
    int tasks = stream.values().stream().mapToInt(List::size).sum();
    Map<String, ModeCount> modes = new LinkedHashMap<>();
    List<ChainCount> rows = new ArrayList<>();
    for (String mode : modeOrder) {
      ModeCount m = new ModeCount(mode);
      modes.put(mode, m);
      for (Map.Entry<String, List<String>> d : stream.entrySet()) {
        JsonNode c = chains.get(mode + "/" + d.getKey());
        int skipped = c == null ? 0 : c.path("resumed").asInt();
        // a restarted chain skips, as resumed, the tasks it finished before the restart too
        int resumed = Math.min(skipped, (int) d.getValue().stream().filter(doneBefore::contains).count());
        ChainCount row = new ChainCount(mode, d.getKey(), d.getValue().size(),
            c == null ? 0 : c.path("done").asInt(), resumed, skipped - resumed,
            c == null ? 0 : c.path("failed").asInt(), c == null ? "" : c.path("running").asText(),
            c != null && c.path("ended").asBoolean());
        rows.add(row);
        m.add(row);
      }
    }
    if (bases >= tasks && modes.values().stream().allMatch(m -> m.finished() >= m.tasks)) {
      // every task of every mode finished: what a board still counts in flight is older than its chains' ends (a
      // worker rewrites its board every few seconds, the chain's end is reported at once), and nothing is left to run
      sessions = 0;
      rollouts = 0;
    }
    return new Snapshot(now - startedMs, tasks, Math.min(bases, tasks), basesFailed, modes, rows, sessions,
        rollouts, workers, silent, lostAtRestart, job, sessionsDone, rolloutsDone, sessionsFailed, rolloutsFailed,
        spend, unknownCost, tokensIn, tokensOut, tokensUncounted, endpoints);
  }

  private List<Path> journalFiles() {
    List<Path> files = new ArrayList<>();
    for (Path dir : List.of(audit, audit.resolve("selector"))) {
      if (!Files.isDirectory(dir)) continue;
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "{sessions,executions}*.jsonl")) {
        for (Path f : ds) files.add(f);
      } catch (IOException e) {
        // a folder that cannot be listed now may be listed next time
      }
    }
    return files;
  }

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      return 0;
    }
  }

  /** Reads the complete lines appended to every journal since the last look. */
  private void tailJournals() {
    for (Path f : journalFiles()) {
      long from = offsets.getOrDefault(f, 0L);
      long to = size(f);
      if (to <= from) continue;
      byte[] bytes;
      try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
        bytes = new byte[(int) Math.min(to - from, 64L << 20)];
        raf.seek(from);
        raf.readFully(bytes);
      } catch (IOException e) {
        continue;
      }
      int end = bytes.length;
      while (end > 0 && bytes[end - 1] != '\n') end--; // a line still being appended waits for the next look
      boolean sessionsFile = f.getFileName().toString().startsWith("sessions");
      for (String line : new String(bytes, 0, end, StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank()) continue;
        if (sessionsFile) sessionsDone++;
        else rolloutsDone++;
        try {
          JsonNode j = JSON.readTree(line);
          if (!j.path("ok").asBoolean(true)) {
            if (sessionsFile) sessionsFailed++;
            else rolloutsFailed++;
          }
          JsonNode cost = j.path("cost_usd");
          spend += cost.asDouble(0);
          // what it cost is not known: the writer says its cost_usd is only part of it, or it names no cost
          if (!j.path("cost_known").asBoolean(true) || cost.isMissingNode() || cost.isNull()) unknownCost++;
          // a line without tokens called no model; with counts that cannot be read, it adds none and is counted
          Tokens t = Tokens.recorded(j);
          if (t != null) {
            tokensIn += t.input();
            tokensOut += t.output();
          }
          if (t != null ? !t.known() : j.has("tokens")) tokensUncounted++;
        } catch (IOException e) {
          // a torn line (its writer was killed mid-append) counts, but carries no cost we can read: not known
          unknownCost++;
          tokensUncounted++;
        }
      }
      offsets.put(f, from + end);
    }
  }

  /** One (mode, domain) chain's counts. */
  record ChainCount(String mode, String domain, int tasks, int done, int resumed, int doneBeforeRestart, int failed,
      String running, boolean ended) {
    int finished() {
      return done + resumed + doneBeforeRestart + failed;
    }
  }

  /** One mode's counts over its chains. */
  static final class ModeCount {
    final String mode;
    int tasks;
    int done;
    int resumed;
    /** Tasks this command finished before a restart of its job, which the restarted chains skipped. */
    int doneBeforeRestart;
    int failed;
    int running;

    ModeCount(String mode) {
      this.mode = mode;
    }

    void add(ChainCount c) {
      tasks += c.tasks();
      done += c.done();
      resumed += c.resumed();
      doneBeforeRestart += c.doneBeforeRestart();
      failed += c.failed();
      if (!c.running().isEmpty()) running++;
    }

    int finished() {
      return done + resumed + doneBeforeRestart + failed;
    }
  }

  /**
   * The sweep's state at one look; {@code spendUsd} is the cost of the finished sessions and rollouts as far as it
   * is known, and {@code unknownCost} how many of them cost something it leaves out (the view shows them beside it);
   * {@code tokensIn} and {@code tokensOut} the model tokens they spent as far as counted, and {@code tokensUncounted}
   * how many of them spent tokens those leave out; {@code lostWorkers} the boards of workers lost at the job's last
   * restart, and {@code job} what the JobManager says of the job (null: not on a remote cluster).
   */
  record Snapshot(long elapsedMs, int tasks, int bases, int basesFailed, Map<String, ModeCount> modes,
      List<ChainCount> chains, int sessionsInFlight, int rolloutsInFlight, int workers, int silentWorkers,
      int lostWorkers, JobWatch.Status job, int sessionsDone, int rolloutsDone, int sessionsFailed,
      int rolloutsFailed, double spendUsd, int unknownCost, long tokensIn, long tokensOut, int tokensUncounted,
      Map<String, EndpointLoad.Counts> endpoints) {

    int units() {
      return tasks * modes.size();
    }

    int finished() {
      return modes.values().stream().mapToInt(ModeCount::finished).sum();
    }

    /**
     * Milliseconds left at the rate so far (resumed tasks cost no time, so they are left out; those done before a
     * restart did), or -1 unknown: also while the JobManager does not answer, as the job may not run at all, and
     * while the job does not work ({@link JobWatch.Status#working}: restarting, waiting for slots), when the rate so
     * far would make an estimate that grows by the second though nothing runs.
     */
    long leftMs() {
      int ran = modes.values().stream().mapToInt(m -> m.done + m.doneBeforeRestart + m.failed).sum();
      int left = units() - finished();
      if (left == 0) return 0;
      if (ran == 0 || job != null && !job.working()) return -1;
      return Math.round((double) elapsedMs * left / ran);
    }
  }

  static String clock(long ms) {
    if (ms < 0) return "--:--:--";
    long s = ms / 1000;
    return String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  private static String modes(Snapshot s) {
    StringBuilder sb = new StringBuilder();
    for (ModeCount m : s.modes().values()) {
      if (sb.length() > 0) sb.append("  ");
      sb.append(String.format(Locale.ROOT, "%s %d/%d (%d resumed%s, %d failed, %d running)", m.mode, m.finished(),
          m.tasks, m.resumed, m.doneBeforeRestart == 0 ? "" : ", " + m.doneBeforeRestart + " done before a restart",
          m.failed, m.running));
    }
    return sb.toString();
  }

  private static String flight(Snapshot s) {
    return String.format(Locale.ROOT, "in flight %d sessions, %d rollouts; finished %d sessions%s, %d rollouts%s;"
        + " spend $%.4f%s; workers %d%s", s.sessionsInFlight(), s.rolloutsInFlight(), s.sessionsDone(),
        failed(s.sessionsFailed()), s.rolloutsDone(), failed(s.rolloutsFailed()), s.spendUsd(),
        (s.unknownCost() == 0 ? "" : " (+" + s.unknownCost() + " of unknown cost)") + tokens(s),
        s.workers(), (s.silentWorkers() == 0 ? "" : " (" + s.silentWorkers() + " silent for " + SILENT_MS / 1000
            + " s: lost or hung)") + (s.lostWorkers() == 0 ? "" : " (" + s.lostWorkers() + " lost at a restart)"));
  }

  /** What the JobManager says of the job, when it is worth a word ({@link JobWatch.Status#describe}). */
  private static String job(Snapshot s) {
    String said = s.job() == null ? "" : s.job().describe();
    return said.isEmpty() ? "" : "; " + said;
  }

  /**
   * The model tokens spent so far, said once some were counted or some were not ({@code ; tokens 1234 in, 56 out (+2
   * not all counted)}); a sweep that called no model says nothing of them.
   */
  private static String tokens(Snapshot s) {
    if (s.tokensIn() + s.tokensOut() == 0 && s.tokensUncounted() == 0) return "";
    return String.format(Locale.ROOT, "; tokens %d in, %d out%s", s.tokensIn(), s.tokensOut(),
        s.tokensUncounted() == 0 ? "" : " (+" + s.tokensUncounted() + " not all counted)");
  }

  /** How many of the finished ones failed, said only when some did. */
  private static String failed(int n) {
    return n == 0 ? "" : " (" + n + " failed)";
  }

  /**
   * The model calls of each endpoint the workers have called, sending and waiting for their turn: an endpoint whose
   * calls wait while as many as its limit allows are sent is what holds the sweep back. Then, once calls have ended,
   * how many, how many failed, and how long they waited for their turn in all: what the endpoint's limits cost the
   * sweep so far. Empty when none was called.
   */
  private static String endpoints(Snapshot s) {
    StringBuilder sb = new StringBuilder();
    s.endpoints().forEach((name, c) -> {
      sb.append(sb.length() == 0 ? "endpoints: " : "; ").append(String.format(Locale.ROOT, "%s %d sending,"
          + " %d waiting", name, c.sending(), c.waiting()));
      if (c.calls() > 0) {
        sb.append(String.format(Locale.ROOT, " (%d calls done%s, %.1f s waited)", c.calls(),
            c.failed() == 0 ? "" : ", " + c.failed() + " failed", c.waitedMs() / 1000.0));
      }
    });
    return sb.toString();
  }

  private static String chain(ChainCount c) {
    return String.format(Locale.ROOT, "%s/%s %d/%d%s%s", c.mode(), c.domain(), c.finished(), c.tasks(),
        c.failed() == 0 ? "" : " (" + c.failed() + " failed)",
        c.running().isEmpty() ? "" : " running " + c.running());
  }

  /** Plain lines: the totals, then each chain that changed since the last lines (all of them the last time). */
  List<String> lines(Snapshot s, boolean last) {
    List<String> out = new ArrayList<>();
    String endpoints = endpoints(s);
    out.add(String.format(Locale.ROOT, "progress %s  bases %d/%d  %s  %s  left ~%s%s", clock(s.elapsedMs()),
        s.bases(), s.tasks(), modes(s), flight(s) + job(s), clock(s.leftMs()),
        endpoints.isEmpty() ? "" : "  " + endpoints));
    StringBuilder now = new StringBuilder();
    List<String> changed = new ArrayList<>();
    String[] before = lastChains.split("\n", -1);
    int i = 0;
    for (ChainCount c : s.chains()) {
      String line = chain(c);
      now.append(line).append('\n');
      boolean same = i < before.length && before[i].equals(line);
      if ((last || !same) && (c.finished() > 0 || !c.running().isEmpty())) changed.add("  " + line);
      i++;
    }
    lastChains = now.toString();
    out.addAll(changed);
    return out;
  }

  /** The terminal block: a bar over every mode's tasks, the modes, what is in flight, and the busiest chains. */
  List<String> bar(Snapshot s, int width) {
    return bar(s, width, -1);
  }

  /** The same in at most {@code rows} lines (not limited when not positive): chains are left out first. */
  List<String> bar(Snapshot s, int width, int rows) {
    List<String> out = new ArrayList<>();
    int units = Math.max(1, s.units());
    int cells = 30;
    int full = (int) ((long) cells * s.finished() / units);
    out.add(String.format(Locale.ROOT, "[%s%s] %3d%%  %d/%d task-modes  bases %d/%d  %s elapsed, ~%s left",
        "#".repeat(full), ".".repeat(cells - full), 100L * s.finished() / units, s.finished(), s.units(), s.bases(),
        s.tasks(), clock(s.elapsedMs()), clock(s.leftMs())));
    // a line of its own, under the bar: at the end of the in-flight line a terminal's width cut it off
    String job = job(s);
    if (!job.isEmpty()) out.add(job.substring(2));
    out.add(modes(s));
    out.add(flight(s));
    String endpoints = endpoints(s);
    if (!endpoints.isEmpty()) out.add(endpoints);
    List<String> running = new ArrayList<>();
    for (ChainCount c : s.chains()) {
      if (!c.running().isEmpty() || c.failed() > 0) running.add(chain(c));
    }
    int room = rows > 0 ? Math.max(0, rows - out.size()) : Integer.MAX_VALUE; // the lines left for chains
    int shown = Math.min(running.size(), Math.min(8, room));
    if (running.size() > shown && shown == room) shown = Math.max(0, shown - 1); // a line for "... and N more"
    for (int i = 0; i < shown; i++) out.add("  " + running.get(i));
    if (running.size() > shown && room > 0) out.add("  ... and " + (running.size() - shown) + " more chains running");
    if (rows > 0 && out.size() > rows) out = new ArrayList<>(out.subList(0, rows)); // a screen lower than the header
    List<String> clipped = new ArrayList<>();
    for (String l : out) clipped.add(l.length() > width ? l.substring(0, width - 1) + "~" : l);
    return clipped;
  }
}
