package dev.h2beam.adapters.files;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Temporary folders (session folders, harvested workspaces, script checks, grader output) kept in {@code .tmp/}
 * under the folder whose writer lock the command holds, never in the system's temporary folder. A process killed
 * with {@code kill -9} cannot remove its temporary folders; kept here, the next command that takes the same lock
 * removes them ({@link #clean}) and nothing leaks into {@code /tmp}. The name starts with a dot so that neither h2beam
 * nor harness2 takes it for a namespace or a task.
 */
public final class Scratch {
  /** The folder name under a locked folder. */
  public static final String DIR = ".tmp";

  private Scratch() {}

  /** The scratch folder of {@code lockedDir} (a runs root, a namespace being judged). */
  public static Path of(Path lockedDir) {
    return lockedDir.toAbsolutePath().normalize().resolve(DIR);
  }

  /**
   * A new empty folder named {@code prefix…} inside {@code scratch} (created when missing), or in the system's
   * temporary folder when {@code scratch} is null (a command with no run folder, such as {@code check}).
   */
  public static Path newDir(Path scratch, String prefix) throws IOException {
    if (prefix.indexOf('/') >= 0 || !prefix.startsWith(OWN)) {
      throw new IllegalArgumentException("a scratch folder's prefix is part of one name starting with " + OWN
          + ", not '" + prefix + "'");
    }
    if (scratch == null) return Files.createTempDirectory(prefix);
    Trees.makeFolder(scratch);
    boolean posix = scratch.getFileSystem() == FileSystems.getDefault() ? OWNER_ONLY
        : scratch.getFileSystem().supportedFileAttributeViews().contains("posix");
    // named by this process and a count, made readable by its owner alone as the JDK's temporary folders are: the
    // JDK's random name and its look-ups cost more than the folder (a session's and a script check's each); a name
    // another process took (a worker sharing the folder) is passed over, as the folder is made only where none is
    while (true) {
      Path dir = scratch.resolve(prefix + PID + "-" + COUNT.incrementAndGet());
      try {
        return posix ? Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(RWX_OWNER))
            : Files.createDirectory(dir);
      } catch (FileAlreadyExistsException taken) {
        // next count
      }
    }
  }

  /**
   * How the name of every entry h2beam makes in a scratch folder starts: {@link #clean} removes those alone, so a
   * folder of the user's that happens to be named {@code .tmp} keeps what is theirs.
   */
  public static final String OWN = "h2beam-";

  private static final long PID = ProcessHandle.current().pid();
  private static final AtomicLong COUNT = new AtomicLong();
  private static final Set<PosixFilePermission> RWX_OWNER = PosixFilePermissions.fromString("rwx------");
  /** Whether the default file system takes POSIX permissions. */
  private static final boolean OWNER_ONLY = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  /**
   * Removes what an earlier, killed writer left in {@code lockedDir}'s scratch folder, and the folder itself when
   * that leaves it empty. Only entries named as h2beam names them ({@link #OWN}) are removed: anything else there is
   * not h2beam's, and is left with a warning naming it. Call it only while holding {@code lockedDir}'s writer lock:
   * the folders of a live writer would go too. Returns how many leftover entries were removed.
   *
   * <p>A writer killed with SIGKILL leaves the programs it started running (an agent CLI lives on until its own
   * timeout), and one may still write in its folder: that folder cannot be emptied. It is left, with a warning naming
   * it, for the next run to remove: this run's folders have names of their own, so it is in nobody's way.
   */
  public static int clean(Path lockedDir) throws IOException {
    Path dir = of(lockedDir);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      if (Files.isSymbolicLink(dir)) Files.delete(dir); // never follow a planted link into someone else's folder
      return 0;
    }
    List<Path> leftovers;
    try (Stream<Path> s = Files.list(dir)) {
      leftovers = s.toList();
    }
    int removed = 0;
    int foreign = 0;
    for (Path p : leftovers) {
      if (!p.getFileName().toString().startsWith(OWN)) {
        foreign++;
        System.err.println("h2beam: " + p + " was not made by h2beam and is left as it is; " + dir + " is h2beam's"
            + " scratch folder, emptied of what h2beam leaves there: keep your files elsewhere");
        continue;
      }
      try {
        Trees.delete(p);
        removed++;
      } catch (DirectoryNotEmptyException stillWritten) {
        System.err.println("h2beam: " + p + " is still being written (a program an earlier, killed run started is"
            + " still running); left for the next run to remove");
      } catch (FileSystemException denied) {
        if (!Refusals.refused(denied)) throw denied;
        // another user's leftover (scratch folders are their owner's alone): it failed every later command of the
        // team with a trace naming only its leaf (dogAB 4); it is in nobody's way, as this run's folders are its own
        String owner = Refusals.owner(p, "its owner");
        System.err.println("h2beam: cannot remove " + p + ", left by an earlier run of " + owner + " ("
            + denied.getReason() + "): it is in nobody's way; " + owner + " or root may delete it");
      }
    }
    try {
      if (foreign == 0 && removed == leftovers.size()) Files.deleteIfExists(dir);
    } catch (DirectoryNotEmptyException madeMeanwhile) {
      // such a program made an entry of its own since the listing: the next run removes it
    }
    return removed;
  }

  /** Removes {@code dir}, a folder {@link #newDir} made, with a warning naming it when that fails. */
  public static void delete(Path dir) {
    try {
      Trees.delete(dir);
    } catch (IOException e) {
      System.err.println("h2beam: could not remove the temporary folder " + dir + " (" + e.getMessage()
          + "); the next run that takes this folder's writer lock removes it");
    }
  }

  /** The tickets of folders handed to {@link #deleteLater} and not yet removed; guards {@link #issued} too. */
  private static final TreeSet<Long> PENDING = new TreeSet<>();
  private static long issued;

  /** At most this many folders wait for the reaper; past it the caller removes its own (it never falls behind). */
  private static final int BACKLOG = 64;

  /**
   * The reaper's thread ends after ten idle seconds: a thread left running holds its job's classes, and on a session
   * cluster's TaskManager every job's stayed loaded until the worker's metaspace was full.
   */
  private static final ThreadPoolExecutor REAPER = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS,
      new ArrayBlockingQueue<>(BACKLOG), r -> {
        Thread t = new Thread(r, "h2beam-scratch-reaper");
        t.setDaemon(true);
        return t;
      }, new ThreadPoolExecutor.CallerRunsPolicy());

  static {
    REAPER.allowCoreThreadTimeOut(true);
  }

  /**
   * Removes {@code dir} (a session's folder, used up) on a thread of its own, so that the step that used it goes on
   * at once: removing a session's copy of its evidence was a tenth of a sweep's CPU, spent on the chain's own path
   * while the other chains waited for a core (BENCHMARKS.md, issue 11). Nothing reads the folder again. A failure is
   * {@link #delete}'s warning; a folder a killed process did not get to remove is removed by {@link #clean}. {@link
   * #awaitDeletions} waits for every folder handed over before it.
   */
  public static void deleteLater(Path dir) {
    long ticket;
    synchronized (PENDING) {
      ticket = ++issued;
      PENDING.add(ticket);
    }
    REAPER.execute(() -> {
      try {
        delete(dir);
      } finally {
        synchronized (PENDING) {
          PENDING.remove(ticket);
          PENDING.notifyAll();
        }
      }
    });
  }

  /**
   * Returns once every folder handed to {@link #deleteLater} before this call is removed (a chain's and a command's
   * last step: nothing of theirs stays behind them); folders handed over later by other threads are not waited for.
   * An interrupt ends the wait early and is kept.
   */
  public static void awaitDeletions() {
    synchronized (PENDING) {
      long last = issued;
      while (!PENDING.isEmpty() && PENDING.first() <= last) {
        try {
          PENDING.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
