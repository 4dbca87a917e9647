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
 * A test method that reaches no model: its first proposal makes the demo's script exit non-zero (an episode that
 * cannot run), and once that was refused it proposes the real fix; then nothing.
 */
public final class BreakThenFixMethod implements GatedMethod {
  static final String BROKEN = "#!/bin/sh\necho 'this harness cannot total anything' >&2\nexit 3\n";

  @Override public String name() {
    return "test-break-then-fix";
  }

  @Override public String description() {
    return "breaks the script, then fixes it";
  }

  @Override public Proposal propose(List<TreeEntry> tree, List<Sample> samples, Models models,
      List<Rejection> rejected, Manifest manifest) {
    String script = TreeEntry.tree(tree).get(DemoSetup.SCRIPT);
    if (rejected.isEmpty()) return Proposal.of(List.of(Mutation.update(DemoSetup.SCRIPT, BROKEN)), "break it");
    if (script.contains(DemoBenchmark.POSITIVE_FILTER)) {
      return Proposal.of(List.of(Mutation.update(DemoSetup.SCRIPT, script.replace(DemoBenchmark.POSITIVE_FILTER, ""))),
          "keep credits");
    }
    return Proposal.none("the script already keeps credits");
  }

  @Override public OptionalDouble evaluate(GateTask task, Episode episode) throws Exception {
    return Checks.score(task, episode);
  }
}
