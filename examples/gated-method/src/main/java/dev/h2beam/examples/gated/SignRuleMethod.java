package dev.h2beam.examples.gated;

import dev.h2beam.transforms.gated.Checks;
import dev.h2beam.transforms.gated.Episode;
import dev.h2beam.transforms.gated.GateTask;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Models;
import dev.h2beam.transforms.gated.Mutation;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.TreeEntry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A gated method that reaches no model, for the demo's ledger tasks (whose base script drops credits): after a
 * failing sample it tries, in order, the cheapest fix first, a rule in {@code guardrails.md} saying to count credits,
 * then the script itself without its positive-only filter, skipping each fix that is already in the harness or that
 * the gate has refused; once every recent sample passed it proposes nothing.
 *
 * <p>Seed 003's "complete method", in Java: a deterministic {@code propose}, and an {@code evaluate} that is the
 * task's own {@code checks/} ({@link Checks}). It is stateless, so one instance may serve every task and thread.
 */
public final class SignRuleMethod implements GatedMethod {
  /** The {@code --method} name. */
  public static final String NAME = "sign-rule";

  /** The rules file the first fix edits (one of the demo harness's always-on files). */
  static final String RULES = "guardrails.md";

  /** The rule the first fix adds. */
  static final String RULE = "Count credits: a negative amount is a refund or a credit and belongs in the total;"
      + " never leave it out.\n";

  /** The script the second fix edits, and the filter it removes (the demo's deliberate bug). */
  static final String SCRIPT = "scripts/summarize.sh";

  static final String POSITIVE_ONLY = "if (amount > 0) ";

  @Override public String name() {
    return NAME;
  }

  @Override public String description() {
    return "example, no model: adds a count-credits rule, then (once the gate refused it) drops the script's"
        + " positive-only filter; the task's checks/ score the episodes";
  }

  /** Scores with {@code checks/}, so the sweep refuses a benchmark whose tasks have none before anything runs. */
  @Override public boolean needsChecks() {
    return true;
  }

  /**
   * The first fix still worth trying after a failing sample, or none.
   *
   * @param tree the current harness, (path, text) in order: read to build each fix and to see whether it is in
   * @param samples the current harness's episodes (and the last rejected candidate's), with this method's scores
   * @param models never called: this method needs no model, so its steps spend no session cost
   * @param rejected the recent refused proposals with the text they carried: a fix found there is not proposed again
   * @param manifest what failed last step; unused here (the samples' scores say enough)
   */
  @Override public Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models,
      List<Rejection> rejected, Manifest manifest) {
    // a null score is an episode that could not run or be scored: treat it as a failure, not a pass
    if (samples.stream().allMatch(s -> s.score() != null && s.score() >= 1.0)) {
      return Proposal.none("every recent sample passed its checks");
    }
    Map<String, String> files = TreeEntry.tree(tree);
    for (Optional<Mutation> fix : List.of(rule(files), script(files))) {
      if (fix.isEmpty()) continue; // already in the harness
      Mutation m = fix.get();
      if (refused(m, rejected)) continue; // the gate saw exactly this and kept the current harness
      return Proposal.of(List.of(m), m.path().equals(RULES) ? "a sample failed: tell the agent to count credits"
          : "a sample failed and the rule alone was refused: the script itself drops credits");
    }
    return Proposal.none("a sample failed, but every fix this method knows is in the harness or was refused");
  }

  @Override public OptionalDouble evaluate(GateTask task, Episode episode) throws Exception {
    return Checks.score(task, episode);
  }

  /** Appends {@link #RULE} to the rules file (creating it when absent); empty when the rule is already there. */
  static Optional<Mutation> rule(Map<String, String> files) {
    String text = files.get(RULES);
    if (text == null) return Optional.of(Mutation.create(RULES, RULE));
    if (text.contains(RULE)) return Optional.empty();
    String rules = text.isEmpty() || text.endsWith("\n") ? text + RULE : text + "\n" + RULE;
    return Optional.of(Mutation.update(RULES, rules));
  }

  /** The script without its positive-only filter; empty when there is no script or no filter to remove. */
  static Optional<Mutation> script(Map<String, String> files) {
    String text = files.get(SCRIPT);
    if (text == null || !text.contains(POSITIVE_ONLY)) return Optional.empty();
    return Optional.of(Mutation.update(SCRIPT, text.replace(POSITIVE_ONLY, "")));
  }

  /**
   * Whether the gate already refused this mutation: same op, path and text. Comparing the text, not only the path,
   * lets a different edit of the same file through.
   */
  static boolean refused(Mutation m, List<Rejection> rejected) {
    return rejected.stream().anyMatch(r -> r.mutations().contains(m));
  }
}
