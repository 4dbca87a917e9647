package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.pipelines.UsageError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --namespaces, --k, --modes and --output resolve as documented, or are refused naming the flag. */
class NamespacesTest {

  @Test
  void namespaceNameWithDashedBenchmarkAndSeedParses() {
    NamespaceRef r = NamespaceRef.parse(Path.of("/runs/wb-office-oc-agg2-s7")).orElseThrow();
    assertEquals(List.of("wb-office", "oc", "agg", "2", "7", ""),
        List.of(r.bench(), r.substrate(), r.mode(), "" + r.k(), "" + r.seed(), r.tag()));
  }

  @Test
  void namespaceNameWithATagParses() {
    NamespaceRef r = NamespaceRef.parse(Path.of("/runs/demo-cx-seq3-s1-rerun")).orElseThrow();
    assertEquals(List.of("demo", "cx", "seq", "3", "1", "rerun"),
        List.of(r.bench(), r.substrate(), r.mode(), "" + r.k(), "" + r.seed(), r.tag()));
  }

  @Test
  void foldersThatAreNotNamespacesDoNotParse() {
    for (String name : List.of("_report", "_audit", "demo-oc-xyz2", "demo-oc-agg0", "adapt")) {
      assertTrue(NamespaceRef.parse(Path.of("/runs", name)).isEmpty(), name);
    }
  }

  /**
   * Two runs roots' namespaces of one name are refused naming both: the report pooled them as one namespace's rows
   * and read them as replicates. A glob may stand in any part of the path.
   */
  @Test
  void namespacesOfOneNameInTwoRunsRootsAreRefused(@TempDir Path runs) throws Exception {
    Path a = Fixtures.namespace(runs.resolve("slowA"), "wordy-oc-agg2");
    Path b = Fixtures.namespace(runs.resolve("slowB"), "wordy-oc-agg2");
    UsageError e = assertThrows(UsageError.class,
        () -> Namespaces.resolve(List.of(runs + "/slow*/wordy-oc-agg*"), runs));
    assertTrue(e.getMessage().startsWith("--namespaces: " + a + " and " + b + " are both namespace wordy-oc-agg2"),
        e.getMessage());
    Fixtures.namespace(runs.resolve("slowB"), "wordy-oc-agg2-s2");
    Files.delete(a);
    assertEquals(List.of(b.toString(), b + "-s2"), Namespaces.resolve(List.of(runs + "/slow*/wordy-oc-agg*"), runs)
        .stream().map(NamespaceRef::dir).toList());
  }

  @Test
  void sequentialNamespaceStandsForItsAggSibling(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-seq2-s3");
    List<NamespaceRef> refs = Namespaces.resolve(List.of(runs.resolve("demo-oc-seq2-s3").toString()), runs);
    assertEquals(List.of(runs.resolve("demo-oc-agg2-s3").toString()), refs.stream().map(NamespaceRef::dir).toList());
  }

  @Test
  void globMatchesEveryReplicateOnceAndSkipsFoldersThatAreNotNamespaces(@TempDir Path runs) throws Exception {
    for (String n : List.of("demo-oc-agg2-s1", "demo-oc-seq2-s1", "demo-oc-agg2-s2", "_report", "_sweeps")) {
      Fixtures.namespace(runs, n);
    }
    List<NamespaceRef> refs = Namespaces.resolve(List.of("demo-oc-*", "*"), runs);
    assertEquals(List.of("demo-oc-agg2-s1", "demo-oc-agg2-s2"), refs.stream().map(NamespaceRef::name).toList());
  }

  /** The namespaces come in path order, however the command line names them: the report's bytes follow it. */
  @Test
  void theOrderTheNamespacesAreNamedInChangesNothing(@TempDir Path runs) throws Exception {
    for (String n : List.of("demo-oc-agg2-s1", "demo-oc-agg2-s2", "demo-oc-agg2-s3")) Fixtures.namespace(runs, n);
    List<String> want = List.of("demo-oc-agg2-s1", "demo-oc-agg2-s2", "demo-oc-agg2-s3");
    for (List<String> named : List.of(List.of("demo-oc-agg2-s3", "demo-oc-agg2-s1", "demo-oc-agg2-s2"),
        List.of("demo-oc-agg2-s[23]", "demo-oc-agg2-s1"), List.of("*"))) {
      assertEquals(want, Namespaces.resolve(named, runs).stream().map(NamespaceRef::name).toList(), named.toString());
    }
  }

  @Test
  void globMatchingNoNamespaceIsRefused(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "_report");
    UsageError e = assertThrows(UsageError.class, () -> Namespaces.resolve(List.of("_*"), runs));
    assertTrue(e.getMessage().startsWith("--namespaces: '_*' matched no namespace directory"), e.getMessage());
  }

  @Test
  void namedFolderThatIsNotANamespaceIsRefused(@TempDir Path runs) {
    UsageError e = assertThrows(UsageError.class, () -> Namespaces.resolve(List.of(runs.toString()), runs));
    assertTrue(e.getMessage().contains("is not a namespace"), e.getMessage());
  }

  /**
   * dogAG B1: a task folder named as a namespace was told to use a glob of its contents, which then matched nothing.
   * The namespace it is in is named; a runs root is offered a glob of its namespaces.
   */
  @Test
  void aTaskFolderIsToldItsNamespaceAndARunsRootAGlob(@TempDir Path runs) throws Exception {
    Path ns = Fixtures.namespace(runs, "demo-oc-agg2");
    Path task = java.nio.file.Files.createDirectories(ns.resolve("ledger-1"));
    UsageError e = assertThrows(UsageError.class, () -> Namespaces.resolve(List.of(task.toString()), runs));
    assertTrue(e.getMessage().endsWith("it is a folder inside the namespace " + ns + ": name that, --namespaces="
        + ns), e.getMessage());
    e = assertThrows(UsageError.class, () -> Namespaces.resolve(List.of(runs.toString()), runs));
    assertTrue(e.getMessage().endsWith("it holds namespaces (a runs root): name one, or a glob of them such as '"
        + runs + "/*'"), e.getMessage());
  }

  @Test
  void missingFolderIsRefused(@TempDir Path runs) {
    UsageError e = assertThrows(UsageError.class, () -> Namespaces.resolve(List.of("demo-oc-agg9"), runs));
    assertTrue(e.getMessage().contains("is not a directory"), e.getMessage());
  }

  @Test
  void namespacesOfTwoCellsAreRefused(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-agg2");
    Fixtures.namespace(runs, "demo-cx-agg2");
    UsageError e = assertThrows(UsageError.class, () -> ReportPlan.settings("demo-oc-agg2,demo-cx-agg2",
        "parallel,sequential", null, null, "aggregate", 5, null, runs));
    assertTrue(e.getMessage().contains("report one cell at a time"), e.getMessage());
  }

  @Test
  void kIsACommaListOfIntsAndUnsetMeansEveryK() {
    assertEquals(List.of(1, 2, 3), ReportPlan.ks("3, 1,2,2"));
    assertEquals(List.of(), ReportPlan.ks(null));
    assertTrue(assertThrows(UsageError.class, () -> ReportPlan.ks("1,x")).getMessage().startsWith("--k takes"));
    assertTrue(assertThrows(UsageError.class, () -> ReportPlan.ks(",")).getMessage().startsWith("--k named no k"));
    assertThrows(UsageError.class, () -> ReportPlan.ks("0"));
  }

  @Test
  void modesAcceptNamesAndTokensInTheFixedOrder() {
    assertEquals(List.of("agg", "seq"), ReportPlan.modes("sequential, agg"));
    assertEquals(List.of("agg", "seq"), ReportPlan.modes("both"), "both: parallel and sequential, as for every command");
    assertThrows(UsageError.class, () -> ReportPlan.modes("all"));
  }

  @Test
  void defaultOutputIsAReportFolderBesideTheFirstNamespace(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-agg2");
    ReportSettings s = ReportPlan.settings("demo-oc-agg2", "parallel", null, null, "aggregate", 5, null, runs);
    assertEquals(runs.resolve("_report").toString(), s.output());
    assertTrue(Files.isDirectory(runs.resolve("_report")));
    assertEquals("demo", s.bench());
  }

  @Test
  void unknownDisclosureIsRefused(@TempDir Path runs) throws Exception {
    Fixtures.namespace(runs, "demo-oc-agg2");
    UsageError e = assertThrows(UsageError.class, () -> ReportPlan.settings("demo-oc-agg2", "parallel", null, null,
        "public", 5, null, runs));
    assertTrue(e.getMessage().startsWith("--disclosure must be aggregate"), e.getMessage());
  }
}
