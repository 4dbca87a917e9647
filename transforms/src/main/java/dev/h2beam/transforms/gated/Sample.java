package dev.h2beam.transforms.gated;

/**
 * One recent episode as a method sees it: its label, what it delivered, its trajectory (both untrusted text, capped)
 * and the method's own score of it (null: it could not run, or could not be scored).
 *
 * @param harness the label of the harness that ran it ({@code base}, or the step label {@code g<j>} that made it)
 */
public record Sample(String label, String harness, String deliverable, String trajectory, Double score) {}
