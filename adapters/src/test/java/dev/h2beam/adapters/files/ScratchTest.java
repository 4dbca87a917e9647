package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Folders handed over for removal are gone once the hand-over is awaited, however many were handed at once. */
class ScratchTest {

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
}
