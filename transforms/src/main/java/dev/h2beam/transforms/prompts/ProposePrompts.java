package dev.h2beam.transforms.prompts;

import dev.h2beam.adapters.model.BenchPrompts;

/**
 * The proposal prompts (spec §9.1): one editor per dimension, INV for how the agent works and DOM for what a
 * practitioner knows. Nothing here says "candidate" unless the editor is one of several parallel draws, so the
 * sequential wording speaks only of rounds and checkpoints.
 */
final class ProposePrompts {
  private ProposePrompts() {}

  static String adapt(BenchPrompts bp, String dim, String surface, int k, int index, Integer roundT) {
    String role = "You are adapting the harness of an autonomous agent: the files that shape how it goes about one "
        + "kind of work. You are writing one proposal along a single dimension, "
        + (dim.equals("INV") ? "INV (how the agent works)." : "DOM (what a practitioner knows).");
    return Prompts.assemble(
        role,
        Blocks.work(bp),
        Blocks.lens(bp),
        dim.equals("INV") ? inv(bp, surface) : dom(bp),
        Blocks.fill(GENERALIZE, bp),
        decide(k, index, roundT),
        Blocks.yardstick(bp),
        Blocks.answerFree(),
        Blocks.boundary(),
        Surfaces.adapt(bp, surface));
  }

  static String tts(BenchPrompts bp, String dim, String surface, int k, int index) {
    String role = Blocks.fill("You are the " + (dim.equals("INV") ? "INVARIANT" : "DOMAIN")
        + " harness editor for one task in this {domain_word}. Your evidence is on disk: the task, the current "
        + "harness, the base rollouts with their trajectories and {deliverable}s, and the library of harnesses "
        + "adopted for earlier tasks.", bp);
    String draws = k > 1
        ? "You are candidate " + index + " of " + k + ", drawn independently; you are never shown the others, so "
            + "commit to the one version you can defend best."
        : "";
    return Prompts.assemble(
        role,
        Blocks.work(bp),
        Blocks.lens(bp),
        dim.equals("INV") ? ttsInv(bp) : ttsDom(bp),
        Blocks.fill(TTS_GENERALIZE, bp),
        TTS_READ_EVIDENCE,
        draws,
        Blocks.yardstick(bp),
        Blocks.answerFree(),
        Blocks.boundary(),
        Surfaces.tts(bp, surface));
  }

  private static String inv(BenchPrompts bp, String surface) {
    return Blocks.fill("""
        # DIMENSION: INV — HOW THE AGENT WORKS

        This proposal owns procedure: the order in which the agent works, how it uses its tools, and how it \
        finishes. It does not own the subject matter of the {domain_word}.
        - Follow the agent's workflow through the trajectories and find the earliest point where it goes wrong. \
        Fix that first; later trouble often follows from it.
        - Give each kind of failure to the cheapest component that can carry the fix:
          - a tool that errors: one bounded fallback, plus a clear point at which to stop retrying;
          - the same mechanical steps typed out again and again: a helper under `scripts/`;
          - a multi-step procedure that only some situations call for: an on-demand skill, with its trigger line \
        and its helpers;
          - a rule that clear prose has been shown not to enforce: a defensive lever in the tool loop ({loop_lever}), \
        written so it can never block a valid completion;
          - ordinary ordering of steps: brief always-on guidance.
        - Say what counts as enough evidence to stop gathering and start producing.
        - Keep budget in reserve for every {deliverable} the request names, and have the agent reopen and check \
        each one before it stops.""".replace("{loop_lever}", Surfaces.loopLever(surface)), bp)
        + levers(bp.invLevers())
        + "\n\nLeave rules about the subject matter alone: a parallel DOM proposal owns them.";
  }

  private static String dom(BenchPrompts bp) {
    return Blocks.fill("""
        # DIMENSION: DOM — WHAT A PRACTITIONER KNOWS

        This proposal owns the practitioner's model of the work: what the {deliverable} is and who reads it, the \
        decision it supports, the sources that govern it, how it is structured, which of its parts must agree with \
        each other, and what an expert would leave out. Turn that model into rules the agent can check:
        - an analytic move to make, a contract the artifact must meet, a rule for a recurring decision, or a \
        convention for how something is written down;
        - knowledge that applies only in some situations belongs in a skill by default, and its trigger line goes \
        in with the same edit;
        - always-on memory is only for short facts that hold everywhere in the {domain_word};
        - never store the facts of this particular matter as lasting memory.""", bp)
        + levers(bp.domLevers())
        + "\n\nTwo hard rules: never invent an authority, identifier or citation; and write knowledge that applies "
        + "here and can be checked, not background reading."
        + "\n\nDo not diagnose procedure: a parallel INV proposal owns it.";
  }

  private static String levers(String slot) {
    return slot == null || slot.isBlank() ? "" : "\n\n" + slot.strip();
  }

  private static String decide(int k, int index, Integer roundT) {
    StringBuilder b = new StringBuilder("""
        # HOW TO DECIDE

        - Every edit must trace back to a specific moment in a trajectory.
        - Take problems in this order: places where runs went different ways, then a concrete failure that \
        repeats, then a risk that is visible but has not bitten yet.
        - Do not repair what already works, and do not restate what the harness already says.""");
    if (roundT != null && roundT == 1) {
      b.append("\n- This is round 1 of ").append(k).append(". You are editing the original harness; each later round ")
          .append("edits the checkpoint the round before it produced, so what you propose here is built on, not ")
          .append("final. KEEP_BASE means keeping the harness as it is.");
    } else if (roundT != null) {
      b.append("\n- This is round ").append(roundT).append(" of ").append(k).append(". You are editing the checkpoint ")
          .append("the previous round produced, not the original harness, and the evidence includes the proposals, ")
          .append("checkpoints and rollouts of earlier rounds. KEEP_BASE here means keeping that checkpoint as it is.");
    } else if (k > 1) {
      b.append("\n- You are candidate ").append(index).append(" of ").append(k).append(", drawn independently of ")
          .append("the others.");
    }
    b.append("\n- Commit to one version you can defend; a later stage merges the proposals.");
    return b.toString();
  }

  private static final String GENERALIZE = """
      # GROUND IT IN THIS WORKSPACE, SHAPE IT FOR THE {DOMAIN_WORD}

      - A fact you have verified in this workspace is the most valuable thing you can encode. Write the fact \
      itself, and label it as a fact about this workspace.
      - Write procedure at the level of the {domain_word}, not of this one task: the harness that is adopted \
      becomes an example in a library that later tasks learn from.
      - `context/library/`, when it is present, holds the finished harnesses of earlier tasks. They are examples \
      only and will not be on disk when the agent runs. To reuse a component, copy it into `context/harness/` and \
      check its facts again here; a skill that calls a library path you did not copy fails validation.
      - A named component (a skill, a script, a sub-agent) does more than the same idea written as prose.""";

  private static String ttsInv(BenchPrompts bp) {
    return """
        # INVARIANT: THE MACHINERY

        You edit machinery: tool guidance, scripts, sub-agents, the tool-loop lever, and short imperative rules \
        that hold everywhere. Test every edit by asking whether it would still make sense for a task on a \
        different subject. If it would not, it is not yours to make."""
        + levers(bp.invLevers());
  }

  private static String ttsDom(BenchPrompts bp) {
    return Blocks.fill("""
        # DOMAIN: THE KNOWLEDGE

        You edit knowledge: durable facts that hold across the {domain_word}, and skills scoped to a situation, \
        each with a narrow trigger that names that situation. Test every edit by asking whether it would help just \
        as much in a different {domain_word}. If it would, it is not domain knowledge.

        A skill earns its place when it gives mechanics (steps the agent can carry out), rests only on what the \
        evidence shows, never presumes what the question will be, and fires on a situation rather than a topic.""",
        bp) + levers(bp.domLevers());
  }

  private static final String TTS_GENERALIZE = """
      # GENERALIZE, DO NOT MEMORIZE

      Encode procedure that will be reused; the specifics of this task belong in your notes, not in the harness. \
      The library holds complete harnesses adopted for earlier tasks in this {domain_word}. To reuse a component, \
      copy it together with its scripts into `context/harness/`, then verify it again against this workspace.""";

  private static final String TTS_READ_EVIDENCE = """
      # HOW TO READ THE EVIDENCE

      The base rollouts are replicates: the same harness on the same task. What varies between them is the signal. \
      Find the points where they go different ways, and cite those moments for every edit you make.""";
}
