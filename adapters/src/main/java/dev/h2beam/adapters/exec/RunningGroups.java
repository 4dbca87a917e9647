package dev.h2beam.adapters.exec;

import dev.h2beam.adapters.files.JvmExit;
import dev.h2beam.adapters.files.Uninterruptible;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The process groups this JVM's programs run in, killed when it exits. Each program runs in a session of its own, so
 * neither the signal that ends h2beam (a SIGTERM; a Ctrl-C reaches the terminal's group only) nor the JVM's end
 * reaches it: an exiting sweep left its rollouts' agents running, writing into folders a resume then rolled again.
 * The exit first waits for the records in progress ({@link Uninterruptible#awaitRecords}, at most 10 s), so that a
 * program ending meanwhile is recorded, then kills the programs still running; and once the exit has begun no
 * program starts. The exit's hook is registered only while a program runs: a registered hook holds its job's
 * classes (see {@link Uninterruptible}).
 */
final class RunningGroups {
  private RunningGroups() {}

  /** The groups of the programs running now. */
  private static final Set<ProcessGroup> LIVE = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Programs being started (under {@link #LIVE}): the exit waits for their groups before it kills. */
  private static int starting;

  /** Set (under {@link #LIVE}) once the exit has begun: nothing starts after it. */
  private static boolean exiting;

  /** How long the exit waits for a program being started to have its group (a start takes milliseconds). */
  private static final long START_WAIT_MS = 2_000;

  /** The exit's kill, registered while a program runs or is being started. */
  static final Thread KILL_AT_EXIT = new Thread(RunningGroups::killAtExit, "h2beam-kill-at-exit");

  /**
   * Counts a program as being started, before it is: the exit's hook is then registered before the program exists,
   * so no program can start unseen by the exit. Follow with {@link #started} or {@link #notStarted}.
   *
   * @throws InterruptedException this JVM is exiting: the program must not be started
   */
  static void starting() throws InterruptedException {
    synchronized (LIVE) {
      if (!exiting && JvmExit.begun()) exiting = true;
      if (!exiting && LIVE.isEmpty() && starting == 0) {
        try {
          Runtime.getRuntime().addShutdownHook(KILL_AT_EXIT);
        } catch (IllegalStateException begun) {
          exiting = true;
        }
      }
      if (!exiting) {
        starting++;
        return;
      }
    }
    throw new InterruptedException("h2beam is exiting: no program starts after its exit has begun");
  }

  /** The program counted by {@link #starting} runs in {@code group}, until {@link #ended}. */
  static void started(ProcessGroup group) {
    synchronized (LIVE) {
      starting--;
      LIVE.add(group);
      LIVE.notifyAll();
    }
  }

  /** The program counted by {@link #starting} could not be started. */
  static void notStarted() {
    synchronized (LIVE) {
      starting--;
      LIVE.notifyAll();
      unhookIfIdle();
    }
  }

  /** {@code group}'s program has ended and its group is dead; the exit's hook goes after the last. */
  static void ended(ProcessGroup group) {
    synchronized (LIVE) {
      if (LIVE.remove(group)) unhookIfIdle();
    }
  }

  private static void unhookIfIdle() {
    if (!LIVE.isEmpty() || starting > 0 || exiting) return;
    try {
      Runtime.getRuntime().removeShutdownHook(KILL_AT_EXIT);
    } catch (IllegalStateException begun) {
      // the exit has begun and the hook runs: it finds no group left
    }
  }

  private static void killAtExit() {
    synchronized (LIVE) {
      exiting = true;
    }
    Uninterruptible.awaitRecords();
    List<ProcessGroup> left;
    synchronized (LIVE) {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_WAIT_MS);
      try {
        long ms = START_WAIT_MS;
        while (starting > 0 && ms > 0) {
          LIVE.wait(ms);
          ms = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        }
      } catch (InterruptedException e) {
        // kill what has a group now
      }
      left = new ArrayList<>(LIVE);
    }
    if (left.isEmpty()) return;
    System.err.println("h2beam: killing " + left.size() + " program(s) still running at the exit; what they were"
        + " doing (a rollout, a session, a grade or a check) was not recorded, and is done again when the same command"
        + " is run again");
    for (ProcessGroup g : left) g.killFromElsewhere();
  }
}
