package dev.h2beam.adapters.proposer;

import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.plugin.Registry;

/** Makes a {@link ProposerChannel} for a channel kind; registered through {@code META-INF/services}. */
public interface ChannelProvider {

  /** The channel kind, e.g. {@code opencode}, {@code claude_cli}, {@code scripted-ledger}. */
  String kind();

  ProposerChannel open(ChannelSpec spec) throws Exception;

  /**
   * Opens the channel for a configured role (the configuration file's improver, selector or reflector). Channels that
   * talk to a model override this; the default ignores the role.
   */
  default ProposerChannel open(ChannelSpec spec, dev.h2beam.adapters.config.ResolvedRole role) throws Exception {
    return open(spec);
  }

  /**
   * Opens the channel for a configured role with the sweep's settings (for example the agent binaries given on the
   * command line); the default ignores the settings.
   */
  default ProposerChannel open(ChannelSpec spec, dev.h2beam.adapters.config.ResolvedRole role,
      java.util.Map<String, String> settings) throws Exception {
    return open(spec, role);
  }

  /** The provider for {@code kind}; an error naming the known kinds when there is none. */
  static ChannelProvider forKind(String kind) {
    return Registry.named(ChannelProvider.class, Registry.byName(ChannelProvider.class, ChannelProvider::kind), kind,
        "no proposer channel of kind '" + kind + "'", "");
  }
}
