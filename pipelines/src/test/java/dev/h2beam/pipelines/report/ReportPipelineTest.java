package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report pipeline on the DirectRunner: what it reads per namespace, its failure output, one report. */
class ReportPipelineTest {

  static Pipeline pipeline() {
    return Pipeline.create(PipelineOptionsFactory.create());
  }

  @Test
  void readsJudgedRowsTaskSummariesAndIdentityOfEachNamespace(@TempDir Path runs) throws Exception {
    Path s1 = Fixtures.namespace(runs, "demo-oc-agg2-s1");
    Fixtures.judged(s1, List.of(Fixtures.graded("ledger-1", "agg", 2, "agg1", 1, 1),
        Fixtures.ungraded("ledger-1", "seq", 2)));
    Fixtures.summary(s1, "ledger-1", 2, 0.25, 0.5, List.of(), 0.0);
    Fixtures.summary(s1, "ledger-2", 2, 0.0, 0.0, List.of("inv1"), 0.0);
    Fixtures.config(s1, "demo/oc", "scripted:ledger", "exact-match", 1L);
    Path s2 = Fixtures.namespace(runs, "demo-oc-agg2-s2");
    Fixtures.judged(s2, List.of());
    String d1 = s1.toString();
    String d2 = s2.toString();

    Pipeline p = pipeline();
    PCollectionTuple read = p.apply(new ReportPipeline.ReadReportInputs(List.of(d1, d2)));
    PAssert.that(read.get(ReportPipeline.FACTS)).satisfies(all -> {
      List<NamespaceFacts> facts = new ArrayList<>();
      all.forEach(f -> facts.add(f.unpack()));
      facts.sort(Comparator.comparing(NamespaceFacts::dir));
      assertEquals(List.of(d1, d2), facts.stream().map(NamespaceFacts::dir).toList());
      NamespaceFacts f = facts.get(0);
      assertTrue(f.judgedPresent());
      assertEquals(List.of("agg", "seq"), f.rows().stream().map(Scored::mode).toList());
      assertEquals(List.of("ledger-1", "ledger-2"), f.summaries().stream().map(TaskSummary::taskId).toList());
      assertEquals(1.25, f.summaries().get(0).mode("agg").improverUsd());
      assertEquals("exact-match", f.identity().judge());
      assertTrue(facts.get(1).judgedPresent());
      assertTrue(facts.get(1).rows().isEmpty());
      assertNull(facts.get(1).identity());
      return null;
    });
    PAssert.that(read.get(ReportPipeline.FAILURES)).empty();
    p.run().waitUntilFinish();
  }

  @Test
  void anUnreadableFileBecomesAFailureRecordAndEverythingElseIsStillRead(@TempDir Path runs) throws Exception {
    Path ns = Fixtures.namespace(runs, "demo-oc-agg2");
    Fixtures.judged(ns, List.of(Fixtures.graded("ledger-1", "agg", 2, "agg1", 1, 1)));
    Fixtures.summary(ns, "ledger-1", 2, 0.25, 0.0, List.of(), 0.0);
    Path broken = Files.createDirectories(ns.resolve("ledger-2")).resolve("summary.json");
    Files.writeString(broken, "{\"task_id\": \"ledger-2\", \"modes\": {");
    String dir = ns.toString();
    String brokenPath = broken.toString();

    Pipeline p = pipeline();
    PCollectionTuple read = p.apply(new ReportPipeline.ReadReportInputs(List.of(dir)));
    PAssert.that(read.get(ReportPipeline.FAILURES)).satisfies(all -> {
      List<ReadFailure> failures = new ArrayList<>();
      all.forEach(failures::add);
      assertEquals(1, failures.size());
      assertEquals(brokenPath, failures.get(0).input());
      assertEquals("parse summary", failures.get(0).stage());
      assertTrue(failures.get(0).stackTrace().contains("JsonEOFException"), failures.get(0).stackTrace());
      return null;
    });
    PAssert.that(read.get(ReportPipeline.FACTS)).satisfies(all -> {
      NamespaceFacts f = all.iterator().next().unpack();
      assertEquals(1, f.rows().size());
      assertEquals(List.of("ledger-1"), f.summaries().stream().map(TaskSummary::taskId).toList());
      return null;
    });
    p.run().waitUntilFinish();
  }

  @Test
  void summariesDeeperThanATaskFolderAreNotRead(@TempDir Path runs) throws Exception {
    Path ns = Fixtures.namespace(runs, "demo-oc-agg2");
    Fixtures.judged(ns, List.of());
    Fixtures.summary(ns, "ledger-1", 2, 0.0, 0.0, List.of(), 0.0);
    Path deeper = Files.createDirectories(ns.resolve("ledger-1/context/inv1"));
    Files.writeString(deeper.resolve("summary.json"), "not even json");
    String dir = ns.toString();

    Pipeline p = pipeline();
    PCollectionTuple read = p.apply(new ReportPipeline.ReadReportInputs(List.of(dir)));
    PAssert.that(read.get(ReportPipeline.FAILURES)).empty();
    PAssert.that(read.get(ReportPipeline.FACTS)).satisfies(all -> {
      assertEquals(1, all.iterator().next().unpack().summaries().size());
      return null;
    });
    p.run().waitUntilFinish();
  }

  /**
   * Only a task folder's regular summary.json is an input: a file beside the task folders, a summary.json that is a
   * folder and a task folder without one are passed over without a failure record, as a task folder's summary
   * reached through a link is read.
   */
  @Test
  void whatIsNotATaskFoldersSummaryFileIsPassedOverWithoutAFailure(@TempDir Path runs) throws Exception {
    Path ns = Fixtures.namespace(runs, "demo-oc-agg2");
    Fixtures.judged(ns, List.of());
    Fixtures.summary(ns, "ledger-1", 2, 0.0, 0.0, List.of(), 0.0);
    Fixtures.summary(runs, "elsewhere", 2, 0.0, 0.0, List.of(), 0.0);
    Files.createSymbolicLink(ns.resolve("ledger-3"), runs.resolve("elsewhere"));
    Files.writeString(ns.resolve("notes.txt"), "not a task");
    Files.createDirectories(ns.resolve("ledger-2/summary.json"));
    Files.createDirectories(ns.resolve("ledger-4"));
    String dir = ns.toString();

    Pipeline p = pipeline();
    PCollectionTuple read = p.apply(new ReportPipeline.ReadReportInputs(List.of(dir)));
    PAssert.that(read.get(ReportPipeline.FAILURES)).empty();
    PAssert.that(read.get(ReportPipeline.FACTS)).satisfies(all -> {
      assertEquals(List.of("ledger-1", "elsewhere"), all.iterator().next().unpack().summaries().stream()
          .map(TaskSummary::taskId).toList());
      return null;
    });
    p.run().waitUntilFinish();
  }

  @Test
  void theReportIsWrittenOnceEvenWhenNoFileWasFound(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-agg2");
    ReportSettings s = new ReportSettings(List.of(Fixtures.ref(runs, "demo-oc-agg2")), List.of(),
        List.of("agg", "seq"), "demo", Disclosure.AGGREGATE, 5.0, runs.resolve("_report").toString());

    Pipeline p = pipeline();
    PCollection<String> status = p.apply(new ReportPipeline.ReadReportInputs(List.of(runs.resolve("demo-oc-agg2")
        .toString()))).apply(new ReportPipeline.WriteReport(s));
    PAssert.that(status).containsInAnyOrder("nothing-to-report");
    p.run().waitUntilFinish();
    assertTrue(Files.readString(runs.resolve("_report/report.json")).contains("\"status\": \"nothing-to-report\""));
  }
}
