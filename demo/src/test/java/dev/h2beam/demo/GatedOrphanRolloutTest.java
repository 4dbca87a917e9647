package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.demo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.transforms.proposer.Journal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gated step an interrupted run took the other way (its session cancelled, so a re-roll r<j>, or the reverse) left
 * that label's completed rollout in the executions folder. The resumed run rolls the step's own label and removes the
 * other's rollout, so its files are a clean run's and no completed rollout runs again.
 */
class GatedOrphanRolloutTest {
  private static final String[] ARGS = {"--k=1", "--modes=gated"};

  @Test
  void aResumedStepRemovesTheCompletedRolloutItsOtherLabelLeft(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, ARGS));
    Path task = out.resolve("executions/demo-oc-gat1/ledger-1");
    TreeSet<String> clean = names(task);
    String candidate = clean.stream().filter(n -> n.matches("g[0-9]+")).findFirst().orElseThrow(
        () -> new AssertionError("no candidate rollout in " + clean));
    String reroll = "r" + candidate.substring(1);
    assertFalse(clean.contains(reroll), clean.toString());
    TreeMap<String, String> cleanFiles = FlinkDemoTest.files(out);
    List<String> executions = executions(out);

    // what an interrupted run whose step was a re-roll leaves: the re-roll's rollout, completed (its marker there),
    // and no summary for the task, so that the next run runs it again
    copy(task.resolve(candidate), task.resolve(reroll));
    assertTrue(Files.isRegularFile(task.resolve(reroll).resolve(Runmark.MARKER)));
    Files.delete(out.resolve("runs/demo-oc-agg1/ledger-1/summary.json"));

    assertEquals(0, demo(out, ARGS));
    assertFalse(Files.exists(task.resolve(reroll)), "the interrupted run's " + reroll + " is gone");
    assertEquals(clean, names(task));
    assertEquals(cleanFiles, FlinkDemoTest.files(out));
    assertEquals(executions, executions(out), "a completed rollout ran again");
  }

  private static TreeSet<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
    }
  }

  /** Every execution journalled under the runs tree's audit folders, by folder. */
  private static List<String> executions(Path out) throws Exception {
    List<String> lines = new java.util.ArrayList<>();
    try (Stream<Path> s = Files.list(out.resolve("runs/_audit"))) {
      for (Path d : s.filter(Files::isDirectory).sorted().toList()) {
        lines.addAll(Journal.lines(d.resolve("executions.jsonl")));
      }
    }
    assertFalse(lines.isEmpty(), "no execution journalled under " + out.resolve("runs/_audit"));
    return lines;
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(t);
        else Files.copy(p, t);
      }
    }
  }
}
