package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Namespaces read ahead by the command are the reads the reading step makes, taken once, and let go at the end. */
class ReadAheadTest {

  /** Namespaces of judged rows and summaries; the second with a malformed summary, the third with no file at all. */
  static List<String> namespaces(Path runs) throws Exception {
    List<String> dirs = new ArrayList<>();
    for (int seed = 1; seed <= 6; seed++) {
      Path ns = Fixtures.namespace(runs, "demo-oc-agg2-s" + seed);
      dirs.add(ns.toString());
      if (seed == 3) continue;
      Fixtures.judged(ns, List.of(Fixtures.graded("ledger-1", "agg", 2, "agg1", 1, 2),
          Fixtures.graded("ledger-1", "seq", 2, "c1", 2, 2)));
      Fixtures.summary(ns, "ledger-1", 2, 0.25 * seed, 0.5, List.of(), 0.0);
      Fixtures.config(ns, "demo/oc", "scripted:ledger", "exact-match", (long) seed);
      if (seed == 2) Files.writeString(Files.createDirectories(ns.resolve("ledger-2")).resolve("summary.json"), "{");
    }
    return dirs;
  }

  static void assertSameRead(NamespaceRead expected, NamespaceRead actual) {
    if (expected.facts() == null) {
      assertNull(actual.facts());
    } else {
      assertArrayEquals(expected.facts().bytes(), actual.facts().bytes());
    }
    assertEquals(expected.failures().stream().map(f -> f.input() + " " + f.stage() + " " + f.message()).toList(),
        actual.failures().stream().map(f -> f.input() + " " + f.stage() + " " + f.message()).toList());
    assertEquals(expected.filesRead(), actual.filesRead());
  }

  @Test
  void eachReadAheadIsTheReadTheReadingStepMakesAndIsTakenOnce(@TempDir Path runs) throws Exception {
    List<String> dirs = namespaces(runs);
    int before = ReadAhead.runs();
    String run = ReadAhead.start(dirs);
    // the last first: the run's thread reads in order, so this one is most likely read here, the others there
    List<String> lastFirst = new ArrayList<>(dirs);
    Collections.reverse(lastFirst);
    for (String dir : lastFirst) {
      NamespaceRead ahead = ReadAhead.take(run, dir);
      assertSameRead(NamespaceRead.of(dir), ahead);
      assertNull(ReadAhead.take(run, dir), "taken once");
    }
    assertEquals(1, NamespaceRead.of(dirs.get(1)).failures().size(), "the malformed summary");
    assertNull(NamespaceRead.of(dirs.get(2)).facts(), "a namespace without a file has no facts");
    assertNull(ReadAhead.take(run, runs.resolve("not-among-them").toString()));
    assertNull(ReadAhead.take(null, dirs.get(0)));
    assertEquals(0, ReadAhead.pending(run));
    ReadAhead.end(run);
    assertEquals(before, ReadAhead.runs());
  }

  @Test
  void aRunEndedBeforeItsReadsAreTakenLetsThemGo(@TempDir Path runs) throws Exception {
    List<String> dirs = namespaces(runs);
    String run = ReadAhead.start(dirs);
    ReadAhead.end(run);
    assertEquals(0, ReadAhead.pending(run));
    for (String dir : dirs) assertNull(ReadAhead.take(run, dir));
  }

  /** The reading step of a pipeline given the run emits the same facts and failures, and takes every read. */
  @Test
  void theReadingStepTakesTheRunsReadsAndEmitsWhatItWouldHaveRead(@TempDir Path runs) throws Exception {
    List<String> dirs = namespaces(runs);
    List<NamespaceFacts> expected = new ArrayList<>();
    for (String dir : dirs) {
      PackedFacts f = NamespaceRead.of(dir).facts();
      if (f != null) expected.add(f.unpack());
    }
    expected.sort(Comparator.comparing(NamespaceFacts::dir));
    String malformed = runs.resolve("demo-oc-agg2-s2/ledger-2/summary.json").toString();
    String run = ReadAhead.start(dirs);
    try {
      Pipeline p = Pipeline.create(PipelineOptionsFactory.create());
      PCollectionTuple read = p.apply(new ReportPipeline.ReadReportInputs(dirs, run));
      PAssert.that(read.get(ReportPipeline.FACTS)).satisfies(all -> {
        List<NamespaceFacts> facts = new ArrayList<>();
        all.forEach(f -> facts.add(f.unpack()));
        facts.sort(Comparator.comparing(NamespaceFacts::dir));
        assertEquals(expected, facts);
        return null;
      });
      PAssert.that(read.get(ReportPipeline.FAILURES)).satisfies(all -> {
        List<String> inputs = new ArrayList<>();
        all.forEach(f -> inputs.add(f.input()));
        assertEquals(List.of(malformed), inputs);
        return null;
      });
      p.run().waitUntilFinish();
      assertEquals(0, ReadAhead.pending(run), "every read taken");
    } finally {
      ReadAhead.end(run);
    }
  }
}
