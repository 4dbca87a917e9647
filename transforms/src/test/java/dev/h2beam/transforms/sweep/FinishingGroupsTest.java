package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FinishingGroupsTest {
  private static TaskRef ref(int index) {
    return new TaskRef("d" + index % 3, "t" + index, 1 + index / 3, 10, index);
  }

  /** Tasks spread over the groups by their place in the stream: every group used, a domain's tasks spread too. */
  @Test
  void tasksSpreadOverTheGroups() {
    Set<String> groups = new HashSet<>();
    Set<String> ofOneDomain = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      groups.add(FinishingGroups.of(ref(i)));
      if (i % 3 == 0) ofOneDomain.add(FinishingGroups.of(ref(i)));
    }
    assertEquals(FinishingGroups.GROUPS, groups.size());
    assertEquals(FinishingGroups.GROUPS, ofOneDomain.size());
    assertEquals(FinishingGroups.of(ref(5)), FinishingGroups.of(ref(5 + FinishingGroups.GROUPS)));
  }

  /** A group's outcomes, in any order, come back as its tasks in stream order, each with all its modes. */
  @Test
  void aGroupsOutcomesAreItsTasksInStreamOrder() {
    List<ModeOutcome> group = new ArrayList<>(List.of(new ModeOutcome(ref(33), "seq", 2, false),
        new ModeOutcome(ref(1), "agg", 0, false), new ModeOutcome(ref(17), "seq", 1, true),
        new ModeOutcome(ref(1), "seq", 0, false), new ModeOutcome(ref(33), "agg", 2, false),
        new ModeOutcome(ref(17), "agg", 1, true)));
    List<List<ModeOutcome>> tasks = new ArrayList<>(FinishingGroups.tasks(group));
    assertEquals(3, tasks.size());
    assertEquals(List.of(1, 17, 33), tasks.stream().map(t -> t.get(0).ref().index()).toList());
    for (List<ModeOutcome> t : tasks) {
      assertEquals(Set.of("agg", "seq"), Set.copyOf(t.stream().map(ModeOutcome::mode).toList()));
      assertEquals(1, t.stream().map(o -> o.ref().task()).distinct().count());
    }
  }
}
