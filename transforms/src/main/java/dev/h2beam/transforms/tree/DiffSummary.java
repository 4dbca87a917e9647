package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What changed between two harness trees (spec §4.7): paths added, removed and modified, each in plain string order,
 * and the change in always-on length. "Unchanged" everywhere in the method means no path was added, removed or
 * modified.
 */
public record DiffSummary(List<String> added, List<String> removed, List<String> modified, int alwaysOnCharDelta) {

  public DiffSummary {
    added = sortedCopy(added);
    removed = sortedCopy(removed);
    modified = sortedCopy(modified);
  }

  /** The summary of the change from {@code before} to {@code after} on {@code surface}. */
  public static DiffSummary of(SurfaceSpec surface, Map<String, String> before, Map<String, String> after) {
    int delta = Py.len(TreeIO.alwaysOnText(surface, after)) - Py.len(TreeIO.alwaysOnText(surface, before));
    return paths(before, after, delta);
  }

  /**
   * The path changes alone, for an {@link #unchanged()} check: without a surface the always-on files are unknown,
   * so {@link #alwaysOnCharDelta()} is 0. Use {@link #of(SurfaceSpec, Map, Map)} whenever the summary is recorded.
   */
  public static DiffSummary of(Map<String, String> before, Map<String, String> after) {
    return paths(before, after, 0);
  }

  private static DiffSummary paths(Map<String, String> before, Map<String, String> after, int alwaysOnCharDelta) {
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> modified = new ArrayList<>();
    for (Map.Entry<String, String> e : after.entrySet()) {
      if (!before.containsKey(e.getKey())) {
        added.add(e.getKey());
      } else if (!before.get(e.getKey()).equals(e.getValue())) {
        modified.add(e.getKey());
      }
    }
    for (String rel : before.keySet()) {
      if (!after.containsKey(rel)) removed.add(rel);
    }
    return new DiffSummary(added, removed, modified, alwaysOnCharDelta);
  }

  /** True when no path was added, removed or modified. */
  public boolean unchanged() {
    return added.isEmpty() && removed.isEmpty() && modified.isEmpty();
  }

  /** The JSON form {@code {added, removed, modified, always_on_char_delta}}. */
  public LinkedHashMap<String, Object> toJson() {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    m.put("added", added);
    m.put("removed", removed);
    m.put("modified", modified);
    m.put("always_on_char_delta", alwaysOnCharDelta);
    return m;
  }

  private static List<String> sortedCopy(List<String> paths) {
    List<String> copy = new ArrayList<>(paths);
    copy.sort(Py.CODE_POINT_ORDER);
    return List.copyOf(copy);
  }
}
