package dev.h2beam.transforms.proposer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner cancels a job by interrupting its threads; a session or rollout that ran must still be journalled (a file
 * channel opened on an interrupted thread closes at once, and the line was lost while the cached reply survived).
 */
class JournalInterruptTest {
  @Test
  void anInterruptedThreadStillJournalsAndKeepsItsInterrupt(@TempDir Path dir) throws Exception {
    Path journal = dir.resolve("sessions.jsonl");
    Thread.currentThread().interrupt();
    try {
      Journal.append(journal, "{\"key\":\"a\"}");
      assertTrue(Thread.currentThread().isInterrupted(), "the caller's interrupt is kept for it to act on");
    } finally {
      Thread.interrupted();
    }
    assertEquals(List.of("{\"key\":\"a\"}"), Journal.lines(journal));
  }
}
