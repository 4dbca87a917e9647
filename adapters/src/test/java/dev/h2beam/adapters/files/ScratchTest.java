package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Folders handed over for removal are gone once the hand-over is awaited, however many were handed at once. */
class ScratchTest {

  /**
   * A leftover this user may not remove (another user's scratch folder, their owner's alone) failed every later
   * command of the team with a trace naming its leaf (dogAB 4): it is left with a warning, the rest removed. The
   * refusal is the file system's own: the folder is made immutable ({@code chattr +i}), which stops root as it stops
   * another user.
   */
  @Test
  void aLeftoverThisUserMayNotRemoveIsLeftAndTheRestRemoved(@TempDir Path runs) throws Exception {
    Path theirs = Files.createDirectories(Scratch.of(runs).resolve("h2beam-prop-5308-123"));
    Files.writeString(theirs.resolve("mission.md"), "x");
    Path mine = Files.createDirectories(Scratch.of(runs).resolve("h2beam-prop-5308-124"));
    Files.writeString(mine.resolve("mission.md"), "x");
    Process chattr = new ProcessBuilder("chattr", "+i", theirs.toString()).redirectErrorStream(true).start();
    String why = new String(chattr.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, chattr.waitFor(), "chattr +i (an ext4 or similar /tmp): " + why);
    java.io.PrintStream was = System.err;
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    try {
      System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
      assertEquals(1, Scratch.clean(runs));
    } finally {
      System.setErr(was);
      new ProcessBuilder("chattr", "-i", theirs.toString()).start().waitFor();
    }
    String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(said.contains("h2beam: cannot remove " + theirs + ", left by an earlier run of user ")
        && said.contains("(Operation not permitted): it is in nobody's way"), said);
    assertTrue(Files.exists(theirs.resolve("mission.md")));
    assertFalse(Files.exists(mine));
  }

  @Test
  void everyFolderHandedOverIsGoneOnceAwaited(@TempDir Path runs) throws Exception {
    Path scratch = Scratch.of(runs);
    List<Path> dirs = new ArrayList<>();
    // more than the reaper's backlog, from several threads: some are removed by their callers, the rest queued
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      List<Path> mine = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        Path d = Scratch.newDir(scratch, "h2beam-test-");
        Files.createDirectories(d.resolve("context/harness"));
        Files.writeString(d.resolve("context/harness/AGENTS.md"), "text " + i);
        mine.add(d);
      }
      dirs.addAll(mine);
      threads.add(new Thread(() -> mine.forEach(Scratch::deleteLater)));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) t.join();
    Scratch.awaitDeletions();
    for (Path d : dirs) assertFalse(Files.exists(d), d + " is still there");
    assertTrue(Files.isDirectory(scratch), "only what was handed over is removed");
  }

  @Test
  void awaitingWithNothingHandedOverReturns() {
    Scratch.awaitDeletions();
  }

  /**
   * A new folder is empty, its owner's alone, and its own: made from many threads at once, no two are the same; a
   * name already taken is passed over; a prefix that is not part of one name is refused.
   */
  @Test
  void newFoldersAreEmptyPrivateAndDistinct(@TempDir Path runs) throws Exception {
    Path scratch = Scratch.of(runs);
    Set<Path> made = ConcurrentHashMap.newKeySet();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(new Thread(() -> {
        for (int i = 0; i < 200; i++) {
          try {
            made.add(Scratch.newDir(scratch, "h2beam-prop-"));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) t.join();
    assertEquals(800, made.size());
    Path one = made.iterator().next();
    assertEquals(List.of(), Files.list(one).toList());
    if (Files.getFileStore(one).supportsFileAttributeView("posix")) {
      assertEquals("rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(one)));
    }
    // the next names taken by another writer: passed over, never shared
    String last = made.stream().map(p -> p.getFileName().toString()).max(Comparator.comparingLong(
        n -> Long.parseLong(n.substring(n.lastIndexOf('-') + 1)))).orElseThrow();
    String stem = last.substring(0, last.lastIndexOf('-') + 1);
    long next = Long.parseLong(last.substring(last.lastIndexOf('-') + 1)) + 1;
    for (long k = next; k < next + 3; k++) Files.createDirectory(scratch.resolve(stem + k));
    Path passed = Scratch.newDir(scratch, "h2beam-prop-");
    assertEquals(stem + (next + 3), passed.getFileName().toString());
    assertThrows(IllegalArgumentException.class,
        () -> Scratch.newDir(scratch, "h2beam-a/b"));
    assertThrows(IllegalArgumentException.class, () -> Scratch.newDir(scratch, "other-"),
        "every name h2beam makes there starts with h2beam-, so that the clean knows its own");
  }

  /**
   * A folder of the user's that happens to be named .tmp under a runs root, or a file of theirs put in h2beam's, is
   * left as it is: the clean removes only what h2beam names as its own, and keeps the folder while anything else is
   * in it.
   */
  @Test
  void whatH2beamDidNotMakeIsLeftWhereItIs(@TempDir Path runs) throws Exception {
    Path scratch = Files.createDirectories(Scratch.of(runs));
    Files.writeString(scratch.resolve("important.txt"), "keep\n");
    Files.createDirectories(scratch.resolve("notes")).resolve("a.md").toFile().createNewFile();
    Path leftover = Files.createDirectories(scratch.resolve("h2beam-prop-77-1"));
    Files.writeString(leftover.resolve("answer.md"), "left by a killed run\n");
    assertEquals(1, Scratch.clean(runs));
    assertFalse(Files.exists(leftover));
    assertEquals("keep\n", Files.readString(scratch.resolve("important.txt")));
    assertTrue(Files.exists(scratch.resolve("notes/a.md")));
    assertEquals(0, Scratch.clean(runs));
    assertTrue(Files.isDirectory(scratch));
  }

  /**
   * A killed run's program may still write in its scratch folder when the next run cleans it (SIGKILL leaves a run's
   * children running): that folder is left for a later run, and the clean goes on; it never stops the run.
   */
  @Test
  void aLeftoverStillBeingWrittenIsLeftAndTheCleanGoesOn(@TempDir Path runs) throws Exception {
    Path scratch = Scratch.of(runs);
    Path written = Files.createDirectories(scratch.resolve("h2beam-agent-state-1"));
    Path done = Files.createDirectories(scratch.resolve("h2beam-prop-2"));
    Files.writeString(done.resolve("answer.md"), "done\n");
    // the orphan: writes a file, again and again, until the clean is over
    java.util.concurrent.atomic.AtomicBoolean over = new java.util.concurrent.atomic.AtomicBoolean();
    Thread orphan = new Thread(() -> {
      for (long i = 0; !over.get(); i++) {
        try {
          Files.writeString(written.resolve("log" + i), "x");
        } catch (IOException gone) {
          try {
            Files.createDirectories(written);
          } catch (IOException e) {
            return;
          }
        }
      }
    });
    orphan.start();
    try {
      while (!Files.exists(written.resolve("log100"))) Thread.onSpinWait();
      // each round may meet the orphan mid-write (the folder emptied, then a file in it again before it goes)
      for (int round = 0; round < 20; round++) Scratch.clean(runs);
    } finally {
      over.set(true);
      orphan.join();
    }
    assertFalse(Files.exists(done), "what no one writes in any more is removed");
    Scratch.clean(runs);
    assertFalse(Files.exists(scratch), "once nothing writes in it, the next clean removes it, and the folder");
  }
}
