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

  @Test
  void eachProcessAppendsToItsOwnFileAndTheJournalReadsThemAll(@TempDir Path dir) throws Exception {
    Path journal = dir.resolve("executions.jsonl");
    // another worker's file (a TaskManager on another host) and one written whole by an older h2beam
    java.nio.file.Files.writeString(dir.resolve("executions.other-host-1.jsonl"), "{\"run_id\":\"b\"}\n");
    java.nio.file.Files.writeString(journal, "{\"run_id\":\"old\"}\n");
    Journal.append(journal, "{\"run_id\":\"a\"}");
    assertTrue(Journal.ownFile(journal).getFileName().toString().matches("executions\\..+-\\d+\\.jsonl"));
    assertEquals(List.of("{\"run_id\":\"a\"}"), java.nio.file.Files.readAllLines(Journal.ownFile(journal)));
    List<String> all = Journal.lines(journal);
    assertEquals(3, all.size(), all.toString());
    assertTrue(all.containsAll(List.of("{\"run_id\":\"old\"}", "{\"run_id\":\"a\"}", "{\"run_id\":\"b\"}")));
    assertTrue(Journal.lines(dir.resolve("sessions.jsonl")).isEmpty(), "another journal's files are not read");
  }
}
