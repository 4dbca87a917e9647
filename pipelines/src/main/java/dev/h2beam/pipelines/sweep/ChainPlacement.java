package dev.h2beam.pipelines.sweep;

import dev.h2beam.transforms.beam.RunChains;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.flink.util.MathUtils;

/**
 * Where each (mode, domain) chain runs. Chains are the sweep's only unit of parallelism and run for minutes each, so
 * they must spread evenly over the worker slots: with P slots and C ≤ P chains no slot runs two, with C > P none runs
 * more than ⌈C/P⌉. A hash of the chain's name does not give that (16 chains on 16 slots went to 9 slots). Flink's
 * batch translation of a GroupByKey sends a key to slot {@code murmurHash(Arrays.hashCode(encodedKey)) % P}; this
 * class deals chains (longest first) to slots in turn and, for each, picks the smallest unused integer key that
 * lands on its slot. On the DirectRunner (one process) the keys are just distinct.
 */
public final class ChainPlacement {
  private ChainPlacement() {}

  /**
   * A key per chain: chains in the given modes over the stream's domains (each domain's length its task count),
   * dealt longest first to {@code slots} slots.
   */
  public static Map<String, Integer> keys(List<String> modes, Map<String, List<String>> stream, int slots) {
    if (slots < 1) throw new IllegalArgumentException("slots must be at least 1, got " + slots);
    List<String[]> chains = new ArrayList<>();
    for (String mode : modes) {
      for (Map.Entry<String, List<String>> d : stream.entrySet()) {
        chains.add(new String[] {mode, d.getKey(), String.valueOf(d.getValue().size())});
      }
    }
    // longest first, then in stream order (a stable sort keeps modes, then domains, as given)
    chains.sort(Comparator.comparingInt((String[] c) -> -Integer.parseInt(c[2])));
    Map<String, Integer> keys = new LinkedHashMap<>();
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < chains.size(); i++) {
      int slot = i % slots;
      int key = 0;
      while (used.contains(key) || slotOf(key, slots) != slot) key++;
      used.add(key);
      keys.put(RunChains.chain(chains.get(i)[0], chains.get(i)[1]), key);
    }
    return keys;
  }

  /** The slot Flink's batch GroupByKey sends an integer key to, among {@code slots}. */
  public static int slotOf(int key, int slots) {
    // one slot (the DirectRunner) needs no hash, and so no Flink class: the launcher leaves Flink's jars off the
    // classpath of a command that does not ask for Flink
    if (slots == 1) return 0;
    try {
      return MathUtils.murmurHash(Arrays.hashCode(CoderUtils.encodeToByteArray(VarIntCoder.of(), key))) % slots;
    } catch (CoderException e) {
      throw new IllegalStateException("cannot encode the chain key " + key, e);
    }
  }
}
