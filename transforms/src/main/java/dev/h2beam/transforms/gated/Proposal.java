package dev.h2beam.transforms.gated;

import java.util.List;

/**
 * What a method proposes for one step: mutations applied under one verdict (none: the step is skipped), and its own
 * notes on why.
 */
public record Proposal(List<Mutation> mutations, String notes) {
  public Proposal {
    mutations = List.copyOf(mutations);
    notes = notes == null ? "" : notes;
  }

  public static Proposal of(List<Mutation> mutations, String notes) {
    return new Proposal(mutations, notes);
  }

  /** No proposal this step, and why. */
  public static Proposal none(String why) {
    return new Proposal(List.of(), why);
  }

  public boolean isNone() {
    return mutations.isEmpty();
  }
}
