package dev.h2beam.demo;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.proposer.ChannelProvider;
import dev.h2beam.adapters.proposer.EvidenceView;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The synthetic benchmark's scripted improver, selector and reflector: it waits the session latency, as a model
 * would, then answers like the demo's {@link ScriptedLedgerChannel}, except that its stages leave varied harnesses so
 * that finals differ. Every stage signs the script with a comment naming it; an {@code INV}, composition
 * ({@code agg*}, {@code c*}) stage also drops the positive-only filter, a {@code DOM} stage does not (its rollouts
 * print a wrong total, which the selector must pass over).
 */
final class ScriptedSyntheticChannel implements ProposerChannel {

  /** The channel kind; the benchmark's channel model names its session latency after {@link #MODEL_PREFIX}. */
  static final String KIND = "scripted-synthetic";

  static final String MODEL_PREFIX = "local/deterministic+latency=";

  private static final String DOM_NOTES = "<notes>\nKept the script's filter and noted the domain's habits in "
      + DemoSetup.SCRIPT + ".\n</notes>\n";

  private final ScriptedLedgerChannel ledger = new ScriptedLedgerChannel();
  private final Latency latency;

  ScriptedSyntheticChannel(Latency latency) {
    this.latency = latency;
  }

  /** The channel model that carries {@code latency} to the channel the sweep opens from the benchmark's spec. */
  static String model(Latency latency) {
    return MODEL_PREFIX + latency.text() + "@" + latency.seed();
  }

  @Override
  public SessionResult run(Path cwd, String mission, String system, String label, Duration timeout)
      throws Exception {
    return run(cwd, EvidenceView.of(cwd.resolve("context")), mission, system, label, timeout);
  }

  /** As the demo's channel: the evidence read from the method's view, the harness edited in the working folder. */
  @Override
  public boolean readsEvidenceFromMemory() {
    return ledger.readsEvidenceFromMemory();
  }

  @Override
  public SessionResult run(Path cwd, EvidenceView evidence, String mission, String system, String label,
      Duration timeout) throws Exception {
    try (InFlight.Entry busy = InFlight.SESSIONS.enter()) {
      latency.sleep(label + "\n" + mission);
      if (label.startsWith("select.") || label.startsWith("experience.")) {
        return ledger.run(cwd, evidence, mission, system, label, timeout);
      }
      String stage = label.replaceFirst("\\.a[0-9]+$", "");
      SessionResult reply = stage.startsWith("dom") ? SessionResult.scripted(DOM_NOTES)
          : ledger.run(cwd, evidence, mission, system, label, timeout);
      sign(cwd.resolve("context").resolve("harness").resolve(DemoSetup.SCRIPT), stage);
      return reply;
    }
  }

  /** Appends {@code # shaped by <stage>} to the script: a rename, as the evidence may hard-link it elsewhere. */
  private static void sign(Path script, String stage) throws IOException {
    if (!Files.isRegularFile(script)) return;
    AtomicFiles.writeString(script, TextFiles.readUtf8(script) + "# shaped by " + stage + "\n");
  }

  /** Provides the channel under {@link #KIND}; its latency comes from the channel model. */
  public static final class Provider implements ChannelProvider {
    @Override public String kind() {
      return KIND;
    }

    @Override public ProposerChannel open(ChannelSpec spec) {
      String model = spec.model();
      if (!model.startsWith(MODEL_PREFIX) || model.lastIndexOf('@') < MODEL_PREFIX.length()) {
        throw new IllegalArgumentException("the " + KIND + " channel's model must be " + MODEL_PREFIX
            + "<latency>@<seed>, got '" + model + "'");
      }
      int at = model.lastIndexOf('@');
      long seed = Long.parseLong(model.substring(at + 1));
      return new ScriptedSyntheticChannel(Latency.parse("the session latency", model.substring(
          MODEL_PREFIX.length(), at), seed));
    }
  }
}
