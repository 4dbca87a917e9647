package dev.h2beam.transforms.prompts;

import dev.h2beam.adapters.model.BenchPrompts;

/**
 * The reflector prompt (spec §9.5): from the full record of one improvement round, one row per edited component and
 * at most one lesson that transfers to later tasks of the same domain.
 */
final class ExperiencePrompt {
  private ExperiencePrompt() {}

  static String of(BenchPrompts bp) {
    return Prompts.assemble(
        Blocks.fill("You are reading the complete record of one round of harness improvement in order to write two "
            + "records: a row for every edit that was tried, and at most one lesson that carries over to later tasks "
            + "in this {domain_word}, for the {domain_word} library.", bp),
        Blocks.work(bp),
        Blocks.lens(bp),
        NOT_ONLY_EVIDENCE,
        EACH_EDIT,
        ONE_LESSON,
        Blocks.answerFree(),
        Blocks.boundary(),
        OUTPUT);
  }

  private static final String NOT_ONLY_EVIDENCE = """
      # THE ADOPTED CANDIDATE IS NOT THE ONLY EVIDENCE

      The selection compared finished deliverables with the harnesses hidden. It tells you which output read best, \
      not which edit worked. A candidate that was passed over may hold the edit that helped. Read the \
      trajectories; do not lean on the choice.""";

  private static final String EACH_EDIT = """
      # WHAT EACH EDIT DID

      Diff every candidate against `context/base_harness/`. Write one row per changed component: what changed, \
      what the agent did differently when it ran, and a verdict of `helped`, `hurt`, `no observed effect` or \
      `confounded`. Prefer `confounded` when several components changed together or when a single rollout is all \
      the support there is. Cite the run and the point in its trajectory. When candidates changed the same \
      component in different ways, describe each form.""";

  private static final String ONE_LESSON = """
      # THE ONE LESSON THAT TRANSFERS

      Write at most one lesson.
      - `cue`: the shape of the situation in which it applies.
      - `lesson`: an operation on a harness that names the component it touches; neither so general that it says \
      nothing nor so specific that it fits only this task.
      - `evidence`: the rows above that support it. A lesson that rests only on confounded rows must be narrowed \
      until something supports it, or dropped. Being adopted proves nothing on its own.

      If no concrete contrast worth reusing exists, write the single line NO_ENTRY in place of the \
      `<experience>` block, and still write the edit rows.""";

  private static final String OUTPUT = """
      # OUTPUT FORMAT

      ```
      <edits>
      component: ...
      candidates: ...
      change: ...
      observed: ...
      verdict: helped|hurt|no observed effect|confounded
      (repeat these five lines for each changed component)
      </edits>

      <experience>
      cue: ...
      lesson: ...
      evidence: ...
      confidence: high|medium|low, and why
      </experience>
      ```

      When no lesson transfers, the single line NO_ENTRY takes the place of the whole `<experience>` block.""";
}
