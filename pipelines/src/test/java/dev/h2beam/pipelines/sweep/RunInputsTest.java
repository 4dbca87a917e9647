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

  /** Options of a sweep of a JobBench checkout written under {@code tmp}, with {@code extra} flags. */
  SweepOptions options(String... extra) throws Exception {
    Path root = tmp.resolve("job-bench-eval");
    if (!Files.isDirectory(root)) JobBenchFixture.write(root);
    Path cfg = Files.writeString(tmp.resolve("c.yaml"), "endpoints:\n  m: {base_url: \"http://127.0.0.1:9/v1\"}\n"
        + "roles:\n  executor: {endpoint: m, model: e}\n  improver: {endpoint: m, model: e}\n"
        + "  selector: {endpoint: m, model: e}\n  reflector: {endpoint: m, model: e}\n");
    List<String> args = new java.util.ArrayList<>(List.of("--bench=jobbench", "--benchRoot=" + root,
        "--runsRoot=" + tmp.resolve("runs"), "--config=" + cfg, "--k=1"));
    args.addAll(List.of(extra));
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0])).as(SweepOptions.class);
  }

  /**
   * An earlier h2beam digested the prompts in the stream's order, which follows the seed, so replicates recorded
   * different digests and the report refused them. A namespace it recorded resumes (the same inputs) and has the
   * digest recorded anew in the form every seed shares; a prompts digest that matches neither form is still refused.
   */
  @Test
  void promptsDigestedInTheSeedsOrderResumeAndAreRecordedAnew() throws Exception {
    SweepOptions o = null;
    Sweep.Plan plan = null;
    List<String> stream = null;
    for (int seed = 1; seed <= 20 && o == null; seed++) {
      SweepOptions tried = options("--seed=" + seed);
      Sweep.Plan p = Sweep.plan(tried, Instant.EPOCH);
      List<String> ids = p.stream().values().stream().flatMap(List::stream).toList();
      if (!ids.equals(ids.stream().sorted().toList())) {
        o = tried;
        plan = p;
        stream = ids;
      }
    }
    assertNotEquals(null, o, "no seed of 1..20 orders the two tasks against their ids");
    Sweep.checkIdentity(plan, o);
    Path config = tmp.resolve("runs").resolve(plan.config().summaryNamespace().toString()).resolve("config.json");
    Map<String, Object> id = dev.h2beam.adapters.files.Json.readMap(config);
    @SuppressWarnings("unchecked")
    Map<String, Object> digests = new java.util.LinkedHashMap<>((Map<String, Object>) id.get(RunInputs.KEY));
    Object now = digests.get(RunInputs.PROMPTS);
    String legacy = RunInputs.promptsInOrder(plan.bench(), stream);
    assertNotEquals(now, legacy, "the seed's order gives another digest");
    digests.put(RunInputs.PROMPTS, legacy);
    id.put(RunInputs.KEY, digests);
    Files.writeString(config, dev.h2beam.adapters.files.Json.pretty(id) + "\n");
    Sweep.checkIdentity(plan, o);
    assertEquals(now, ((Map<?, ?>) dev.h2beam.adapters.files.Json.readMap(config).get(RunInputs.KEY))
        .get(RunInputs.PROMPTS));
    digests.put(RunInputs.PROMPTS, legacy.replace(legacy.charAt(0), legacy.charAt(0) == '0' ? '1' : '0'));
    id.put(RunInputs.KEY, digests);
    Files.writeString(config, dev.h2beam.adapters.files.Json.pretty(id) + "\n");
    SweepOptions refused = o;
    Sweep.Plan again = plan;
    dev.h2beam.pipelines.UsageError e = org.junit.jupiter.api.Assertions.assertThrows(
        dev.h2beam.pipelines.UsageError.class, () -> Sweep.checkIdentity(again, refused));
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("the method's prompts"), e.getMessage());
  }

  @Test
  void aJobBenchTasksFolderIsDigestedAndItsRubricsAreNot() throws Exception {
    Path root = tmp.resolve("job-bench-eval");
    SweepOptions o = options();
    Benchmark bench = Sweep.plan(o, Instant.EPOCH).bench();
    List<String> tasks = List.of(LAWYER, LEDGER);
    Map<String, Object> before = RunInputs.of(bench, tasks);
    assertEquals(before, RunInputs.of(bench, tasks), "the same files, the same digests");
    // the stream's order follows the seed; replicates differ in seed only
    assertEquals(before.get(RunInputs.PROMPTS), RunInputs.of(bench, List.of(LEDGER, LAWYER)).get(RunInputs.PROMPTS));

    Files.writeString(JobBenchLayout.rubrics(root, LEDGER), "{\"rubrics\": []}\n");
    assertEquals(before, RunInputs.of(bench, tasks), "a rubric is a grading file: never read");

    Files.writeString(JobBenchLayout.taskFolder(root, LEDGER).resolve("ledger.csv"), "amount\n11\n");
    Map<String, Object> after = RunInputs.of(bench, tasks);
    assertEquals(before.get("base"), after.get("base"));
    assertEquals(List.of("task " + LEDGER + " (its instruction, or a file under "
        + JobBenchLayout.taskFolder(root, LEDGER) + ")"), RunInputs.changes(before, after, bench, tasks));

    Files.writeString(JobBenchLayout.taskFolder(root, LAWYER).resolve(JobBenchLayout.INSTRUCTIONS), "Other work.\n");
    assertNotEquals(((Map<?, ?>) after.get("tasks")).get(LAWYER),
        ((Map<?, ?>) RunInputs.of(bench, tasks).get("tasks")).get(LAWYER));
  }
}
