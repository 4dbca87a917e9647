package dev.h2beam.transforms.selection;

import dev.h2beam.adapters.files.Hashes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;

/**
 * The anonymous candidate ids a blind selector sees (spec §7.2 step 4, §19.2): labels in a seeded shuffle, named
 * {@code A..Z, AA..AZ, BA..}.
 *
 * <p>The seed depends only on (task, k, mode), so reruns show the selector the same ids for the same candidates, and
 * ids never reveal which rollout (or which position in the chain) a candidate came from. That is harness2's rule, and
 * every replicate of a task then lists the same candidate first; a sweep run with {@code --anonIds=replicate} adds
 * its seed ({@link #REPLICATE}), so that replicates list them in orders of their own and a selector's preference for
 * a place in the list is spread over the candidates instead of falling on the same one in every replicate.
 */
public final class AnonIds {
  private AnonIds() {}

  /**
   * The id map for one selection: anonymous id to label, in id order. Labels are sorted as Python strings
   * ({@code agg10 < agg2}) and then shuffled with {@code random.Random(seed(taskId, k, mode))}.
   */
  public static LinkedHashMap<String, String> assign(List<String> labels, String taskId, int k, String mode) {
    return assign(labels, taskId, k, mode, null);
  }

  /** harness2's rule, the default: the ids depend on the task, k and mode alone. */
  public static final String TASK = "task";

  /** The ids also depend on the sweep's seed, so each replicate has its own ({@code --anonIds=replicate}). */
  public static final String REPLICATE = "replicate";

  /**
   * config.json's record of the rule, written only when it is not {@link #TASK}: every config.json that records
   * none (harness2's, an older h2beam's) followed harness2's rule.
   */
  public static final String CONFIG_KEY = "anon_ids";

  /**
   * As {@link #assign(List, String, int, String)}, the shuffle's seed made with {@code salt} too when it is not null:
   * the sweep's seed under {@link #REPLICATE}.
   */
  public static LinkedHashMap<String, String> assign(List<String> labels, String taskId, int k, String mode,
      String salt) {
    Objects.requireNonNull(labels, "labels");
    List<String> order = new ArrayList<>(labels);
    order.forEach(label -> Objects.requireNonNull(label, "labels must not contain null"));
    order.sort(PyRandom.STRING_ORDER);
    new PyRandom(seed(taskId, k, mode, salt)).shuffle(order);
    LinkedHashMap<String, String> ids = new LinkedHashMap<>();
    for (int i = 0; i < order.size(); i++) ids.put(idFor(i), order.get(i));
    return ids;
  }

  /** The shuffle seed: the first 12 hex digits of SHA-1({@code "<task>|<k>|<mode>"}) read as an integer. */
  static long seed(String taskId, int k, String mode) {
    return seed(taskId, k, mode, null);
  }

  /** The same over {@code "<task>|<k>|<mode>|<salt>"} when {@code salt} is not null. */
  static long seed(String taskId, int k, String mode, String salt) {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(mode, "mode");
    String key = taskId + "|" + k + "|" + mode + (salt == null ? "" : "|" + salt);
    return Long.parseLong(Hashes.sha1Hex(key).substring(0, 12), 16);
  }

  /** The id at zero-based {@code index} in bijective base 26: 0 → A, 25 → Z, 26 → AA, 701 → ZZ, 702 → AAA. */
  public static String idFor(int index) {
    if (index < 0) throw new IllegalArgumentException("id index must be >= 0, got " + index);
    StringBuilder id = new StringBuilder();
    for (long n = index + 1L; n > 0; n = (n - 1) / 26) id.append((char) ('A' + (n - 1) % 26));
    return id.reverse().toString();
  }
}
