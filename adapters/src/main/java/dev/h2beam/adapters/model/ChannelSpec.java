package dev.h2beam.adapters.model;

import java.util.Objects;

/** One improver/selector channel: which session kind runs which model, with its effort, step cap and timeout. */
public record ChannelSpec(String kind, String model, String effort, int steps, int timeoutSeconds) {
  public ChannelSpec {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(model, "model");
    effort = effort == null ? "high" : effort;
    if (steps < 1) throw new IllegalArgumentException("channel steps must be >= 1, got " + steps);
    if (timeoutSeconds < 1) throw new IllegalArgumentException("channel timeout must be >= 1 s, got " + timeoutSeconds);
  }

  public static ChannelSpec of(String kind, String model) {
    return new ChannelSpec(kind, model, "high", 120, 3600);
  }
}
