package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real processes on one output folder: the second waits for the first's writer lock instead of racing it, then
 * finds everything done; the files equal a single run's and no rollout or session ran twice. Without waiting the
 * second is refused with the holder named.
 */
class ConcurrentDemoTest {

  static Process demo(Path out, Path log, String... extra) throws Exception {
    List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.h2beam.pipelines.Main", "demo",
        "--output=" + out, "--sessionRetryWaitSeconds=0"));
    cmd.addAll(List.of(extra));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  @Test
  void twoDemosOnOneFolderRunOnceBetweenThem(@TempDir Path shared, @TempDir Path logs) throws Exception {
    Process a = demo(shared, logs.resolve("a.log"), "--lockWaitSeconds=300");
    Process b = demo(shared, logs.resolve("b.log"), "--lockWaitSeconds=300");
    assertEquals(0, a.waitFor(), Files.readString(logs.resolve("a.log")));
    assertEquals(0, b.waitFor(), Files.readString(logs.resolve("b.log")));
    FlinkDemoTest.assertNothingRanTwice(shared, 2);
    FlinkDemoTest.assertSameFiles(DemoRuns.cleanDemo(), shared);
  }

  /** A sweep that waited for another's lock records its start as when it held the locks, not when it was asked. */
  @Test
  void aSweepThatWaitedForTheLockStartsWhenItHoldsIt(@TempDir Path out) throws Exception {
    Process holder = new ProcessBuilder("sleep", "60").start();
    Path runs = out.resolve("runs");
    Files.createDirectories(runs);
    Files.writeString(runs.resolve(dev.h2beam.adapters.files.WriterLock.FILE), "{\"what\": \"sweep of x\", \"host\": \""
        + dev.h2beam.adapters.files.WriterLock.host() + "\", \"pid\": " + holder.pid()
        + ", \"started_at\": \"2026-01-01T00:00:00Z\", \"token\": \"t\"}");
    java.util.concurrent.atomic.AtomicReference<java.time.Instant> released = new java.util.concurrent.atomic
        .AtomicReference<>();
    Thread ends = new Thread(() -> {
      try {
        Thread.sleep(2000);
        released.set(java.time.Instant.now());
        holder.destroy();
        holder.waitFor();
      } catch (InterruptedException x) {
        Thread.currentThread().interrupt();
      }
    });
    java.time.Instant asked = java.time.Instant.now();
    ends.start();
    try {
      assertEquals(0, DemoRuns.demo(out, "--k=1", "--lockWaitSeconds=60"));
    } finally {
      ends.join();
      holder.destroy();
    }
    List<Path> records;
    try (var s = Files.list(runs.resolve("_sweeps"))) {
      records = s.toList();
    }
    assertEquals(1, records.size(), records.toString());
    java.time.Instant started = java.time.Instant.parse(String.valueOf(
        dev.h2beam.adapters.files.Json.readMap(records.get(0)).get("started_at")));
    assertTrue(!started.isBefore(released.get().minusMillis(1)) && started.isAfter(asked.plusMillis(1500)),
        "started_at " + started + ", the holder ended at " + released.get());
  }

  @Test
  void withoutWaitingTheSecondIsRefusedNamingTheHolder(@TempDir Path shared, @TempDir Path logs) throws Exception {
    Process a = demo(shared, logs.resolve("a.log"));
    // wait until the first holds the folder, then start the second
    Path lock = shared.resolve(dev.h2beam.adapters.files.WriterLock.FILE);
    for (int i = 0; i < 600 && !Files.exists(lock) && a.isAlive(); i++) Thread.sleep(50);
    Process b = demo(shared, logs.resolve("b.log"));
    int bExit = b.waitFor();
    assertEquals(0, a.waitFor(), Files.readString(logs.resolve("a.log")));
    String bLog = Files.readString(logs.resolve("b.log"));
    if (bExit != 0) {
      assertTrue(bLog.contains("is being written by a demo") && bLog.contains("pid " + a.pid()), bLog);
    } else {
      // the first had already finished before the second looked: then the second only resumed
      assertTrue(bLog.contains("Demo: "), bLog);
    }
  }
}
