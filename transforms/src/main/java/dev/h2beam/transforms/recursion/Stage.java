package dev.h2beam.transforms.recursion;

import java.util.LinkedHashMap;
import java.util.Map;

/** One improvement stage's outcome (spec §2.6). The tree is the harness it produced (a copy of its fallback if it fell back). */
public record Stage(
    String label, String dim, LinkedHashMap<String, String> tree, boolean keptBase, boolean fellBack, String error,
    double usd, int attempts, boolean cached, String notes) {

  public Stage {
    tree = new LinkedHashMap<>(tree);
    error = clip(error == null ? "" : error, 400);
    notes = notes == null ? "" : notes;
  }

  /** Notes, or the error when the stage produced none: what later stages read as this stage's decision. */
  public String decision() {
    return notes.isBlank() ? error : notes;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("label", label);
    m.put("dim", dim);
    m.put("fell_back", fellBack);
    m.put("kept_base", keptBase);
    m.put("attempts", attempts);
    m.put("usd", usd);
    m.put("cached", cached);
    m.put("notes", notes);
    m.put("error", clip(error, 400));
    return m;
  }

  static String clip(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n);
  }
}
