package dev.h2beam.pipelines.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * harness2's printable summary block (spec §13.2): the title and its rule, one line per (mode, k) sorted by
 * (k, mode), then the k=1 noise-floor note and the warnings, each after an empty line, with harness2's wording and
 * thresholds: own final chosen on at most 25% of graded tasks, a reference output chosen on at least 80%, any
 * fell-back stage, more than one scoring unit.
 */
final class Render {
  private Render() {}

  static final double OWN_FINAL_AT_MOST = 0.25;
  static final double BASE_PICKED_AT_LEAST = 0.8;

  /**
   * @param summaries in harness2's order, (mode, k)
   * @param withheld summaries whose figures are one task's score and must not be released
   */
  static List<String> block(List<Summary> summaries, String title, String bench, Predicate<Summary> withheld) {
    List<String> lines = new ArrayList<>();
    if (!title.isEmpty()) {
      lines.add(title);
      lines.add("=".repeat(Math.max(40, title.length())));
    }
    summaries.stream().sorted((a, b) -> ModeK.BY_K_THEN_MODE.compare(a.cell(), b.cell()))
        .forEach(s -> lines.add(s.line(bench, withheld.test(s))));

    Map<String, Summary> at1 = new TreeMap<>();
    for (Summary s : summaries) if (s.cell().k() == 1 && s.score() != null) at1.put(s.cell().mode(), s);
    if (at1.containsKey("agg") && at1.containsKey("seq")) {
      lines.add("");
      lines.add("  NOTE  at k=1 the parallel and sequential modes are the same procedure (one INVARIANT draw, one"
          + " DOMAIN draw, one composition).");
      if (withheld.test(at1.get("agg")) || withheld.test(at1.get("seq"))) {
        lines.add("        The gap between them is withheld (one of them is a single task's score); it is a NOISE"
            + " FLOOR, not a result -- an effect at k>=2 has to clear it.");
      } else {
        double gap = Math.abs(at1.get("agg").score() - at1.get("seq").score());
        lines.add("        The " + PyFormat.fixed(gap, 0, 2) + " pt between them is therefore a NOISE FLOOR, not a"
            + " result -- an effect at k>=2 has to clear it.");
      }
    }
    for (Summary s : summaries) {
      if (s.n() > 0 && s.choseFinal() <= OWN_FINAL_AT_MOST * s.n()) {
        lines.add("");
        lines.add("  WARNING  " + s.name() + ": the mode's own final was chosen on only " + s.choseFinal() + "/"
            + s.n() + " tasks. These records include outputs outside the published pool of " + s.cell().k()
            + " composed finals.");
      }
    }
    for (Summary s : summaries) {
      if (s.n() > 0 && s.keptBase() >= BASE_PICKED_AT_LEAST * s.n()) {
        lines.add("");
        lines.add("  WARNING  " + s.name() + ": selection chose a reference output on " + s.keptBase() + "/" + s.n()
            + " tasks, outside the published pool of composed outputs.");
      }
    }
    for (Summary s : summaries) {
      if (s.fellBack() > 0) {
        lines.add("");
        lines.add("  WARNING  " + s.name() + ": " + s.fellBack() + " stage(s) fell back to the inherited harness."
            + " Inspect the stage errors when interpreting these results.");
      }
    }
    for (Summary s : summaries) {
      if (s.metrics().size() > 1) {
        lines.add("");
        lines.add("  WARNING  " + s.name() + ": graded rows carry MIXED scoring units (" + String.join(", ",
            s.metrics()) + "). The score averages weighted points with unweighted criteria counts (about 20 pt"
            + " apart on JobBench); re-judge the fallback rows before comparing this line with any published"
            + " number.");
      }
    }
    return lines;
  }

  /**
   * The lessons screened out of the library per cell (an instruction override, a chat-template control token or a
   * credential in the reflector's lesson); nothing when none was.
   */
  static List<String> screened(Map<ModeK, Integer> byCell) {
    List<String> lines = new ArrayList<>();
    if (byCell.isEmpty()) return lines;
    lines.add("");
    StringBuilder sb = new StringBuilder("  lessons screened out of the library (instruction overrides, chat-template"
        + " control tokens or credentials; see lesson_screened in the selection records):");
    byCell.forEach((cell, n) -> sb.append(" ").append(cell.name()).append(": ")
        .append(n).append(';'));
    lines.add(sb.substring(0, sb.length() - 1));
    return lines;
  }

  /**
   * The base rollouts of the reported namespaces' tasks whose every base failed (summary status {@code base-failed}):
   * no mode ran them to its end, so no mode's ledger, and no mode's spend, holds what they cost.
   *
   * @param tasks how many such tasks there are
   * @param usd what is known of their dead bases' cost
   * @param unknown the dead bases whose cost {@code usd} does not hold all of
   * @param tokens their model tokens, with how many dead bases' counts are partial or not recorded
   */
  record DeadBaseSpend(int tasks, double usd, int unknown, TaskSummary.TokenCount tokens) {
    /** No task whose every base failed: nothing to say. */
    static final DeadBaseSpend NONE = new DeadBaseSpend(0, 0.0, 0);

    /** Dead bases whose tokens are not looked at. */
    DeadBaseSpend(int tasks, double usd, int unknown) {
      this(tasks, usd, unknown, TaskSummary.TokenCount.NONE);
    }

    /** These and one more task's dead bases. */
    DeadBaseSpend plus(TaskSummary.DeadBases task) {
      return new DeadBaseSpend(tasks + 1, usd + task.usd(), unknown + task.unknown(), tokens.plus(task.tokens()));
    }

    /** These and {@code other}'s, of other tasks. */
    DeadBaseSpend plus(DeadBaseSpend other) {
      return new DeadBaseSpend(tasks + other.tasks, usd + other.usd, unknown + other.unknown,
          tokens.plus(other.tokens));
    }
  }

  /** {@link #spend(double, double, int, int)} with every cost known. */
  static List<String> spend(double improver, double executor) {
    return spend(improver, executor, 0, 0);
  }

  /** {@link #spend(double, double, int, int, DeadBaseSpend)} without a task whose every base failed. */
  static List<String> spend(double improver, double executor, int improverUnknown, int executorUnknown) {
    return spend(improver, executor, improverUnknown, executorUnknown, DeadBaseSpend.NONE);
  }

  /**
   * The spend lines after the block: harness2's improver line when the reported modes spent anything, and h2beam's
   * executor line when an executor reported a cost; each group after an empty line. A line is printed too when
   * some of its costs are not known ({@code improverUnknown} stages and selections, {@code executorUnknown}
   * rollouts): the amount is what is known, and the line says how many were left out of it, so that a cost not known
   * never reads as $0. Then, when some reported task's every base failed ({@code dead}), h2beam's line for what
   * those dead bases cost, which is in neither line above (it is no mode's spend), with how many of them have a cost
   * not known. With every cost known and no such task, the lines are harness2's.
   */
  static List<String> spend(double improver, double executor, int improverUnknown, int executorUnknown,
      DeadBaseSpend dead) {
    return spend(improver, executor, improverUnknown, executorUnknown, dead, false);
  }

  /**
   * The same; with {@code overModes} (the executor line sums more than one mode), a note under the executor line that
   * each shared base rollout is in that sum once per mode, as every mode's ledger holds it (R = 4k counts it), though
   * it ran, and was paid for, once.
   */
  static List<String> spend(double improver, double executor, int improverUnknown, int executorUnknown,
      DeadBaseSpend dead, boolean overModes) {
    List<String> lines = new ArrayList<>();
    boolean showImprover = improver != 0 || improverUnknown > 0;
    boolean showExecutor = executor != 0 || executorUnknown > 0;
    // a task whose every base failed is disclosed even when its bases cost a known $0: the line says it exists
    boolean showDead = dead.tasks() > 0;
    if (showImprover || showExecutor || showDead) lines.add("");
    if (showImprover) {
      lines.add("  improver (editors, composer, selection, reflection) spend across reported modes: "
          + dollars(improver) + notKnown(improverUnknown, "stage(s) or selection(s)"));
    }
    if (showExecutor) {
      lines.add("  executor (rollouts) spend across reported modes: " + dollars(executor)
          + notKnown(executorUnknown, "rollout(s)"));
      if (overModes) {
        lines.add("    (each mode's ledger holds its tasks' k shared base rollouts, as the budget R = 4k counts them,"
            + " so this sum over modes counts each base rollout once per mode; each ran, and was paid for, once)");
      }
    }
    if (showDead) lines.add(deadBases(dead));
    return lines;
  }

  /**
   * {@code base rollouts of 1 task(s) whose every base failed (in no mode's ledger): $0.30, and 1 rollout(s) whose
   * cost is not known (not counted, not zero)}: the spend line of the tasks whose every base failed.
   */
  static String deadBases(DeadBaseSpend dead) {
    return "  base rollouts of " + dead.tasks() + " task(s) whose every base failed (in no mode's ledger): "
        + dollars(dead.usd()) + notKnown(dead.unknown(), "rollout(s)");
  }

  /**
   * An amount in dollars to the cent, as summed from the records and rounded once here; a known amount above zero
   * that rounds to no cent is {@code <$0.01}, never {@code $0.00} (a cheap model's whole sweep can cost less).
   */
  static String dollars(double usd) {
    return usd > 0 && usd < 0.005 ? "<$0.01" : "$" + PyFormat.fixed(usd, 0, 2);
  }

  /**
   * h2beam's lines of the model tokens each reported cell spent (every rollout, bases included, and every improver,
   * selector and reflector session of it), after the spend lines: with a local model every cost is a known $0 and
   * the tokens are what the modes' work shows. The counts are those recorded; a cell whose tasks' counts are partial,
   * or not recorded, says how many, so a part never reads as the whole. Then, when some reported task's every base
   * failed ({@code dead}) and they counted tokens, a line for those dead bases, which are in no mode's counts. Nothing
   * when nothing counted a token or left one out (the demo's scripted work, harness2's files): the report is then as
   * before.
   */
  static List<String> tokens(Map<ModeK, TaskSummary.TokenCount> byCell, DeadBaseSpend dead) {
    List<String> lines = new ArrayList<>();
    if (!saysTokens(byCell) && !dead.tokens().says()) return lines;
    lines.add("");
    lines.add("  model tokens per mode (every rollout, bases included, and every improver, selector and reflector"
        + " session):");
    byCell.forEach((cell, c) -> lines.add("    " + cell.name() + ": " + counts(c, "task(s)")));
    if (dead.tokens().says()) {
      lines.add("    base rollouts of " + dead.tasks() + " task(s) whose every base failed (in no mode's ledger): "
          + counts(dead.tokens(), "rollout(s)"));
    }
    return lines;
  }

  /** {@code 1300 in, 24 out}, then how many of {@code what} are partly counted or not recorded, as they apply. */
  static String counts(TaskSummary.TokenCount c, String what) {
    return c.input() + " in, " + c.output() + " out"
        + (c.partial() == 0 ? "" : "; " + c.partial() + " " + what + " not all counted (the part counted, not the"
            + " whole)")
        + (c.notRecorded() == 0 ? "" : "; " + c.notRecorded() + " " + what + " record none (not counted, not zero)");
  }

  /** Whether some cell counted a token or left one out: the report then says each cell's ({@link #tokens}). */
  static boolean saysTokens(Map<ModeK, TaskSummary.TokenCount> byCell) {
    return byCell.values().stream().anyMatch(TaskSummary.TokenCount::says);
  }

  /** What a spend line adds for {@code n} of its {@code what} whose cost is not known; nothing when none. */
  static String notKnown(int n, String what) {
    return n == 0 ? "" : ", and " + n + " " + what + " whose cost is not known (not counted, not zero)";
  }
}
