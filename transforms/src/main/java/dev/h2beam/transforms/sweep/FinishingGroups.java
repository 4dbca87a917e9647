package dev.h2beam.transforms.sweep;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The groups a sweep's tasks are finished in: each task's modes' outcomes travel to its task's group, and the group
 * finishes its tasks one by one once all their modes are in. Groups, not one per task: the DirectRunner sets the
 * finishing step up again for every group's bundle (its function serialised and read back twice), and one per task
 * was forty set-ups in an 8 x 5 sweep and two thousand in a large one (BENCHMARKS.md, issue 11).
 */
public final class FinishingGroups {
  private FinishingGroups() {}

  /** How many groups: enough to spread the finishing over a cluster's slots. */
  public static final int GROUPS = 16;

  /** The group of a task: by its place in the stream, so that a domain's tasks spread over the groups. */
  public static String of(TaskRef ref) {
    return Integer.toString(ref.index() % GROUPS);
  }

  /** A group's outcomes as its tasks, each with its modes' outcomes, in stream order. */
  public static Collection<List<ModeOutcome>> tasks(Iterable<ModeOutcome> group) {
    Map<Integer, List<ModeOutcome>> tasks = new TreeMap<>();
    for (ModeOutcome o : group) tasks.computeIfAbsent(o.ref().index(), i -> new ArrayList<>()).add(o);
    return tasks.values();
  }
}
