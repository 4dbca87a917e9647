package dev.h2beam.transforms.tree;

import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Validation of a proposed harness tree (spec §4.6): every problem is collected, then the tree is rejected with all of
 * them joined by {@code " | "}, a message the improver receives verbatim and can act on.
 */
public final class Validation {
  private Validation() {}

  /** Scripts the substrate ships itself; a reference to them needs no file in the harness. */
  public static final Set<String> RESERVED_SCRIPTS = Set.of("read_doc.py", "pack.py", "unpack.py");

  // Python's re.M patterns: only \n ends a line, and \s, \S are Unicode-aware.
  private static final int LINES = Pattern.MULTILINE | Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS;
  private static final Pattern DESCRIPTION = Pattern.compile("^description:\\s*\\S", LINES);
  private static final Pattern NAME = Pattern.compile("^name:\\s*(\\S+)\\s*$", LINES);
  private static final Pattern SUBAGENT_MODE = Pattern.compile("^mode:\\s*subagent\\s*$", LINES);

  /**
   * Checks {@code tree} against the surface's rules 1–7.
   *
   * @param reservedScripts script basenames the benchmark ships, beyond {@link #RESERVED_SCRIPTS}; may be null
   * @return the census {@code always_on_chars, n_files, skills, sub_agents, scripts[, plugins][, hooks]}
   * @throws HarnessRejected listing every problem found
   */
  public static LinkedHashMap<String, Integer> validate(SurfaceSpec surface, Map<String, String> tree,
      boolean allowSubagents, Set<String> reservedScripts) {
    return validate(surface, tree, allowSubagents, reservedScripts, ScriptCheck.system());
  }

  /**
   * {@link #validate(SurfaceSpec, Map, boolean, Set)} with the script checks' copies made in {@code scratch} (the
   * runs root's {@link dev.h2beam.adapters.files.Scratch} folder), so a killed sweep leaves none in {@code /tmp}.
   */
  public static LinkedHashMap<String, Integer> validate(SurfaceSpec surface, Map<String, String> tree,
      boolean allowSubagents, Set<String> reservedScripts, Path scratch) {
    return validate(surface, tree, allowSubagents, reservedScripts, ScriptCheck.system().in(scratch));
  }

  static LinkedHashMap<String, Integer> validate(SurfaceSpec surface, Map<String, String> tree,
      boolean allowSubagents, Set<String> reservedScripts, ScriptCheck scripts) {
    List<String> problems = new ArrayList<>();
    TreePaths.Grammar g = TreePaths.grammar(surface);
    String body = TreeIO.alwaysOnText(surface, tree);
    int cap = surface.alwaysOnMax();

    if (Py.len(body) > cap) {
      problems.add("always-on content is " + Py.len(body) + " chars, over the " + cap + " cap; "
          + surface.alwaysOnCapReason());
    }
    if (surface.rejectEmptyAlwaysOn() && Py.isBlank(body)) {
      problems.add(surface.alwaysOn().get(0) + " is empty — it is the only always-on file on this framework, so an "
          + "empty one is a harness that does not exist");
    }
    List<String> skills = checkSkills(surface, tree, body, problems);
    List<String> subagents = checkSubagents(surface, tree, allowSubagents, problems);
    for (Map.Entry<String, String> e : tree.entrySet()) {
      String rel = e.getKey();
      if (g.isScript(rel) || (surface.compileSkillScripts() && g.isSkillScript(rel))) {
        String problem = scripts.problem(rel, e.getValue());
        if (problem != null) problems.add(problem);
      }
    }
    if (surface.hooksFile() != null && tree.containsKey(surface.hooksFile())) {
      HooksCheck.check(surface, tree.get(surface.hooksFile()), problems);
    }
    checkScriptReferences(surface, tree, reservedScripts, problems);

    if (!problems.isEmpty()) throw new HarnessRejected(String.join(" | ", problems));
    LinkedHashMap<String, Integer> census = new LinkedHashMap<>();
    census.put("always_on_chars", Py.len(body));
    census.put("n_files", tree.size());
    census.put("skills", skills.size());
    census.put("sub_agents", subagents.size());
    census.put("scripts", (int) tree.keySet().stream().filter(g::isScript).count());
    if (surface.pluginDir() != null) census.put("plugins", (int) tree.keySet().stream().filter(g::isPlugin).count());
    if (surface.hooksFile() != null) census.put("hooks", tree.containsKey(surface.hooksFile()) ? 1 : 0);
    return census;
  }

  /** Rule 3: front matter and a trigger in the always-on text for every skill; returns the skill names. */
  private static List<String> checkSkills(SurfaceSpec surface, Map<String, String> tree, String body,
      List<String> problems) {
    List<String> skills = TreePaths.skillNames(surface, tree);
    for (String name : skills) {
      String rel = surface.skillDir() + "/" + name + "/SKILL.md";
      String fm = Py.head(tree.get(rel), 600);
      if (!DESCRIPTION.matcher(fm).find()) {
        problems.add(rel + " needs a `description:` in its frontmatter, or the skill is dropped SILENTLY at load");
      }
      Matcher m = NAME.matcher(fm);
      String declared = m.find() ? m.group(1) : null;
      if (surface.skillNameRule().equals("must_match")) {
        if (!name.equals(declared)) {
          problems.add(rel + " needs frontmatter `name: " + name + "` matching its directory (a mismatch is dropped "
              + "SILENTLY at load)");
        }
      } else if (declared != null && !declared.equals(name)) {
        problems.add(rel + " frontmatter `name: " + declared + "` OVERRIDES the directory name at load, so every "
            + "trigger line naming `" + name + "` stops matching; drop the `name:` line or make it `name: " + name
            + "`");
      }
      if (!body.contains(name)) {
        problems.add("skill '" + name + "' is never named in the always-on text, so the agent will not know to "
            + "invoke it — an untriggered skill is dead weight. " + Py.format(surface.triggerHint(),
                Map.of("name", name)));
      }
    }
    return skills;
  }

  /** Rule 4: sub-agents only where the deployment allows them, each with its front matter; returns their names. */
  private static List<String> checkSubagents(SurfaceSpec surface, Map<String, String> tree, boolean allowSubagents,
      List<String> problems) {
    List<String> subagents = TreePaths.subagentNames(surface, tree);
    if (!subagents.isEmpty() && !allowSubagents) {
      problems.add("sub_agents are not available on this deployment: " + Py.repr(subagents));
    }
    for (String name : subagents) {
      String rel = "sub_agents/" + name + "/AGENT.md";
      String fm = Py.head(tree.get(rel), 600);
      if (surface.subagentRequiresMode() && !SUBAGENT_MODE.matcher(fm).find()) {
        problems.add(rel + " needs frontmatter `mode: subagent`");
      }
      if (!DESCRIPTION.matcher(fm).find()) problems.add(rel + " needs a `description:`");
    }
    return subagents;
  }

  /** Rule 7: every script a skill or always-on file invokes ships in the tree, unless the substrate provides it. */
  private static void checkScriptReferences(SurfaceSpec surface, Map<String, String> tree,
      Set<String> reservedScripts, List<String> problems) {
    TreePaths.Grammar g = TreePaths.grammar(surface);
    Set<String> reserved = new HashSet<>(RESERVED_SCRIPTS);
    if (reservedScripts != null) reserved.addAll(reservedScripts);
    Set<String> have = new HashSet<>();
    for (String rel : tree.keySet()) {
      if (g.isScript(rel) || g.isSkillScript(rel)) have.add(rel);
    }
    for (Map.Entry<String, String> e : tree.entrySet()) {
      String rel = e.getKey();
      if (!g.skill.matcher(rel).matches() && !surface.alwaysOn().contains(rel)) continue;
      Matcher m = g.scriptRef.matcher(e.getValue());
      while (m.find()) {
        String ref = m.group(1);
        if (reserved.contains(ref.substring(ref.lastIndexOf('/') + 1))) continue;
        if (!have.contains(ref)) problems.add(rel + " invokes `" + ref + "` but that file is not in the harness");
      }
    }
  }
}
