package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.judge.JudgeIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A namespace written by the Python harness2 (spec §16.4 layout, Python key order, no config.json) reports. */
class PythonLayoutReportTest {

  @Test
  void harness2NamespaceReportsItsLinesExactlyAndItsUnrecordedIdentityIsNotCompared(@TempDir Path runs)
      throws Exception {
    Path ns = Fixtures.namespace(runs, "demo-oc-agg2");
    Fixtures.summary(ns, "ledger-1", 2, 0.0, 0.0, List.of(), 0.0);
    Fixtures.judged(ns, List.of(
        Fixtures.graded("ledger-1", "agg", 2, "agg1", 1, 1),
        Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 1),
        Fixtures.graded("ledger-2", "agg", 2, "agg2", 1, 1),
        Fixtures.graded("ledger-2", "seq", 2, "c2", 1, 1)));

    Fixtures.Run run = Fixtures.report("--namespaces=" + ns);

    assertEquals(0, run.exit(), run.err());
    List<String> lines = run.out().lines().toList();
    assertEquals(List.of(
        "demo-oc modes=parallel,sequential",
        "========================================",
        "  parallel k=2: n=  2 | score 100.00% | picked output: final 2 / candidate 0 / base 0",
        "  sequential k=2: n=  2 | score 100.00% | picked output: final 2 / candidate 0 / base 0"),
        lines.subList(0, 4));
    // two modes of one namespace share one executor and improver by construction: an absence, not a failure
    assertTrue(run.out().contains("  C3 same judge identity: not compared -- judge identity unknown: demo-oc-agg2 has"
        + " no config.json"), run.out());
    assertTrue(run.out().contains("  C4 same declared executor and improver identity: not compared -- executor"
        + " identity unknown: demo-oc-agg2 has no config.json"), run.out());
    assertTrue(!run.out().contains("FAILS") && !run.out().contains("not-comparable"), run.out());
    Path report = runs.resolve("_report");
    assertTrue(run.out().startsWith(Files.readString(report.resolve("report.txt"))), run.out());
  }

  @Test
  void theJudgeH2beamRecordedBesideAHarness2ConfigIsTheJudgeCompared(@TempDir Path runs) throws Exception {
    for (String name : List.of("demo-oc-agg2-s1", "demo-oc-agg2-s2")) {
      Path ns = Fixtures.namespace(runs, name);
      Fixtures.summary(ns, "ledger-1", 2, 0.0, 0.0, List.of(), 0.0);
      Fixtures.judged(ns, List.of(Fixtures.graded("ledger-1", "agg", 2, "agg1", 1, 1),
          Fixtures.graded("ledger-1", "seq", 2, "c1", 1, 1)));
      // as harness2's sweep wrote it: the judge it was started for
      Fixtures.config(ns, "vertex_ai/glm-5", "vertex_ai/flash", "vertex_ai/pro", name.endsWith("1") ? 1L : 2L);
    }
    Files.writeString(runs.resolve("demo-oc-agg2-s1").resolve(JudgeIdentity.FILE), "{\"judge\": \"expected:exact\"}");
    Fixtures.Run run = Fixtures.report("--namespaces=" + runs.resolve("demo-oc-agg2-*"));
    // two judges: not replicates, refused before C3 would compare them
    assertEquals(1, run.exit(), run.out());
    assertTrue(run.err().contains("(k=2: judge differs: expected:exact in demo-oc-agg2-s1 | vertex_ai/pro in"
        + " demo-oc-agg2-s2)"), run.err());
  }
}
