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

  /**
   * Resolves a channel from optional overrides (spec §2.1): kind and model are overridden together or not at all;
   * the default kind is {@code opencode} and the default model {@code defaultModel}; a blank model is allowed only
   * when both were defaulted; an opencode model needs a provider prefix ({@code provider/model}), a claude_cli model
   * must not have one.
   */
  public static ChannelSpec resolve(String kind, String model, String defaultModel) {
    if ((kind == null) != (model == null)) {
      throw new IllegalArgumentException("override the channel kind and model together, or neither");
    }
    boolean defaulted = kind == null;
    String k = defaulted ? "opencode" : kind;
    String m = defaulted ? (defaultModel == null ? "" : defaultModel.strip()) : model.strip();
    if (!k.equals("opencode") && !k.equals("claude_cli")) {
      throw new IllegalArgumentException("channel kind must be opencode or claude_cli, got '" + k + "'");
    }
    if (m.isEmpty()) {
      if (defaulted) return of(k, "");
      throw new IllegalArgumentException("an explicit " + k + " channel needs a model; set the improver model");
    }
    if (k.equals("opencode") && !m.contains("/")) {
      throw new IllegalArgumentException("opencode models are provider/model, got '" + m + "'");
    }
    if (k.equals("claude_cli") && m.contains("/")) {
      throw new IllegalArgumentException("claude_cli models are bare Anthropic ids without '/', got '" + m + "'");
    }
    return of(k, m);
  }

  public static ChannelSpec of(String kind, String model) {
    return new ChannelSpec(kind, model, "high", 120, 3600);
  }
}
