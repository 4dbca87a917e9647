package dev.h2beam.transforms.gated;

import java.util.Map;

/**
 * One finished episode: its label, the harness that ran it, the files it delivered (relative path to text) and its
 * trajectory (capped). Only episodes that ran reach a method's {@code evaluate}.
 */
public record Episode(String label, String harness, Map<String, String> deliverable, String trajectory) {
  public Episode {
    deliverable = Map.copyOf(deliverable);
  }
}
