package dev.h2beam.transforms.gated;

import java.util.List;

/** What failed in the last step and why, one line each (empty at the first step or after a clean one). */
public record Manifest(int step, List<String> failures) {
  public Manifest {
    failures = List.copyOf(failures);
  }
}
