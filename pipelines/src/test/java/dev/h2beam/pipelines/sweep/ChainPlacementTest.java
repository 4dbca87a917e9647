package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.transforms.beam.RunChains;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;

/** Chains spread evenly over the worker slots, on the real Flink runner's batch translation. */
class ChainPlacementTest {
  /** Subtask index (0-based) each key's group ran on, from Flink's task thread name "... (i/P)#attempt". */
  static final Map<Integer, Integer> RAN_ON = new ConcurrentHashMap<>();

  static LinkedHashMap<String, List<String>> stream(int domains, int tasks) {
    LinkedHashMap<String, List<String>> s = new LinkedHashMap<>();
    for (int d = 0; d < domains; d++) {
      List<String> t = new ArrayList<>();
      for (int i = 0; i < tasks; i++) t.add("t" + i);
      s.put("d" + d, t);
    }
    return s;
  }

  static Map<Integer, Integer> chainsPerSlot(Map<String, Integer> keys, int slots) {
    Map<Integer, Integer> per = new HashMap<>();
    keys.values().forEach(k -> per.merge(ChainPlacement.slotOf(k, slots), 1, Integer::sum));
    return per;
  }

  @Test
  void fewerChainsThanSlotsNeverShareASlotAndMoreNeverExceedTheCeiling() {
    for (int slots : new int[] {1, 2, 3, 4, 16}) {
      for (int domains : new int[] {1, 2, 3, 8, 20}) {
        Map<String, Integer> keys = ChainPlacement.keys(List.of("parallel", "sequential"), stream(domains, 2), slots);
        int chains = 2 * domains;
        assertEquals(chains, keys.size());
        assertEquals(chains, new HashSet<>(keys.values()).size(), "keys are distinct");
        int ceiling = (chains + slots - 1) / slots;
        for (int n : chainsPerSlot(keys, slots).values()) {
          assertTrue(n <= ceiling, chains + " chains on " + slots + " slots: a slot runs " + n);
        }
        assertEquals(Math.min(chains, slots), chainsPerSlot(keys, slots).size(), "as many slots used as possible");
      }
    }
  }

  @Test
  void theLongestChainsAreDealtFirst() {
    LinkedHashMap<String, List<String>> s = stream(3, 1);
    s.put("long", List.of("a", "b", "c", "d"));
    Map<String, Integer> keys = ChainPlacement.keys(List.of("parallel"), s, 2);
    // four chains on two slots: the long one alone on its slot would need the others to share; dealt longest first,
    // it takes slot 0 and the three short ones alternate from slot 1
    assertEquals(0, ChainPlacement.slotOf(keys.get(RunChains.chain("parallel", "long")), 2));
    assertEquals(1, ChainPlacement.slotOf(keys.get(RunChains.chain("parallel", "d0")), 2));
  }

  static final class RecordSubtask extends DoFn<KV<Integer, Iterable<String>>, String> {
    private static final long serialVersionUID = 1L;
    private static final Pattern SUBTASK = Pattern.compile("\\((\\d+)/(\\d+)\\)");

    @ProcessElement public void process(@Element KV<Integer, Iterable<String>> group, OutputReceiver<String> out) {
      Matcher m = SUBTASK.matcher(Thread.currentThread().getName());
      int subtask = -1;
      while (m.find()) subtask = Integer.parseInt(m.group(1)) - 1;
      RAN_ON.put(group.getKey(), subtask);
      out.output(group.getKey() + "");
    }
  }

  @Test
  void flinksGroupByKeyRunsEachChainOnTheSlotItsKeyWasChosenFor() {
    int slots = 4;
    for (int domains : new int[] {5}) {  // 10 chains on 4 slots: every key's slot is checked, one cluster start
      RAN_ON.clear();
      Map<String, Integer> keys = ChainPlacement.keys(List.of("parallel", "sequential"), stream(domains, 3), slots);
      List<KV<Integer, String>> elements = new ArrayList<>();
      keys.forEach((chain, key) -> {
        for (int t = 0; t < 3; t++) elements.add(KV.of(key, chain + "/" + t));
      });
      FlinkPipelineOptions o = PipelineOptionsFactory.as(FlinkPipelineOptions.class);
      o.setRunner(FlinkRunner.class);
      o.setFlinkMaster("[local]");
      o.setParallelism(slots);
      Pipeline p = Pipeline.create(o);
      p.apply(Create.of(elements).withCoder(KvCoder.of(VarIntCoder.of(), StringUtf8Coder.of())))
          .apply(GroupByKey.create())
          .apply(ParDo.of(new RecordSubtask()));
      p.run().waitUntilFinish();
      assertEquals(keys.size(), RAN_ON.size());
      for (int key : keys.values()) {
        assertEquals(ChainPlacement.slotOf(key, slots), RAN_ON.get(key), "key " + key + " ran on " + RAN_ON);
      }
    }
  }
}
