package dev.h2beam.transforms.prompts;

import dev.h2beam.adapters.model.BenchPrompts;
import java.util.ArrayList;
import java.util.List;

/**
 * The blind selector prompts (spec §9.4): choose one of n anonymous answers to deliver, from the request and the
 * source material alone, and end the reply with a fenced {@code choice} block.
 */
final class SelectPrompts {
  private SelectPrompts() {}

  static String adapt(BenchPrompts bp, int n, String poolKind, String assetsNote) {
    return Prompts.assemble(
        "You are choosing which of " + n + " candidate answers to deliver to the person who made the request.",
        Blocks.work(bp),
        Blocks.lens(bp),
        anonymity(poolKind),
        lookingAt(bp, assetsNote),
        decide(bp),
        Blocks.section("WHAT CORRECTNESS MEANS FOR THIS WORK", bp.selectionChecks()),
        Blocks.answerFreeForSelector(),
        Blocks.boundaryForSelector(),
        output(6, true));
  }

  /** The "tts" selector; it ignores the lead, conformance and correctness slots by design. */
  static String tts(BenchPrompts bp, int n, String poolKind, String assetsNote) {
    return Prompts.assemble(
        "You are choosing which of " + n + " candidate ANSWERS to a workplace task to deliver.",
        Blocks.work(bp),
        anonymity(poolKind),
        lookingAt(bp, assetsNote),
        """
        # HOW TO DECIDE

        Weigh these in order: each one outweighs everything below it.
        1. COVERAGE: count the explicit asks in the request, and prefer the answer that meets the most of them.
        2. CORRECTNESS: the answer agrees with itself; where answers disagree, check against `context/source/`; \
        reject invented specifics.
        3. FIDELITY: the requested formats, names and structure; no placeholders. A truncation marker added by the \
        renderer is not a defect.

        The plainest answer may well be the best one.""",
        Blocks.answerFreeForSelector(),
        Blocks.boundaryForSelector(),
        output(5, false));
  }

  private static String anonymity(String poolKind) {
    String s = """
        # THE CANDIDATES ARE ANONYMOUS

        The ids are arbitrary and shuffled, and none of them is privileged. Candidates that are nearly identical \
        are normal: decide on the differences that matter.""";
    if (poolKind.equals("mixed")) {
      s += " Some of these outputs come from the agent's unmodified setup; choosing one of them is a valid outcome.";
    }
    return s;
  }

  private static String lookingAt(BenchPrompts bp, String assetsNote) {
    String note = assetsNote == null || assetsNote.isBlank() ? "" : " " + assetsNote.strip();
    return Blocks.fill("""
        # WHAT YOU ARE LOOKING AT

        - `context/task.md`: the request.
        - `context/source/`: the source material the request refers to.
        - `context/candidates/<id>.md`: each candidate's {deliverable}, rendered as text.""", bp) + note
        + "\n\nAssess the artifacts themselves, not how they were produced.";
  }

  private static String decide(BenchPrompts bp) {
    boolean conformance = !bp.selectionConformance().equals("value_only");
    boolean valuesTail = !bp.selectionConformance().equals("full");
    List<String> items = new ArrayList<>();
    items.add("DELIVERY: every deliverable the request names is present, at the requested path and in the "
        + "requested form, with all of its parts.");
    if (conformance) {
      items.add("CONFORMANCE: only what was asked for. Extra, renamed or reordered columns, sheets or sections are "
          + "deviations, and values the request asks for must be present as values.");
    }
    items.add("FIDELITY: check each claim against `context/source/` and reject invented specifics. Where an answer "
        + "and the source disagree, the source wins; an answer that admits the source is silent beats one that "
        + "fills the gap.");
    items.add("INTERNAL CONSISTENCY: figures, names and statements agree everywhere they appear.");
    items.add("OPERATIONAL FITNESS: whoever receives it downstream can use it as it stands.");
    items.add("FINISH: no placeholders, TODOs or broken references. A truncation marker added by the renderer is "
        + "not a defect.");
    if (valuesTail) {
      items.add("VALUES ARE VALUES: a requested number, date or name must appear as that value, not as a formula, "
          + "a description of how to get it, or a pointer to somewhere else.");
    }
    StringBuilder b = new StringBuilder("# HOW TO DECIDE\n\nWeigh these in order: each one outweighs everything "
        + "below it.\n");
    if (!bp.selectionLead().isBlank()) b.append("0. ").append(bp.selectionLead().strip()).append('\n');
    for (int i = 0; i < items.size(); i++) b.append(i + 1).append(". ").append(items.get(i)).append('\n');
    b.append("\nLength and polish are not merits in themselves.");
    return b.toString();
  }

  private static String output(int maxWhyLines, boolean conformance) {
    return """
        # OUTPUT FORMAT

        First a `<why>` block of at most {lines} lines: name the criterion that decided it and what specifically \
        cost the runner-up{field}. Then, as the very last thing in your reply, \
        a fenced block whose info string is `choice`, holding only the chosen id:

        <why>
        ...
        </why>

        ```choice
        <one of the listed ids>
        ```""".replace("{lines}", Integer.toString(maxWhyLines))
        .replace("{field}", conformance ? " (for a conformance rejection, which field)" : "");
  }
}
