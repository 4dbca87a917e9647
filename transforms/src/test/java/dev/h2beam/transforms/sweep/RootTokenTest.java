package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker that does not see the runs root the client wrote refuses, naming the path and its host. */
class RootTokenTest {
  @Test
  void theTokenTheClientWroteIsReadBack(@TempDir Path runs) throws Exception {
    String token = RootToken.write(runs);
    assertDoesNotThrow(() -> RootToken.check(runs, token));
    assertEquals(token, Files.readString(RootToken.file(runs)).strip());
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
