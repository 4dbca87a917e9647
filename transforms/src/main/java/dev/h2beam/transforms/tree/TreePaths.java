package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The path grammar of a harness surface (spec §4.3): which relative paths are components, and the normalisation every
 * path goes through before it is joined to a directory.
 *
 * <p>Project decision beyond the spec: a script may be {@code scripts/<snake_name>.py} or
 * {@code scripts/<snake_name>.sh}, and a script reference may be a {@code python}, {@code python3}, {@code sh} or
 * {@code bash} invocation.
 */
public final class TreePaths {
  private TreePaths() {}

  private static final String NAME = "[a-z0-9][a-z0-9_\\-]*";
  private static final Map<List<String>, Grammar> GRAMMARS = new ConcurrentHashMap<>();

  /** The compiled patterns of one surface; every pattern but {@code scriptRef} is used as a full match. */
  static final class Grammar {
    final Pattern skill;
    final Pattern skillScript;
    final Pattern subagent;
    final Pattern script;
    final Pattern plugin;
    final Pattern scriptRef;

    private Grammar(String skillDir, String pluginDir) {
      String sd = Pattern.quote(skillDir);
      skill = Pattern.compile(sd + "/(" + NAME + ")/SKILL\\.md");
      skillScript = Pattern.compile(sd + "/" + NAME + "/scripts/[A-Za-z0-9_.\\-]+");
      subagent = Pattern.compile("sub_agents/(" + NAME + ")/AGENT\\.md");
      script = Pattern.compile("scripts/[a-z0-9_][a-z0-9_]*\\.(?:py|sh)");
      plugin = pluginDir == null ? null : Pattern.compile(Pattern.quote(pluginDir) + "/(" + NAME + ")\\.ts");
      // Python's \w and \s are Unicode-aware; so is this search.
      scriptRef = Pattern.compile(
          "(?:python3?|sh|bash)\\s+((?:" + sd + "/[\\w\\-]+/)?scripts/[\\w.\\-]+\\.(?:py|sh))",
          Pattern.UNICODE_CHARACTER_CLASS);
    }

    boolean isScript(String rel) {
      return script.matcher(rel).matches();
    }

    boolean isSkillScript(String rel) {
      return skillScript.matcher(rel).matches();
    }

    boolean isPlugin(String rel) {
      return plugin != null && plugin.matcher(rel).matches();
    }
  }

  static Grammar grammar(SurfaceSpec surface) {
    return GRAMMARS.computeIfAbsent(
        Arrays.asList(surface.name(), surface.skillDir(), surface.pluginDir()),
        k -> new Grammar(surface.skillDir(), surface.pluginDir()));
  }

  /**
   * Normalises a relative path: trims it, turns {@code \} into {@code /}, strips leading {@code ./} and leading or
   * trailing {@code /}.
   *
   * @throws HarnessRejected when the path is absolute or has a {@code ..} component
   */
  public static String normalize(String rel) {
    String r = Py.strip(Objects.requireNonNull(rel, "rel")).replace('\\', '/');
    if (r.startsWith("/") || List.of(r.split("/", -1)).contains("..")) {
      throw new HarnessRejected("path escapes the harness: " + Py.repr(rel)
          + "; use a path relative to the harness root, without '..'");
    }
    while (r.startsWith("./")) r = r.substring(2);
    int start = 0;
    int end = r.length();
    while (start < end && r.charAt(start) == '/') start++;
    while (end > start && r.charAt(end - 1) == '/') end--;
    return r.substring(start, end);
  }

  /** Whether {@code rel} is on the editable surface: an always-on file, the hooks file, or a component path. */
  public static boolean isAllowed(SurfaceSpec surface, String rel) {
    if (rel == null) return false;
    String r;
    try {
      r = normalize(rel);
    } catch (HarnessRejected e) {
      return false;
    }
    if (surface.alwaysOn().contains(r) || r.equals(surface.hooksFile())) return true;
    Grammar g = grammar(surface);
    return g.skill.matcher(r).matches() || g.isSkillScript(r) || g.subagent.matcher(r).matches() || g.isScript(r)
        || g.isPlugin(r);
  }

  /** The names of the skills in {@code tree}, sorted. */
  public static List<String> skillNames(SurfaceSpec surface, Map<String, String> tree) {
    return names(grammar(surface).skill, tree);
  }

  /** The names of the sub-agents in {@code tree}, sorted. */
  public static List<String> subagentNames(SurfaceSpec surface, Map<String, String> tree) {
    return names(grammar(surface).subagent, tree);
  }

  private static List<String> names(Pattern p, Map<String, String> tree) {
    TreeSet<String> out = new TreeSet<>(Py.CODE_POINT_ORDER);
    for (String rel : tree.keySet()) {
      Matcher m = p.matcher(rel);
      if (m.matches()) out.add(m.group(1));
    }
    return new ArrayList<>(out);
  }
}
