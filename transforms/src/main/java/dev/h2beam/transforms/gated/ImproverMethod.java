package dev.h2beam.transforms.gated;

import dev.h2beam.transforms.safety.Fence;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The default gated method: the improver role proposes one edit from the samples, the rejected history and the
 * last step's failures (each fenced as untrusted data), editing the harness files in place through whichever channel
 * the sweep uses (the model channel's block format, an agent's tools); episodes are scored by the task's
 * {@code checks/} ({@link Checks}).
 */
public final class ImproverMethod implements GatedMethod {
  public static final String NAME = "improver";

  /** How much of each sample's deliverable and trajectory the prompt quotes. */
  static final int SAMPLE_CHARS = 1500;

  @Override public String name() {
    return NAME;
  }

  @Override public String description() {
    return "the improver role proposes one edit per step from the samples and the rejected history; the task's"
        + " checks/ score the episodes";
  }

  @Override public Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models,
      List<Rejection> rejected, Manifest manifest) throws Exception {
    Models.Edit edit;
    try {
      edit = models.improver(job(samples, rejected, manifest));
    } catch (Models.SessionFailed e) {
      return Proposal.none((e.refused() ? "the improver's edit was refused: " : "the improver session failed: ")
          + e.getMessage());
    }
    List<Mutation> mutations = Mutation.diff(TreeEntry.tree(tree), TreeEntry.tree(edit.tree()));
    return mutations.isEmpty() ? Proposal.none("the session left the harness as it was") : Proposal.of(mutations,
        edit.notes());
  }

  @Override public OptionalDouble evaluate(GateTask task, Episode episode) throws Exception {
    return Checks.score(task, episode);
  }

  /** The session's job: one edit, from what the samples show and what the gate already refused. */
  static String job(List<Sample> samples, List<Rejection> rejected, Manifest manifest) {
    StringBuilder t = new StringBuilder();
    t.append("# YOUR JOB (gated improvement, one proposal)\n\n")
        .append("Propose ONE focused edit to the harness in `context/harness/` (edit the files in place). A gate will"
            + " run the edited harness on this task and keep it only if the task's own checks score it better than"
            + " the current harness, so change one thing you expect to fix what the samples show. Do not re-propose"
            + " an edit the gate already refused.\n\n");
    t.append("## Recent episodes (scores are the task's checks, 1 = passed)\n\n");
    if (samples.isEmpty()) t.append("(none)\n\n");
    for (Sample s : samples) {
      String score = s.score() == null ? "could not run" : String.format(Locale.ROOT, "%.3f", s.score());
      t.append("### ").append(s.label()).append(" (harness ").append(s.harness()).append(", score ").append(score)
          .append(")\n\n")
          .append(Fence.untrusted("deliverable of " + s.label(), clip(s.deliverable()))).append("\n\n")
          .append(Fence.untrusted("trajectory of " + s.label(), clip(s.trajectory()))).append("\n\n");
    }
    t.append("## Proposals the gate refused (oldest first)\n\n");
    if (rejected.isEmpty()) t.append("(none)\n\n");
    for (Rejection r : rejected) {
      StringBuilder m = new StringBuilder();
      for (Mutation mu : r.mutations()) {
        m.append(mu.op().name().toLowerCase(Locale.ROOT)).append(' ').append(mu.path()).append('\n');
        if (mu.text() != null) m.append(clip(mu.text())).append('\n');
      }
      t.append("### step ").append(r.step()).append("\n\n")
          .append(Fence.untrusted("refused mutations of step " + r.step(), m.toString())).append("\n\n")
          .append(Fence.untrusted("why step " + r.step() + " was refused", r.reason())).append("\n\n");
    }
    if (!manifest.failures().isEmpty()) {
      t.append("## What failed in step ").append(manifest.step()).append("\n\n")
          .append(Fence.untrusted("failures of step " + manifest.step(), String.join("\n", manifest.failures())))
          .append("\n\n");
    }
    return t.toString();
  }

  private static String clip(String s) {
    String v = s == null ? "" : s;
    return v.length() <= SAMPLE_CHARS ? v : v.substring(0, SAMPLE_CHARS) + "\n[... clipped]";
  }
}
