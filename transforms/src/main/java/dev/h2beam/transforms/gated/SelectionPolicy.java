package dev.h2beam.transforms.gated;

import java.util.List;

/**
 * Keeps or reverts a candidate from its paired scores. {@code candidate.get(i)} and {@code current.get(i)} are the
 * i-th pair; null marks a could-not-run episode. Built in: {@code score_comparison}, {@code always}, {@code pareto}
 * ({@link Policies}).
 */
public interface SelectionPolicy {
  String name();

  String version();

  /**
   * @param minWinMargin for policies that count wins: wins must exceed losses by more than this (0 when unset)
   */
  Decision decide(List<Double> candidate, List<Double> current, double minWinMargin);
}
