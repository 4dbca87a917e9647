package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.h2beam.adapters.files.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the blind selector's choices stood in its list: read from each selection record's {@code id_map} and
 * {@code chosen_id} (only choices its session made), counted per reported cell against an order-indifferent selector
 * with the exact tail of that count, and said in the report.
 */
class ChoicePlacesTest {

  private static TaskSummary.Choice choice(String selection) throws Exception {
    return InputFiles.choice(Json.readTree(selection));
  }

  @Test
  void aChoiceIsThePlaceOfTheChosenIdAmongTheIdsInStringOrder() throws Exception {
    assertEquals(new TaskSummary.Choice(2, 2), choice("{\"ok\": true, \"chosen_id\": \"B\", \"id_map\":"
        + " {\"A\": \"agg2\", \"B\": \"agg1\"}, \"fallback\": false, \"trivial\": false}"));
    // the prompt lists the ids in string order: with 27 candidates AA comes second
    StringBuilder map = new StringBuilder("{");
    for (int i = 0; i < 27; i++) {
      map.append(i == 0 ? "" : ", ").append('"').append(dev.h2beam.transforms.selection.AnonIds.idFor(i))
          .append("\": \"agg").append(i + 1).append('"');
    }
    assertEquals(new TaskSummary.Choice(2, 27), choice("{\"ok\": true, \"chosen_id\": \"AA\", \"id_map\": " + map
        + "}}"));
  }

  @Test
  void noPlaceWhereTheSessionMadeNoChoiceAndNoSelectionWhereNoListWasShown() throws Exception {
    String map = "\"id_map\": {\"A\": \"c2\", \"B\": \"c1\"}";
    TaskSummary.Choice unplaced = TaskSummary.Choice.UNPLACED;
    assertEquals(unplaced, choice("{\"ok\": false, \"fallback\": true, \"chosen_id\": \"B\", " + map + "}"),
        "a stand-in");
    assertEquals(unplaced, choice("{\"ok\": true, \"fallback\": true, \"chosen_id\": \"B\", " + map + "}"));
    assertEquals(unplaced, choice("{\"ok\": true, \"chosen_id\": \"C\", " + map + "}"), "an id not in the map");
    assertEquals(unplaced, choice("{\"ok\": true, \"chosen_id\": \"A\", \"id_map\": {\"A\": \"agg1\"}}"),
        "a list of one");
    assertNull(choice("{\"ok\": true, \"trivial\": true, \"chosen_id\": \"A\", \"id_map\": {\"A\": \"agg1\"}}"),
        "k = 1: no session");
    assertNull(choice("{\"ok\": false, \"error\": \"no candidate produced an artifact\", \"id_map\": {}}"),
        "nothing delivered: no session");
    assertNull(choice("{\"ok\": true, \"chosen_id\": \"A\"}"), "no list recorded");
    assertNull(InputFiles.choice(null));
  }

  private static List<ChoicePlaces.Seen> seen(TaskSummary.Choice... choices) {
    List<ChoicePlaces.Seen> out = new java.util.ArrayList<>();
    for (int i = 0; i < choices.length; i++) out.add(new ChoicePlaces.Seen("t" + i, choices[i]));
    return out;
  }

  @Test
  void theCountOfFirstPlacesIsSetAgainstAnOrderIndifferentSelector() {
    TaskSummary.Choice first2 = new TaskSummary.Choice(1, 2);
    TaskSummary.Choice second2 = new TaskSummary.Choice(2, 2);
    // three choices of two, all the first: 1.5 expected; as unlikely as that, none first: p = 2/8
    assertEquals("3 of 3 choices were of the candidate listed first (1.5 expected if the place did not matter; exact"
        + " two-sided p = 0.25); by place 3, 0", ChoicePlaces.line(seen(first2, first2, first2), false));
    assertEquals(0.25, ChoicePlaces.twoSided(List.of(first2, first2, first2), 3), 1e-12);
    // choices of two and three candidates: P(0) = 1/3, P(1) = 1/2, P(2) = 1/6
    List<TaskSummary.Choice> mixed = List.of(first2, new TaskSummary.Choice(2, 3));
    assertEquals(1.0 / 3 + 1.0 / 6, ChoicePlaces.twoSided(mixed, 0), 1e-12);
    assertEquals(1.0 / 6, ChoicePlaces.twoSided(mixed, 2), 1e-12);
    assertEquals("1 of 2 choices were of the candidate listed first (0.8 expected if the place did not matter; exact"
        + " two-sided p = 1); by place (lists of 2 to 3) 1, 1, 0",
        ChoicePlaces.line(seen(mixed.toArray(new TaskSummary.Choice[0])), false));
    // fewer than expected is as far from it as more: P(none of four) + P(all four) = 2/16
    assertEquals("0 of 4 choices were of the candidate listed first (2.0 expected if the place did not matter; exact"
        + " two-sided p = 0.13); by place 0, 4", ChoicePlaces.line(seen(second2, second2, second2, second2), true));
    assertEquals("1 of 1 choice was of the candidate listed first (0.5 expected if the place did not matter; exact"
        + " two-sided p = 1); by place 1, 0", ChoicePlaces.line(seen(first2), true));
    // the README's example
    List<TaskSummary.Choice> readme = new java.util.ArrayList<>(java.util.Collections.nCopies(31, first2));
    readme.addAll(java.util.Collections.nCopies(9, second2));
    assertEquals("31 of 40 choices were of the candidate listed first (20.0 expected if the place did not matter;"
        + " exact two-sided p = 0.00068); by place 31, 9",
        ChoicePlaces.line(seen(readme.toArray(new TaskSummary.Choice[0])), true));
    // a long run stays a probability, never 0
    String many = ChoicePlaces.line(seen(java.util.Collections.nCopies(200, first2).toArray(new TaskSummary.Choice[0])),
        true);
    assertTrue(many.contains("p = < 1e-12"), many);
    assertEquals("1", ChoicePlaces.pValue(1.0));
    // selections whose session made no placeable choice are counted beside
    assertEquals("1 of 1 choice was of the candidate listed first (0.5 expected if the place did not matter; exact"
        + " two-sided p = 1); by place 1, 0; 2 more selections not placed (a failed session's stand-in, a record"
        + " without its ids or whose chosen id is not among them, a list of one)",
        ChoicePlaces.line(seen(first2, TaskSummary.Choice.UNPLACED, TaskSummary.Choice.UNPLACED), true));
  }

  /**
   * Under harness2's rule the replicates of a task share its list order, so their choices are not independent: the
   * counts take them all, the p one choice per task (a selector that prefers the same content in every replicate
   * chose the first listed 6 of 6 times where that is a 1 in 4 event); under the replicate rule, all of them.
   */
  @Test
  void underHarness2sRuleThePIsOverOneChoicePerTask() {
    TaskSummary.Choice first2 = new TaskSummary.Choice(1, 2);
    List<ChoicePlaces.Seen> replicated = new java.util.ArrayList<>();
    for (int seed = 1; seed <= 3; seed++) {
      replicated.add(new ChoicePlaces.Seen("ledger-1", first2));
      replicated.add(new ChoicePlaces.Seen("ledger-2", first2));
    }
    assertEquals("6 of 6 choices were of the candidate listed first (3.0 expected if the place did not matter); by"
        + " place 6, 0; the replicates of a task list its candidates in one order, so their choices are not"
        + " independent: one choice per task, 2 of 2 (1.0 expected; exact two-sided p = 0.5)",
        ChoicePlaces.line(replicated, false));
    assertEquals("6 of 6 choices were of the candidate listed first (3.0 expected if the place did not matter; exact"
        + " two-sided p = 0.031); by place 6, 0", ChoicePlaces.line(replicated, true));
  }

  @Test
  void noLinesWhenNoSessionChose() {
    assertEquals(List.of(), ChoicePlaces.lines(Map.of(), Map.of()));
    Map<ModeK, List<ChoicePlaces.Seen>> none = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    none.put(new ModeK("agg", 1), List.of());
    assertEquals(List.of(), ChoicePlaces.lines(none, Map.of(1, "replicate")));
  }

  /** The closing note names the rule the ids were shuffled by, per k when the reported ks differ in it. */
  @Test
  void theNoteNamesHowTheIdsWereShuffled() {
    Map<ModeK, List<ChoicePlaces.Seen>> cells = new TreeMap<>(ModeK.BY_K_THEN_MODE);
    cells.put(new ModeK("agg", 2), seen(new TaskSummary.Choice(1, 2)));
    cells.put(new ModeK("agg", 3), seen(new TaskSummary.Choice(3, 3)));
    List<String> task = ChoicePlaces.lines(cells, Map.of(2, "task", 3, "task"));
    assertTrue(task.get(task.size() - 1).startsWith("  The ids are harness2's (spec §19.2)"), task.toString());
    List<String> replicate = ChoicePlaces.lines(cells, Map.of(2, "replicate", 3, "replicate"));
    assertTrue(replicate.get(replicate.size() - 1).startsWith("  The ids were shuffled per replicate"),
        replicate.toString());
    List<String> both = ChoicePlaces.lines(cells, Map.of(2, "task", 3, "replicate"));
    assertTrue(both.get(both.size() - 2).startsWith("  The ids at k=2 are harness2's"), both.toString());
    assertTrue(both.get(both.size() - 1).startsWith("  The ids at k=3 were shuffled per replicate"), both.toString());
    // namespaces of one k that differ (one that records no config.json passes the replicate check): said so
    List<String> mixed = ChoicePlaces.lines(cells, Map.of(2, "replicate and task", 3, "replicate"));
    assertTrue(mixed.get(mixed.size() - 1).startsWith("  The ids at k=2 were shuffled by different rules"),
        mixed.toString());
    assertTrue(mixed.get(mixed.size() - 2).startsWith("  The ids at k=3 were shuffled per replicate"),
        mixed.toString());
  }

  /** A report of summaries whose selections record their ids says where each mode's choices stood. */
  @Test
  void theReportSaysWhereEachModesChoicesStood(@TempDir Path runs) throws Exception {
    Path ns = Fixtures.judgedPair(runs, 2);
    // ledger-1: parallel chose the first listed, sequential the second; ledger-2: both the first
    choose(ns.resolve("ledger-1/summary.json"), "agg", "A", "agg1", "agg2");
    choose(ns.resolve("ledger-1/summary.json"), "seq", "B", "c2", "c1");
    choose(ns.resolve("ledger-2/summary.json"), "agg", "A", "agg2", "agg1");
    choose(ns.resolve("ledger-2/summary.json"), "seq", "A", "c2", "c1");
    Path out = runs.resolve("out");
    Fixtures.Run run = Fixtures.report("--namespaces=" + ns, "--output=" + out);
    assertEquals(0, run.exit(), run.err());
    String text = Files.readString(out.resolve("report.txt"), StandardCharsets.UTF_8);
    assertTrue(text.contains("Where the selector's choices stood in its list"), text);
    assertTrue(text.contains("  parallel k=2: 2 of 2 choices were of the candidate listed first (1.0 expected if the"
        + " place did not matter; exact two-sided p = 0.5); by place 2, 0\n"), text);
    assertTrue(text.contains("  sequential k=2: 1 of 2 choices were of the candidate listed first (1.0 expected if"
        + " the place did not matter; exact two-sided p = 1); by place 1, 1\n"), text);
    assertTrue(Files.readString(out.resolve("report.html")).contains("Where the selector&#39;s choices stood")
        || Files.readString(out.resolve("report.html")).contains("Where the selector's choices stood"));

    // records without ids (harness2's fixtures here, or older files) add no section
    Path plain = Fixtures.judgedPair(runs.resolve("plain"), 2);
    Path plainOut = runs.resolve("plain-out");
    assertEquals(0, Fixtures.report("--namespaces=" + plain, "--output=" + plainOut).exit());
    assertFalse(Files.readString(plainOut.resolve("report.txt")).contains("choices stood"));
  }

  /** Gives {@code mode}'s selection in {@code summary} an id map of {@code labels} (A, B, ...) and a chosen id. */
  private static void choose(Path summary, String mode, String id, String... labels) throws Exception {
    ObjectNode root = (ObjectNode) Json.readTree(summary);
    ObjectNode sel = (ObjectNode) root.path("selections").path(mode);
    ObjectNode map = sel.putObject("id_map");
    for (int i = 0; i < labels.length; i++) map.put(dev.h2beam.transforms.selection.AnonIds.idFor(i), labels[i]);
    sel.put("chosen_id", id);
    sel.put("chosen_label", map.get(id).asText());
    sel.put("fallback", false);
    sel.put("trivial", false);
    Files.writeString(summary, Json.pretty(root), StandardCharsets.UTF_8);
  }
}
