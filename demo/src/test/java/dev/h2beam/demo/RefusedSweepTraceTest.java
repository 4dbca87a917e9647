package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.Sweep;
import dev.h2beam.pipelines.sweep.SweepOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep refused once it holds its folders leaves the user's tree as it found it (dogAB 10): the folders it made
 * for its locks are removed again, and a benchmark folder that existed gets no claim of a runs root that never ran.
 */
class RefusedSweepTraceTest {
  private static SweepOptions options(Path bench, Path runs, String... more) {
    String[] args = Stream.concat(Stream.of("--bench=synthetic", "--benchRoot=" + bench, "--runsRoot=" + runs,
        "--benchSettings={\"domains\":1,\"tasksPerDomain\":1}", "--k=1", "--modes=parallel"), Stream.of(more))
        .toArray(String[]::new);
    return PipelineOptionsFactory.fromArgs(args).as(SweepOptions.class);
  }

  @Test
  void aSweepRefusedAnotherRunsRootsLibraryLeavesNoFolderAndNoClaim(@TempDir Path tmp) throws Exception {
    Path firstBench = tmp.resolve("a/bench");
    SweepOptions first = options(firstBench, tmp.resolve("a/runs"));
    Sweep.run(Sweep.plan(first, Instant.now()), first);
    Path library = Path.of(Sweep.plan(first, Instant.now()).config().libraryRoot());
    assertTrue(Files.isDirectory(library), library.toString());

    Path bench = Files.createDirectories(tmp.resolve("b/bench")); // the user's, made before the sweep
    Path runs = tmp.resolve("b/new/runs");
    SweepOptions second = options(bench, runs, "--libraryRoot=" + library);
    UsageError e = assertThrows(UsageError.class, () -> Sweep.run(Sweep.plan(second, Instant.now()), second));
    assertTrue(e.getMessage().startsWith("--libraryRoot=" + library + " is the library of the runs root "),
        e.getMessage());
    assertTrue(e.getMessage().contains("leave --libraryRoot out for its default)"), e.getMessage());
    try (Stream<Path> left = Files.walk(tmp.resolve("b"))) {
      assertEquals(List.of(tmp.resolve("b"), bench), left.sorted().toList(),
          "the folders the sweep made are gone, the one the user made is kept, with nothing in it");
    }
  }
}
