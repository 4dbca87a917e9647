package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a summary and a progress line quote a dead rollout's error. */
class DeadRolloutReasonTest {
  /**
   * A path near PATH_MAX made every base fail with a reason cut inside the path, "File name too long" lost (dogX F8):
   * the real error of a file made under a path that long keeps its end.
   */
  @Test
  void aLongPathKeepsTheReasonThatFollowsIt(@TempDir Path dir) {
    Path deep = dir;
    for (int i = 0; i < 17; i++) deep = deep.resolve("x".repeat(250));
    Path target = deep;
    FileSystemException e = org.junit.jupiter.api.Assertions.assertThrows(FileSystemException.class,
        () -> Files.createDirectories(target));
    String why = SweepSteps.reason(e.getClass().getSimpleName() + ": " + e.getMessage());
    assertTrue(why.endsWith("File name too long"), why);
    assertTrue(why.startsWith("FileSystemException: " + dir) && why.contains(" … "), why);
    assertEquals(SweepSteps.REASON_CHARS + " … ".length(), why.length(), why);
  }

  @Test
  void aShortReasonIsItsFirstLineWithoutControlCharacters() throws IOException {
    assertEquals("rollout failed: exit 3", SweepSteps.reason("  rollout failed: exit 3\nstack line\n"));
    assertEquals("a?b", SweepSteps.reason("a\u0007b"));
    assertEquals("(no reason given)", SweepSteps.reason("  \n"));
  }
}
