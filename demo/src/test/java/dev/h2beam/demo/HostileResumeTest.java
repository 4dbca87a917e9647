package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.assertStatuses;
import static dev.h2beam.demo.DemoRuns.count;
import static dev.h2beam.demo.DemoRuns.demo;
import static dev.h2beam.demo.DemoRuns.demoJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Scratch;
import dev.h2beam.pipelines.UsageError;
import dev.h2beam.pipelines.sweep.BaseHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resuming over what a killed writer left behind (docs/SAFETY.md, rows W and R): leftover scratch folders and
 * half-written temp files are removed and nothing is spent again; stored state that now holds a credential refuses
 * the resume, naming the file and field.
 */
class HostileResumeTest {
  private static final String SECRET = "Q9xk2LmP0rT7vWz4";

  /**
   * Every file below {@code out} (path → SHA-256) but the run's own records: the sweep record and demo.json, which
   * name the run's time, the writer lock, the runs root's token (fresh for every run, for its workers to read back)
   * the chains' records of where and when they ran, and the workers' progress boards for the live display.
   */
  private static Map<String, String> files(Path out) throws Exception {
    Map<String, String> m = new TreeMap<>();
    for (String rel : PathOrder.files(out)) {
      if (rel.equals("demo.json") || rel.contains("/_sweeps/") || rel.endsWith(".h2beam.lock")
          || rel.equals("runs/.h2beam/root-token") || rel.contains("/chains/")
          || rel.contains("/progress/")) {
        continue;
      }
      m.put(rel, Hashes.hex(Hashes.digest("SHA-256").digest(Files.readAllBytes(out.resolve(rel)))));
    }
    return m;
  }

  @Test
  void leftoversOfAKilledRunAreRemovedOnResumeAndEveryOtherFileIsUnchanged(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Map<String, String> before = files(out);
    Path runs = out.resolve("runs");
    assertFalse(Files.exists(Scratch.of(runs)), "a finished sweep leaves no scratch folder");
    // what kill -9 leaves: a session folder in the scratch folder and temp files of atomic writes never renamed
    Path session = Scratch.newDir(Scratch.of(runs), "h2beam-prop-");
    Files.writeString(Files.createDirectories(session.resolve("context")).resolve("task.md"), "half");
    Path index;
    try (Stream<Path> s = Files.walk(out.resolve("library"))) {
      index = s.filter(p -> p.getFileName().toString().equals("INDEX.md")).findFirst().orElseThrow();
    }
    Path tornIndex = index.resolveSibling(".INDEX.md.99999.1.tmp");
    Files.writeString(tornIndex, "# Libr");
    Path tornSummary = runs.resolve("demo-oc-agg1/ledger-1/.summary.json.99999.2.tmp");
    Files.writeString(tornSummary, "{\"status\": \"o");

    assertEquals(0, demo(out, "--k=1"));

    Map<String, Object> second = demoJson(out);
    assertStatuses(second, "skipped", "skipped");
    assertEquals(0, count(second, "execution_count"));
    assertEquals(0, count(second, "editor_calls"), "a leftover in the library must not change a reply-cache key");
    assertFalse(Files.exists(Scratch.of(runs)));
    assertFalse(Files.exists(tornIndex) || Files.exists(tornSummary));
    assertEquals(before, files(out));
  }

  @Test
  void aResumeOverAStoredHarnessThatNowHoldsAKeyIsRefusedNamingFileAndField(@TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=1"));
    Path harnesses = out.resolve("runs/demo-oc-agg1/ledger-1/harnesses");
    Path stored;
    try (Stream<Path> s = Files.list(harnesses)) {
      stored = s.sorted().toList().get(0).resolve("guardrails.md");
    }
    Files.writeString(stored, Files.readString(stored) + "\napi_keys:\n  - " + SECRET + "\n");

    UsageError e = assertThrows(UsageError.class, () -> demo(out, "--k=1"));

    assertTrue(e.getMessage().contains(stored + " line "), e.getMessage());
    assertTrue(e.getMessage().contains(", field api_keys"), e.getMessage());
    assertTrue(e.getMessage().contains("Rotate each of these keys first"), e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
    assertEquals(List.of("ok", "ok"), DemoRuns.statuses(demoJson(out)), "the refused resume wrote nothing");
  }

  @Test
  void c19ABaseHarnessHoldingAKeyOrALinkIsRefusedAtBootNamingFileAndField(@TempDir Path root) throws Exception {
    DemoBenchmark.setUp(root);
    DemoBenchmark bench = new DemoBenchmark(root);
    Path guardrails = bench.baseHarness().resolve("guardrails.md");
    Files.writeString(guardrails, Files.readString(guardrails) + "\nsecrets:\n  - \"" + SECRET + "\"\n");
    Path outside = Files.writeString(root.resolve("outside.md"), "x\n");
    Files.createSymbolicLink(bench.baseHarness().resolve("skills-link.md"), outside);

    List<String> problems = BaseHarness.problems(bench);

    assertTrue(problems.stream().anyMatch(p -> p.startsWith(bench.baseHarness() + ": guardrails.md line ")
        && p.contains(", field secrets")
        && p.contains("rotate the key first")), problems.toString());
    assertTrue(problems.contains(bench.baseHarness().resolve("skills-link.md") + ": a symbolic link or special file;"
        + " a harness holds regular files only (links are never followed): replace it with the file it points to, or"
        + " remove it"), problems.toString());
    assertFalse(problems.toString().contains(SECRET));
  }
}
