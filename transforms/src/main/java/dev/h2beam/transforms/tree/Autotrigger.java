package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Autotrigger repair (spec §4.5), applied to every proposed tree before validation: a skill that the always-on text
 * never names gets a trigger line in the surface's autotrigger file, unless that line would push the always-on text
 * over its cap.
 */
public final class Autotrigger {
  private Autotrigger() {}

  /** Python's {@code ^description:\s*(.+)$} under {@code re.M}: only {@code \n} ends a line. */
  private static final Pattern DESCRIPTION = Pattern.compile("^description:\\s*(.+)$",
      Pattern.MULTILINE | Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS);

  /**
   * Appends a trigger line for each untriggered skill, in name order, mutating {@code tree}.
   *
   * @return the names of the skills repaired, sorted
   */
  public static List<String> repair(SurfaceSpec surface, Map<String, String> tree) {
    List<String> fixed = new ArrayList<>();
    String body = TreeIO.alwaysOnText(surface, tree);
    for (String name : TreePaths.skillNames(surface, tree)) {
      if (body.contains(name)) continue;
      String line = Py.format(surface.triggerLine(), Map.of("name", name, "desc", description(surface, tree, name)));
      if (Py.len(body) + Py.len(line) + 2 > surface.alwaysOnMax()) continue;
      String current = tree.getOrDefault(surface.autotriggerFile(), "");
      tree.put(surface.autotriggerFile(), Py.isBlank(current) ? line : Py.rstrip(current) + "\n" + line);
      body = TreeIO.alwaysOnText(surface, tree);
      fixed.add(name);
    }
    return fixed;
  }

  /** The skill's {@code description:} from the first 600 chars of SKILL.md, without a final period. */
  private static String description(SurfaceSpec surface, Map<String, String> tree, String name) {
    String head = Py.head(tree.getOrDefault(surface.skillDir() + "/" + name + "/SKILL.md", ""), 600);
    Matcher m = DESCRIPTION.matcher(head);
    if (!m.find()) return "the " + name + " workflow applies";
    String desc = Py.strip(m.group(1));
    int end = desc.length();
    while (end > 0 && desc.charAt(end - 1) == '.') end--;
    return desc.substring(0, end);
  }
}
