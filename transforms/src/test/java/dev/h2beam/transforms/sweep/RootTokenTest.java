package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.WriterLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker that does not see, or cannot write, the runs root the client wrote refuses, naming the path and itself. */
class RootTokenTest {
  @Test
  void theTokenTheClientWroteIsReadBack(@TempDir Path runs) throws Exception {
    String token = RootToken.write(runs);
    assertDoesNotThrow(() -> RootToken.check(runs, token));
    assertEquals(token, Files.readString(RootToken.file(runs)).strip());
    try (var left = Files.list(RootToken.file(runs).getParent())) {
      assertEquals(List.of(RootToken.file(runs)), left.toList(), "the write probe is removed");
    }
    // one a killed worker left is removed by the next client, which holds the runs root's lock
    Path left = Files.writeString(RootToken.file(runs).resolveSibling("write-probe-0a1b"), "");
    Path user = Files.writeString(RootToken.file(runs).resolveSibling("runs-root-id"), "x");
    RootToken.write(runs);
    assertTrue(!Files.exists(left) && Files.exists(user), "only the probe is removed");
  }

  /**
   * A worker that sees the runs root but may not write it (dogAC F8: mounted read-only in one TaskManager) refuses at
   * once, naming itself: the job failed its first write and was restarted until its restart strategy was spent. The
   * refusal is the file system's own: h2beam's folder under the root is made immutable ({@code chattr +i}), which
   * stops root as it stops another user.
   */
  @Test
  void aWorkerThatCannotWriteTheRunsRootRefuses(@TempDir Path runs) throws Exception {
    String token = RootToken.write(runs);
    Path own = RootToken.file(runs).getParent();
    Process chattr = new ProcessBuilder("chattr", "+i", own.toString()).redirectErrorStream(true).start();
    String why = new String(chattr.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, chattr.waitFor(), "chattr +i (an ext4 or similar /tmp): " + why);
    try {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> RootToken.check(runs, token));
      assertTrue(e.getMessage().startsWith("the worker on host " + WriterLock.host() + " (pid "
          + ProcessHandle.current().pid() + ") sees the runs root the client wrote but cannot write it: "
          + own.resolve("write-probe-")) && e.getMessage().contains(" (Operation not permitted). Every worker must"
          + " be able to write " + runs + " ") && e.getMessage().endsWith("make it writable and re-run the same"
          + " command"), e.getMessage());
    } finally {
      new ProcessBuilder("chattr", "-i", own.toString()).start().waitFor();
    }
  }

  @Test
  void aWorkerWithAnotherFolderAtThePathRefuses(@TempDir Path runs, @TempDir Path elsewhere) throws Exception {
    String token = RootToken.write(runs);
    IllegalStateException missing = assertThrows(IllegalStateException.class, () -> RootToken.check(elsewhere, token));
    assertTrue(missing.getMessage().contains(RootToken.file(elsewhere) + " does not exist there")
        && missing.getMessage().contains("on host ")
        // every worker of a one-machine cluster has the same host: the pid says which refused (dogAC F8)
        && missing.getMessage().contains(" (pid " + ProcessHandle.current().pid() + ")"), missing.getMessage());
    RootToken.write(elsewhere);
    IllegalStateException other = assertThrows(IllegalStateException.class, () -> RootToken.check(elsewhere, token));
    assertTrue(other.getMessage().contains("holds another run's token"), other.getMessage());
  }
}
