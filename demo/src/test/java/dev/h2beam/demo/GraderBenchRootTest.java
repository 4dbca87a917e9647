package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.judge.JudgeCommand;
import dev.h2beam.pipelines.judge.JudgeOptions;
import dev.h2beam.pipelines.sweep.SweepCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The synthetic and demo graders find a namespace's ledgers where the sweep kept them, its recorded bench_root, when
 * the runs root is given apart from the benchmark's folder (as a cluster requires): they read two levels above the
 * namespace, and every row came out judge-failed; a sources/ folder there would have been graded against instead.
 */
class GraderBenchRootTest {
  @Test
  void aRunsRootApartFromTheBenchRootIsGradedAgainstTheRecordedBenchRoot(@TempDir Path tmp) throws Exception {
    Path bench = tmp.resolve("bench");
    Path runs = tmp.resolve("elsewhere/runs");
    assertEquals(0, new SweepCommand().run(new String[] {"--bench=synthetic", "--benchSettings={\"domains\": 1,"
        + " \"tasksPerDomain\": 2}", "--k=1", "--modes=parallel", "--benchRoot=" + bench, "--runsRoot=" + runs,
        "--sessionRetryWaitSeconds=0"}));
    // a decoy where the graders used to look: other ledgers, whose totals no answer matches
    for (String task : new String[] {"d01-t01", "d01-t02"}) {
      Path ledger = tmp.resolve("elsewhere/sources").resolve(task).resolve("ledger.csv");
      Files.createDirectories(ledger.getParent());
      Files.writeString(ledger, "date,memo,amount\n2026-01-01,decoy,12345.67\n");
    }
    Path ns = runs.resolve("synthetic-oc-agg1");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JudgeOptions o = PipelineOptionsFactory.fromArgs("--namespaces=" + ns).as(JudgeOptions.class);
    assertEquals(0, JudgeCommand.run(o, new PrintStream(out, true, StandardCharsets.UTF_8)),
        out.toString(StandardCharsets.UTF_8));
    JsonNode judged = Json.readTree(ns.resolve("judged.json"));
    assertEquals(2, judged.size(), judged.toString());
    for (JsonNode row : judged) assertTrue(row.path("all_pass").asBoolean(), row.toString());
  }
}
