package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.Rollout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A finished rollout's texts are read once per completion marker; a run without one is read every time. */
class RolloutTextsTest {
  @TempDir Path dir;

  /** A benchmark that reads its run folders' files, counting every read. */
  static final class Reading implements Benchmark {
    final AtomicInteger reads = new AtomicInteger();

    @Override public String trajectory(Path runDir, int obsTrunc) throws IOException {
      reads.incrementAndGet();
      String t = Files.readString(runDir.resolve("trajectory.md"));
      return t.substring(0, Math.min(t.length(), obsTrunc));
    }

    @Override public String deliverableText(Path runDir) throws IOException {
      reads.incrementAndGet();
      return Files.readString(runDir.resolve("answer.txt"));
    }

    @Override public Map<String, String> deliverableFiles(Path runDir) throws IOException {
      reads.incrementAndGet();
      return Map.of("answer.txt", Files.readString(runDir.resolve("answer.txt")));
    }

    @Override public BenchSpec spec() {
      throw new UnsupportedOperationException();
    }

    @Override public String substrate() {
      return "opencode";
    }

    @Override public List<String> tasks() {
      return List.of();
    }

    @Override public String domainOf(String task) {
      return "d";
    }

    @Override public String taskPrompt(String task) {
      return "";
    }

    @Override public Rollout execute(String task, Path harnessDir, String runId) {
      throw new UnsupportedOperationException();
    }

    @Override public boolean delivered(Path runDir) {
      return true;
    }

    @Override public Path baseHarness() {
      throw new UnsupportedOperationException();
    }
  }

  private Path run(String name, String trajectory, String answer, boolean marked) throws IOException {
    Path runDir = Files.createDirectories(dir.resolve(name));
    Files.writeString(runDir.resolve("trajectory.md"), trajectory);
    Files.writeString(runDir.resolve("answer.txt"), answer);
    if (marked) Runmark.markComplete(runDir, name, "base", 1.0, Map.of());
    return runDir;
  }

  @Test
  void aMarkedRunIsReadOncePerMarker() throws Exception {
    Reading bench = new Reading();
    Path runDir = run("marked", "step one, step two", "42", true);
    for (int i = 0; i < 3; i++) {
      assertEquals("step one", RolloutTexts.trajectory(bench, runDir, 8));
      assertEquals("step one, step two", RolloutTexts.trajectory(bench, runDir, 100));
      assertEquals(Map.of("answer.txt", "42"), RolloutTexts.deliverableFiles(bench, runDir));
      assertEquals("42", RolloutTexts.deliverableText(bench, runDir));
    }
    assertEquals(4, bench.reads.get(), "each text read once");

    // rolled again: a new marker replaces the old one, and the new files are read
    run("marked", "other steps", "43", true);
    assertEquals("other steps", RolloutTexts.trajectory(bench, runDir, 100));
    assertEquals("43", RolloutTexts.deliverableText(bench, runDir));
    assertEquals(Map.of("answer.txt", "43"), RolloutTexts.deliverableFiles(bench, runDir));
    assertEquals(7, bench.reads.get());
  }

  @Test
  void aRunWithoutAMarkerIsReadEveryTime() throws Exception {
    Reading bench = new Reading();
    Path runDir = run("unmarked", "steps", "1", false);
    assertEquals("steps", RolloutTexts.trajectory(bench, runDir, 100));
    Files.writeString(runDir.resolve("trajectory.md"), "changed");
    assertEquals("changed", RolloutTexts.trajectory(bench, runDir, 100));
    assertEquals("1", RolloutTexts.deliverableText(bench, runDir));
    assertEquals(3, bench.reads.get());
  }

  /** A deliverable too large to keep (past an eighth of the budget) is read every time; a small one beside it once. */
  @Test
  void aHugeTextIsNotKept() throws Exception {
    Reading bench = new Reading();
    Path runDir = run("huge", "short steps", "x".repeat((16 << 20) / 8 + 1), true);
    for (int i = 0; i < 2; i++) {
      assertEquals("short steps", RolloutTexts.trajectory(bench, runDir, 100));
      assertEquals((16 << 20) / 8 + 1, RolloutTexts.deliverableText(bench, runDir).length());
    }
    assertEquals(3, bench.reads.get(), "the trajectory once, the deliverable twice");
  }
}
