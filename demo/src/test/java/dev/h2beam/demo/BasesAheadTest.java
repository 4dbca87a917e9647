package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.OptionArgs;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.sweep.RootToken;
import dev.h2beam.transforms.sweep.SweepContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.util.SerializableUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the DirectRunner the client starts each domain's first task's bases before it builds the pipeline, so they roll
 * while the runner starts; the chains then take them, and no rollout runs twice.
 */
class BasesAheadTest {

  @Test
  void theClientRollsTheFirstTasksBasesBeforeAnyPipelineAndTheSweepRunsEveryRolloutOnce(@TempDir Path out)
      throws Exception {
    DemoOptions o = options(out);
    Sweep.Plan planned = Sweep.plan(o, Instant.now());
    Path runs = planned.config().runs();
    planned.bench().prepare(); // as the sweep does first: the demo writes its tasks' files
    Sweep.Plan plan = new Sweep.Plan(planned.config().withRootToken(RootToken.write(runs)), planned.bench(),
        planned.stream(), planned.recordPath(), planned.header());
    // the chains' DoFns get the configuration through serialisation: they must open this very context, whose
    // SharedBases holds the rolls started here (else a chain would roll the same bases a second time, at once)
    assertSame(SweepContext.of(plan.config()), SweepContext.of(SerializableUtils.clone(plan.config())));

    Sweep.basesAhead(plan);
    Path journal = runs.resolve("_audit/demo-oc-agg2/executions.jsonl");
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (runIds(journal, true).size() < 2 && System.nanoTime() < deadline) Thread.sleep(20);
    // no pipeline has run: the client rolled the demo's one domain's first task's k = 2 bases, and only those
    assertEquals(List.of("demo-oc-agg2/ledger-1/base1", "demo-oc-agg2/ledger-1/base2"),
        runIds(journal, false).stream().sorted().toList());

    Sweep.run(Sweep.plan(options(out), Instant.now()), options(out));
    List<String> ids = runIds(journal, false);
    Set<String> once = new HashSet<>(ids);
    assertEquals(ids.size(), once.size(), "a rollout ran twice: " + ids);
    // 2 tasks: 2 bases each, then 3k = 6 rollouts per mode and task
    assertEquals(28, ids.size(), ids.toString());
  }

  @Test
  void aSweepRefusedByItsChecksWhileItsPipelineIsBuiltAheadRunsNothingAndWritesNoToken(@TempDir Path out)
      throws Exception {
    DemoOptions o = options(out);
    Sweep.Plan plan = Sweep.plan(o, Instant.now());
    Path runs = plan.config().runs();
    // another experiment's identity in the namespace, and no summary yet: the pipeline is built while the checks run
    Path config = runs.resolve("demo-oc-agg2/config.json");
    Files.createDirectories(config.getParent());
    Files.writeString(config, "{\"method_version\": 2, \"tasks\": [[\"other\", \"task\"]]}\n");
    UsageError e = assertThrows(UsageError.class, () -> Sweep.run(plan, o));
    assertTrue(e.getMessage().contains(config + " records a different run identity (tasks: "), e.getMessage());
    // the check's refusal, as before: no token under the runs root, no rollout, no sweep record, config.json kept
    assertFalse(Files.exists(RootToken.file(runs)), "a refused sweep wrote the runs root's token");
    assertFalse(Files.exists(runs.resolve("_audit/demo-oc-agg2/executions.jsonl")));
    assertFalse(Files.exists(runs.resolve("_sweeps")));
    assertEquals("{\"method_version\": 2, \"tasks\": [[\"other\", \"task\"]]}\n", Files.readString(config));
  }

  @Test
  void whatBuildingThePipelineAheadThrewIsThrownAsItWas() {
    CompletableFuture<Pipeline> f = new CompletableFuture<>();
    UsageError refused = new UsageError("--flag=x is refused");
    f.completeExceptionally(refused);
    assertSame(refused, assertThrows(UsageError.class, () -> Sweep.joined(f)));
  }

  /** The run ids the journal records; {@code polling}: a line still being appended is left for the next look. */
  private static List<String> runIds(Path journal, boolean polling) throws Exception {
    List<String> ids = new ArrayList<>();
    for (String line : Journal.lines(journal)) {
      JsonNode n;
      try {
        n = Json.readTree(line);
      } catch (java.io.IOException e) {
        if (polling) continue;
        throw e;
      }
      ids.add(n.path("run_id").asText());
    }
    return ids;
  }

  private static DemoOptions options(Path out) {
    String[] args = DemoCommand.withDefaults(new String[] {"--output=" + out, "--k=2", "--sessionRetryWaitSeconds=0"});
    DemoOptions o = OptionArgs.parse("demo", args, DemoOptions.class);
    DemoCommand.rootsUnder(o, "demo");
    return o;
  }
}
