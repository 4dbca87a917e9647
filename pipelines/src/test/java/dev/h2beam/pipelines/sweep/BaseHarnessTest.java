package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.config.RunConfig;
import dev.h2beam.adapters.folder.FolderBenchmark;
import dev.h2beam.adapters.model.BenchSpec;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.transforms.evidence.FileTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep checks its base harness when it plans and again under the lock; the second check of the same bytes reuses
 * the first's validation (its subprocesses), and any change to the files is validated afresh.
 */
class BaseHarnessTest {
  static final Path EXAMPLE = Paths.get("..", "examples", "folder-bench").toAbsolutePath().normalize();
  @TempDir Path tmp;

  @Test
  void anUnchangedBaseHarnessIsValidatedOnceAndAChangedOneAgain() throws Exception {
    Path root = tmp.resolve("bench");
    FileTrees.copy(EXAMPLE, root);
    Path cfg = tmp.resolve("c.yaml");
    Files.writeString(cfg, "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\n"
        + "roles:\n  executor: {endpoint: m, model: e}\n");
    Counting bench = new Counting(FolderBenchmark.open(root, tmp.resolve("exec"), "all", RunConfig.read(cfg),
        Map.of()));

    assertEquals(List.of(), BaseHarness.problems(bench, null));
    assertEquals(List.of(), BaseHarness.problems(bench, null));
    assertEquals(1, bench.validated.get(), "the same bytes are validated once");

    Files.writeString(root.resolve("base/LongTermMEMORY.md"), "- Amounts in parentheses are negative.\n",
        java.nio.file.StandardOpenOption.APPEND);
    assertEquals(List.of(), BaseHarness.problems(bench, null));
    assertEquals(2, bench.validated.get(), "a changed tree is validated again");

    Files.createDirectories(root.resolve("base/skills/totals"));
    Files.writeString(root.resolve("base/skills/totals/SKILL.md"), "---\nname: other\n---\nno description\n");
    List<String> problems = BaseHarness.problems(bench, null);
    assertTrue(problems.stream().anyMatch(p -> p.contains("totals")), problems.toString());

    Counting other = new Counting(bench.inner);
    Files.delete(root.resolve("base/skills/totals/SKILL.md"));
    Files.delete(root.resolve("base/skills/totals"));
    Files.delete(root.resolve("base/skills"));
    assertEquals(List.of(), BaseHarness.problems(other, null));
    assertEquals(1, other.validated.get(), "another benchmark's check is its own");
  }

  /** A benchmark that counts its tree validations; BaseHarness uses nothing else of it. */
  private static final class Counting implements Benchmark {
    final Benchmark inner;
    final AtomicInteger validated = new AtomicInteger();

    Counting(Benchmark inner) {
      this.inner = inner;
    }

    @Override public void validateTree(Map<String, String> tree) {
      validated.incrementAndGet();
      inner.validateTree(tree);
    }

    @Override public Path baseHarness() {
      return inner.baseHarness();
    }

    @Override public SurfaceSpec surface() {
      return inner.surface();
    }

    @Override public BenchSpec spec() {
      return inner.spec();
    }

    @Override public String substrate() {
      return inner.substrate();
    }

    @Override public List<String> tasks() {
      return inner.tasks();
    }

    @Override public String domainOf(String task) {
      return inner.domainOf(task);
    }

    @Override public String taskPrompt(String task) {
      return inner.taskPrompt(task);
    }

    @Override public Rollout execute(String task, Path harnessDir, String runId) {
      throw new UnsupportedOperationException("not rolled here");
    }

    @Override public boolean delivered(Path runDir) {
      return false;
    }

    @Override public String trajectory(Path runDir, int obsTrunc) {
      return "";
    }

    @Override public String deliverableText(Path runDir) {
      return "";
    }
  }
}
