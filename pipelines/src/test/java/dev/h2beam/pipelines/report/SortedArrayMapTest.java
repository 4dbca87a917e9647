package dev.h2beam.pipelines.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The metric rows' compact map reads exactly as the sorted map it replaces. */
class SortedArrayMapTest {

  @Test
  void readsAsASortedMapInOrderEqualityHashAndLookups() {
    Map<String, Double> unsorted = new HashMap<>(Map.of("wall_s", 2.5, "cost", 0.5, "score", 1.0, "z", -0.0));
    SortedArrayMap<Double> m = SortedArrayMap.copyOf(unsorted);
    TreeMap<String, Double> tree = new TreeMap<>(unsorted);
    assertEquals(List.of("cost", "score", "wall_s", "z"), new ArrayList<>(m.keySet()));
    assertEquals(new ArrayList<>(tree.values()), new ArrayList<>(m.values()));
    assertEquals(tree, m);
    assertEquals(m, tree);
    assertEquals(tree.hashCode(), m.hashCode());
    assertEquals(tree.toString(), m.toString());
    assertEquals(0.5, m.get("cost"));
    assertNull(m.get("absent"));
    assertNull(m.get(42));
    assertTrue(m.containsKey("z"));
    assertFalse(m.containsKey("a"));
    assertEquals(4, m.size());
    assertThrows(UnsupportedOperationException.class, () -> m.put("cost", 1.0));
    assertThrows(UnsupportedOperationException.class, () -> m.entrySet().iterator().next().setValue(1.0));
    assertEquals(Map.of(), SortedArrayMap.copyOf(Map.of()));
    assertEquals(m, SortedArrayMap.copyOf(m));
  }

  @Test
  void aMetricRowKeepsItsMapsSortedAndEqualToTheSameRowBuiltFromOtherMaps() {
    MetricRow a = new MetricRow("t", "agg", 1, Map.of("b", 2.0, "a", 1.0), Map.of("c", "not-recorded"));
    MetricRow b = new MetricRow("t", "agg", 1, new TreeMap<>(Map.of("a", 1.0, "b", 2.0)),
        new HashMap<>(Map.of("c", "not-recorded")));
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(List.of("a", "b"), new ArrayList<>(a.values().keySet()));
    assertEquals("not-recorded", a.reason("c"));
    // a metric the row does not name while it names others: its judge did not know it
    assertEquals(MetricRow.OLDER_JUDGE, a.reason("unnamed"));
    assertEquals("not-recorded", new MetricRow("t", "agg", 1, Map.of(), Map.of()).reason("unnamed"));
  }

  /** The codec's maps are made from keys read in order: anything out of order or unmatched is refused, not misread. */
  @Test
  void aMapOfKeysInOrderTakesThemAsTheyAreAndRefusesKeysOutOfOrder() {
    String[] keys = {"agg", "seq"};
    SortedArrayMap<Object> m = SortedArrayMap.ofSorted(keys, new Object[] {1, 2});
    assertEquals(new TreeMap<>(Map.of("agg", 1, "seq", 2)), m);
    assertEquals(2, m.get("seq"));
    assertTrue(SortedArrayMap.ofSorted(new String[0], new Object[0]).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> SortedArrayMap.ofSorted(new String[] {"seq", "agg"},
        new Object[] {1, 2}));
    assertThrows(IllegalArgumentException.class, () -> SortedArrayMap.ofSorted(new String[] {"agg", "agg"},
        new Object[] {1, 2}));
    assertThrows(IllegalArgumentException.class, () -> SortedArrayMap.ofSorted(keys, new Object[] {1}));
  }

  /** A task summary's maps read as sorted maps whatever maps it was given, and cannot be changed. */
  @Test
  void aTaskSummaryKeepsItsModesAndFinalsSortedAndUnchangeable() {
    Map<String, List<String>> finals = new HashMap<>(Map.of("seq", new ArrayList<>(List.of("c1")), "agg",
        List.of("agg1", "agg2")));
    TaskSummary t = new TaskSummary("/r/ns/t/summary.json", "t", new HashMap<>(Map.of("seq",
        TaskSummary.ModeSpend.NONE, "agg", new TaskSummary.ModeSpend(1, 0.5, 0.0))), finals);
    assertEquals(List.of("agg", "seq"), new ArrayList<>(t.modes().keySet()));
    assertEquals(List.of("agg", "seq"), new ArrayList<>(t.finals().keySet()));
    assertEquals(List.of("agg1", "agg2"), t.finals("agg"));
    assertEquals(List.of(), t.finals("other"));
    assertEquals(TaskSummary.ModeSpend.NONE, t.mode("other"));
    finals.get("seq").add("c2");
    assertEquals(List.of("c1"), t.finals("seq"), "the summary keeps a copy of the labels");
    assertThrows(UnsupportedOperationException.class, () -> t.modes().put("x", TaskSummary.ModeSpend.NONE));
    assertThrows(UnsupportedOperationException.class, () -> t.finals().clear());
  }
}
