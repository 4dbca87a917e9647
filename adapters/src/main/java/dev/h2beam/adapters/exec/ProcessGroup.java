package dev.h2beam.adapters.exec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child started in its own session (through {@code setsid}), so that it and everything it starts share one process
 * group whose id is the child's pid, and can be killed together. Where {@code setsid} or {@code kill} is missing, the
 * group degrades to the child and its descendants as {@link ProcessHandle} sees them.
 */
final class ProcessGroup {
  /**
   * The logger, made when something is first logged: starting slf4j took 15 ms of a resume that logs nothing
   * (BENCHMARKS.md, issue 12).
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(ProcessGroup.class);
  }

  /** The {@code setsid} program, or null where there is none (then children share our group). */
  static final String SETSID = firstExecutable("/usr/bin/setsid", "/bin/setsid");

  /** The {@code kill} program: the JDK cannot signal a process group, only single processes. */
  private static final String KILL = firstExecutable("/bin/kill", "/usr/bin/kill");

  private static final Path PROC = Path.of("/proc");

  /** How long a kill may take to empty the group before we give up waiting (a process stuck in the kernel). */
  private static final long KILL_WAIT_MS = 10_000;

  private final Process leader;
  private final boolean ownGroup;
  /** When the leader was started, about ({@link System#nanoTime}): see {@link #lastPid}. */
  private final long startedNanos = System.nanoTime();
  /** An interrupt that arrived during a kill, restored for the caller once the group is gone (caller's thread only). */
  private boolean interrupted;

  ProcessGroup(Process leader, boolean ownGroup) {
    this.leader = leader;
    this.ownGroup = ownGroup;
  }

  static {
    if (SETSID == null) {
      Log.LOG.warn("setsid is not installed: child processes share h2beam's process group, and only the descendants "
          + "the JVM can see are killed on timeout; install util-linux for group kills");
    }
  }

  /**
   * Kills whatever is left of the group after the leader exited on its own (a background job it did not wait for):
   * a finished program leaves nothing running. Cheap when the group is already empty, as it usually is.
   */
  void killLeftovers() {
    if (!leader.isAlive() && ownGroup && Files.isDirectory(PROC) && empty()) return;
    killAndWait();
  }

  /** At most this many pids are looked at one by one; a wider range since the leader is listed from /proc. */
  private static final int PROBE = 256;

  /**
   * Whether no live process is left in the leader's group or session. Only the processes started after the leader
   * can be in it ({@link #lastPid}); they are looked at one by one ({@code /proc/<pid>/stat}), and then those started
   * meanwhile, until none was, so that a member's child forked while they are looked at is seen: listing /proc, whose
   * entries the kernel makes for every process on the machine, was two fifths of this check (BENCHMARKS.md, issue
   * 11). Past {@link #PROBE} pids, or where the last pid cannot be used, /proc is listed.
   */
  private boolean empty() {
    long pgid = leader.pid();
    long last = lastPid();
    if (last < 0) return members(pgid, 0).isEmpty();
    long next = pgid;
    while (last - pgid < PROBE) {
      for (long pid = next; pid <= last; pid++) {
        Path dir = PROC.resolve(Long.toString(pid));
        // a pid no longer in use answered by a look, not by an exception from opening its stat
        if (!dir.toFile().exists()) continue;
        if (member(stat(dir.resolve("stat")), pgid)) return false;
      }
      long now = readLong(LAST_PID);
      if (now == last) return true;
      if (now < last) return members(pgid, 0).isEmpty(); // the pids wrapped around meanwhile
      next = last + 1;
      last = now;
    }
    return members(pgid, pgid).isEmpty();
  }

  /** A program that ran at most this long is checked for leftovers among the processes started after it only. */
  private static final long SHORT_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final Path LAST_PID = PROC.resolve("sys/kernel/ns_last_pid");

  /**
   * The last pid handed out, when every process of the group has a pid from the leader's up to it, or -1; so that the
   * check after every program looks at the few processes started since it instead of every process on the machine
   * (reading them all was a tenth of a sweep's CPU at L = 0, BENCHMARKS.md, issue 11). Everything in the group was
   * started after its leader, and pids are handed out upwards until they wrap around at {@code pid_max} (32,768 on
   * some machines); so when the last pid handed out is still at or above the leader's, every member's pid is too. A
   * wrap since the leader started shows as a last pid below the leader's; only a program that ran long enough for
   * the pids to wrap all the way back above its own could hide a member below, so a program that ran over a second,
   * or a kernel that does not tell its last pid, gets -1 (every process is looked at).
   */
  private long lastPid() {
    if (System.nanoTime() - startedNanos > SHORT_NANOS) return -1;
    long last = readLong(LAST_PID);
    return last >= leader.pid() ? last : -1;
  }

  /** The number a small /proc file holds, or -1 when it cannot be read. */
  private static long readLong(Path file) {
    ByteBuffer buf = STAT_BUFFER.get().clear();
    try (SeekableByteChannel in = Files.newByteChannel(file)) {
      // a few digits and a newline: no read to reach end of file after it
      while (buf.hasRemaining() && in.read(buf) > 0 && buf.get(buf.position() - 1) != '\n') {
        // a number cut between reads: read on
      }
      return Long.parseLong(new String(buf.array(), 0, buf.position(), StandardCharsets.ISO_8859_1).trim());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Kills every process of the group (and every descendant of the leader, wherever its group) and returns once the
   * leader is reaped and no live member is left, or {@link #KILL_WAIT_MS} passed. Never throws and keeps the caller's
   * interrupt status: it runs on the way out of interrupted waits, and an interrupt must not leave a child running.
   */
  void killAndWait() {
    interrupted = Thread.interrupted();
    List<ProcessHandle> known = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
    while (true) {
      // Snapshot before signalling: once the leader dies its children are re-parented out of our sight.
      leader.descendants().forEach(known::add);
      signalGroup();
      for (ProcessHandle h : known) h.destroyForcibly();
      leader.destroyForcibly();
      long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
      try {
        if (leader.waitFor(leftMs, TimeUnit.MILLISECONDS) && nothingLeft(known)) break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
      if (System.nanoTime() - deadline > 0) {
        Log.LOG.warn("process group {} still has live members {} ms after SIGKILL; giving up waiting", leader.pid(),
            KILL_WAIT_MS);
        break;
      }
      pause();
    }
    if (interrupted) Thread.currentThread().interrupt();
  }

  /**
   * Kills the group from a thread other than the one running the program (the exit's, {@link RunningGroups}), which
   * then sees its program end. Unlike {@link #killAndWait} it leaves this object's state alone.
   */
  void killFromElsewhere() {
    if (ownGroup) {
      killSession(leader.pid());
    } else {
      leader.descendants().forEach(ProcessHandle::destroyForcibly);
    }
    leader.destroyForcibly();
  }

  /** SIGKILL to the whole group: {@code kill -KILL -- -<pgid>}, plus each member found in /proc (catches forks). */
  private void signalGroup() {
    if (!ownGroup) return;
    interrupted |= signal(leader.pid());
  }

  /**
   * SIGKILL to the group {@code pgid} and to each member of its group or session found in /proc.
   *
   * @return whether the calling thread was interrupted meanwhile (its interrupt is cleared: the caller keeps it)
   */
  private static boolean signal(long pgid) {
    boolean interrupted = false;
    if (KILL != null) {
      try {
        Process k = new ProcessBuilder(KILL, "-KILL", "--", "-" + pgid)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        // Exit 1 means the group is already empty; either way there is nothing to report.
        while (true) {
          try {
            k.waitFor();
            break;
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      } catch (IOException e) {
        Log.LOG.warn("cannot run {} to kill process group {}: {}", KILL, pgid, e.getMessage());
      }
    }
    for (long pid : members(pgid)) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    return interrupted;
  }

  /**
   * Kills every live member of the session {@code sid} (a group this JVM did not start: an earlier JVM's, see
   * {@link GroupRecord}) and returns once none is left, or {@link #KILL_WAIT_MS} passed. Keeps the caller's interrupt.
   *
   * @return how many live members there were at first (0: nothing was running)
   */
  static int killSession(long sid) {
    int found = members(sid).size();
    boolean interrupted = Thread.interrupted();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
    while (!members(sid).isEmpty()) {
      if (System.nanoTime() - deadline > 0) {
        Log.LOG.warn("process group {} still has live members {} ms after SIGKILL; giving up waiting", sid,
            KILL_WAIT_MS);
        break;
      }
      interrupted |= signal(sid);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
    return found;
  }

  /**
   * When {@code pid} started, in clock ticks after boot ({@code starttime}, the 22nd field of
   * {@code /proc/<pid>/stat}), or -1 when there is no such process (or no /proc). With the boot it tells a process
   * from a later one that was given the same pid.
   */
  static long startTicks(long pid) {
    String line;
    try {
      line = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      return -1;
    }
    // after "pid (comm) ", whose comm may hold spaces and parentheses: state is field 3, starttime field 22
    int close = line.lastIndexOf(')');
    String[] fields = close < 0 ? new String[0] : line.substring(close + 1).trim().split(" ");
    try {
      return fields.length > 19 ? Long.parseLong(fields[19]) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private boolean nothingLeft(List<ProcessHandle> known) {
    if (ownGroup && !members(leader.pid()).isEmpty()) return false;
    for (ProcessHandle h : known) {
      if (live(h.pid())) return false;
    }
    return true;
  }

  /**
   * The live processes whose group or session is {@code pgid}, read from /proc (empty where there is no /proc). A
   * session member that moved to another group (a shell with job control) is still ours to kill.
   */
  static List<Long> members(long pgid) {
    return members(pgid, 0);
  }

  /** The same among the processes whose pid is at least {@code from} ({@link #lastPid}). */
  static List<Long> members(long pgid, long from) {
    List<Long> out = new ArrayList<>();
    if (!Files.isDirectory(PROC)) return out;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(PROC)) {
      for (Path p : ds) {
        long pid = pid(p.getFileName().toString());
        if (pid < from || pid < 0) continue;
        if (member(stat(p.resolve("stat")), pgid)) out.add(pid);
      }
    } catch (IOException e) {
      // /proc changed while we read it; the next round reads it again.
    }
    return out;
  }

  /**
   * The sessions of the live processes whose environment holds the entry {@code entry} ("NAME=value"), read from
   * /proc; those of other users, whose environments cannot be read, are not among them.
   */
  static Set<Long> sessionsWithEnv(String entry) {
    Set<Long> out = new TreeSet<>();
    if (!Files.isDirectory(PROC)) return out;
    byte[] wanted = entry.getBytes(StandardCharsets.UTF_8);
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(PROC)) {
      for (Path p : ds) {
        if (pid(p.getFileName().toString()) < 0) continue;
        byte[] env;
        try {
          env = Files.readAllBytes(p.resolve("environ"));
        } catch (IOException | SecurityException e) {
          continue; // gone, or another user's
        }
        if (!holds(env, wanted)) continue;
        long[] st = stat(p.resolve("stat"));
        if (st != null && st[0] != 0) out.add(st[2]);
      }
    } catch (IOException e) {
      // /proc changed while we read it: what was found is stopped, and the record is gone after
    }
    return out;
  }

  /** Whether {@code env}, entries each ended by a NUL, holds {@code entry} as one of them. */
  static boolean holds(byte[] env, byte[] entry) {
    int start = 0;
    while (start < env.length) {
      int end = start;
      while (end < env.length && env[end] != 0) end++;
      if (Arrays.equals(env, start, end, entry, 0, entry.length)) return true;
      start = end + 1;
    }
    return false;
  }

  /** Whether a process's {@link #stat} shows it live, in the group or the session {@code pgid}. */
  private static boolean member(long[] st, long pgid) {
    return st != null && st[0] != 0 && (st[1] == pgid || st[2] == pgid);
  }

  /** A /proc entry's pid, or -1 for an entry that is not a process ({@code self}, {@code sys}, ...). */
  private static long pid(String name) {
    if (name.isEmpty() || name.length() > 18) return -1;
    long pid = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < '0' || c > '9') return -1;
      pid = pid * 10 + (c - '0');
    }
    return pid;
  }

  /**
   * True when {@code pid} is a running process. A zombie is dead (it only waits for its parent to collect its status),
   * so it does not count; where there is no /proc, {@link ProcessHandle} decides.
   */
  static boolean live(long pid) {
    if (!Files.isDirectory(PROC)) return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    long[] st = stat(PROC.resolve(Long.toString(pid)).resolve("stat"));
    return st != null && st[0] != 0;
  }

  private static final ThreadLocal<ByteBuffer> STAT_BUFFER = ThreadLocal.withInitial(() -> ByteBuffer.allocate(4096));

  /** {alive (1) or zombie/dead (0), pgrp, session} from a /proc stat file, or null when the process is gone. */
  private static long[] stat(Path statFile) {
    // one read into a buffer of this thread's: a stat line is a few hundred bytes, and a scan reads one for every
    // process on the machine after every program, where reading the whole file also asked its size and read to EOF
    ByteBuffer buf = STAT_BUFFER.get().clear();
    try (SeekableByteChannel in = Files.newByteChannel(statFile)) {
      // the line ends in a newline: no read to reach end of file after it
      while (buf.hasRemaining() && in.read(buf) > 0 && buf.get(buf.position() - 1) != '\n') {
        // a line longer than one read: read on
      }
    } catch (IOException e) {
      return null;
    }
    return parseStat(buf.array(), buf.position());
  }

  /**
   * {alive (1) or zombie/dead (0), pgrp, session} from the first {@code length} bytes of a stat line, or null when
   * they are not one. The line is "pid (comm) state ppid pgrp session ..." and comm may hold spaces and parentheses,
   * so the fields are read after the last ')'; only the four needed are read, not the fifty-odd of the line.
   */
  static long[] parseStat(byte[] line, int length) {
    int close = length - 1;
    while (close >= 0 && line[close] != ')') close--;
    if (close < 0 || close + 1 >= length || line[close + 1] != ' ') return null;
    long[] field = new long[3];
    int at = close + 2;
    char state = '?';
    for (int f = 0; f < 4; f++) {
      int end = at;
      while (end < length && line[end] != ' ' && line[end] != '\n') end++;
      if (f == 0) {
        if (end > at) state = (char) (line[at] & 0xff);
      } else if (f >= 2) {
        long v = number(line, at, end);
        if (v == Long.MIN_VALUE) return null;
        field[f - 1] = v;
      }
      if (f < 3 && (end >= length || line[end] != ' ')) return null;
      at = end + 1;
    }
    field[0] = state != 'Z' && state != 'X' && state != 'x' ? 1 : 0;
    return field;
  }

  /** The decimal number (a sign allowed) in {@code line[from, to)}, or {@link Long#MIN_VALUE} when it is not one. */
  private static long number(byte[] line, int from, int to) {
    boolean negative = from < to && line[from] == '-';
    int i = negative || from < to && line[from] == '+' ? from + 1 : from;
    if (i >= to || to - i > 18) return Long.MIN_VALUE;
    long v = 0;
    for (; i < to; i++) {
      int d = line[i] - '0';
      if (d < 0 || d > 9) return Long.MIN_VALUE;
      v = v * 10 + d;
    }
    return negative ? -v : v;
  }

  private void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      interrupted = true;
    }
  }

  private static String firstExecutable(String... paths) {
    for (String p : paths) {
      Path f = Path.of(p);
      if (Files.isRegularFile(f) && Files.isExecutable(f)) return p;
    }
    return null;
  }
}
