package dev.h2beam.demo;

import dev.h2beam.transforms.gated.Checks;
import dev.h2beam.transforms.gated.Episode;
import dev.h2beam.transforms.gated.GateTask;
import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.Manifest;
import dev.h2beam.transforms.gated.Models;
import dev.h2beam.transforms.gated.Mutation;
import dev.h2beam.transforms.gated.Proposal;
import dev.h2beam.transforms.gated.Rejection;
import dev.h2beam.transforms.gated.Sample;
import dev.h2beam.transforms.gated.TreeEntry;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A test method that first proposes a harness file holding a literal key, and afterwards shows in its notes what the
 * rejected history let it read, so a test can see that the key never came back.
 */
public final class LeakyKeyMethod implements GatedMethod {
  static final String KEY = "sk-h2beamgatedleak0123456789abcdef";

  @Override public String name() {
    return "test-leaky-key";
  }

  @Override public String description() {
    return "proposes a literal key";
  }

  @Override public Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models,
      List<Rejection> rejected, Manifest manifest) {
    if (rejected.isEmpty()) {
      return Proposal.of(List.of(Mutation.update("guardrails.md", "api_key: " + KEY + "\n")), "use this key");
    }
    return Proposal.none("saw: " + rejected.get(0).mutations().get(0).text());
  }

  @Override public OptionalDouble evaluate(GateTask task, Episode episode) throws Exception {
    return Checks.score(task, episode);
  }
}
