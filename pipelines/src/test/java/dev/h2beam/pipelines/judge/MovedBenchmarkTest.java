package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace swept on a folder benchmark that has since moved: the judge names the missing bench.json and the flag
 * that finds it, instead of looking for a grader called after the benchmark.
 */
class MovedBenchmarkTest {
  @Test
  void aMovedFolderBenchmarkIsNamedWithTheFlagThatFindsIt(@TempDir Path tmp) throws Exception {
    Path bench = Files.createDirectories(tmp.resolve("mybench"));
    Files.writeString(bench.resolve("bench.json"), "{\"name\": \"wordy\", \"grader\": {\"kind\": \"expected\"}}");
    Path ns = Files.createDirectories(tmp.resolve("runs/wordy-oc-agg1"));
    Files.writeString(ns.resolve("config.json"), "{\"bench_provider\": \"folder\", \"bench_root\": \"" + bench
        + "\"}");
    assertEquals("expected", JudgeCommand.defaultGrader(ns, Map.of()));

    Files.move(bench, tmp.resolve("mybench_moved"));
    UsageError e = assertThrows(UsageError.class, () -> JudgeCommand.defaultGrader(ns, Map.of()));
    assertTrue(e.getMessage().contains(bench.resolve("bench.json") + " is missing") && e.getMessage()
        .contains("--benchRoot"), e.getMessage());
    assertEquals("expected", JudgeCommand.defaultGrader(ns, Map.of("benchRoot",
        tmp.resolve("mybench_moved").toString())), "found again with --benchRoot");
  }
}
