package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.RolloutFailed;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which failures are the host's ({@link HostFailure}): a refused start, an exhausted host; never a program's words. */
class HostFailureTest {
  @Test
  void aStartTheKernelRefusesIsTheHostsAndNamesItsReason(@TempDir Path dir) {
    // a program that is there, with one argument longer than Linux takes: ProcessBuilder.start fails (E2BIG)
    ProcessRunner.StartException e = assertThrows(ProcessRunner.StartException.class, () -> ProcessRunner.run(
        ProcessSpec.of(List.of("sh", "-c", ":", "x".repeat(200_000)), dir, Map.of(), dir.resolve("o"),
            dir.resolve("e"), Duration.ofSeconds(10))));
    assertTrue(e.refusedByHost(), e.getMessage());
    HostFailure h = HostFailure.of("rollout agg2 could not start", new IOException("wrapped", e)).orElseThrow();
    assertTrue(h.getMessage().startsWith("rollout agg2 could not start (cannot run sh: Cannot run program"),
        h.getMessage());
    assertTrue(h.getMessage().contains("Argument list too long"), h.getMessage());
  }

  /** A file failure without a reason (a folder that is a file), or an exception without a message, is no host's. */
  @Test
  void aFailureWithoutAReasonIsNoHostFailure() {
    assertTrue(HostFailure.of("session g1 could not start", new FileSystemException("/runs/not-a-folder")).isEmpty());
    assertTrue(HostFailure.of("session g1 could not start", new IOException((String) null)).isEmpty());
  }

  @Test
  void aMissingProgramIsNoHostFailure(@TempDir Path dir) {
    ProcessRunner.StartException e = assertThrows(ProcessRunner.StartException.class, () -> ProcessRunner.run(
        ProcessSpec.of(List.of("no-such-program-h2beam"), dir, Map.of(), dir.resolve("o"), dir.resolve("e"),
            Duration.ofSeconds(10))));
    assertFalse(e.refusedByHost());
    assertTrue(HostFailure.of("rollout agg2 could not start", e).isEmpty());
  }

  @Test
  void runningOutOfFilesIsTheHostsAndSaysToRaiseTheLimit() {
    HostFailure h = HostFailure.of("session inv2 could not start",
        new FileSystemException("/runs/x/trajectory.md", null, "Too many open files")).orElseThrow();
    assertTrue(h.getMessage().contains("(/runs/x/trajectory.md: Too many open files)"), h.getMessage());
    assertTrue(h.getMessage().contains("raise the open-files limit (ulimit -n"), h.getMessage());
    assertTrue(HostFailure.isRecorded(HostFailure.PREFIX + h.getMessage()));
    assertTrue(HostFailure.recorded(HostFailure.PREFIX + h.getMessage()).getMessage().equals(h.getMessage()));
  }

  @Test
  void aProgramThatRanAndSaidSoIsNot() {
    // the agent's own stderr may say anything: a rollout that ran and failed stays the method's outcome
    assertTrue(HostFailure.of("x", new RolloutFailed("`sh -c agent` exited with 1: Too many open files", 0, true))
        .isEmpty());
    assertTrue(HostFailure.of("x", new IOException("sh s.sh exited with 2: Too many open files")).isEmpty());
    assertFalse(HostFailure.isRecorded("RolloutFailed: HostFailure: no"));
  }
}
