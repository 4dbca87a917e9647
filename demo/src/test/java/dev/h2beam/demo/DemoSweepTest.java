package dev.h2beam.demo;

import static dev.h2beam.demo.DemoRuns.assertStatuses;
import static dev.h2beam.demo.DemoRuns.at;
import static dev.h2beam.demo.DemoRuns.count;
import static dev.h2beam.demo.DemoRuns.demo;
import static dev.h2beam.demo.DemoRuns.demoJson;
import static dev.h2beam.demo.DemoRuns.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.transforms.proposer.Journal;
import dev.h2beam.transforms.selection.AnonIds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The demo end to end at k = 1, 2, 3 with both modes (spec §16.2, §17.1): budgets, labels, correct deliverables,
 * anonymous ids, no selector session at k = 1, and a second run that executes nothing and calls no proposer.
 */
class DemoSweepTest {

  private static final Map<String, String> TOTALS = Map.of("ledger-1", "Total: 85.15\n", "ledger-2", "Total: 20.25\n");

  @ParameterizedTest(name = "k={0}")
  @ValueSource(ints = {1, 2, 3})
  void bothModesSpendTheirBudgetChooseTheCorrectTotalAndResumeForFree(int k, @TempDir Path out) throws Exception {
    assertEquals(0, demo(out, "--k=" + k));
    Map<String, Object> first = demoJson(out);
    assertStatuses(first, "ok", "ok");
    assertEquals(2 * 7 * k, count(first, "execution_count"), "k base + 3k per mode, per task");
    int callsPerMode = 3 * k + (k >= 2 ? 1 : 0) + 1;
    assertEquals(2 * 2 * callsPerMode, count(first, "editor_calls"), "stages + selection (k>=2) + reflection");

    for (String task : List.of("ledger-1", "ledger-2")) {
      Map<String, Object> s = summary(out, k, task);
      assertEquals("ok", s.get("status"));
      for (String mode : List.of("agg", "seq")) {
        Map<String, Object> ledger = at(s, "modes", mode, "ledger");
        assertEquals(4 * k, ledger.get("R"));
        assertEquals(3 * k, ledger.get("P"));
        assertEquals(expectedRollouts(mode, k), ledger.get("rollouts"));
        assertEquals(expectedSessions(mode, k), ledger.get("sessions"));
        Map<String, Object> sel = at(s, "selections", mode);
        assertEquals(true, sel.get("ok"));
        assertEquals(k == 1, sel.get("trivial"));
        List<String> finals = new ArrayList<>();
        for (int i = 1; i <= k; i++) finals.add((mode.equals("agg") ? "agg" : "c") + i);
        Map<String, String> ids = k == 1 ? Map.of("A", finals.get(0)) : AnonIds.assign(finals, task, k, mode);
        assertEquals(new LinkedHashMap<>(ids), sel.get("id_map"));
        assertEquals(ids.get("A"), sel.get("chosen_label"), "the scripted selector picks the first correct id");
        Path chosen = Path.of((String) sel.get("chosen_run_dir"));
        assertEquals(TOTALS.get(task), Files.readString(chosen.resolve("answer.txt")));
      }
    }
    List<String> sessions = labels(out, k);
    if (k == 1) {
      assertTrue(sessions.stream().noneMatch(l -> l.startsWith("select.")), "no selector session at k = 1");
    } else {
      assertTrue(sessions.contains("select.agg" + k) && sessions.contains("select.seq" + k));
    }

    Map<Path, Object> library = fileKeys(out.resolve("library"));
    assertEquals(0, demo(out, "--k=" + k));
    Map<String, Object> second = demoJson(out);
    assertStatuses(second, "skipped", "skipped");
    assertEquals(0, count(second, "execution_count"));
    assertEquals(0, count(second, "editor_calls"));
    assertEquals(List.of("ledger-1", "ledger-2"), libraryEntries(out, k, "agg"));
    assertEquals(List.of("ledger-1", "ledger-2"), libraryEntries(out, k, "seq"));
    // the resume replays each entry into the library, which holds it already: no file is written again
    assertEquals(library, fileKeys(out.resolve("library")));
    assertEquals(entriesBefore(first), entriesBefore(second), "each task saw the entries of the tasks before it");
    assertEquals(List.of(Map.of("agg", 0, "seq", 0), Map.of("agg", 1, "seq", 1)), entriesBefore(second));
  }

  /** Every file under {@code root} with its file key (a file written again, atomically, is a new file). */
  static Map<Path, Object> fileKeys(Path root) throws Exception {
    Map<Path, Object> keys = new java.util.TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          keys.put(root.relativize(p), Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class)
              .fileKey());
        }
      }
    }
    assertTrue(keys.values().stream().allMatch(java.util.Objects::nonNull), "this file system gives file keys");
    return keys;
  }

  @SuppressWarnings("unchecked")
  static List<Object> entriesBefore(Map<String, Object> demoJson) {
    List<Object> out = new ArrayList<>();
    for (Object t : (List<Object>) demoJson.get("tasks")) out.add(((Map<String, Object>) t).get("library_entries_before"));
    return out;
  }

  static List<String> expectedRollouts(String mode, int k) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= k; i++) out.add("base" + i);
    out.addAll(expectedSessions(mode, k));
    return out;
  }

  static List<String> expectedSessions(String mode, int k) {
    List<String> out = new ArrayList<>();
    if (mode.equals("agg")) {
      for (int i = 1; i <= k; i++) out.addAll(List.of("inv" + i, "dom" + i));
      for (int i = 1; i <= k; i++) out.add("agg" + i);
    } else {
      for (int t = 1; t <= k; t++) out.addAll(List.of("inv" + t, "dom" + t, "c" + t));
    }
    return out;
  }

  static List<String> labels(Path out, int k) throws Exception {
    List<String> labels = new ArrayList<>();
    for (String line : Journal.lines(out.resolve("runs/_audit/demo-oc-agg" + k + "/sessions.jsonl"))) {
      labels.add(String.valueOf(dev.h2beam.adapters.files.Json.readMap(line).get("label")));
    }
    return labels;
  }

  static List<String> libraryEntries(Path out, int k, String mode) throws Exception {
    Path dir = out.resolve("library/k" + k + "/" + mode + "/accounting/harnesses");
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  static boolean exists(Path p) {
    return Files.exists(p);
  }

  static void assertNoFileNamed(Path root, String name) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().equals(name)), name + " found under " + root);
    }
  }
}
