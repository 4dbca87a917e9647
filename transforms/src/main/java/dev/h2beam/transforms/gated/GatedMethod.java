package dev.h2beam.transforms.gated;

import java.util.List;
import java.util.OptionalDouble;

/**
 * A harness method for the gated mode: what edit to try, and how an episode scored. h2beam runs the loop around it
 * (apply, roll the candidate, score both sides, let the policy keep or revert, feed rejections back). Registered
 * through {@code META-INF/services/dev.h2beam.transforms.gated.GatedMethod} and chosen with {@code --method=<name>};
 * an implementation needs a public no-argument constructor and must be safe to call from several threads (one
 * instance serves every task of a worker).
 */
public interface GatedMethod {

  /** The {@code --method} name. */
  String name();

  /** One line for the README and error messages. */
  String description();

  /**
   * Whether {@link #evaluate} reads the task's method-visible {@code checks/} folder. The gated mode refuses, at
   * start, a benchmark whose tasks have none when this is true.
   */
  default boolean needsChecks() {
    return true;
  }

  /**
   * Proposes the next candidate.
   *
   * @param tree the current harness as ordered (path, text) entries
   * @param samples the recent episodes, oldest first: the current harness's, then the last rejected candidate's; their
   *     text is untrusted (fence it with {@link dev.h2beam.transforms.safety.Fence#untrusted} before a prompt)
   * @param models the configured improver role, the only way to reach a model: at most one session per call
   * @param rejected the recent rejected proposals, oldest first
   * @param manifest what failed in the last step and why (empty at the first step)
   * @return one mutation, several applied under one verdict, or {@link Proposal#none} to skip the step (its session
   *     and rollout are still spent: the rollout re-rolls the current harness)
   */
  Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models, List<Rejection> rejected,
      Manifest manifest) throws Exception;

  /**
   * Scores one finished episode, or empty when it cannot be scored. Called for both sides of every pair; an episode
   * that could not run never reaches it. It may read {@link GateTask#checks()} and the episode, never the grading
   * folder (which it is not given).
   */
  OptionalDouble evaluate(GateTask task, Episode episode) throws Exception;
}
