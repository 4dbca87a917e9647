package dev.h2beam.demo;

import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.adapters.proposer.ProposerChannel;

/** Provides the demo's scripted deterministic proposer under the channel kind {@code scripted-ledger}. */
public final class ScriptedLedgerChannelProvider implements ChannelProvider {

  @Override public String kind() {
    return "scripted-ledger";
  }

  @Override public ProposerChannel open(ChannelSpec spec) {
    return new ScriptedLedgerChannel();
  }
}
