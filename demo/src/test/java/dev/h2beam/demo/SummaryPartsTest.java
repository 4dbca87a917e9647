package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.summary.SummaryFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer per file: each mode's chain writes only its part of a task's summary, and the task's finish step merges
 * them. A run stopped after the parts were written and before the merge resumes from the parts: nothing runs again
 * and summary.json comes out as a clean run's.
 */
class SummaryPartsTest {
  @Test
  @SuppressWarnings("unchecked")
  void aRunStoppedBeforeTheMergeResumesFromThePartsAndSpendsNothing(@TempDir Path out) throws Exception {
    assertEquals(0, DemoRuns.demo(out));
    Path ns = out.resolve("runs/demo-oc-agg2");
    List<Path> summaries;
    try (Stream<Path> s = Files.walk(ns)) {
      summaries = s.filter(p -> p.getFileName().toString().startsWith("summary.")).sorted().toList();
    }
    assertEquals(2, summaries.size(), "one summary.json per task and no part left behind: " + summaries);
    Map<Path, String> clean = new LinkedHashMap<>();
    for (Path p : summaries) clean.put(p, Files.readString(p));
    Path audit = out.resolve("runs/_audit/demo-oc-agg2");
    int sessions = Journal.lines(audit.resolve("sessions.jsonl")).size();
    int executions = Journal.lines(audit.resolve("executions.jsonl")).size();

    // what a kill between the chains' parts and the task's finish leaves: the two parts, no summary.json
    for (Path p : summaries) {
      Map<String, Object> whole = SummaryFile.read(p);
      for (String mode : List.of("agg", "seq")) {
        Map<String, Object> part = new LinkedHashMap<>(whole);
        part.put("modes", Map.of(mode, ((Map<String, Object>) whole.get("modes")).get(mode)));
        part.put("selections", Map.of(mode, ((Map<String, Object>) whole.get("selections")).get(mode)));
        part.put("status", "partial");
        Files.writeString(SummaryFile.part(p, mode), Json.pretty(part));
      }
      Files.delete(p);
    }
    assertEquals(0, DemoRuns.demo(out));
    for (Map.Entry<Path, String> e : clean.entrySet()) {
      assertEquals(e.getValue(), Files.readString(e.getKey()), e.getKey().toString());
      assertFalse(Files.exists(SummaryFile.part(e.getKey(), "agg")), "the parts are merged away");
      assertFalse(Files.exists(SummaryFile.part(e.getKey(), "seq")));
    }
    assertEquals(sessions, Journal.lines(audit.resolve("sessions.jsonl")).size(), "no session ran again");
    assertEquals(executions, Journal.lines(audit.resolve("executions.jsonl")).size(), "no rollout ran again");
    assertTrue(sessions > 0 && executions > 0);
  }
}
