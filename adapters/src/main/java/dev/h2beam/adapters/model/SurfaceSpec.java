package dev.h2beam.adapters.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The editable component surface of a substrate (spec §2.4, §4.2): which relative paths a harness may hold and the
 * rules each kind of component must follow.
 *
 * @param stubs README placeholders written into materialised harness folders, in order (path → body)
 */
public record SurfaceSpec(
    String name,
    String token,
    List<String> alwaysOn,
    int alwaysOnMax,
    String alwaysOnCapReason,
    String skillDir,
    String skillNameRule,
    String triggerHint,
    String autotriggerFile,
    String triggerLine,
    boolean subagentRequiresMode,
    String pluginDir,
    String hooksFile,
    Set<String> hookEvents,
    boolean compileSkillScripts,
    boolean rejectEmptyAlwaysOn,
    Map<String, String> stubs) {

  public SurfaceSpec {
    Objects.requireNonNull(name, "name");
    alwaysOn = List.copyOf(alwaysOn);
    hookEvents = Set.copyOf(hookEvents);
    stubs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(stubs));
    if (!skillNameRule.equals("must_match") && !skillNameRule.equals("overrides_dir")) {
      throw new IllegalArgumentException("skill_name_rule must be must_match or overrides_dir");
    }
  }

  /** The OpenCode surface (substrate token {@code oc}). */
  public static final SurfaceSpec OPENCODE = new SurfaceSpec(
      "opencode",
      "oc",
      List.of("systemprompt.md", "guardrails.md", "LongTermMEMORY.md", "tool_descriptions/tool_guidance.md"),
      24_000,
      "always-on text competes with the agent's own output budget on every turn",
      "skills",
      "must_match",
      "add a line naming the skill to systemprompt.md or guardrails.md, of the form "
          + "\"When <situation>, load the `{name}` skill.\"",
      "guardrails.md",
      "- When {desc}, load the `{name}` skill.\n",
      true,
      "plugin",
      null,
      Set.of(),
      false,
      false,
      stubs(
          "scripts/README.md", "<!-- Helper scripts: add scripts/<snake_name>.sh or scripts/<snake_name>.py and name "
              + "the command that runs it in systemprompt.md, guardrails.md or a skill. -->\n",
          "sub_agents/README.md", "<!-- Sub-agents: add sub_agents/<name>/AGENT.md with front matter holding "
              + "'mode: subagent' and a 'description:' line. -->\n",
          "plugin/README.md", "<!-- Plugins: add plugin/<name>.ts; a plugin acts inside the tool loop and must never "
              + "block a valid completion. -->\n",
          "skills/README.md", "<!-- Skills: add skills/<name>/SKILL.md with 'name: <name>' and 'description:' front "
              + "matter, helpers under skills/<name>/scripts/, and a trigger line in an always-on file. -->\n"));

  /** The Codex surface (substrate token {@code cx}). */
  public static final SurfaceSpec CODEX = new SurfaceSpec(
      "codex",
      "cx",
      List.of("AGENTS.md"),
      8_000,
      "AGENTS.md is injected whole on every turn and Codex silently truncates it at 32,768 bytes",
      ".agents/skills",
      "overrides_dir",
      "add a line to AGENTS.md naming the skill, of the form "
          + "\"When <situation>, read .agents/skills/{name}/SKILL.md and follow it.\"",
      "AGENTS.md",
      "- When {desc}, read .agents/skills/{name}/SKILL.md and follow it.\n",
      false,
      null,
      ".codex/hooks.json",
      Set.of("PreToolUse", "PostToolUse", "PermissionRequest", "PreCompact", "PostCompact", "SessionStart",
          "SubagentStart", "SubagentStop", "UserPromptSubmit", "Stop"),
      true,
      true,
      stubs(
          "scripts/README.md", "<!-- Helper scripts: add scripts/<snake_name>.sh or scripts/<snake_name>.py and name "
              + "the command that runs it in AGENTS.md or a skill. -->\n",
          "sub_agents/README.md", "<!-- Sub-agents: add sub_agents/<name>/AGENT.md with a 'description:' line. -->\n",
          ".codex/README.md", "<!-- Lifecycle hooks: add .codex/hooks.json with a top-level 'hooks' object mapping "
              + "events to command hooks. -->\n",
          ".agents/skills/README.md", "<!-- Skills: add .agents/skills/<name>/SKILL.md with a 'description:' line, "
              + "helpers under .agents/skills/<name>/scripts/, and a trigger line in AGENTS.md. -->\n"));

  /** Looks a surface up by its substrate token ({@code oc}, {@code cx}) or its name. */
  public static SurfaceSpec forSubstrate(String tokenOrName) {
    for (SurfaceSpec s : List.of(OPENCODE, CODEX)) {
      if (s.token.equals(tokenOrName) || s.name.equals(tokenOrName)) return s;
    }
    throw new IllegalArgumentException(
        "unknown substrate '" + tokenOrName + "': use oc (OpenCode) or cx (Codex)");
  }

  private static Map<String, String> stubs(String... pathsAndBodies) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pathsAndBodies.length; i += 2) m.put(pathsAndBodies[i], pathsAndBodies[i + 1]);
    return m;
  }
}
