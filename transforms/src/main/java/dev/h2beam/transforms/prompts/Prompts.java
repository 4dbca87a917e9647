package dev.h2beam.transforms.prompts;

import dev.h2beam.adapters.model.BenchPrompts;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The job prompts of every session the method opens (spec §9): proposal, composition, sequential checkpoint, blind
 * selection and reflection.
 *
 * <p>Benchmark text enters only through the {@link BenchPrompts} slots and the substrate only through one surface
 * block, so the same method text serves every benchmark. No prompt names a rubric, a score or a judge except to say
 * that none is present. The text is a paraphrase of the published method, not a copy (spec §21.23). Prompts are pure
 * functions of their arguments: the reply cache keys on their bytes.
 */
public final class Prompts {
  private static final Pattern EXTRA_BLANK_LINES = Pattern.compile("\\n{3,}");

  private Prompts() {}

  /**
   * The editor of one proposal along dimension {@code dim} ({@code INV} or {@code DOM}).
   *
   * @param index which of the {@code k} parallel proposals this is (the round, in sequential mode)
   * @param roundT the sequential round, or null in parallel mode. A sequential prompt speaks of rounds and the
   *     previous checkpoint and never of independent candidates (project decision on quirk §21.2), and always uses
   *     the "adapt" wording.
   */
  public static String propose(
      BenchPrompts bp, String dim, String surfaceName, int k, int index, Integer roundT) {
    if (!"INV".equals(dim) && !"DOM".equals(dim)) {
      throw new IllegalArgumentException("dim must be INV or DOM, got '" + dim + "'");
    }
    checkIndex("index", index, k);
    if (roundT != null) checkIndex("roundT", roundT, k);
    Surfaces.of(surfaceName);
    return bp.promptPack().equals("tts") && roundT == null
        ? ProposePrompts.tts(bp, dim, surfaceName, k, index)
        : ProposePrompts.adapt(bp, dim, surfaceName, k, index, roundT);
  }

  /**
   * The composer of one final harness from the base rollouts and all 2k proposals (also the sequential composer at
   * k = 1). {@code index} names the draw but does not change the text; parallel composers differ by session label.
   */
  public static String aggregate(BenchPrompts bp, String surfaceName, int k, int index) {
    checkIndex("index", index, k);
    Surfaces.of(surfaceName);
    return bp.promptPack().equals("tts")
        ? ComposePrompts.aggregateTts(bp, surfaceName, k, index)
        : ComposePrompts.aggregate(bp, surfaceName, k, index);
  }

  /** The sequential composer of checkpoint {@code t} of {@code k} (k ≥ 2; there is no "tts" variant). */
  public static String composeRound(BenchPrompts bp, String surfaceName, int t, int k) {
    if (k < 2) throw new IllegalArgumentException("composeRound needs k >= 2, got " + k + "; use aggregate at k = 1");
    checkIndex("t", t, k);
    Surfaces.of(surfaceName);
    return ComposePrompts.round(bp, surfaceName, t, k);
  }

  /**
   * The blind selector over {@code n} anonymous answers.
   *
   * @param poolKind {@code finals} (what the scheduler passes) or {@code mixed}
   * @param assetsNote a sentence about per-candidate assets, or "" when there are none
   */
  public static String select(BenchPrompts bp, int n, String poolKind, String assetsNote) {
    if (!"finals".equals(poolKind) && !"mixed".equals(poolKind)) {
      throw new IllegalArgumentException("pool_kind must be 'finals' or 'mixed', got '" + poolKind + "'");
    }
    if (n < 1) throw new IllegalArgumentException("a selection needs at least one candidate, got n = " + n);
    return bp.promptPack().equals("tts")
        ? SelectPrompts.tts(bp, n, poolKind, assetsNote)
        : SelectPrompts.adapt(bp, n, poolKind, assetsNote);
  }

  /** The reflector that writes per-edit rows and at most one transferable lesson. */
  public static String experience(BenchPrompts bp) {
    return ExperiencePrompt.of(bp);
  }

  /** Collapses runs of three or more newlines to two, trims, and ends the text with exactly one newline. */
  public static String tidy(String text) {
    // most missions hold no such run, and the pattern's search over a long one (the library, the evidence's layout)
    // cost more than a plain search for three newlines (half a percent of a sweep's CPU at L = 0, BENCHMARKS.md)
    String collapsed = text.indexOf("\n\n\n") < 0 ? text : EXTRA_BLANK_LINES.matcher(text).replaceAll("\n\n");
    return collapsed.strip() + "\n";
  }

  /** The feedback appended to a stage's mission when its previous proposal was rejected (spec §5.5). */
  public static String rejectionFeedback(String error) {
    return "\n\n# YOUR PREVIOUS ATTEMPT WAS REJECTED\n\n" + error + "\n\nFix it in `context/harness/` and reply again.";
  }

  /** Joins the non-blank sections with blank lines and tidies the result; empty optional sections disappear. */
  static String assemble(String... sections) {
    List<String> kept = new ArrayList<>();
    for (String s : sections) if (s != null && !s.isBlank()) kept.add(s.strip());
    return tidy(String.join("\n\n", kept));
  }

  private static void checkIndex(String name, int value, int k) {
    if (k < 1) throw new IllegalArgumentException("k must be >= 1, got " + k);
    if (value < 1 || value > k) {
      throw new IllegalArgumentException(name + " must be between 1 and k = " + k + ", got " + value);
    }
  }
}
