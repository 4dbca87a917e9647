package dev.h2beam.adapters.folder;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.BenchPrompts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A folder benchmark's {@code bench.json}, parsed and checked. Every problem is collected (unknown keys, wrong types,
 * out-of-range values) and named by its key path, so one run of {@code h2beam check} shows them all.
 *
 * @param executor the {@code executor} object: {@code kind} plus the kind's own keys
 * @param grader the {@code grader} object: {@code kind} ({@code expected}, {@code rubric}, {@code command}) plus its keys
 * @param timeoutSeconds one rollout's wall-clock limit
 * @param maxSourceBytes the largest source file a task may ship (larger ones are refused at start, naming the file)
 */
public record BenchFile(String name, Map<String, Object> executor, String deliverable, Map<String, Object> grader,
    BenchPrompts prompts, List<String> leakGlobs, int timeoutSeconds, long maxSourceBytes, boolean allowSubagents) {

  public static final String FILE = "bench.json";
  static final List<String> DEFAULT_LEAK_GLOBS = List.of("expected.txt", "rubric.json");
  static final Set<String> TOP = Set.of("name", "executor", "deliverable", "grader", "prompts", "leak_globs",
      "limits", "allow_subagents");
  static final Set<String> PROMPTS = Set.of("work", "domain_word", "inv_levers", "dom_levers", "yardstick",
      "deliverable_word", "domain_guidance", "selection_checks", "selection_lead");
  static final Set<String> LIMITS = Set.of("timeout_seconds", "max_source_bytes");
  static final Map<String, Set<String>> GRADERS = Map.of(
      "expected", Set.of("normalize"), "rubric", Set.of(), "command", Set.of("command"));

  public BenchFile {
    executor = Map.copyOf(executor);
    grader = Map.copyOf(grader);
    leakGlobs = List.copyOf(leakGlobs);
  }

  public String executorKind() {
    return String.valueOf(executor.get("kind"));
  }

  public String graderKind() {
    return String.valueOf(grader.get("kind"));
  }

  /**
   * Reads {@code <root>/bench.json}; adds every problem to {@code problems} and returns null when there is any.
   *
   * @param executorKeys each known executor kind → the keys it accepts (besides {@code kind})
   */
  static BenchFile read(Path root, Map<String, Set<String>> executorKeys, List<String> problems) {
    Path file = root.resolve(FILE);
    String at = file.toString();
    if (!Files.isRegularFile(file)) {
      problems.add(at + ": missing; write it with at least {\"name\": ..., \"executor\": {\"kind\": \"chat\"}, "
          + "\"grader\": {\"kind\": \"expected\"}, \"prompts\": {\"work\": ...}} (see the README's folder benchmark)");
      return null;
    }
    JsonNode n;
    try {
      n = Json.readTree(file);
    } catch (IOException e) {
      problems.add(at + ": not valid JSON: " + Json.syntaxProblem(e));
      return null;
    }
    if (n == null || !n.isObject()) {
      problems.add(at + ": must be a JSON object");
      return null;
    }
    int before = problems.size();
    unknown(n, TOP, at, "", problems);
    String name = text(n, "name", at, problems, null);
    if (name != null && !name.matches("[a-z][a-z0-9_]{0,39}")) {
      problems.add(at + ": name: '" + name + "' must be 1-40 lower-case letters, digits or _, starting with a letter"
          + " (it names the namespaces, e.g. <name>-oc-agg2)");
    }
    Map<String, Object> executor = kindObject(n, "executor", at, problems, executorKeys);
    Map<String, Object> grader = kindObject(n, "grader", at, problems, GRADERS);
    String deliverable = text(n, "deliverable", at, problems, "answer.md");
    if (deliverable != null && !deliverable.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")) {
      problems.add(at + ": deliverable: '" + deliverable + "' must be a plain file name such as answer.md");
    }
    BenchPrompts prompts = prompts(n.get("prompts"), at, problems);
    List<String> globs = new ArrayList<>(DEFAULT_LEAK_GLOBS);
    JsonNode lg = n.get("leak_globs");
    if (lg != null) {
      if (!lg.isArray()) problems.add(at + ": leak_globs: must be a list of globs such as [\"expected.txt\"]");
      else {
        for (JsonNode g : lg) {
          if (!g.isTextual() || g.asText().isBlank()) problems.add(at + ": leak_globs: every entry must be a glob");
          else if (!globs.contains(g.asText())) globs.add(g.asText());
        }
      }
    }
    int timeout = 600;
    long maxSource = 1 << 20;
    JsonNode limits = n.get("limits");
    if (limits != null) {
      if (!limits.isObject()) problems.add(at + ": limits: must be an object");
      else {
        unknown(limits, LIMITS, at, "limits.", problems);
        timeout = (int) whole(limits, "timeout_seconds", at, "limits.", 1, 86_400, timeout, problems);
        maxSource = whole(limits, "max_source_bytes", at, "limits.", 1, 1L << 30, maxSource, problems);
      }
    }
    // harness2's allow_subagents (spec §2.3): a benchmark says whether its harnesses may hold sub_agents/; off unless
    // it does, as in harness2, since a sub-agent is a second model loop the executor's limits and costs must allow for
    JsonNode sub = n.get("allow_subagents");
    boolean allowSubagents = sub != null && sub.isBoolean() && sub.booleanValue();
    if (sub != null && !sub.isBoolean()) problems.add(at + ": allow_subagents: must be true or false");
    if (allowSubagents && "codex".equals(executor.get("kind"))) {
      problems.add(at + ": allow_subagents: the codex executor has no sub-agents (they are OpenCode's,"
          + " .opencode/agent/); drop the key or use the opencode executor");
    }
    if (problems.size() > before) return null;
    return new BenchFile(name, executor, deliverable, grader, prompts, globs, timeout, maxSource, allowSubagents);
  }

  private static Map<String, Object> kindObject(JsonNode n, String key, String at, List<String> problems,
      Map<String, Set<String>> keysOfKind) {
    JsonNode o = n.get(key);
    if (o == null || !o.isObject() || !o.path("kind").isTextual()) {
      problems.add(at + ": " + key + ": must be an object with a \"kind\"");
      return Map.of();
    }
    String kind = o.get("kind").asText();
    Set<String> keys = keysOfKind.get(kind);
    if (keys == null) {
      problems.add(at + ": " + key + ".kind: '" + kind + "' is not known; known: " + new TreeSet<>(keysOfKind.keySet()));
      return Map.of();
    }
    Set<String> allowed = new TreeSet<>(keys);
    allowed.add("kind");
    unknown(o, allowed, at, key + ".", problems);
    Map<String, Object> out = new LinkedHashMap<>();
    o.fields().forEachRemaining(e -> out.put(e.getKey(), Json.MAPPER.convertValue(e.getValue(), Object.class)));
    return out;
  }

  private static BenchPrompts prompts(JsonNode p, String at, List<String> problems) {
    if (p == null || !p.isObject()) {
      problems.add(at + ": prompts: must be an object with at least \"work\" (what the tasks ask for, in a phrase)");
      return null;
    }
    unknown(p, PROMPTS, at, "prompts.", problems);
    Map<String, String> v = new LinkedHashMap<>();
    for (String k : PROMPTS) {
      JsonNode x = p.get(k);
      if (x == null) continue;
      if (!x.isTextual()) problems.add(at + ": prompts." + k + ": must be text");
      else v.put(k, x.asText());
    }
    if (v.getOrDefault("work", "").isBlank()) {
      problems.add(at + ": prompts.work: required (what the tasks ask for, in a phrase)");
      return null;
    }
    try {
      return new BenchPrompts(v.get("work"), v.get("domain_word"), v.get("inv_levers"), v.get("dom_levers"),
          v.get("yardstick"), v.get("deliverable_word"), v.get("domain_guidance"), v.get("selection_checks"),
          v.get("selection_lead"), null, null);
    } catch (IllegalArgumentException e) {
      problems.add(at + ": prompts: " + e.getMessage());
      return null;
    }
  }

  private static void unknown(JsonNode o, Set<String> known, String at, String prefix, List<String> problems) {
    for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!known.contains(k)) {
        problems.add(at + ": " + prefix + k + ": unknown key; known: " + new TreeSet<>(known));
      }
    }
  }

  private static String text(JsonNode n, String key, String at, List<String> problems, String dflt) {
    JsonNode v = n.get(key);
    if (v == null) {
      if (dflt == null) problems.add(at + ": " + key + ": required");
      return dflt;
    }
    if (!v.isTextual() || v.asText().isBlank()) {
      problems.add(at + ": " + key + ": must be non-empty text");
      return null;
    }
    return v.asText();
  }

  private static long whole(JsonNode o, String key, String at, String prefix, long min, long max, long dflt,
      List<String> problems) {
    JsonNode v = o.get(key);
    if (v == null) return dflt;
    if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
      problems.add(at + ": " + prefix + key + ": must be a whole number from " + min + " to " + max + ", got " + v);
      return dflt;
    }
    return v.asLong();
  }
}
