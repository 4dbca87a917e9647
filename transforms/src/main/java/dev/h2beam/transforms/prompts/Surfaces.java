package dev.h2beam.transforms.prompts;

import dev.h2beam.adapters.model.BenchPrompts;
import dev.h2beam.adapters.model.SurfaceSpec;
import dev.h2beam.transforms.tree.Py;

/**
 * The substrate's part of every authoring prompt: what may be edited, what each component costs at run time, the
 * rules that discard a proposal, and how to hand a change back. Chosen by surface name, so the substrate enters a
 * prompt exactly once.
 */
final class Surfaces {
  private Surfaces() {}

  /** Looks up the surface or fails with the names that exist. */
  static SurfaceSpec of(String surfaceName) {
    if (SurfaceSpec.OPENCODE.name().equals(surfaceName)) return SurfaceSpec.OPENCODE;
    if (SurfaceSpec.CODEX.name().equals(surfaceName)) return SurfaceSpec.CODEX;
    throw new IllegalArgumentException(
        "unknown surface '" + surfaceName + "': prompts exist for 'opencode' and 'codex' only");
  }

  /** The tool-loop lever of a surface, in a few words, for the INV dimension blocks. */
  static String loopLever(String surfaceName) {
    return of(surfaceName) == SurfaceSpec.OPENCODE
        ? "a hook in `plugin/<name>.ts`"
        : "a command hook in `.codex/hooks.json`";
  }

  /** The "# WHAT YOU CAN CHANGE" block with its discard rules and "# HOW TO MAKE A CHANGE". */
  static String adapt(BenchPrompts bp, String surfaceName) {
    SurfaceSpec s = of(surfaceName);
    String body = s == SurfaceSpec.OPENCODE ? OPENCODE : CODEX;
    return Blocks.fill(body.replace("{cap}", Py.commas(s.alwaysOnMax())), bp)
        + "\n\n" + discardRules(bp, s) + "\n\n" + HOW_TO_CHANGE;
  }

  /** The terser surface block of the "tts" prompt pack, numbered by component, ending in the same shared rules. */
  static String tts(BenchPrompts bp, String surfaceName) {
    SurfaceSpec s = of(surfaceName);
    String body = s == SurfaceSpec.OPENCODE ? TTS_OPENCODE : TTS_CODEX;
    return Blocks.fill(body.replace("{cap}", Py.commas(s.alwaysOnMax())), bp)
        + "\n\n" + discardRules(bp, s) + "\n\n" + HOW_TO_CHANGE;
  }

  private static String discardRules(BenchPrompts bp, SurfaceSpec s) {
    boolean oc = s == SurfaceSpec.OPENCODE;
    String triggerHome = oc ? "`systemprompt.md` or `guardrails.md`" : "`AGENTS.md`";
    String helperHome = oc ? "`skills/<name>/scripts/`" : "`.agents/skills/<name>/scripts/`";
    String rules = """
        # THREE MISTAKES THAT THROW AWAY THE WHOLE PROPOSAL

        1. A skill with no trigger. Each skill needs a line in {trigger_home} that names it word for word, added \
        in the same edit as the skill.
        2. Template syntax in always-on text. Jinja-style `{{ ... }}` and `{% ... %}` must not appear in any \
        always-on file.
        3. A script that is mentioned but missing. Any script a file tells the agent to run must ship in the \
        harness; a skill's helpers go under {helper_home}.

        The shape of the {deliverable} is set by the request. A harness changes how the agent works, never what \
        form its {deliverable} takes: if the request asks for values, the values must be delivered as values.""";
    return Blocks.fill(rules.replace("{trigger_home}", triggerHome).replace("{helper_home}", helperHome), bp);
  }

  static final String HOW_TO_CHANGE = """
      # HOW TO MAKE A CHANGE

      - The harness lives in `context/harness/`. Edit it there, in place, with your usual file tools: whatever is \
      on disk when you reply is your proposal.
      - Files you leave alone are carried over unchanged. To remove a component, delete its file.
      - If the evidence supports no change, leave the files untouched and put KEEP_BASE in your notes.
      - Reply with one `<notes>` block and nothing else. In it, give for every change the trajectory moment that \
      prompted it. The notes are for people reading the run later; nothing in them is applied.""";

  private static final String OPENCODE = """
      # WHAT YOU CAN CHANGE

      | path | what it holds | what it costs at run time |
      |---|---|---|
      | `systemprompt.md` | the agent's role and standing instructions | always on: read on every turn |
      | `guardrails.md` | firm rules and skill trigger lines | always on |
      | `LongTermMEMORY.md` | short facts true across the {domain_word} | always on |
      | `tool_descriptions/tool_guidance.md` | how to use the tools well | always on |
      | `skills/<name>/SKILL.md` (+ `skills/<name>/scripts/`) | a procedure for one situation | \
      on demand: loaded when its trigger fires |
      | `scripts/<name>.sh` or `scripts/<name>.py` | a helper the agent runs | \
      on demand: only its output enters the context |
      | `sub_agents/<name>/AGENT.md` | a helper agent for a bounded sub-task | its own context window |
      | `plugin/<name>.ts` | code that runs inside the tool loop | no prompt cost; acts on every tool call |

      Three components are easy to get wrong:
      - Skill: front matter with `name: <name>` matching its directory and a `description:` line; a trigger line in \
      an always-on file; helpers inside the skill's own `scripts/` folder so they travel with it.
      - Sub-agent: front matter with `mode: subagent` and a `description:` line. Worth it only when a sub-task reads \
      a lot and returns a little.
      - Plugin: runs inside the tool loop, so it is the one lever that enforces instead of advising. It must never \
      stop a valid completion.

      Always-on prose is the expensive option: every line of it is paid for on every turn, and the four always-on \
      files share a cap of {cap} characters. Reach for components in this order: skill, then script, then \
      sub-agent, then plugin, and always-on text last. If you add always-on text, cut something to make room.""";

  private static final String CODEX = """
      # WHAT YOU CAN CHANGE

      | path | what it holds | what it costs at run time |
      |---|---|---|
      | `AGENTS.md` | the only always-on file: role, standing rules, skill trigger lines | \
      always on, capped at {cap} characters; never empty it or delete it |
      | `.agents/skills/<name>/SKILL.md` (+ `.agents/skills/<name>/scripts/`) | a procedure for one situation | \
      on demand: read when its trigger fires |
      | `scripts/<name>.sh` or `scripts/<name>.py` | a helper the agent runs | \
      on demand: only its output enters the context |
      | `sub_agents/<name>/AGENT.md` | a helper agent for a bounded sub-task | its own context window |
      | `.codex/hooks.json` | lifecycle hooks that run commands | no prompt cost; acts on the events it hooks |

      Three components are easy to get wrong:
      - Skill: front matter with a `description:` line (a `name:` line is optional but must match the directory); \
      a trigger line in `AGENTS.md`; helpers inside the skill's own `scripts/` folder so they travel with it.
      - Sub-agent: front matter with a `description:` line. Worth it only when a sub-task reads a lot and returns \
      a little.
      - Hook: `.codex/hooks.json` holds a top-level `hooks` object whose keys are events such as `PreToolUse`, \
      `PostToolUse` or `SessionStart`; each maps to a list of matcher entries carrying `command` hooks \
      (`{"type": "command", "command": "..."}`). A `PostToolUse` command that prints JSON with `"decision": \
      "block"` and a `"reason"` sends that reason back to the agent. Hooks are the one lever that enforces instead \
      of advising, and they must never stop a valid completion.

      Always-on prose is the expensive option: `AGENTS.md` is injected whole on every turn. Reach for components in \
      this order: skill, then script, then sub-agent, then hook, and `AGENTS.md` text last. If you add to \
      `AGENTS.md`, cut something to make room.""";

  private static final String TTS_OPENCODE = """
      # EDITABLE HARNESS SURFACE

      | component | path | notes |
      |---|---|---|
      | c1 system prompt | `systemprompt.md` | always on |
      | c3 long-term memory | `LongTermMEMORY.md` | always on; short durable facts only |
      | c4 tool guidance | `tool_descriptions/tool_guidance.md` | always on |
      | c5 sub-agents | `sub_agents/<name>/AGENT.md` | front matter `mode: subagent` and `description:` |
      | c6 guardrails | `guardrails.md` | always on; holds skill trigger lines |
      | c6 skills | `skills/<name>/SKILL.md`, helpers in `skills/<name>/scripts/` | \
      `name:` equals the directory; `description:` |
      | c7 scripts | `scripts/<name>.sh` or `scripts/<name>.py` | run by the agent; only output is seen |
      | c8 plugins | `plugin/<name>.ts` | inside the tool loop |

      The context policy (c2) belongs to the framework and cannot be edited. The always-on files (c1, c3, c4, c6 \
      guardrails) share a cap of {cap} characters.

      A plugin file exports an async factory that returns its hooks, for example \
      `export const Guard = async ({ client, $, directory }) => ({ "tool.execute.before": async (input, output) => \
      { ... } })`. Useful keys: `tool.execute.before` (inspect or refuse a call before it runs; throwing refuses \
      it), `tool.execute.after` (inspect the result), and `event` (session events such as going idle).

      Rules learned from earlier failures:
      - A plugin that throws on ordinary input breaks every run; guard each check and let valid work through.
      - Always-on text that grows each round crowds out the agent's own output; keep it tiny.
      - A skill with a broad trigger loads everywhere and helps nowhere; trigger on a situation.""";

  private static final String TTS_CODEX = """
      # EDITABLE HARNESS SURFACE

      | component | path | notes |
      |---|---|---|
      | c1 + c6 instructions | `AGENTS.md` | the only always-on file; at most {cap} characters; never empty |
      | c5 sub-agents | `sub_agents/<name>/AGENT.md` | front matter `description:` |
      | c6 skills | `.agents/skills/<name>/SKILL.md`, helpers in `.agents/skills/<name>/scripts/` | \
      `description:`; `name:` optional, equals the directory |
      | c7 scripts | `scripts/<name>.sh` or `scripts/<name>.py` | run by the agent; only output is seen |
      | c8 hooks | `.codex/hooks.json` | lifecycle commands |

      The context policy (c2) belongs to the framework and cannot be edited. Memory (c3) and tool guidance (c4) \
      live in `AGENTS.md` on this substrate.

      `.codex/hooks.json` maps events to matcher entries with command hooks: \
      `{"hooks": {"PostToolUse": [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]}}`. Useful \
      events: `PreToolUse` (before a tool runs), `PostToolUse` (after; printing `{"decision": "block", "reason": \
      "..."}` returns the reason to the agent), `SessionStart`, and `Stop`.

      Rules learned from earlier failures:
      - A hook command that fails on ordinary input breaks every run; guard each check and let valid work through.
      - Codex silently cuts `AGENTS.md` beyond 32,768 bytes; keep it far below its cap.
      - A skill with a broad trigger loads everywhere and helps nowhere; trigger on a situation.""";
}
