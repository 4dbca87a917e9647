package dev.h2beam.transforms.evidence;

import java.util.List;

/** The message an improver actually receives (spec §5.5): the job prompt, then where its evidence lies on disk. */
public final class Mission {
  private Mission() {}

  public static String of(String job, ContextTree tree) {
    StringBuilder sb = new StringBuilder(job.stripTrailing());
    sb.append("\n\n# YOUR EVIDENCE\n\nYour evidence is on disk under `context/`. Read it; nothing of it is"
        + " repeated here.\n\n");
    sb.append("- `context/task.md`: the task exactly as the agent received it\n");
    if (tree.sourceFiles() > 0) sb.append("- `context/source/`: the task's source material\n");
    if (tree.decisions() > 0) sb.append("- `context/decisions/`: the notes each earlier stage left\n");
    if (!tree.deliverables().isEmpty()) {
      List<String> names = tree.deliverables();
      StringBuilder shown = new StringBuilder();
      for (int i = 0; i < Math.min(6, names.size()); i++) {
        if (i > 0) shown.append(", ");
        shown.append(names.get(i)).append(".md");
      }
      if (names.size() > 6) shown.append(" (+").append(names.size() - 6).append(" more)");
      sb.append("- `context/rollouts/`: the full trajectory of every rollout: ").append(shown).append('\n');
      if (tree.deliverablesMode().equals("names")) {
        sb.append("- `context/deliverables/<label>/INDEX.md`: the names of the files each rollout produced;\n"
            + "  their contents are withheld on purpose\n");
      } else {
        sb.append("- `context/deliverables/`: what each rollout delivered, one file or folder per rollout\n");
      }
    }
    if (tree.harnessFiles() > 0) {
      sb.append("- `context/harness/`: the harness you are working from (").append(tree.harnessFiles())
          .append(" files)\n");
    }
    if (!tree.pool().isEmpty()) {
      sb.append("- `context/pool/`: ").append(tree.pool().size())
          .append(" candidate(s), each with `harness/`, `harness.diff`, `rollout.md` and `produced.md`\n");
    }
    if (tree.library()) {
      sb.append("- `context/library/`: harnesses adopted on earlier tasks of this domain; browse `INDEX.md` first\n");
    }
    sb.append("\nEvery event of every trajectory is present. A single observation may carry a renderer truncation"
        + " marker; that marker is not something the agent did.\n\n"
        + "Read the task and the current harness first. Open every rollout and every candidate at least once, and"
        + " compare each candidate with its baseline: what changed, what behaviour changed, what got better or"
        + " worse. Read deeply before you edit, and tie every change to a specific moment in a trajectory.\n");
    return sb.toString();
  }
}
