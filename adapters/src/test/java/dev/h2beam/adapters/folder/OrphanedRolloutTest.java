package dev.h2beam.adapters.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.exec.GroupRecord;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.Rollout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rollout whose h2beam was killed with -9 while its agent ran: the agent, in a session of its own, outlives it and
 * goes on writing into the rollout's {@code output/}. Running the same rollout again kills it first, so the new run's
 * output and completion marker hold the new run's files only. A real JVM killed with SIGKILL, a real agent.
 */
class OrphanedRolloutTest {
  @TempDir Path tmp;

  static final String RUN_ID = "ns/d__t/base1";

  /**
   * The agent: on its first run (it makes the flag folder) it writes its pid file over and over and never ends, as an
   * agent still at work; on a later run it delivers at once.
   */
  static String agent(Path flag) {
    return "if mkdir '" + flag + "' 2>/dev/null; then while :; do echo $$ > {output}/pid-$$.txt 2>/dev/null;"
        + " sleep 0.05; done; fi; echo $$ > {output}/pid-$$.txt; echo 42 > {output}/answer.md";
  }

  static FolderBenchmark open(Path root, Path exec) throws Exception {
    return FolderBenchmark.open(root, exec, "all", RunConfig.empty(), Map.of("PATH", System.getenv("PATH")));
  }

  @Test
  void aRolloutRunAgainKillsTheAgentItsKilledJvmLeftAndKeepsOnlyTheNewRunsFiles() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc")) && Files.isExecutable(Path.of("/usr/bin/setsid")),
        "needs /proc and setsid");
    Path root = tmp.resolve("bench");
    Path exec = tmp.resolve("exec");
    Files.createDirectories(root.resolve("base"));
    Files.writeString(root.resolve("base/systemprompt.md"), "Answer.\n");
    Files.createDirectories(root.resolve("tasks/d/t"));
    Files.writeString(root.resolve("tasks/d/t/task.md"), "Answer 42.\n");
    Files.writeString(root.resolve("bench.json"), "{\"name\": \"b\", \"executor\": {\"kind\": \"command\","
        + " \"command\": " + Json.canonical(agent(tmp.resolve("flag"))) + ", \"free\": true},"
        + " \"deliverable\": \"answer.md\", \"grader\": {\"kind\": \"expected\"},"
        + " \"prompts\": {\"work\": \"answers\"}}");
    Path output = exec.resolve(RUN_ID).resolve("output");

    Process owner = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), Owner.class.getName(), root.toString(), exec.toString())
        .redirectErrorStream(true).redirectOutput(tmp.resolve("owner.log").toFile()).start();
    long orphan = -1;
    try {
      orphan = firstPid(output);
      // recorded before it starts (a token), then with its pid: either record leads to the agent
      Path record = exec.resolve(RUN_ID).resolve(GroupRecord.FILE);
      for (int i = 0; i < 1000 && !Files.isRegularFile(record); i++) Thread.sleep(10);
      assertTrue(Files.isRegularFile(record), "the agent is recorded");
      owner.destroyForcibly(); // SIGKILL: no hook of h2beam's runs
      assertTrue(owner.waitFor(20, TimeUnit.SECONDS));
      assertTrue(live(orphan), "the agent outlives the h2beam that started it");

      Rollout again = open(root, exec).execute("d/t", null, RUN_ID);

      assertFalse(live(orphan), "the earlier run's agent is killed before the rollout runs again");
      List<String> files = PathOrder.files(output);
      assertEquals(2, files.size(), files.toString());
      assertTrue(files.contains("answer.md"), files.toString());
      String pidFile = files.get(files.indexOf("answer.md") == 0 ? 1 : 0);
      assertNotEquals("pid-" + orphan + ".txt", pidFile, "only the new run's pid file");
      List<String> marked = new ArrayList<>();
      Runmark.readMark(again.runDir()).path("deliverables").fieldNames().forEachRemaining(marked::add);
      assertEquals(List.of("output/answer.md", "output/" + pidFile), marked.stream().sorted().toList());
      assertFalse(Files.exists(exec.resolve(RUN_ID).resolve(GroupRecord.FILE)), "the record goes with the agent");
    } finally {
      owner.destroyForcibly();
      if (orphan > 0) new ProcessBuilder("kill", "-KILL", "--", "-" + orphan).start().waitFor();
    }
  }

  /** The pid in the first pid file the agent writes into {@code output}, waiting (at most 10 s) for it. */
  static long firstPid(Path output) throws Exception {
    for (int i = 0; i < 1000; i++) {
      if (Files.isDirectory(output)) {
        for (String f : PathOrder.files(output)) {
          String text = Files.readString(output.resolve(f)).strip();
          if (f.startsWith("pid-") && !text.isEmpty()) return Long.parseLong(text);
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the agent wrote no pid file into " + output);
  }

  /** Whether {@code pid} runs: a zombie (killed, waiting for its parent) does not. */
  static boolean live(long pid) throws Exception {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (!Files.exists(stat)) return false;
    String line;
    try {
      line = Files.readString(stat);
    } catch (java.io.IOException gone) {
      return false;
    }
    char state = line.substring(line.lastIndexOf(')') + 2).charAt(0);
    return state != 'Z' && state != 'X';
  }

  /** The h2beam that starts the rollout and is killed while its agent runs. */
  public static final class Owner {
    public static void main(String[] args) throws Exception {
      open(Path.of(args[0]), Path.of(args[1])).execute("d/t", null, RUN_ID);
    }
  }
}
