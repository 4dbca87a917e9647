package dev.h2beam.pipelines.judge;

import java.io.Serializable;

/**
 * One thing to judge: a mode's selection of one task (or, with {@code --bases}, one base rollout) as recorded in
 * summary.json, with the namespace it belongs to and the grader that judges it.
 *
 * @param ok the selection completed (ok, a chosen label and a chosen run dir); always true for base rollouts
 */
public record SelectionItem(
    String namespace, String grader, String taskId, String mode, int k, String label, String runId, String runDir,
    boolean chosenIsBase, boolean ok) implements Serializable {}
