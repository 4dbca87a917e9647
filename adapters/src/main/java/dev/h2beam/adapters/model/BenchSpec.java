package dev.h2beam.adapters.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/** Static description of one benchmark × substrate cell (spec §2.3). */
public record BenchSpec(
    String name,
    String installMode,
    BenchPrompts prompts,
    Map<String, ChannelSpec> channels,
    String domainWord,
    List<String> leakGlobs,
    boolean allowSubagents,
    Set<String> reservedScripts,
    String proposerDeliverables,
    boolean stateDeliverable,
    int obsTrunc) {

  public BenchSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(prompts, "prompts");
    channels = Map.copyOf(new TreeMap<>(channels));
    if (!channels.containsKey("proposer") || !channels.containsKey("selector")) {
      throw new IllegalArgumentException("bench spec '" + name + "' needs 'proposer' and 'selector' channels");
    }
    domainWord = domainWord == null ? "domain" : domainWord;
    leakGlobs = List.copyOf(leakGlobs);
    reservedScripts = Set.copyOf(reservedScripts);
    for (String s : reservedScripts) {
      if (s.contains("/") || !(s.endsWith(".py") || s.endsWith(".sh"))) {
        throw new IllegalArgumentException("reserved script '" + s + "' must be a bare basename ending .py or .sh");
      }
    }
    proposerDeliverables = proposerDeliverables == null ? "contents" : proposerDeliverables;
    if (!proposerDeliverables.equals("contents") && !proposerDeliverables.equals("names")) {
      throw new IllegalArgumentException("proposer_deliverables must be 'contents' or 'names'");
    }
    if (obsTrunc < 10_000) throw new IllegalArgumentException("obs_trunc must be >= 10000, got " + obsTrunc);
  }

  public ChannelSpec proposerChannel() {
    return channels.get("proposer");
  }

  public ChannelSpec selectorChannel() {
    return channels.get("selector");
  }
}
