package dev.h2beam.pipelines.judge;

import static dev.h2beam.pipelines.judge.Namespaces.score;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The judge over a cell that ran the gated mode beside parallel and sequential (DirectRunner, real files). */
class JudgeGatedModeTest {
  @TempDir Path root;
  final ByteArrayOutputStream console = new ByteArrayOutputStream();

  int judge(String... args) throws Exception {
    JudgeOptions o = PipelineOptionsFactory.fromArgs(args).as(JudgeOptions.class);
    return JudgeCommand.run(o, new PrintStream(console, true, StandardCharsets.UTF_8));
  }

  @Test
  void aGatedNamespaceIsJudgedInItsSummaryNamespaceWithTheGatedChoiceGradedLikeTheOthers() throws Exception {
    Path runs = root.resolve("runs");
    Path ns = Namespaces.python(runs, "demo-oc-agg2", 2, Map.of("ledger-1", score(2, 2), "ledger-2", score(1, 4)),
        List.of("agg", "seq", "gat"));
    Path gated = Files.createDirectories(runs.resolve("demo-oc-gat2"));

    assertEquals(0, judge("--namespaces=" + gated, "--modes=parallel,sequential,gated", "--grader=scripted"),
        console.toString(StandardCharsets.UTF_8));

    List<Map<String, Object>> rows = JudgeCommandTest.rows(ns);
    assertEquals(List.of("agg", "gat", "seq", "agg", "gat", "seq"), rows.stream().map(r -> r.get("mode")).toList(),
        "sorted by (task_id, mode, k) as harness2 sorts them: the mode token by its text (spec §2.12)");
    Map<String, Object> g = JudgeCommandTest.row(ns, "ledger-2", "gat");
    assertEquals("g2", g.get("label"));
    assertEquals("demo-oc-agg2/ledger-2/g2", g.get("run_id"));
    assertEquals(0.25, g.get("frac"));
    assertEquals(true, g.get("graded"));
    try (Stream<Path> written = Files.list(gated)) {
      assertEquals(List.of(), written.toList(), "nothing is written into the gated work namespace");
    }
    assertTrue(Files.isRegularFile(ns.resolve("judged.json")));
  }

  @Test
  void aGatedNamespaceWithoutItsParallelSiblingIsRefusedByName() throws Exception {
    Path gated = Files.createDirectories(root.resolve("runs").resolve("demo-oc-gat2"));
    UsageError e = assertThrows(UsageError.class, () -> judge("--namespaces=" + gated, "--grader=scripted"));
    assertTrue(e.getMessage().contains(gated + " is a gated namespace; its summaries and judged.json live in its"
        + " parallel sibling"), e.getMessage());
  }

  @Test
  void aNameThatIsNoNamespaceIsRefusedNamingEveryModeToken() throws Exception {
    Path other = Files.createDirectories(root.resolve("runs").resolve("demo-oc-wide2"));
    UsageError e = assertThrows(UsageError.class, () -> judge("--namespaces=" + other, "--grader=scripted"));
    assertTrue(e.getMessage().contains("<bench>-<substrate>-<agg|seq|gat><k>"), e.getMessage());
  }
}
