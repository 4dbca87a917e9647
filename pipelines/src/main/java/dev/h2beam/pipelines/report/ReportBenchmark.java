package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.TextFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

/**
 * The report benchmark's baseline (see scripts/bench-judge.sh): {@code loop DIR judged} reads and parses every
 * namespace's judged.json under {@code DIR/runs} with a plain single-threaded Java loop, as {@code h2beam report} parses
 * it; {@code loop DIR all} also reads every summary.json, config.json and metrics.json, the other files the report
 * reads (metrics.json only since 2026-12-03: the all-files loops in BENCHMARKS.md before that day left it out).
 */
public final class ReportBenchmark {
  private ReportBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3 || !args[0].equals("loop") || !List.of("judged", "all").contains(args[2])) {
      System.err.println("usage: ReportBenchmark loop DIR judged|all");
      System.exit(1);
    }
    long t0 = System.nanoTime();
    long[] counts = loop(Paths.get(args[1]), args[2].equals("all"));
    System.out.printf("loop: %d judged rows, %d files in %.2f s%n", counts[0], counts[1],
        (System.nanoTime() - t0) / 1e9);
  }

  /** Parses the files; returns the judged rows read and the files read. */
  static long[] loop(Path dir, boolean all) throws Exception {
    long rows = 0;
    long files = 0;
    List<Path> namespaces;
    try (Stream<Path> s = Files.list(dir.resolve("runs"))) {
      namespaces = s.filter(Files::isDirectory).sorted().toList();
    }
    for (Path ns : namespaces) {
      Path judged = ns.resolve("judged.json");
      if (Files.isRegularFile(judged)) {
        int k = NamespaceRef.parse(ns).map(NamespaceRef::k).orElse(0);
        rows += InputFiles.judged(judged.toString(), Files.readAllBytes(judged), k).rows().size();
        files++;
      }
      if (!all) continue;
      Path config = ns.resolve("config.json");
      if (Files.isRegularFile(config)) {
        InputFiles.config(config.toString(), read(config));
        files++;
      }
      Path metrics = ns.resolve("metrics.json");
      if (Files.isRegularFile(metrics)) {
        InputFiles.metrics(metrics.toString(), Files.readAllBytes(metrics));
        files++;
      }
      List<Path> summaries;
      try (Stream<Path> s = Files.list(ns)) {
        summaries = s.map(p -> p.resolve("summary.json")).filter(Files::isRegularFile).sorted().toList();
      }
      for (Path f : summaries) {
        InputFiles.summary(f.toString(), read(f));
        files++;
      }
    }
    return new long[] {rows, files};
  }

  private static String read(Path f) throws Exception {
    return TextFiles.utf8(Files.readAllBytes(f), f.toString());
  }
}
