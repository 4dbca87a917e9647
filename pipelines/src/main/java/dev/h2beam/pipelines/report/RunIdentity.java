package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.math.BigInteger;
import java.util.List;

/**
 * The identity a namespace's {@code config.json} declares (spec §3.6): executor, improver and judge, each null
 * when not recorded. Comparability conditions C3 and C4 are read from here; an unknown identity is not compared: it
 * counts neither as equal nor as different.
 *
 * @param timing the declared timing environment ({@code timing}: runner, machine, workers, limits) as canonical
 *     JSON, or null when not recorded; time metrics compare only under one such environment
 * @param timingMixed the namespace was resumed in different environments ({@code {"mixed": true, ...}}): its times
 *     compare with nothing
 * @param cohort what else makes the run the experiment it is ({@link #COHORT_KEYS}, the task set and each part of
 *     {@code input_digests}), as canonical JSON of key to value; null when not recorded. Replicates differ only in
 *     seed: namespaces whose cohorts differ are not pooled ({@link Report#notReplicates})
 * @param writers the builds of h2beam that wrote the namespace ({@link Writers}), as canonical JSON; null when its
 *     config.json records none
 * @param gate the gated mode's method and policy as config.json records them ({@link #GATE_KEYS}: its {@code gate}
 *     and {@code gate_code}, {@link GateSetup}), as canonical JSON of those it records; null when it records neither.
 *     Read for the report to name them, whatever the cohort (which compares {@code gate}) leaves out
 */
public record RunIdentity(String path, String executor, String improver, String judge, BigInteger seed,
    String timing, boolean timingMixed, String cohort, String writers, String gate) implements Serializable {

  /**
   * The keys of config.json two replicates must agree on, besides {@code tasks} (a set: its order follows the seed)
   * and the parts of {@code input_digests}. Not here: the seed; the judge (compared beside them by
   * {@link Report#notReplicates}, and by C3); the executor and improver (C4 compares them); {@code bench_root} (a
   * moved benchmark is the same one when its digests match); {@code timing} (time metrics check it);
   * {@code max_tasks} and {@code domains} (ways of choosing the tasks, which the task set records).
   */
  public static final List<String> COHORT_KEYS = List.of("method_version", "split",
      "bench_provider", "roles", "role_settings", "prices", "gate", "gate_code");

  /**
   * The cohort keys every sweep of this h2beam records, whatever its options: a key among them that no reported
   * namespace records (all written by an older h2beam) is still one the replicate check could not compare.
   */
  public static final List<String> ALWAYS_RECORDED = List.of("method_version", "split", "bench_provider", "tasks",
      "input_digests.base", "input_digests.prompts", "input_digests.tasks");

  /**
   * The cohort's entry listing the keys config.json records as {@code unverified} (left out of the cohort, and said
   * by the report): a resume recorded them after work it could not check them against.
   */
  public static final String UNVERIFIED = "unverified";

  /** The keys of config.json that say which method and policy the gated mode ran ({@link GateSetup}). */
  public static final List<String> GATE_KEYS = List.of("gate", "gate_code");

  public RunIdentity {
    executor = blankToNull(executor);
    improver = blankToNull(improver);
    judge = blankToNull(judge);
    timing = blankToNull(timing);
    cohort = blankToNull(cohort);
    writers = blankToNull(writers);
    gate = blankToNull(gate);
  }

  /** An identity whose config.json records no gated method (a namespace the gated mode never ran in). */
  public RunIdentity(String path, String executor, String improver, String judge, BigInteger seed, String timing,
      boolean timingMixed, String cohort, String writers) {
    this(path, executor, improver, judge, seed, timing, timingMixed, cohort, writers, null);
  }

  /** An identity whose config.json records no builds of h2beam. */
  public RunIdentity(String path, String executor, String improver, String judge, BigInteger seed, String timing,
      boolean timingMixed, String cohort) {
    this(path, executor, improver, judge, seed, timing, timingMixed, cohort, null);
  }

  /** An identity that records no cohort (a config.json of harness2 or of an older h2beam). */
  public RunIdentity(String path, String executor, String improver, String judge, BigInteger seed, String timing,
      boolean timingMixed) {
    this(path, executor, improver, judge, seed, timing, timingMixed, null);
  }

  /** An identity that declares no timing environment. */
  public RunIdentity(String path, String executor, String improver, String judge, BigInteger seed) {
    this(path, executor, improver, judge, seed, null, false, null);
  }

  /** The same identity with another judge: the one h2beam recorded where harness2's config.json names its own. */
  public RunIdentity withJudge(String other) {
    return new RunIdentity(path, executor, improver, other, seed, timing, timingMixed, cohort, writers, gate);
  }

  /** The same identity with another cohort and record of its writers ({@link Writers#of}). */
  RunIdentity withWriters(String otherCohort, String otherWriters) {
    return new RunIdentity(path, executor, improver, judge, seed, timing, timingMixed, otherCohort, otherWriters,
        gate);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
