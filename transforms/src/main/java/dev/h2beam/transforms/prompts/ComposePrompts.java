package dev.h2beam.transforms.prompts;

import dev.h2beam.adapters.model.BenchPrompts;

/**
 * The composition prompts (spec §9.2, §9.3): a parallel composer that builds one final harness from the base
 * rollouts and every proposal, and a sequential composer that turns one round's proposals into the next checkpoint.
 */
final class ComposePrompts {
  private ComposePrompts() {}

  static String aggregate(BenchPrompts bp, String surface, int k, int index) {
    String have = """
        # WHAT YOU HAVE

        - {k} base rollout(s) of the current harness.
        - {n} candidates, {k} INV and {k} DOM, each rolled out once with its edits applied.
        - The candidates came from the same kind of model reading the same evidence, so they share its blind spots. \
        Agreement among them is support, not proof; where they contradict each other, look closer."""
        .replace("{n}", Integer.toString(2 * k)).replace("{k}", Integer.toString(k));
    return Prompts.assemble(
        "You are composing the final harness for this task from the proposals made so far. What you produce is "
            + "adopted as it stands and may enter the library that later tasks learn from. Every rule that binds "
            + "the proposers binds you too, and you are the last check before adoption.",
        Blocks.work(bp),
        Blocks.lens(bp),
        have,
        WEIGH,
        JOB + (k > 1 ? "\n\n" + Blocks.independentComposer(k) : ""),
        Blocks.yardstick(bp),
        Blocks.answerFree(),
        Blocks.boundary(),
        Surfaces.adapt(bp, surface),
        Blocks.notesFormat(k));
  }

  static String aggregateTts(BenchPrompts bp, String surface, int k, int index) {
    return Prompts.assemble(
        "You are the integration reviewer and synthesizer for this task: you weigh every proposed edit against "
            + "the base harness and then build the one harness that will be adopted.",
        Blocks.work(bp),
        Blocks.lens(bp),
        Blocks.fill(TTS_EVIDENCE_MAP, bp),
        TTS_JOB + (k > 1 ? "\n\n" + Blocks.independentComposer(k) : ""),
        Blocks.yardstick(bp),
        Blocks.answerFree(),
        Blocks.boundary(),
        Surfaces.tts(bp, surface),
        Blocks.notesFormat(k));
  }

  static String round(BenchPrompts bp, String surface, int t, int k) {
    StringBuilder have = new StringBuilder("""
        # WHAT YOU HAVE

        - The base rollouts: shared evidence that stays the same in every round.
        - This round's INV and DOM candidates, each with its rollout.""");
    if (t == 1) {
      have.append("\n\nThis is the first round: apart from the base rollouts, only this round's two candidates ")
          .append("exist so far.");
    } else {
      have.append("\n- Every earlier round's candidates, checkpoints and trajectories.")
          .append("\n- The previous checkpoint's own rollout: on-policy evidence about the harness you are changing.");
    }
    String goal = t >= k
        ? "This is the last round. Compose THE FINAL harness, drawing on the whole history."
        : "Compose checkpoint " + t + ", which the next round will start from.";
    String job = "# YOUR JOB\n\n" + goal + """


        Any of these is a valid answer:
        - merge edits across rounds, including a candidate rejected earlier that new evidence now supports;
        - reproduce an earlier checkpoint exactly;
        - adopt this round's best candidate;
        - KEEP_BASE, which here means keeping the current checkpoint, not the original harness.

        Your notes must say which rounds' edits survive, which are dropped and which are restored.""";
    return Prompts.assemble(
        "You are composing checkpoint " + t + " of " + k + " in a sequential adaptation loop: each round proposes "
            + "edits to the current checkpoint, and you decide what the next checkpoint is.",
        Blocks.work(bp),
        Blocks.lens(bp),
        have.toString(),
        job,
        Blocks.answerFree(),
        Blocks.boundary(),
        Surfaces.adapt(bp, surface));
  }

  private static final String WEIGH = """
      # HOW TO WEIGH THE EVIDENCE

      - Read the base rollouts together, as draws from one distribution. A failure that repeats across them is the \
      strongest signal you have; a defect that shows up in only one of several is probably noise.
      - A single candidate rollout is weak evidence, for or against.
      - Name the trajectory moment behind every decision.
      - Weigh what an edit could break as heavily as what it could fix.
      - Any edit tied to a rollout that produced nothing is unsafe unless the support for it is overwhelming. \
      Call out every such edit in your notes, whatever you decide about it.""";

  private static final String JOB = """
      # YOUR JOB

      Produce one harness. You may merge edits from several candidates, resolving where they overlap; adopt one \
      candidate whole; or answer KEEP_BASE, which is a real answer when nothing has earned its place.""";

  private static final String TTS_EVIDENCE_MAP = """
      # WHERE THE EVIDENCE IS

      - `context/task.md`: the request.
      - `context/harness/`: the base harness.
      - `context/rollouts/`: the base rollouts' trajectories.
      - `context/deliverables/`: what each base rollout produced.
      - `context/pool/<label>/`: one folder per candidate, with its `harness/`, its `harness.diff` against the \
      base, its `rollout.md` and its `produced.md`.
      - `context/library/`, when present: harnesses adopted for earlier tasks in this {domain_word}.""";

  private static final String TTS_JOB = """
      # YOUR JOB

      First, review each edit against the base: did it help, hurt, or change nothing? The user's request is the \
      yardstick. A skill that was never loaded, or a rule the agent ignored, changed nothing.

      Then synthesize one harness: keep always-on text tiny and triggers narrow. Adopting a single candidate whole \
      is allowed, and KEEP_BASE is a valid answer.""";
}
