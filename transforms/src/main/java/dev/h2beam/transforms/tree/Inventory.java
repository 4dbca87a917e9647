package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one-line component census of a harness used in the library (spec §3.5), e.g.
 * {@code 2 skills, 1 scripts; 1,234 always-on chars}.
 */
public final class Inventory {
  private Inventory() {}

  /** Non-zero counts of skills, sub_agents, scripts, plugins and hooks (or "always-on edits only"), then the length. */
  public static String line(SurfaceSpec surface, Map<String, String> tree) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String kind : List.of("skills", "sub_agents", "scripts", "plugins", "hooks")) counts.put(kind, 0);
    String skillPrefix = surface.skillDir() + "/";
    String pluginPrefix = surface.pluginDir() == null ? null : surface.pluginDir() + "/";
    for (String rel : tree.keySet()) {
      String kind = rel.startsWith(skillPrefix) && rel.endsWith("SKILL.md") ? "skills"
          : rel.startsWith("sub_agents/") ? "sub_agents"
          : rel.startsWith("scripts/") ? "scripts"
          : pluginPrefix != null && rel.startsWith(pluginPrefix) ? "plugins"
          : rel.equals(surface.hooksFile()) ? "hooks"
          : null;
      if (kind != null) counts.merge(kind, 1, Integer::sum);
    }
    List<String> bits = new ArrayList<>();
    counts.forEach((kind, n) -> {
      if (n > 0) bits.add(n + " " + kind);
    });
    int chars = Py.len(TreeIO.alwaysOnText(surface, tree));
    return (bits.isEmpty() ? "always-on edits only" : String.join(", ", bits))
        + "; " + Py.commas(chars) + " always-on chars";
  }
}
