package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UninterruptibleTest {

  @Test
  void aBlockFinishesThoughItsThreadIsInterruptedAndTheInterruptIsKept(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("record");
    AtomicBoolean keptInterrupt = new AtomicBoolean();
    CountDownLatch inside = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      try {
        Uninterruptible.run(() -> {
          inside.countDown();
          try {
            Thread.sleep(200);
          } catch (InterruptedException e) {
            throw new AssertionError("the writer thread was interrupted", e);
          }
          Files.writeString(out, "done");
        });
        keptInterrupt.set(Thread.currentThread().isInterrupted());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    t.start();
    inside.await();
    t.interrupt();
    t.join();
    assertEquals("done", Files.readString(out));
    assertTrue(keptInterrupt.get(), "the caller's interrupt is re-asserted after the block");
  }

  @Test
  void anExitingProcessWaitsForAHeldSpanToFinish(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("held");
    Exited held = exit("hold", out);
    assertEquals(3, held.code());
    assertEquals("recorded", Files.readString(out), "the span that was in flight at the exit finished");
    assertTrue(held.log().contains("exiting once 1 rollout(s) or record(s) in progress"), held.log());
  }

  @Test
  void withoutAHoldTheExitDoesNotWait(@TempDir Path dir) throws Exception {
    // the control: the same child without the hold exits before its work is recorded, so the test above can fail
    Path out = dir.resolve("unheld");
    Exited unheld = exit("none", out);
    assertEquals(3, unheld.code());
    assertFalse(Files.exists(out), "nothing waited for the unheld span");
  }

  record Exited(int code, String log) {}

  static Exited exit(String mode, Path out) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), ExitingChild.class.getName(), mode, out.toString())
        .redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    return new Exited(p.waitFor(), log);
  }

  /** A process whose work (a rollout that ends and is then recorded) is in flight when another thread exits. */
  public static final class ExitingChild {
    public static void main(String[] args) throws Exception {
      boolean hold = args[0].equals("hold");
      // the class (and its exit drain) is loaded in both modes, so the control differs only in the hold
      Class.forName(Uninterruptible.class.getName(), true, ExitingChild.class.getClassLoader());
      Path out = Path.of(args[1]);
      CountDownLatch started = new CountDownLatch(1);
      Thread work = new Thread(() -> {
        Uninterruptible.Hold span = hold ? Uninterruptible.hold() : null;
        started.countDown();
        try {
          Thread.sleep(500);
          Files.writeString(out, "recorded");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        } finally {
          if (span != null) span.close();
        }
      });
      work.setDaemon(true);
      work.start();
      started.await();
      System.exit(3);
    }
  }

  /**
   * The exit's wait for records in progress is a shutdown hook only while one is in progress: a hook left registered
   * holds the classes of the job that registered it, and on a session cluster's TaskManager every job's stayed loaded
   * until the worker's metaspace was full.
   */
  @Test
  void theExitsWaitIsRegisteredOnlyWhileARecordIsInProgress() {
    Runtime rt = Runtime.getRuntime();
    assertFalse(rt.removeShutdownHook(Uninterruptible.DRAIN), "no record in progress, no hook");
    try (Uninterruptible.Hold one = Uninterruptible.hold(); Uninterruptible.Hold two = Uninterruptible.hold()) {
      assertTrue(rt.removeShutdownHook(Uninterruptible.DRAIN), "registered while records are in progress");
      rt.addShutdownHook(Uninterruptible.DRAIN); // as it was
      one.close();
      assertTrue(rt.removeShutdownHook(Uninterruptible.DRAIN), "still one in progress");
      rt.addShutdownHook(Uninterruptible.DRAIN);
    }
    assertFalse(rt.removeShutdownHook(Uninterruptible.DRAIN), "none in progress: removed");
  }
}
