package dev.h2beam.adapters.files;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * One writer at a time for a folder (a runs root, a library, a benchmark root, a namespace being judged), across
 * processes and across machines that share the folder. The lock is a file {@code .h2beam.lock} created with
 * {@code O_CREAT|O_EXCL} (atomic on local file systems and on NFS v3+), holding the holder's host, pid, start time,
 * command and a random token; the holder touches it every {@link #HEARTBEAT} so others can tell a live holder from a
 * dead one without seeing its process.
 *
 * <p>A holder on this host is judged by its process: stale when it is gone (or, once the lock is as old as a stale
 * one, when its pid belongs to a program started after the lock was taken), alive otherwise, whatever the file's
 * time says (a clock stepped forward made a live sweep's lock look old, and a second sweep ran beside it). A holder
 * on another host is stale when its heartbeat is older than the staleness limit and the file is not touched while
 * it is watched for one more heartbeat (its clock may be behind this one's). A stale lock is taken over safely: it is
 * renamed aside with its token in the name (only one contender's rename can succeed) and a fresh lock is created.
 * A live holder makes {@link #acquire} wait up to the given time and then refuse with a message naming the holder
 * and saying what to do.
 *
 * <p>A process that is told to exit (Ctrl-C, SIGTERM, {@code System.exit}) releases, once its records in progress
 * are written, every lock it still holds whose file still carries its token; only kill -9 (or a crash) leaves a lock
 * for the next writer to take over.
 *
 * <p>A client whose pipeline runs on a remote cluster is not the writer: its job is, and the job runs on when the
 * client is killed. While such a job runs, the locks the client holds name it ({@link #jobStarted}, {@link
 * ClusterJob}): a lock whose holder is gone but whose job the JobManager still reports running (or cannot be asked
 * about) is not stale, and a client told to exit cancels its job before it lets its locks go, keeping them when the
 * job does not end.
 */
public final class WriterLock implements AutoCloseable {
  public static final String FILE = ".h2beam.lock";
  static final Duration HEARTBEAT = Duration.ofSeconds(20);
  /** How often a lock taken from now on beats: {@link #HEARTBEAT}, shorter only in tests. */
  static volatile Duration beatEvery = HEARTBEAT;
  static final Duration STALE = Duration.ofMinutes(3);
  private static final SecureRandom RANDOM = new SecureRandom();

  // folders this JVM holds, with how many nested holders: a command that locks its output folder and then runs the
  // sweep that locks the same folder must not wait for itself
  private static final Map<Path, Holding> HELD = new java.util.HashMap<>();
  // set (under HELD) once the JVM exits: no lock is taken any more, and the exit releases the ones held
  private static boolean exiting;
  // the cluster job that writes this JVM's locked folders now, named in their lock files (under HELD), or null
  private static ClusterJob job;
  // set (under HELD) when the cluster refused or never answered the submission of that job: the client does not know
  // whether the JobManager has it
  private static boolean submissionFailed;
  /** How long an exiting client waits for the job it cancels to end before it keeps its locks. */
  public static final Duration CANCEL_WAIT = Duration.ofSeconds(30);
  /** How long the exit waits: {@link #CANCEL_WAIT}, shorter only in tests. */
  static volatile Duration exitWait = CANCEL_WAIT;

  /**
   * The exit's release, registered when this JVM takes its first lock: a worker, which only asks the lock for its
   * host's name, registers none (a registered hook holds its job's classes, and on a session cluster's TaskManager
   * every job's stayed loaded until the worker's metaspace was full).
   */
  private static boolean hooked; // guarded by HELD

  private static void hookExit() {
    if (hooked) return;
    // loaded now: a class first loaded by a shutdown hook cannot register its own hook and fails to initialise
    Uninterruptible.awaitRecords();
    Runtime.getRuntime().addShutdownHook(new Thread(WriterLock::releaseOnExit, "h2beam-lock-release"));
    hooked = true;
  }

  /** The lock that created a held file, and how many nested holders in this JVM share it. */
  private static final class Holding {
    final WriterLock owner;
    int holders = 1;

    Holding(WriterLock owner) {
      this.owner = owner;
    }
  }

  /**
   * The one thread that beats for every lock this JVM holds: a judge of a hundred namespaces holds a hundred locks,
   * and a thread each cost more to start than the rest of taking them. A beat reads and touches one small file.
   */
  private static final class Beats {
    static final ScheduledExecutorService THREAD = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "h2beam-lock-heartbeat");
      t.setDaemon(true);
      return t;
    });
  }

  /** This JVM's command line as a lock records it (read once: the system asked each time cost a lock 0.2 ms). */
  private static final class Command {
    static final String LINE = ProcessHandle.current().info().commandLine().map(WriterLock::clip).orElse("");
  }

  private final Path file;
  private final String token;
  private final ScheduledFuture<?> beat;
  /** Set when the lock is let go: a beat still under way then says nothing of a file that is gone. */
  private volatile boolean stopped;

  private WriterLock(Path file, String token) {
    this.file = file;
    this.token = token;
    this.beat = token == null ? null
        : Beats.THREAD.scheduleAtFixedRate(this::touch, beatEvery.toMillis(), beatEvery.toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /**
   * Stops this lock's heartbeat (the thread goes on for the other locks). A beat under way finishes first, under the
   * same monitor, so none touches the file once this returns: one that had read the token before the lock was let go
   * touched the file after it (a test that put the file back saw its time change under load).
   */
  private synchronized void stopBeating() {
    stopped = true;
    if (beat != null) beat.cancel(false);
  }

  /** Thrown when a live writer holds the folder; the message names it and says what to do. */
  public static final class Held extends IOException {
    public Held(String message) {
      super(message);
    }
  }

  /**
   * Takes the lock of {@code dir} for {@code what} (e.g. {@code "sweep"}), waiting up to {@code wait} for a live
   * holder to finish.
   */
  public static WriterLock acquire(Path dir, String what, Duration wait) throws IOException {
    return acquire(dir, what, wait, STALE, Clock.systemUTC());
  }

  static WriterLock acquire(Path dir, String what, Duration wait, Duration stale, Clock clock) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.toAbsolutePath().normalize().resolve(FILE);
    synchronized (HELD) {
      if (exiting) throw exitingError(file);
      hookExit();
      Holding h = HELD.get(file);
      if (h != null) {
        h.holders++;
        return new WriterLock(file, null);
      }
    }
    Instant deadline = clock.instant().plus(wait);
    String token = HexFormat.of().formatHex(bytes());
    String displaced = null; // the stale holder's token this acquisition renamed aside, if it did
    boolean told = false; // a wait is said once, with its holder and limit, so that it is not taken for a hang
    while (true) {
      Map<String, Object> me = new LinkedHashMap<>();
      me.put("what", what);
      me.put("host", host());
      me.put("user", System.getProperty("user.name", "?"));
      me.put("pid", ProcessHandle.current().pid());
      me.put("started_at", clock.instant().toString());
      me.put("command", Command.LINE);
      me.put("token", token);
      try {
        create(file, (Json.pretty(me) + "\n").getBytes(StandardCharsets.UTF_8));
        WriterLock lock = new WriterLock(file, token);
        synchronized (HELD) {
          if (!exiting) {
            HELD.put(file, new Holding(lock));
            if (displaced != null) removeOlderAsides(file, displaced);
            return lock;
          }
        }
        lock.release(); // the exit began while the file was created, after its release looked for held locks
        throw exitingError(file);
      } catch (FileAlreadyExistsException taken) {
        String seen = tokenOf(file);
        FileTime seenAt = modifiedOrNull(file);
        Optional<String> why = staleness(file, stale, clock);
        if (why.isPresent() && why.get().startsWith(NO_HEARTBEAT) && seenAt != null && onAnotherHost(file)
            && touchedWhileWatched(file, seenAt)) {
          why = Optional.empty(); // its heartbeat goes on: the clocks disagree, the holder lives
        }
        if (why.isPresent()) {
          if (takeOver(file, seen, why.get())) displaced = seen;
          continue;
        }
        if (clock.instant().isBefore(deadline)) {
          if (!told) {
            System.err.println("h2beam: waiting up to " + wait.toSeconds() + " s (--lockWaitSeconds) for " + dir
                + ", which " + describe(file) + " is writing");
            told = true;
          }
          sleep(Duration.ofMillis(500));
          continue;
        }
        throw new Held(heldBy(dir, file, stale, clock));
      }
    }
  }

  /** How a lock's record reaches its new file: as it is, wrapped only by tests to fail part-way (a full disk). */
  static volatile UnaryOperator<OutputStream> writing = UnaryOperator.identity();

  /**
   * Creates {@code file} holding {@code record}. A write that fails once the file exists (a full disk lets the file be
   * created but not written) removes it again, when it still holds a part of this record: an empty lock left behind
   * refused every command for the staleness limit, naming a writer that did not exist.
   */
  private static void create(Path file, byte[] record) throws IOException {
    OutputStream created = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try (OutputStream out = writing.apply(created)) {
      out.write(record);
    } catch (IOException e) {
      created.close();
      FileSystemException failed = new FileSystemException(file.toString(), null, e.getMessage());
      failed.initCause(e);
      try {
        byte[] seen = Files.readAllBytes(file);
        if (Arrays.equals(seen, 0, seen.length, record, 0, Math.min(seen.length, record.length))) {
          Files.deleteIfExists(file);
        }
      } catch (IOException left) {
        failed.addSuppressed(left);
      }
      throw failed;
    }
  }

  private static byte[] bytes() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return b;
  }

  /** The start of the reason a lock is stale by its age alone. */
  private static final String NO_HEARTBEAT = "no heartbeat for ";

  /** Whether the lock's record names a holder on another host (one here is judged by its process). */
  private static boolean onAnotherHost(Path file) {
    return recordOf(file).map(n -> n.hasNonNull("host") && !host().equals(n.path("host").asText())).orElse(false);
  }

  private static FileTime modifiedOrNull(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      return null;
    }
  }

  /** Why the lock is stale, or empty while its holder may be alive. */
  static Optional<String> staleness(Path file, Duration stale, Clock clock) {
    JsonNode n;
    FileTime modified;
    try {
      modified = Files.getLastModifiedTime(file);
      n = Json.readTree(file);
    } catch (NoSuchFileException gone) {
      return Optional.of("released");
    } catch (IOException e) {
      // unreadable: a writer that died between create and write, or garbage; only age can tell
      n = null;
      try {
        modified = Files.getLastModifiedTime(file);
      } catch (IOException again) {
        return Optional.of("released");
      }
    }
    Optional<String> gone = holderGone(n, modified, stale, clock);
    if (gone.isEmpty()) return gone;
    // a holder gone is not enough when the job it submitted may still write: the JobManager must say it has ended
    ClusterJob j = n == null ? null : ClusterJob.from(n);
    if (j == null) return gone;
    ClusterJob.State state = j.state();
    if (state.phase() != ClusterJob.Phase.ENDED) return Optional.empty();
    return Optional.of(gone.get() + ", and " + j.describe() + " has ended (" + state.flinkState() + ")");
  }

  /**
   * Why the writer a lock names (its record {@code n}, null when unreadable; its file last touched at {@code
   * modified}) is gone, or empty while it may be alive; the job it may have submitted aside.
   */
  private static Optional<String> holderGone(JsonNode n, FileTime modified, Duration stale, Clock clock) {
    Duration age = Duration.between(modified.toInstant(), clock.instant());
    String why = null;
    if (n != null && host().equals(n.path("host").asText()) && n.path("pid").canConvertToLong()) {
      long pid = n.path("pid").asLong();
      Optional<ProcessHandle> h = ProcessHandle.of(pid);
      if (h.isEmpty() || !h.get().isAlive()) {
        why = "its process " + pid + " on this host is gone";
      } else if (age.compareTo(stale) > 0 && startedAfter(h.get(), n.path("started_at").asText(""))) {
        why = "its process " + pid + " on this host is another program now (it started after the lock was taken)";
      } else {
        // its holder lives on this host: alive whatever the file's time says (a clock stepped forward, a touched
        // file), so a second writer never runs beside it
        return Optional.empty();
      }
    }
    if (why == null && age.compareTo(stale) > 0) why = NO_HEARTBEAT + age.toSeconds() + " s";
    // dated ahead of this host's clock by more than the limit (a clock set back here, another host's set ahead, a
    // touched file): it never looked old, and an empty one refused every command until its date (dogX F8); a holder
    // on another host that still beats is seen by the watch, as for a heartbeat that looks old
    if (why == null && age.negated().compareTo(stale) > 0) {
      why = NO_HEARTBEAT + "as long as can be told (its file is dated " + age.negated().toSeconds() + " s ahead of"
          + " this host's clock)";
    }
    return Optional.ofNullable(why);
  }

  /**
   * Whether process {@code h} started after {@code startedAt}, the time its lock records it was taken (a pid the
   * system gave to another program since), by more than the few seconds two readings of a clock may differ; false
   * when either is not known.
   */
  private static boolean startedAfter(ProcessHandle h, String startedAt) {
    Optional<Instant> start = h.info().startInstant();
    if (start.isEmpty() || startedAt.isEmpty()) return false;
    try {
      return start.get().isAfter(Instant.parse(startedAt).plusSeconds(5));
    } catch (java.time.format.DateTimeParseException e) {
      return false;
    }
  }

  /**
   * Whether the lock, stale by its age, is touched while it is watched, for one heartbeat and a margin: a holder on
   * another host whose clock is behind this one's (or a file server's), or a clock stepped forward here, makes a live
   * holder's heartbeat look old, and only a change seen here tells it is alive.
   */
  static boolean touchedWhileWatched(Path file, FileTime seen) throws IOException {
    long until = System.nanoTime() + beatEvery.multipliedBy(5).dividedBy(4).plusSeconds(1).toNanos();
    while (System.nanoTime() < until) {
      sleep(Duration.ofMillis(Math.min(500, Math.max(10, beatEvery.toMillis() / 4))));
      try {
        if (!Files.getLastModifiedTime(file).equals(seen)) return true;
      } catch (IOException gone) {
        return false;
      }
    }
    return false;
  }

  /**
   * Renames the stale lock aside under its holder's token ({@code seen}, read before it was judged stale) and reports
   * the takeover; false when another contender moved it first or its holder released it (just try to create again).
   *
   * <p>The aside file must stay after the takeover: it is what makes a second contender that judged the same holder
   * stale fail its rename (its target name exists) instead of moving the fresh lock aside. It is removed when the
   * lock is released, or next taken over ({@link #removeOlderAsides}).
   */
  static boolean takeOver(Path file, String seen, String why) throws Held {
    Path aside = asideOf(file, seen);
    try {
      Files.move(file, aside);
    } catch (FileAlreadyExistsException | NoSuchFileException lost) {
      return false;
    } catch (IOException e) {
      // not a race this process lost but a move it may not make: tried again at once, it spun for ever with no word
      // (a folder with the sticky bit lets only a file's owner move it; dogAB 5)
      if (Files.exists(file)) throw cannotTakeOver(file, why, e);
      return false;
    }
    System.err.println("h2beam: took over the lock " + file + " (" + why + "); the old one is " + aside);
    return true;
  }

  /** The refusal for a stale lock this user may not move aside: whose it is, and who may remove it. */
  static Held cannotTakeOver(Path file, String why, IOException e) {
    String owner = Refusals.owner(file, "its owner");
    String sticky = "";
    try {
      if (isSticky(file.getParent())) {
        sticky = " (its folder has the sticky bit, so only the file's owner, the folder's owner or root may move it)";
      }
    } catch (IOException | UnsupportedOperationException unknown) {
      // said without it
    }
    return new Held("the lock " + file + " is stale (" + why + "), but this user cannot move it aside to take it over"
        + sticky + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": "
        + e.getMessage()) + "; ask " + owner + " (or root) to delete it, then run the command again");
  }

  private static boolean isSticky(Path dir) throws IOException {
    Object mode = Files.getAttribute(dir, "unix:mode");
    return mode instanceof Integer m && (m & 01000) != 0;
  }

  private static Path asideOf(Path file, String token) {
    return file.resolveSibling(FILE + ".stale-" + token);
  }

  /**
   * The token in a lock file, or for an unreadable one (a writer that died between create and write) a name for that
   * file which every contender reads alike: its modification time.
   */
  private static String tokenOf(Path file) {
    try {
      String t = Json.readTree(file).path("token").asText("");
      if (t.matches("[A-Za-z0-9_-]{1,64}")) return t; // part of a file name: nothing else is taken from the file
    } catch (IOException e) {
      // unreadable or gone: named by its time below
    }
    try {
      return "unreadable-" + Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      return "gone";
    }
  }

  /**
   * After this process took the lock over from the holder {@code displaced}, removes the aside files of holders taken
   * over before it: a contender still racing for one of those would have to have stalled through a whole later hold
   * of the lock. Their names were made from tokens, so a leftover from a crash cannot pile up. With {@code displaced}
   * null (the lock released) it removes them all.
   */
  private static void removeOlderAsides(Path file, String displaced) {
    Path keep = displaced == null ? null : asideOf(file, displaced);
    try (java.util.stream.Stream<Path> siblings = Files.list(file.getParent())) {
      for (Path p : siblings.filter(p -> p.getFileName().toString().startsWith(FILE + ".stale-")).toList()) {
        if (!p.equals(keep)) Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("h2beam: could not remove old lock files beside " + file + ": " + e.getMessage());
    }
  }

  /**
   * The refusal for a folder whose lock a live writer holds: its holder, or the cluster job it submitted, which may
   * run on after its client (then: how to cancel it, or when to delete the lock).
   */
  private static String heldBy(Path dir, Path file, Duration stale, Clock clock) {
    Optional<JsonNode> record = recordOf(file);
    if (record.isEmpty()) {
      Optional<String> theirs = unreadable(file);
      if (theirs.isPresent()) {
        return dir + " is locked by " + theirs.get() + ": " + file + "; ask them whether it still runs (a live writer"
            + " beats every few seconds, so it is taken over once untouched for " + stale.toSeconds() + " s)";
      }
      return dir + " is locked by " + file + ", which " + NO_RECORD + "; left alone, it is taken over once it is "
          + stale.toSeconds() + " s old (or dated as far ahead of this host's clock)";
    }
    ClusterJob j = ClusterJob.from(record.get());
    if (j != null) {
      ClusterJob.State state = j.state();
      if (state.phase() == ClusterJob.Phase.RUNNING) {
        // a live client waits for its job and cancels it when stopped; only a gone one leaves its job writing alone
        FileTime modified = modifiedOrNull(file);
        boolean clientGone = modified == null || holderGone(record.get(), modified, stale, clock).isPresent();
        return dir + " is being written by " + j.describe() + " (" + state.flinkState() + "), which "
            + describe(file) + (clientGone ? " submitted (a job runs on when its client is killed)"
            : " submitted and still waits for (stopping that client with Ctrl-C or kill " + record.get().path("pid")
                .asText("?") + " cancels the job)") + ". Wait for the job to end (or pass --lockWaitSeconds=N to"
            + " wait), or cancel it (" + state.cancelCommand(j) + ", or flink cancel " + state.jid() + ") and run"
            + " again";
      }
      if (state.phase() == ClusterJob.Phase.UNKNOWN) {
        return dir + " is held by " + describe(file) + ", whose job may still be writing: " + j.describe()
            + " cannot be asked (" + state.why() + "). Once you know that job has ended, delete " + file;
      }
    }
    return dir + " is being written by " + describe(file) + ". Wait for it to finish (or pass --lockWaitSeconds=N"
        + " to wait), or use another folder; if that process is really gone, delete " + file;
  }

  /** What a lock file without a record is, and what to do about it. */
  private static final String NO_RECORD = "holds no writer record (empty or unreadable: a writer that failed while"
      + " taking it?); delete it if no h2beam is running";

  static String describe(Path file) {
    Optional<JsonNode> record = recordOf(file);
    if (record.isEmpty()) return unreadable(file).orElse("a lock file that " + NO_RECORD) + " (" + file + ")";
    JsonNode n = record.get();
    String user = n.hasNonNull("user") ? "user " + n.path("user").asText() + ", " : "";
    return "a " + n.path("what").asText("h2beam") + " (" + user + "host " + n.path("host").asText("?") + ", pid "
        + n.path("pid").asText("?") + ", started " + n.path("started_at").asText("?") + ")";
  }

  /**
   * A lock file this user may not read: another user's writer, under a umask that keeps its files to itself, held it
   * and may still (dogAB 8: it was called a writer that failed while taking it). Empty when it can be read.
   */
  private static Optional<String> unreadable(Path file) {
    if (!Files.exists(file) || Files.isReadable(file)) return Optional.empty();
    return Optional.of("a lock file this user may not read, " + Refusals.owner(file, "another user")
        + "'s (a writer of theirs holds it, or held it)");
  }

  /**
   * The writer record in a lock file; empty when it holds none: an empty file (a writer that failed between creating
   * and writing it), one that is not a JSON object, or one that is gone.
   */
  private static Optional<JsonNode> recordOf(Path file) {
    try {
      JsonNode n = Json.readTree(file);
      return n != null && n.isObject() ? Optional.of(n) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The holder of {@code dir}'s lock when a live writer holds it; empty otherwise. */
  public static Optional<String> holder(Path dir) {
    Path file = dir.toAbsolutePath().normalize().resolve(FILE);
    synchronized (HELD) {
      if (HELD.containsKey(file)) return Optional.empty();
    }
    if (!Files.exists(file) || staleness(file, STALE, Clock.systemUTC()).isPresent()) return Optional.empty();
    return Optional.of(describe(file));
  }

  private synchronized void touch() {
    if (stopped) return;
    try {
      JsonNode n = Json.readTree(file);
      if (token.equals(n.path("token").asText())) Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
    } catch (IOException e) {
      if (!stopped) System.err.println("h2beam: could not refresh the lock " + file + ": " + e.getMessage());
    }
  }

  /** Releases the lock if it is still ours (a takeover by another process after a long stall is not undone). */
  @Override public void close() {
    synchronized (HELD) {
      Holding h = HELD.get(file);
      if (h != null && --h.holders > 0) return;
      // a job that may still write keeps the folder: the lock goes when the job has ended (jobEnded), or with the
      // exit, which cancels the job first
      if (h != null && job != null) return;
      HELD.remove(file);
    }
    release();
  }

  /**
   * Names {@code j} in every lock this JVM holds, before the job is submitted: from now until {@link #jobEnded}, a
   * lock whose holder is gone is only taken over once the JobManager says the job has ended.
   */
  public static void jobStarted(ClusterJob j) throws IOException {
    synchronized (HELD) {
      job = j;
      submissionFailed = false;
      for (Holding h : HELD.values()) h.owner.rewrite(j);
    }
  }

  /**
   * The submission of the job the locks name failed (Flink's client gave up sending it). Whether the JobManager took
   * it anyway (the cluster lost while it answered) only the JobManager can say: the locks keep naming the job, and
   * the exit says that it was never known to run rather than that it has not ended.
   */
  public static void submissionFailed() {
    synchronized (HELD) {
      if (job != null) submissionFailed = true;
    }
  }

  /**
   * The job has ended: the locks name it no longer, and close lets them go again. A lock that cannot be written
   * again keeps naming the job, which costs the next client one question to the JobManager.
   */
  public static void jobEnded(ClusterJob j) {
    synchronized (HELD) {
      if (!j.equals(job)) return;
      job = null;
      for (Iterator<Holding> it = HELD.values().iterator(); it.hasNext(); ) {
        Holding h = it.next();
        if (h.holders <= 0) {
          // closed while the job ran: let go now
          it.remove();
          h.owner.release();
          continue;
        }
        try {
          h.owner.rewrite(null);
        } catch (IOException e) {
          System.err.println("h2beam: the lock " + h.owner.file + " still names " + j.describe() + ", which has ended: "
              + e.getMessage());
        }
      }
    }
  }

  /** Writes this lock's file again, naming {@code j} (or no job), if it still carries this lock's token. */
  private void rewrite(ClusterJob j) throws IOException {
    JsonNode n = Json.readTree(file);
    if (!token.equals(n.path("token").asText())) return;
    Map<String, Object> m = Json.readMap(file);
    m.remove("job");
    if (j != null) m.put("job", j.record());
    AtomicFiles.writeString(file, Json.pretty(m) + "\n");
  }

  /** Deletes the file if it still carries this lock's token; a nested holder (no token) deletes nothing. */
  private void release() {
    stopBeating();
    if (token == null) return;
    try {
      JsonNode n = Json.readTree(file);
      if (!token.equals(n.path("token").asText())) return; // taken over after a long stall: not ours to tidy
      Files.deleteIfExists(file);
    } catch (IOException e) {
      return; // already gone
    }
    // the aside of a holder this one displaced (and any older one) goes too, so a folder a resumed run wrote ends as a
    // clean run's: a contender still racing for it would have had to stall through this whole hold
    removeOlderAsides(file, null);
  }

  /**
   * The exit's release: every lock this JVM still holds, once the records being written into its folders are done
   * (they are written until then, so the folder is not handed on earlier). Files that no longer carry our token (taken
   * over after a long stall) are left alone, as {@link #close} leaves them.
   */
  private static void releaseOnExit() {
    List<WriterLock> owners = new ArrayList<>();
    synchronized (HELD) {
      exiting = true;
      for (Holding h : HELD.values()) owners.add(h.owner);
    }
    if (owners.isEmpty()) return;
    ClusterJob j;
    boolean unsent;
    synchronized (HELD) {
      j = job;
      unsent = submissionFailed;
    }
    if (j != null) {
      System.err.println("h2beam: exiting: " + (unsent ? "the submission of " + j.describe() + " failed; asking the"
          + " cluster whether it has the job all the same, to cancel it" : "cancelling " + j.describe() + " first")
          + ", waiting up to " + exitWait.toSeconds() + " s for it to end");
      ClusterJob.State state = j.cancel(exitWait);
      if (state.phase() != ClusterJob.Phase.ENDED) {
        System.err.println("h2beam: " + kept(j, state, unsent) + "; its folders stay locked, naming it, so that no"
            + " other h2beam writes beside it: the next h2beam asks the cluster and takes them over once it says the"
            + " job is not running");
        return;
      }
    }
    Uninterruptible.awaitRecords();
    for (WriterLock lock : owners) lock.release();
  }

  /**
   * What is known of job {@code j} that did not end within the exit's wait: running, as the JobManager says; or, when
   * the JobManager did not answer, unknown, and for a job whose submission failed not even whether it was ever taken.
   */
  private static String kept(ClusterJob j, ClusterJob.State state, boolean unsent) {
    if (state.phase() == ClusterJob.Phase.RUNNING) {
      return j.describe() + " has not ended (" + state.flinkState() + "; cancel it: " + state.cancelCommand(j) + ")";
    }
    return unsent ? "the submission of " + j.describe() + " failed, and whether the JobManager took the job all the"
        + " same cannot be told (" + state.why() + ")"
        : "whether " + j.describe() + " has ended cannot be told (" + state.why() + ")";
  }

  private static IOException exitingError(Path file) {
    return new IOException("this process is exiting; it takes no lock (" + file + ") any more");
  }

  /**
   * This process as a refusal names it to the client: {@code the worker on host H (pid P)}. Every worker of a cluster
   * on one machine has the same host, so the host alone did not say which one refused (dogAC F8).
   */
  public static String worker() {
    return "the worker on host " + host() + " (pid " + ProcessHandle.current().pid() + ")";
  }

  /** This machine's name as a lock records its holder's (tests write a holder of their own with it). */
  public static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown-host";
    }
  }

  private static String clip(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  private static void sleep(Duration d) throws IOException {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a lock", e);
    }
  }
}
