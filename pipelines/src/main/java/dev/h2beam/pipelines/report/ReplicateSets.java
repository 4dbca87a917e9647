package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Namespaces split into sets the report would take as replicates of one experiment, by the rule of its replicate
 * check ({@link Report#notReplicates}): two namespaces belong together unless a key of the run identity both
 * config.json files record (the judge, the task set, the inputs' digests, the settings) differs. For the commands
 * that suggest a report to run next, so that they do not suggest one the report then refuses (dogAG A7).
 */
public final class ReplicateSets {
  private ReplicateSets() {}

  /**
   * {@code namespaces} (summary namespace folders of one benchmark and substrate) in sets, each in the order given,
   * the sets in the order of their first member; a namespace joins the first set none of whose members it differs
   * from. A config.json that is missing or unreadable records nothing, so it differs from none.
   */
  public static List<List<String>> of(List<String> namespaces) {
    List<List<String>> sets = new ArrayList<>();
    List<List<Map<String, Object>>> identities = new ArrayList<>();
    for (String ns : namespaces) {
      Map<String, Object> id = identity(Path.of(ns));
      int at = -1;
      for (int i = 0; i < sets.size() && at < 0; i++) {
        if (identities.get(i).stream().noneMatch(other -> differ(id, other))) at = i;
      }
      if (at < 0) {
        sets.add(new ArrayList<>());
        identities.add(new ArrayList<>());
        at = sets.size() - 1;
      }
      sets.get(at).add(ns);
      identities.get(at).add(id);
    }
    return sets;
  }

  /** Whether a key both record has two values. */
  private static boolean differ(Map<String, Object> a, Map<String, Object> b) {
    for (Map.Entry<String, Object> e : a.entrySet()) {
      if (b.containsKey(e.getKey()) && !e.getValue().equals(b.get(e.getKey()))) return true;
    }
    return false;
  }

  /** What the replicate check compares of a namespace, key to canonical value; empty when it records nothing. */
  private static Map<String, Object> identity(Path ns) {
    Map<String, Object> out = new LinkedHashMap<>();
    Path config = ns.resolve("config.json");
    if (!Files.isRegularFile(config)) return out;
    try {
      RunIdentity id = InputFiles.config(config.toString(), Files.readString(config, StandardCharsets.UTF_8));
      if (id.judge() != null) out.put("judge", id.judge());
      if (id.cohort() != null) {
        Report.cohortOf(id).forEach((key, v) -> {
          if (!key.equals(RunIdentity.UNVERIFIED)) out.put(key, Json.canonical(v));
        });
      }
    } catch (IOException | RuntimeException e) {
      // an unreadable config.json: the report names it when it reads it; here it keeps the namespace with others
      out.clear();
    }
    return out;
  }
}
