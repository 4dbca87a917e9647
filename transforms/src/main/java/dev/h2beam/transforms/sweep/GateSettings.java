package dev.h2beam.transforms.sweep;

import dev.h2beam.transforms.gated.GatedMethod;
import dev.h2beam.transforms.gated.GatedMethods;
import dev.h2beam.transforms.gated.Policies;
import dev.h2beam.transforms.gated.SelectionPolicy;
import java.io.Serializable;

/**
 * The gated mode's settings: the method ({@code --method}), the selection policy ({@code --policy}) and the win
 * margin ({@code --minWinMargin}, 0 when unset). Names only, so every worker finds the same plug-ins on its classpath.
 */
public record GateSettings(String method, String policy, double minWinMargin) implements Serializable {
  public static final GateSettings DEFAULT = new GateSettings(GatedMethods.DEFAULT, "score_comparison", 0.0);

  public GateSettings {
    method = method == null || method.isBlank() ? GatedMethods.DEFAULT : method.strip();
    policy = policy == null || policy.isBlank() ? "score_comparison" : policy.strip();
    if (!(minWinMargin >= 0) || Double.isInfinite(minWinMargin)) {
      throw new IllegalArgumentException("--minWinMargin=" + minWinMargin + " must be a finite number of wins, 0 or"
          + " more");
    }
  }

  /**
   * The record's equality and hash, written out: a record's own link a call site on their first use (see {@link
   * SweepConfig#hashCode}), and a sweep's configuration, which holds these settings, is compared and hashed when a
   * runner thread looks up its context.
   */
  @Override public boolean equals(Object o) {
    return o instanceof GateSettings g && method.equals(g.method) && policy.equals(g.policy)
        && Double.compare(minWinMargin, g.minWinMargin) == 0;
  }

  @Override public int hashCode() {
    return (method.hashCode() * 31 + policy.hashCode()) * 31 + Double.hashCode(minWinMargin);
  }

  /** The method, found by name; an error naming {@code --method} and the known ones. */
  public GatedMethod openMethod() {
    return GatedMethods.named(method);
  }

  /** The policy, found by name; an error naming {@code --policy} and the known ones. */
  public SelectionPolicy openPolicy() {
    return Policies.named(policy);
  }
}
