package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer per folder: a live holder is named and refused, a dead or silent one is taken over. */
class WriterLockTest {
  @TempDir Path dir;

  void holder(String host, long pid) throws Exception {
    holder(host, pid, "2026-01-01T00:00:00Z");
  }

  /** A lock record of a holder on {@code host} whose process is {@code pid}, taken at {@code startedAt}. */
  void holder(String host, long pid, String startedAt) throws Exception {
    Files.writeString(dir.resolve(WriterLock.FILE), "{\"what\": \"sweep of x-oc-agg1\", \"host\": \"" + host
        + "\", \"pid\": " + pid + ", \"started_at\": \"" + startedAt + "\", \"token\": \"t\"}");
  }

  /**
   * dogX F1: a live holder on this host whose lock looks old (a clock stepped forward, a touched file) was taken
   * over, and two sweeps ran the same tasks, spending twice. Its process decides: alive, it holds the lock whatever
   * the file's time; a pid given since to a program that started after the lock was taken does not, once the lock
   * is as old as a stale one.
   */
  @Test
  void aLiveHolderOnThisHostKeepsItsLockWhateverItsFilesTime() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "60").start();
    try {
      holder(WriterLock.host(), sleeper.pid(), Instant.now().plusSeconds(1).toString());
      Files.setLastModifiedTime(dir.resolve(WriterLock.FILE), FileTime.from(Instant.now().minusSeconds(3600)));
      assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(dir, "sweep", Duration.ZERO));
      // the same pid, but the lock was taken before that program started: the pid was given to another since
      holder(WriterLock.host(), sleeper.pid(), Instant.now().minusSeconds(3600).toString());
      Files.setLastModifiedTime(dir.resolve(WriterLock.FILE), FileTime.from(Instant.now().minusSeconds(3600)));
      try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
        assertTrue(Files.readString(dir.resolve(WriterLock.FILE)).contains("\"pid\": "
            + ProcessHandle.current().pid()));
      }
    } finally {
      sleeper.destroyForcibly().waitFor();
    }
  }

  /**
   * dogX F1, across hosts: a holder on another host whose clock is behind this one's beats with file times that look
   * old here; a lock touched while it is watched for a heartbeat is alive, one that is not is taken over.
   */
  @Test
  void aHolderOnAnotherHostWhoseClockIsBehindIsAliveWhileItBeats() throws Exception {
    Duration before = WriterLock.beatEvery;
    WriterLock.beatEvery = Duration.ofMillis(100);
    Path file = dir.resolve(WriterLock.FILE);
    holder("another-host", 1);
    java.util.concurrent.atomic.AtomicBoolean beating = new java.util.concurrent.atomic.AtomicBoolean(true);
    Thread beat = new Thread(() -> {
      for (int i = 0; beating.get(); i++) {
        try {
          // its clock an hour behind: every beat sets a time that is an hour old here
          Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600).plusMillis(i)));
          Thread.sleep(100);
        } catch (Exception e) {
          return;
        }
      }
    });
    beat.start();
    try {
      // its beats have begun: the lock looks an hour old here
      while (Files.getLastModifiedTime(file).toInstant().isAfter(Instant.now().minusSeconds(1800))) Thread.sleep(10);
      assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(dir, "sweep", Duration.ZERO));
      beating.set(false);
      beat.join();
      // its last beat as old: dead now, it is taken over after the watch
      Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600)));
      try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
        assertTrue(Files.readString(file).contains(WriterLock.host()));
      }
    } finally {
      beating.set(false);
      beat.join();
      WriterLock.beatEvery = before;
    }
  }

  @Test
  void aLiveHolderIsNamedAndRefused() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "60").start();
    try {
      String taken = Instant.now().plusSeconds(1).toString();
      holder(WriterLock.host(), sleeper.pid(), taken);
      WriterLock.Held e = assertThrows(WriterLock.Held.class,
          () -> WriterLock.acquire(dir, "sweep", Duration.ZERO));
      assertTrue(e.getMessage().contains("pid " + sleeper.pid()) && e.getMessage().contains(WriterLock.host())
          && e.getMessage().contains("started " + taken) && e.getMessage().contains("--lockWaitSeconds"),
          e.getMessage());
      assertTrue(WriterLock.holder(dir).isPresent());
    } finally {
      sleeper.destroyForcibly().waitFor();
    }
  }

  /**
   * Every lock a JVM holds beats on one thread: each held file is touched again and again, and a lock let go is not
   * touched any more while the others still are.
   */
  @Test
  void everyHeldLockBeatsOnOneThreadAndALockLetGoStops() throws Exception {
    Duration before = WriterLock.beatEvery;
    WriterLock.beatEvery = Duration.ofMillis(20);
    List<Path> dirs = List.of(dir.resolve("a"), dir.resolve("b"), dir.resolve("c"));
    List<WriterLock> locks = new java.util.ArrayList<>();
    try {
      for (Path d : dirs) locks.add(WriterLock.acquire(d, "judge", Duration.ZERO));
      FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
      for (Path d : dirs) Files.setLastModifiedTime(d.resolve(WriterLock.FILE), old);
      for (Path d : dirs) awaitTouched(d.resolve(WriterLock.FILE), old);
      assertEquals(1, Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().equals("h2beam-lock-heartbeat")).count());

      // the let-go lock's file put back as it was, its token included: only a beat still scheduled would touch it
      String held = Files.readString(dir.resolve("a").resolve(WriterLock.FILE));
      locks.get(0).close();
      assertFalse(Files.exists(dir.resolve("a").resolve(WriterLock.FILE)));
      Files.writeString(dir.resolve("a").resolve(WriterLock.FILE), held);
      Files.setLastModifiedTime(dir.resolve("a").resolve(WriterLock.FILE), old);
      Files.setLastModifiedTime(dir.resolve("b").resolve(WriterLock.FILE), old);
      awaitTouched(dir.resolve("b").resolve(WriterLock.FILE), old);
      Thread.sleep(100);
      assertEquals(old, Files.getLastModifiedTime(dir.resolve("a").resolve(WriterLock.FILE)),
          "a lock let go beats no more");
    } finally {
      for (WriterLock l : locks) l.close();
      WriterLock.beatEvery = before;
    }
  }

  private static void awaitTouched(Path file, FileTime old) throws InterruptedException, java.io.IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Files.getLastModifiedTime(file).equals(old)) {
      if (System.nanoTime() > deadline) throw new AssertionError(file + " was never touched");
      Thread.sleep(5);
    }
  }

  @Test
  void aHolderWhoseProcessIsGoneIsTakenOver() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    holder(WriterLock.host(), gone.pid());
    try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
      assertTrue(Files.readString(dir.resolve(WriterLock.FILE)).contains("\"pid\": " + ProcessHandle.current().pid()));
    }
    assertFalse(Files.exists(dir.resolve(WriterLock.FILE)), "released on close");
  }

  /**
   * A full disk lets the lock file be created but not written: the failed acquire names the file and removes it
   * (an empty lock left behind refused every command for 3 minutes), but leaves a file that is no longer its own.
   */
  @Test
  void aLockThatCouldNotBeWrittenIsRemovedWhenItIsStillOurs() throws Exception {
    Path file = dir.resolve(WriterLock.FILE);
    try {
      WriterLock.writing = out -> failingAfter(out, 0, null);
      java.io.IOException e = assertThrows(java.io.IOException.class,
          () -> WriterLock.acquire(dir, "report", Duration.ZERO));
      assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("No space left on device"),
          e.getMessage());
      assertFalse(Files.exists(file), "the empty lock it created is gone");
      WriterLock.writing = out -> failingAfter(out, 7, null);
      assertThrows(java.io.IOException.class, () -> WriterLock.acquire(dir, "report", Duration.ZERO));
      assertFalse(Files.exists(file), "the part-written lock it created is gone");
      WriterLock.writing = out -> failingAfter(out, 0, file);
      assertThrows(java.io.IOException.class, () -> WriterLock.acquire(dir, "report", Duration.ZERO));
      assertEquals("{\"token\": \"other\"}", Files.readString(file), "another writer's file stays");
      Files.delete(file);
    } finally {
      WriterLock.writing = java.util.function.UnaryOperator.identity();
    }
    try (WriterLock lock = WriterLock.acquire(dir, "report", Duration.ZERO)) {
      assertTrue(Files.readString(file).contains("\"what\": \"report\""));
    }
  }

  /**
   * A stream that writes {@code n} bytes and then fails as a full disk does; with {@code replaced}, another writer's
   * record is put in that file first.
   */
  static java.io.OutputStream failingAfter(java.io.OutputStream out, int n, Path replaced) {
    return new java.io.FilterOutputStream(out) {
      @Override public void write(byte[] b, int off, int len) throws java.io.IOException {
        out.write(b, off, Math.min(n, len));
        out.flush();
        if (replaced != null) Files.writeString(replaced, "{\"token\": \"other\"}");
        throw new java.io.IOException("No space left on device");
      }
    };
  }

  /** An empty lock is refused as what it is, not as a live writer with unknown fields, and taken over once old. */
  @Test
  void anEmptyLockIsReportedAsHoldingNoRecordAndTakenOverOnceStale() throws Exception {
    Path file = dir.resolve(WriterLock.FILE);
    Files.writeString(file, "");
    WriterLock.Held e = assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(dir, "report", Duration.ZERO));
    assertTrue(e.getMessage().contains(file + ", which holds no writer record (empty or unreadable")
        && e.getMessage().contains("delete it if no h2beam is running") && !e.getMessage().contains("?,"),
        e.getMessage());
    assertTrue(WriterLock.holder(dir).orElseThrow().contains("holds no writer record"));
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600)));
    try (WriterLock lock = WriterLock.acquire(dir, "report", Duration.ZERO)) {
      assertTrue(Files.readString(file).contains(WriterLock.host()));
    }
  }

  /**
   * A stale lock that this user may not move aside (another user's in a folder with the sticky bit) made the next
   * command retry the move at once, for ever, saying nothing (dogAB 5): a move that fails for another reason than a
   * lost race is a refusal naming the file, its owner and who may delete it. The failure here is a real one of the
   * file system (an aside name too long), as a root-run test cannot be refused a move.
   */
  @Test
  void aStaleLockThatCannotBeMovedAsideIsRefusedNotRetriedForEver() throws Exception {
    Path file = dir.resolve(WriterLock.FILE);
    Files.writeString(file, "");
    WriterLock.Held e = assertThrows(WriterLock.Held.class,
        () -> WriterLock.takeOver(file, "t".repeat(300), "its process 5 on this host is gone"));
    assertTrue(e.getMessage().startsWith("the lock " + file + " is stale (its process 5 on this host is gone), but this"
        + " user cannot move it aside") && e.getMessage().contains("ask user ")
        && e.getMessage().endsWith("(or root) to delete it, then run the command again"), e.getMessage());
    assertTrue(Files.exists(file), "left as it was");

    // the whole acquisition, with the file system refusing the move as a sticky folder refuses another user's
    // (EPERM): the folder made immutable, which stops root too
    Files.delete(file);
    Path locked = Files.createDirectories(dir.resolve("locked"));
    Files.writeString(locked.resolve(WriterLock.FILE), "{\"what\": \"sweep\", \"host\": \"" + WriterLock.host()
        + "\", \"pid\": " + Integer.MAX_VALUE + ", \"token\": \"t\"}");
    assertEquals(0, new ProcessBuilder("chattr", "+i", locked.toString()).start().waitFor(), "chattr +i");
    try {
      WriterLock.Held refused = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20),
          () -> assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(locked, "sweep", Duration.ZERO)));
      assertTrue(refused.getMessage().contains("is stale (its process " + Integer.MAX_VALUE + " on this host is"
          + " gone), but this user cannot move it aside") && refused.getMessage().contains("Operation not permitted"),
          refused.getMessage());
    } finally {
      new ProcessBuilder("chattr", "-i", locked.toString()).start().waitFor();
    }

    Path shared = Files.createDirectories(dir.resolve("shared"));
    assertEquals(0, new ProcessBuilder("chmod", "1777", shared.toString()).start().waitFor());
    Path there = Files.writeString(shared.resolve(WriterLock.FILE), "");
    String sticky = WriterLock.cannotTakeOver(there, "no heartbeat for 400 s",
        new java.nio.file.AccessDeniedException(there.toString())).getMessage();
    assertTrue(sticky.contains("(its folder has the sticky bit, so only the file's owner, the folder's owner or root"
        + " may move it): AccessDeniedException: " + there), sticky);
  }

  /** A lock names its holder's user, so that a team sharing a folder knows whom to ask (dogAB 8). */
  @Test
  void aLockNamesTheUserWhoHoldsIt() throws Exception {
    try (WriterLock lock = WriterLock.acquire(dir, "sweep of x-oc-agg1", Duration.ZERO)) {
      Path file = dir.resolve(WriterLock.FILE);
      String user = System.getProperty("user.name");
      assertTrue(Files.readString(file).contains("\"user\": \"" + user + "\""), Files.readString(file));
      assertTrue(WriterLock.describe(file).startsWith("a sweep of x-oc-agg1 (user " + user + ", host "),
          WriterLock.describe(file));
    }
  }

  /** An empty lock dated in the future (a clock set back, a touched file) was never taken over until its date. */
  @Test
  void anEmptyLockDatedAheadOfThisHostsClockIsTakenOverOnceAsFarAheadAsStale() throws Exception {
    Path file = dir.resolve(WriterLock.FILE);
    Files.writeString(file, "");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(60)));
    assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(dir, "report", Duration.ZERO), "a minute ahead");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().plus(Duration.ofDays(3 * 365))));
    try (WriterLock lock = WriterLock.acquire(dir, "report", Duration.ZERO)) {
      assertTrue(Files.readString(file).contains(WriterLock.host()));
    }
  }

  /** A holder on another host dated ahead is watched as one whose heartbeat looks old: alive while it beats. */
  @Test
  void aHolderOnAnotherHostDatedAheadIsTakenOverOnlyWhenItStopsBeating() throws Exception {
    Duration before = WriterLock.beatEvery;
    WriterLock.beatEvery = Duration.ofMillis(100);
    try {
      holder("another-host", 1);
      Path file = dir.resolve(WriterLock.FILE);
      Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(3600)));
      try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
        assertTrue(Files.readString(file).contains(WriterLock.host()), "untouched while watched: taken over");
      }
    } finally {
      WriterLock.beatEvery = before;
    }
  }

  @Test
  void aHolderOnAnotherHostIsLiveWhileItsHeartbeatIsFresh() throws Exception {
    Duration before = WriterLock.beatEvery;
    WriterLock.beatEvery = Duration.ofMillis(100); // the watch for a heartbeat lasts about one
    holder("another-host", 1);
    assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(dir, "sweep", Duration.ZERO));
    Files.setLastModifiedTime(dir.resolve(WriterLock.FILE), FileTime.from(Instant.now().minusSeconds(3600)));
    try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
      assertTrue(Files.readString(dir.resolve(WriterLock.FILE)).contains(WriterLock.host()));
    } finally {
      WriterLock.beatEvery = before;
    }
  }

  @Test
  void waitingEndsWhenTheHolderReleases() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "1").start();
    holder(WriterLock.host(), sleeper.pid(), Instant.now().plusSeconds(1).toString());
    try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ofSeconds(30), WriterLock.STALE,
        Clock.systemUTC())) {
      assertTrue(Files.readString(dir.resolve(WriterLock.FILE)).contains(WriterLock.host()));
    }
  }

  @Test
  void theSameProcessMayNestItsOwnLock() throws Exception {
    try (WriterLock outer = WriterLock.acquire(dir, "demo", Duration.ZERO);
        WriterLock inner = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
      assertTrue(Files.exists(dir.resolve(WriterLock.FILE)));
    }
    assertFalse(Files.exists(dir.resolve(WriterLock.FILE)));
  }

  @Test
  void aProcessStoppedByCtrlCReleasesItsLock() throws Exception {
    Interrupted child = interruptHolder(dir, false);
    assertEquals(child.signal() == 2 ? 130 : 143, child.code(), child.log());
    assertFalse(Files.exists(dir.resolve(WriterLock.FILE)), "released by the exit: " + child.log());
    try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
      assertEquals(List.of(WriterLock.FILE), names(dir), "nothing taken over, nothing left aside");
    }
  }

  @Test
  void theExitLeavesALockThatIsNoLongerItsOwn() throws Exception {
    // taken over while the child stalled: the file now carries another holder's token, and stays
    Interrupted child = interruptHolder(dir, true);
    assertEquals(child.signal() == 2 ? 130 : 143, child.code(), child.log());
    assertTrue(Files.readString(dir.resolve(WriterLock.FILE)).contains("\"token\": \"other\""), child.log());
  }

  @Test
  void aTakenOverLockLeavesOneAsideFileWhichKeepsAnotherContenderOut() throws Exception {
    Files.writeString(dir.resolve(WriterLock.FILE + ".stale-0123456789abcdef"), "left by an older h2beam");
    holder(WriterLock.host(), gonePid());
    Path file = dir.resolve(WriterLock.FILE);
    try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
      // a second contender that judged the same dead holder stale: its rename must not move the fresh lock
      assertFalse(WriterLock.takeOver(file, "t", "its process is gone"));
      assertTrue(Files.readString(file).contains("\"pid\": " + ProcessHandle.current().pid()));
      assertEquals(List.of(WriterLock.FILE, WriterLock.FILE + ".stale-t"), names(dir));
    }
    Files.writeString(file, "{\"what\": \"sweep\", \"host\": \"" + WriterLock.host() + "\", \"pid\": "
        + gonePid() + ", \"token\": \"u\"}");
    try (WriterLock lock = WriterLock.acquire(dir, "sweep", Duration.ZERO)) {
      assertEquals(List.of(WriterLock.FILE, WriterLock.FILE + ".stale-u"), names(dir), "one aside file per lock");
    }
    // released, the lock leaves the folder as a run that took nothing over leaves it (dogG D3: a resumed run's
    // folders held a stale lock's copy a clean run's did not)
    assertEquals(List.of(), names(dir));
  }

  static long gonePid() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    return gone.pid();
  }

  static List<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  record Interrupted(int code, String log, int signal) {}

  /**
   * Whether {@code pid} ignores SIGINT: a program started in the background by a shell without job control (as a CI
   * script may start the build) inherits SIGINT ignored, and the JVM then leaves it so; there SIGTERM, which the JVM
   * handles the same way (its shutdown hooks, then the exit), stands in for Ctrl-C.
   */
  static boolean ignoresSigint(long pid) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
      if (line.startsWith("SigIgn:")) return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 0x2) != 0;
    }
    return false;
  }

  /**
   * Starts a JVM that holds {@code dir}'s lock, optionally has its file taken over, then sends it SIGINT (SIGTERM
   * where SIGINT is ignored, see {@link #ignoresSigint}).
   */
  static Interrupted interruptHolder(Path dir, boolean takenOver) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), HoldingChild.class.getName(), dir.toString())
        .redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      assertEquals("held", first);
      if (takenOver) {
        Files.writeString(dir.resolve(WriterLock.FILE), "{\"what\": \"sweep\", \"host\": \"elsewhere\","
            + " \"pid\": 1, \"token\": \"other\"}");
      }
      int signal = ignoresSigint(p.pid()) ? 15 : 2;
      assertEquals(0, new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start().waitFor());
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the child exits on signal " + signal);
      return new Interrupted(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
          signal);
    } finally {
      p.destroyForcibly();
    }
  }

  /** Holds a folder's lock, nested as a command and its sweep hold it, until it is stopped. */
  public static final class HoldingChild {
    public static void main(String[] args) throws Exception {
      Path dir = Path.of(args[0]);
      WriterLock outer = WriterLock.acquire(dir, "demo", Duration.ZERO);
      WriterLock inner = WriterLock.acquire(dir, "sweep", Duration.ZERO);
      System.out.println("held");
      System.out.flush();
      Thread.sleep(60_000);
      inner.close();
      outer.close();
    }
  }
}
