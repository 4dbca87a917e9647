package dev.h2beam.pipelines.sweep;

import static dev.h2beam.adapters.jobbench.JobBenchFixture.LAWYER;
import static dev.h2beam.adapters.jobbench.JobBenchFixture.LEDGER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.jobbench.JobBenchFixture;
import dev.h2beam.adapters.jobbench.JobBenchLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The digests of a JobBench checkout's inputs: a task's instruction and its task_folder files are in its digest, its
 * rubrics are not (the sweep never reads them), and a change is named by its task.
 */
class RunInputsTest {
  @TempDir Path tmp;

  @Test
  void aJobBenchTasksFolderIsDigestedAndItsRubricsAreNot() throws Exception {
    Path root = JobBenchFixture.write(tmp.resolve("job-bench-eval"));
    Path cfg = Files.writeString(tmp.resolve("c.yaml"), "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\n"
        + "roles:\n  executor: {endpoint: m, model: e}\n  improver: {endpoint: m, model: e}\n"
        + "  selector: {endpoint: m, model: e}\n  reflector: {endpoint: m, model: e}\n");
    SweepOptions o = PipelineOptionsFactory.fromArgs("--bench=jobbench", "--benchRoot=" + root,
        "--runsRoot=" + tmp.resolve("runs"), "--config=" + cfg, "--k=1").as(SweepOptions.class);
    Benchmark bench = Sweep.plan(o, Instant.EPOCH).bench();
    List<String> tasks = List.of(LAWYER, LEDGER);
    Map<String, Object> before = RunInputs.of(bench, tasks);
    assertEquals(before, RunInputs.of(bench, tasks), "the same files, the same digests");

    Files.writeString(JobBenchLayout.rubrics(root, LEDGER), "{\"rubrics\": []}\n");
    assertEquals(before, RunInputs.of(bench, tasks), "a rubric is a grading file: never read");

    Files.writeString(JobBenchLayout.taskFolder(root, LEDGER).resolve("ledger.csv"), "amount\n11\n");
    Map<String, Object> after = RunInputs.of(bench, tasks);
    assertEquals(before.get("base"), after.get("base"));
    assertEquals(List.of("task " + LEDGER + " (its instruction, or a file under "
        + JobBenchLayout.taskFolder(root, LEDGER) + ")"), RunInputs.changes(before, after, bench));

    Files.writeString(JobBenchLayout.taskFolder(root, LAWYER).resolve(JobBenchLayout.INSTRUCTIONS), "Other work.\n");
    assertNotEquals(((Map<?, ?>) after.get("tasks")).get(LAWYER),
        ((Map<?, ?>) RunInputs.of(bench, tasks).get("tasks")).get(LAWYER));
  }
}
