package dev.h2beam.pipelines.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Build;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which builds of h2beam wrote a namespace: config.json's {@value Build#BUILDS} (each build whose sweep ran there,
 * in the order they came) and each summary.json's {@value Build#BY_MODE} (the build that made each mode's result).
 *
 * <p>An h2beam older than these records drops them when it rewrites a file (it writes the keys it knows). So a mode
 * without a build, in a namespace whose first recorded build is not {@value Build#UNRECORDED}, was written after a
 * recording h2beam began the namespace, by an older one that checked none of what this h2beam records about the run:
 * it may have run under other prices, role settings or inputs than config.json says. Those keys are then taken as
 * unverified (left out of the replicate check, as a resume's are) and the report names the task modes.
 */
final class Writers {
  private Writers() {}

  /** The cohort keys (and, as a prefix, parts) an older writer left unchecked: what it may have run under. */
  private static final List<String> UNCHECKED = List.of("prices", "role_settings");

  private static final String DIGESTS = "input_digests.";

  /** The record of config.json {@code root}'s builds as canonical JSON, or null when it records none. */
  static String recorded(JsonNode root) {
    JsonNode builds = root.get(Build.BUILDS);
    if (builds == null || !builds.isArray()) return null;
    List<String> out = new ArrayList<>();
    for (JsonNode b : builds) out.add(b.asText());
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("builds", out);
    return Json.canonical(w);
  }

  /** Adds to {@code into} each mode of summary {@code root} whose result records no build, as "task mode". */
  static void unstamped(JsonNode root, List<String> into) {
    JsonNode modes = root.has("modes") ? root.get("modes") : root.get("arms");
    if (modes == null || !modes.isObject()) return;
    JsonNode builds = root.get(Build.BY_MODE);
    String task = root.path("task_id").asText();
    for (Iterator<String> it = modes.fieldNames(); it.hasNext(); ) {
      String mode = it.next();
      if (builds == null || !builds.path(mode).isTextual()) into.add(task + " " + mode);
    }
  }

  /**
   * {@code id} with its writers' record completed by the task modes no build is recorded for ({@code unstamped}),
   * and, when they were written after the namespace's first recorded build, its cohort with {@link #UNCHECKED} and
   * the input digests moved to its unverified keys. {@code id} itself when its config.json records no builds.
   */
  @SuppressWarnings("unchecked")
  static RunIdentity of(RunIdentity id, List<String> unstamped) {
    if (id.writers() == null) return id;
    Map<String, Object> w = read(id.writers());
    List<String> builds = (List<String>) w.get("builds");
    List<String> sorted = new ArrayList<>(new TreeSet<>(unstamped));
    w.put("unstamped", sorted);
    String cohort = id.cohort();
    boolean later = !sorted.isEmpty() && !builds.isEmpty() && !builds.get(0).equals(Build.UNRECORDED);
    w.put("later", later);
    if (later && cohort != null) {
      Map<String, Object> c = new TreeMap<>(read(cohort));
      Set<String> unverified = new TreeSet<>();
      if (c.get(RunIdentity.UNVERIFIED) instanceof List<?> l) l.forEach(x -> unverified.add(String.valueOf(x)));
      for (String key : new ArrayList<>(c.keySet())) {
        if (UNCHECKED.contains(key) || key.startsWith(DIGESTS)) {
          c.remove(key);
          unverified.add(key);
        }
      }
      if (!unverified.isEmpty()) c.put(RunIdentity.UNVERIFIED, new ArrayList<>(unverified));
      cohort = Json.canonical(c);
    }
    return id.withWriters(cohort, Json.canonical(w));
  }

  /**
   * The report's lines on the builds that wrote the reported namespaces: said for each namespace that more than one
   * build wrote, or that holds task modes no build is recorded for; nothing when every namespace is one build's.
   */
  @SuppressWarnings("unchecked")
  static List<String> lines(Set<NamespaceRef> reported, Map<String, NamespaceFacts> byDir) {
    List<String> out = new ArrayList<>();
    for (NamespaceRef ns : reported) {
      RunIdentity id = Report.facts(byDir, ns).identity();
      if (id == null || id.writers() == null) continue;
      Map<String, Object> w = read(id.writers());
      List<String> builds = (List<String>) w.get("builds");
      List<String> unstamped = (List<String>) w.getOrDefault("unstamped", List.of());
      if (builds.size() < 2 && unstamped.isEmpty()) continue;
      if (out.isEmpty()) {
        out.add("");
        out.add("Written by more than one h2beam (config.json's \"" + Build.BUILDS + "\", each summary.json's \""
            + Build.BY_MODE + "\"):");
      }
      List<String> named = new ArrayList<>();
      for (String b : builds) named.add(shown(b));
      String line = "  " + ns.name() + ": " + String.join(", then ", named);
      if (!unstamped.isEmpty()) {
        String which = unstamped.size() + " task mode" + (unstamped.size() == 1 ? "" : "s") + " ("
            + String.join(", ", unstamped.subList(0, Math.min(5, unstamped.size())))
            + (unstamped.size() > 5 ? ", ..." : "") + ")";
        line += Boolean.TRUE.equals(w.get("later"))
            ? "; " + which + " last written by an h2beam that records no build, after this namespace's first"
            + " recorded build: an older h2beam, which checked none of the prices, role settings and inputs"
            + " config.json records, so they are taken as unverified for the whole namespace"
            : "; " + which + " written by an h2beam that records no build (before 2026-12-06)";
      }
      out.add(line);
    }
    return out;
  }

  /** A build as the report names it: its commit's first 12 digits, with its mark of uncommitted changes. */
  private static String shown(String build) {
    if (build.equals(Build.UNRECORDED)) return "an h2beam that recorded no build (before 2026-12-06)";
    int plus = build.indexOf('+');
    String commit = plus < 0 ? build : build.substring(0, plus);
    return (commit.matches("[0-9a-f]{40}") ? commit.substring(0, 12) : commit) + (plus < 0 ? ""
        : " (" + build.substring(plus + 1) + ")");
  }

  private static Map<String, Object> read(String json) {
    try {
      return Json.readMap(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
