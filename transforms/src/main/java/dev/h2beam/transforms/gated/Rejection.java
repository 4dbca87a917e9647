package dev.h2beam.transforms.gated;

import java.util.List;

/** A proposal the gate refused: its step, its mutations (with the text they carried) and the verdict's reason. */
public record Rejection(int step, List<Mutation> mutations, String reason) {
  public Rejection {
    mutations = List.copyOf(mutations);
  }
}
