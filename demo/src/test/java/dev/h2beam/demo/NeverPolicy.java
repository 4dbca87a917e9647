package dev.h2beam.demo;

import dev.h2beam.transforms.gated.Decision;
import dev.h2beam.transforms.gated.SelectionPolicy;
import java.util.List;

/** A selection policy that rejects every candidate (registered for the tests through META-INF/services). */
public final class NeverPolicy implements SelectionPolicy {
  @Override public String name() {
    return "never";
  }

  @Override public String version() {
    return "test-1";
  }

  @Override public Decision decide(List<Double> candidate, List<Double> current, double minWinMargin) {
    return new Decision("reject", name(), version(), "this policy rejects every candidate", candidate, current);
  }
}
