package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SIGTERM to h2beam while programs run: the runner's threads go on while the exit's hooks run, and a program they
 * try to start then must not start, while a program still running is killed rather than left behind (it runs in a
 * session of its own, which no signal to h2beam reaches). A real JVM, a real SIGTERM, real programs.
 */
class ExitStopsProgramsTest {
  @TempDir Path dir;

  @Test
  void afterASigtermNoProgramStartsAndTheOnesRunningAreKilled() throws Exception {
    assumeTrue(ProcessGroup.SETSID != null && Files.isDirectory(Path.of("/proc")), "needs setsid and /proc");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), TermedChild.class.getName(), dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
    long inFlight = -1;
    try {
      inFlight = pidFrom(dir.resolve("inflight.pid"));
      assertTrue(ProcessGroup.live(inFlight), "the program in flight runs when the SIGTERM comes");
      child.destroy(); // SIGTERM
      assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the child JVM exits");
      String log = Files.readString(dir.resolve("child.log"));
      assertTrue(Files.readString(dir.resolve("outcome.txt")).startsWith("refused: h2beam is exiting"),
          Files.readString(dir.resolve("outcome.txt")) + "\n" + log);
      assertFalse(Files.exists(dir.resolve("late.txt")), "the program asked for after the SIGTERM never ran");
      assertFalse(ProcessGroup.live(inFlight), "the program in flight was killed at the exit\n" + log);
      assertTrue(log.contains("killing 1 program(s) still running at the exit"), log);
    } finally {
      child.destroyForcibly();
      if (inFlight > 0) ProcessGroup.killSession(inFlight);
    }
  }

  /** The pid a script wrote to {@code f}, waiting (at most 10 s) for it to get there. */
  static long pidFrom(Path f) throws Exception {
    for (int i = 0; i < 1000 && (!Files.exists(f) || Files.readString(f).strip().isEmpty()); i++) Thread.sleep(10);
    return Long.parseLong(Files.readString(f).strip());
  }

  /**
   * A JVM with one program running (as a rollout's agent would be) and a thread that asks for another once the exit
   * has begun (as a chain given a freed slot would), writing what it got to {@code outcome.txt}.
   */
  public static final class TermedChild {
    public static void main(String[] args) throws Exception {
      Path dir = Path.of(args[0]);
      CountDownLatch exiting = new CountDownLatch(1);
      CountDownLatch asked = new CountDownLatch(1);
      // the test's stand-in for the exit's other waits: the JVM stays up until the late start was tried
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        exiting.countDown();
        try {
          asked.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
      Thread late = new Thread(() -> {
        String outcome;
        try {
          exiting.await();
          ProcessRunner.run(spec(dir, "echo ran > late.txt", "late"));
          outcome = "ran";
        } catch (InterruptedException e) {
          outcome = "refused: " + e.getMessage();
        } catch (Exception e) {
          outcome = "failed: " + e;
        }
        try {
          Files.writeString(dir.resolve("outcome.txt"), outcome, StandardCharsets.UTF_8);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        } finally {
          asked.countDown();
        }
      });
      late.setDaemon(true);
      late.start();
      ProcessRunner.run(spec(dir, "echo $$ > inflight.pid; exec sleep 30", "inflight"));
    }

    static ProcessSpec spec(Path dir, String script, String name) {
      return ProcessSpec.of(List.of("sh", "-c", script), dir, Env.base(System.getenv()),
          dir.resolve(name + ".out"), dir.resolve(name + ".err"), Duration.ofSeconds(60));
    }
  }
}
