package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.h2beam.pipelines.OptionArgs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JudgeShardsTest {

  /** A plan over namespaces of the given numbers of task folders. */
  static JudgeCommand.Plan plan(Path root, int... tasks) throws Exception {
    TreeMap<String, String> graders = new TreeMap<>();
    for (int n = 0; n < tasks.length; n++) {
      Path ns = Files.createDirectories(root.resolve("ns" + n));
      for (int t = 0; t < tasks[n]; t++) Files.createDirectories(ns.resolve("t" + t));
      graders.put(ns.toString(), "noop");
    }
    return new JudgeCommand.Plan(graders, Map.of(), 0, List.of(), Map.of());
  }

  static int shards(JudgeCommand.Plan plan, String... args) throws Exception {
    return JudgeCommand.shards(OptionArgs.parse("judge", args, JudgeOptions.class), plan);
  }

  @Test
  void anUnsetCountOnTheDirectRunnerIsAShardPerTwoHundredAndFiftySixTasksUpToSixteen(@TempDir Path root)
      throws Exception {
    assertEquals(1, shards(plan(root.resolve("a"), 2)), "the demo's two tasks: one shard, one thread");
    assertEquals(1, shards(plan(root.resolve("b"), 200, 56)));
    assertEquals(2, shards(plan(root.resolve("c"), 200, 57)), "counted over every namespace");
    assertEquals(16, shards(plan(root.resolve("d"), 2000, 2000)));
    // counting stops at the cap: a namespace after it is not listed (here one that cannot be)
    JudgeCommand.Plan capped = plan(root.resolve("e"), 4096);
    capped.graders().put(root.resolve("e").resolve("zz-not-a-folder").toString(), "noop");
    assertEquals(16, shards(capped));
    JudgeCommand.Plan below = plan(root.resolve("f"), 4095);
    below.graders().put(root.resolve("f").resolve("zz-not-a-folder").toString(), "noop");
    assertThrows(IOException.class, () -> shards(below), "below the cap every namespace is counted");
  }

  @Test
  void aGivenCountIsKeptAndAClusterGetsSixteen(@TempDir Path root) throws Exception {
    JudgeCommand.Plan small = plan(root, 2);
    assertEquals(16, shards(small, "--judgeShards=16"));
    assertEquals(3, shards(small, "--judgeShards=3"));
    assertEquals(16, shards(small, "--runner=FlinkRunner"));
  }
}
