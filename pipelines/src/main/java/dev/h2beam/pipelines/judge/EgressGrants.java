package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.config.ReferenceGrant;
import dev.h2beam.adapters.config.RunConfig;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reference egress grants held against the judges of a run (seed document 001): a grader that sends a benchmark's
 * grading references to a model grades only under the configuration's grant for that benchmark, matching it on
 * endpoint, pinned model and references; a grant for a benchmark judged here whose grader sends no reference is
 * refused too. Checked before any grader is opened and again when a worker opens one, so nothing leaves without it.
 * A grant for a benchmark this run does not judge is left alone: one configuration may serve several benchmarks.
 */
final class EgressGrants {
  private EgressGrants() {}

  /**
   * One namespace to judge.
   *
   * @param needed the grant its grader needs (what leaves, and to where), or empty when it sends no reference
   */
  record Judged(String namespace, String benchmark, String grader, Optional<ReferenceGrant> needed) {}

  /** The configuration {@code --config} names, or the empty one when none is given. */
  static RunConfig config(Map<String, String> settings) {
    return RunConfig.ofFlag(settings.get("config"));
  }

  /** Why a grader that needs {@code needed} may not send it under {@code config}, or empty when a grant matches. */
  static Optional<String> problem(RunConfig config, String source, ReferenceGrant needed) {
    Optional<ReferenceGrant> grant = config.grant(needed.benchmark());
    if (grant.isEmpty()) {
      return Optional.of("the judge of benchmark " + needed.benchmark() + " sends " + needed.references()
          + " to endpoint " + needed.endpoint() + " (model " + needed.model() + "), and " + source + " grants no"
          + " reference egress for " + needed.benchmark() + "; if those references may go to that model, add this"
          + " entry to its grants: list: " + needed.entry());
    }
    List<String> differences = grant.get().differences(needed);
    if (differences.isEmpty()) return Optional.empty();
    List<String> fields = new ArrayList<>();
    for (String f : differences) {
      fields.add(f + " is \"" + grant.get().field(f) + "\" in the grant but \"" + needed.field(f) + "\" for the judge");
    }
    return Optional.of(source + ": " + at(config, grant.get()) + " (benchmark " + needed.benchmark() + ") does not"
        + " match the judge: " + String.join("; ", fields) + "; if the references may go there, make the grant read "
        + needed.entry() + ", else point roles.judge back at what the grant names");
  }

  /**
   * Every reason the run may not judge: per benchmark judged, a missing or altered grant for a grader that sends
   * references, or a grant for one whose graders send none; empty when the run may go ahead.
   */
  static List<String> problems(RunConfig config, String source, List<Judged> judged) {
    Map<String, List<Judged>> byBenchmark = new TreeMap<>();
    for (Judged j : judged) byBenchmark.computeIfAbsent(j.benchmark(), b -> new ArrayList<>()).add(j);
    List<String> out = new ArrayList<>();
    byBenchmark.forEach((benchmark, js) -> {
      TreeSet<String> needed = new TreeSet<>();
      TreeSet<String> graders = new TreeSet<>();
      for (Judged j : js) {
        graders.add(j.grader());
        if (j.needed().isPresent()) {
          problem(config, source, j.needed().get()).filter(needed::add).ifPresent(p -> out.add(names(js) + ": " + p));
        }
      }
      boolean sends = js.stream().anyMatch(j -> j.needed().isPresent());
      config.grant(benchmark).filter(g -> !sends).ifPresent(g -> out.add(source + ": " + at(config, g) + " (benchmark "
          + benchmark + ") grants reference egress, but its judge here (--grader=" + String.join(", ", graders)
          + ") sends no reference to any model, so the grant permits nothing; remove it"));
    });
    return out;
  }

  /** The grant's place in the file, {@code grants[i]}. */
  private static String at(RunConfig config, ReferenceGrant g) {
    return "grants[" + config.grants().indexOf(g) + "]";
  }

  private static String names(List<Judged> js) {
    TreeSet<String> out = new TreeSet<>();
    for (Judged j : js) out.add(Paths.get(j.namespace()).getFileName().toString());
    return String.join(", ", out);
  }
}
