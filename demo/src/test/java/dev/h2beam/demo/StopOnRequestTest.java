package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.WriterLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep stopped on request (SIGTERM, Ctrl-C) says so in one line and how to go on, with no "failed" and no stack
 * trace, whether rollouts were in flight (the runner's cancelled work printed "sweep failed" and its trace) or not
 * (it printed nothing at all); the exit codes stay 143 and 130.
 */
class StopOnRequestTest {
  static final String STOPPED = "h2beam: stopped on request (SIG%s); finished work is kept: re-run the same command"
      + " to resume";

  @Test
  void aSweepStoppedMidRolloutSaysSoWithoutATrace(@TempDir Path root) throws Exception {
    Process p = sweep(root, "{\"domains\": 1, \"tasksPerDomain\": 2, \"executorLatencyMs\": 3000}");
    // the sweep's audit folder holds its rollouts' journal once they run
    Path audit = root.resolve("runs/_audit");
    for (int i = 0; i < 1200 && p.isAlive() && !Files.isDirectory(audit); i++) Thread.sleep(50);
    Thread.sleep(1500);
    String log = stop(p, 15, root);
    assertEquals(143, p.exitValue(), log);
    assertTrue(log.contains(String.format(STOPPED, "TERM")) && log.contains("h2beam: exiting once 1 rollout(s)"), log);
    assertFalse(log.contains("failed") || log.contains("\tat "), log);
  }

  @Test
  void aSweepStoppedWithNothingInFlightSaysSo(@TempDir Path root) throws Exception {
    Process holder = new ProcessBuilder("sleep", "60").start();
    try {
      // a live writer holds the runs root: the sweep waits for it, with nothing under way
      Files.createDirectories(root.resolve("runs"));
      Files.writeString(root.resolve("runs").resolve(WriterLock.FILE), "{\"what\": \"sweep\", \"host\": \""
          + WriterLock.host() + "\", \"pid\": " + holder.pid() + ", \"token\": \"t\"}");
      Process p = sweep(root, "{\"domains\": 1, \"tasksPerDomain\": 1}", "--lockWaitSeconds=60");
      Thread.sleep(4000);
      int signal = ignoresSigint(p.pid()) ? 15 : 2;
      String log = stop(p, signal, root);
      assertEquals(128 + signal, p.exitValue(), log);
      assertTrue(log.contains(String.format(STOPPED, signal == 2 ? "INT" : "TERM")), log);
      assertFalse(log.contains("failed") || log.contains("\tat "), log);
    } finally {
      holder.destroyForcibly().waitFor();
    }
  }

  private static Process sweep(Path root, String settings, String... extra) throws Exception {
    List<String> cmd = DemoRuns.java();
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.h2beam.pipelines.Main", "sweep",
        "--bench=synthetic", "--benchRoot=" + root, "--runsRoot=" + root.resolve("runs"), "--benchSettings="
        + settings, "--k=1", "--modes=parallel", "--progress=off"));
    cmd.addAll(new ArrayList<>(List.of(extra)));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(root.resolve("sweep.log").toFile())
        .start();
  }

  /** Sends {@code signal} to the sweep and returns its output once it exited. */
  private static String stop(Process p, int signal, Path root) throws Exception {
    try {
      assertTrue(p.isAlive(), Files.readString(root.resolve("sweep.log")));
      assertEquals(0, new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start().waitFor());
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the sweep exits on signal " + signal);
      return Files.readString(root.resolve("sweep.log"));
    } finally {
      p.destroyForcibly();
    }
  }

  /** Whether {@code pid} ignores SIGINT (started in the background without job control): then SIGTERM stands in. */
  static boolean ignoresSigint(long pid) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
      if (line.startsWith("SigIgn:")) return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 0x2) != 0;
    }
    return false;
  }
}
