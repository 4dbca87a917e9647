package dev.h2beam.demo;

import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * Test channel {@code scripted-faults}: the demo's scripted proposer, except where {@link #override} answers a label
 * itself (a failure, NO_ENTRY, a reply with a cost). Tests set the override before a run; the DirectRunner runs in
 * this JVM.
 */
public final class ScriptedFaultsChannelProvider implements ChannelProvider {
  /** Returns the session result for a label, or null to let the scripted proposer answer. */
  static volatile Function<String, SessionResult> override = label -> null;

  @Override public String kind() {
    return "scripted-faults";
  }

  @Override public ProposerChannel open(ChannelSpec spec) {
    ScriptedLedgerChannel scripted = new ScriptedLedgerChannel();
    return (Path cwd, String mission, String system, String label, Duration timeout) -> {
      SessionResult r = override.apply(label);
      return r != null ? r : scripted.run(cwd, mission, system, label, timeout);
    };
  }
}
