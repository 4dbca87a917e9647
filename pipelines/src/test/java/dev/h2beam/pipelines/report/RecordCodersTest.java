package dev.h2beam.pipelines.report;

import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.transforms.beam.JsonCoder;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.sdk.testing.CoderProperties;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

/**
 * Every element record of the report pipeline round-trips through its deterministic coder: the namespace facts
 * packed by {@link FactsCodec} through {@link ReportPipeline#PACKED}, the rest through the JSON coder.
 */
class RecordCodersTest {

  /** The facts packed, coded and unpacked are equal to themselves, and equal facts pack to equal bytes. */
  private static void roundTrips(NamespaceFacts facts) throws Exception {
    PackedFacts packed = PackedFacts.pack(facts);
    assertArrayEquals(packed.bytes(), PackedFacts.pack(facts).bytes(), "equal facts pack to equal bytes");
    CoderProperties.coderDeterministic(ReportPipeline.PACKED, packed, PackedFacts.pack(facts));
    PackedFacts decoded = CoderUtils.clone(ReportPipeline.PACKED, packed);
    assertEquals(facts, decoded.unpack());
  }

  @Test
  void namespaceFactsRoundTripDeterministically() throws Exception {
    Scored graded = Fixtures.scored("t1", "agg", 2, "agg1", 1.5, 2, false);
    Scored absent = Fixtures.absent("t2", "seq", 2, "run-missing");
    TaskSummary summary = new TaskSummary("/r/ns/t1/summary.json", "t1",
        Map.of("agg", new TaskSummary.ModeSpend(1, 0.5, 0.0)));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(graded, absent), List.of(summary),
        new RunIdentity("/r/ns/config.json", "demo/oc", "opencode:m", null,
            new java.math.BigInteger("1180591620717411303429")));
    roundTrips(facts);
    roundTrips(NamespaceFacts.empty("/r/x"));
  }

  /** The gated mode's steps (a method_failed not recorded stays not recorded) and the gate config.json records. */
  @Test
  void gateStepsAndTheRecordedGateRoundTrip() throws Exception {
    TaskSummary summary = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of(
        "gat", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 0, null, null,
            new TaskSummary.GateSteps(6, 6, true)),
        "agg", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 0, null, null,
            new TaskSummary.GateSteps(6, null, false)),
        "seq", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 0, null, null,
            new TaskSummary.GateSteps(0, 0, false))));
    RunIdentity id = new RunIdentity("/r/ns/config.json", "demo/oc", "opencode:m", null, null, null, false, null,
        null, "{\"gate\":{\"method\":\"best-of-two\"}}");
    roundTrips(new NamespaceFacts("/r/ns", true, List.of(), List.of(summary), id));
  }

  /**
   * Facts many times larger than the packing's first buffer (3,000 rows, each with strings of its own) round-trip, and
   * their bytes cut short anywhere are refused, not read as fewer facts.
   */
  @Test
  void largeFactsRoundTripAndCutBytesAreRefused() throws Exception {
    List<Scored> rows = new java.util.ArrayList<>();
    List<MetricRow> metrics = new java.util.ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(Fixtures.scored("task-" + i, i % 2 == 0 ? "agg" : "seq", 2, "agg" + (i % 3), i % 4, 3, i % 5 == 0));
      metrics.add(new MetricRow("task-" + i, "agg", 2, Map.of("cost", 0.001 * i), Map.of("quality", "not-applicable")));
    }
    NamespaceFacts facts = new NamespaceFacts("/r/big", true, rows, List.of(), null, true, metrics);
    roundTrips(facts);
    byte[] bytes = PackedFacts.pack(facts).bytes();
    assertTrue(bytes.length > 40_000, bytes.length + " bytes");
    for (int cut : new int[] {1, bytes.length / 3, bytes.length - 1}) {
      assertThrows(UncheckedIOException.class, () -> new PackedFacts(Arrays.copyOf(bytes, cut)).unpack(),
          "cut at " + cut);
    }
  }

  @Test
  void factsWithAMetricVectorTimingAndJudgeRepeatsRoundTripDeterministically() throws Exception {
    Scored repeated = new Scored("t1", "agg", 2, "agg1", "", false, 1.5, 2.0, false, "", "", "", 0.125);
    MetricRow row = new MetricRow("t1", "agg", 2, Map.of("cost", 0.5, "total_tokens", 1200.0),
        Map.of("chosen_wall_s", "not-recorded", "quality", "not-applicable"));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(repeated), List.of(),
        new RunIdentity("/r/ns/config.json", "demo/oc", "opencode:m", "j", java.math.BigInteger.valueOf(3),
            "{\"machine\":\"n2\"}", false,
            "{\"tasks\":[\"t1\"]}", "{\"builds\":[\"unrecorded\"],\"later\":false,\"unstamped\":[\"t1 agg\"]}"), true,
        List.of(row));
    roundTrips(facts);
  }

  @Test
  void factsWithEveryOptionalPartAndRepeatedStringsRoundTripThroughTheCompactCoder() throws Exception {
    TaskSummary.ModeSpend spent = new TaskSummary.ModeSpend(2, 0.25, 1.5, 1, new TaskSummary.Budget(8, 6));
    TaskSummary full = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of("agg", spent, "seq",
        TaskSummary.ModeSpend.NONE), Map.of("agg", List.of("agg1", "agg2"), "seq", List.of()));
    Scored unicode = new Scored("t\u00e9", "seq", 2, "c2", "ns/t\u00e9/seq2", true, null, null, false, "", "judge \u2014 down",
        "judge-failed", null);
    MetricRow sparse = new MetricRow("t1", "agg", 2, Map.of(), Map.of("cost", "not-recorded"));
    MetricRow repeated = new MetricRow("t2", "agg", 2, Map.of("cost", 0.5), Map.of("cost", "not-recorded"));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", false, List.of(unicode, unicode), List.of(full, full),
        new RunIdentity("/r/ns/config.json", null, null, null, null, null, true), true, List.of(sparse, repeated));
    roundTrips(facts);
    CoderProperties.coderSerializable(ReportPipeline.PACKED);
    assertEquals(facts, PackedFacts.pack(facts).unpack(), "the side input's packed form");
    byte[] longer = Arrays.copyOf(PackedFacts.pack(facts).bytes(), PackedFacts.pack(facts).bytes().length + 1);
    assertThrows(UncheckedIOException.class, () -> new PackedFacts(longer).unpack(), "trailing bytes are corrupt");
  }

  /**
   * How many earlier results a --retryFailedSessions resume replaced (200: two bytes), and whether a summary was
   * written after judged.json, travel with the facts.
   */
  @Test
  void retriedCountsAndRewritesAfterTheJudgeRoundTripThroughTheCompactCoder() throws Exception {
    TaskSummary once = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of("agg", TaskSummary.ModeSpend.NONE),
        Map.of(), null, Map.of(), 1, true);
    TaskSummary many = new TaskSummary("/r/ns/t2/summary.json", "t2", Map.of(), Map.of(), null, Map.of(), 200,
        false);
    NamespaceFacts facts = new NamespaceFacts("/r/ns", false, List.of(), List.of(once, many), null, false,
        List.of());
    roundTrips(facts);
    List<TaskSummary> back = PackedFacts.pack(facts).unpack().summaries();
    assertEquals(List.of(1, 200), back.stream().map(TaskSummary::retried).toList());
    assertEquals(List.of(true, false), back.stream().map(TaskSummary::afterJudged).toList());
  }

  /**
   * The counts of costs not known travel with the facts: a summary whose stages, selection or rollouts were not all
   * priced unpacks with the same counts (a count of 200 takes two bytes), and one whose every cost is known unpacks
   * with none.
   */
  @Test
  void countsOfCostsNotKnownRoundTripThroughTheCompactCoder() throws Exception {
    TaskSummary.ModeSpend unknown = new TaskSummary.ModeSpend(0, 0.125, 0.5, 0, new TaskSummary.Budget(8, 6), 3,
        200);
    TaskSummary.ModeSpend known = new TaskSummary.ModeSpend(0, 0.25, 1.0, 0, null);
    TaskSummary t = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of("agg", unknown, "seq", known));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(), List.of(t, t), null);
    roundTrips(facts);
    TaskSummary back = PackedFacts.pack(facts).unpack().summaries().get(1);
    assertEquals(3, back.mode("agg").improverUnknown());
    assertEquals(200, back.mode("agg").executorUnknown());
    assertEquals(0, back.mode("seq").improverUnknown() + back.mode("seq").executorUnknown());
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(TaskSummary.class), t);
  }

  /**
   * A mode's tokens travel with the facts: counted and all of them, counted in part, and not recorded (null, never
   * a count of 0) each unpack as they were, through the compact coder and the JSON one.
   */
  @Test
  void aModesTokensRoundTripAsCountedInPartOrNotRecorded() throws Exception {
    TaskSummary t = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of(
        "agg", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 0, new Tokens(5_000_000_000L, 1234, true)),
        "seq", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 0, new Tokens(70, 0, false)),
        "gated", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null)));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(), List.of(t), null);
    roundTrips(facts);
    TaskSummary back = PackedFacts.pack(facts).unpack().summaries().get(0);
    assertEquals(new Tokens(5_000_000_000L, 1234, true), back.mode("agg").tokens());
    assertEquals(new Tokens(70, 0, false), back.mode("seq").tokens());
    assertEquals(null, back.mode("gated").tokens());
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(TaskSummary.class), t);
  }

  /**
   * A mode's session attempts travel with the facts: all of them counted, counted in part, and not recorded (null,
   * never a count of 0) each unpack as they were, through the compact coder and the JSON one.
   */
  @Test
  void aModesSessionAttemptsRoundTripAsCountedInPartOrNotRecorded() throws Exception {
    TaskSummary t = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of(
        "agg", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 0, null, new TaskSummary.Attempts(300, true)),
        "seq", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null, 0, 0, null, new TaskSummary.Attempts(7, false)),
        "gated", new TaskSummary.ModeSpend(0, 0.0, 0.0, 0, null)));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(), List.of(t), null);
    roundTrips(facts);
    TaskSummary back = PackedFacts.pack(facts).unpack().summaries().get(0);
    assertEquals(new TaskSummary.Attempts(300, true), back.mode("agg").attempts());
    assertEquals(new TaskSummary.Attempts(7, false), back.mode("seq").attempts());
    assertEquals(null, back.mode("gated").attempts());
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(TaskSummary.class), t);
  }

  /** Where each mode's selector choice stood travels with the facts, and a mode without one has none. */
  @Test
  void theSelectorsChoicesRoundTrip() throws Exception {
    TaskSummary t = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of("agg", TaskSummary.ModeSpend.NONE,
        "seq", TaskSummary.ModeSpend.NONE, "gat", TaskSummary.ModeSpend.NONE), Map.of(), null,
        Map.of("seq", new TaskSummary.Choice(3, 3), "agg", new TaskSummary.Choice(1, 2)));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(), List.of(t), null);
    roundTrips(facts);
    TaskSummary back = PackedFacts.pack(facts).unpack().summaries().get(0);
    assertEquals(Map.of("agg", new TaskSummary.Choice(1, 2), "seq", new TaskSummary.Choice(3, 3)), back.choices());
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(TaskSummary.class), t);
  }

  /**
   * What the dead bases of a task whose every base failed cost, and their tokens, travel with the facts, beside
   * summaries of tasks that had a base (none): each unpacks as it was, and through the JSON coder too.
   */
  @Test
  void theDeadBasesOfATaskWhoseEveryBaseFailedRoundTrip() throws Exception {
    TaskSummary.TokenCount tokens = new TaskSummary.TokenCount(5_000_000_000L, 17, 3, 200);
    TaskSummary dead = new TaskSummary("/r/ns/t1/summary.json", "t1", Map.of(), Map.of(),
        new TaskSummary.DeadBases(0.375, 200, tokens));
    TaskSummary known = new TaskSummary("/r/ns/t2/summary.json", "t2", Map.of(), Map.of(),
        new TaskSummary.DeadBases(0.0, 0));
    TaskSummary ran = new TaskSummary("/r/ns/t3/summary.json", "t3", Map.of("agg",
        new TaskSummary.ModeSpend(0, 0.5, 0.25)));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(), List.of(dead, known, ran), null);
    roundTrips(facts);
    List<TaskSummary> back = PackedFacts.pack(facts).unpack().summaries();
    assertEquals(new TaskSummary.DeadBases(0.375, 200, tokens), back.get(0).deadBases());
    assertEquals(new TaskSummary.DeadBases(0.0, 0), back.get(1).deadBases());
    assertEquals(null, back.get(2).deadBases());
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(TaskSummary.class), dead);
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(TaskSummary.class), ran);
  }

  /** FactsCodec writes these components by hand; a record that gains one must be written by it too. */
  @Test
  void theCompactCoderWritesEveryComponentOfTheFactsRecords() {
    Map<Class<?>, String> written = Map.ofEntries(
        Map.entry(NamespaceFacts.class, "dir judgedPresent rows summaries identity metricsPresent metrics"),
        Map.entry(Scored.class, "taskId mode k label runId chosenIsBase nPassed nCriteria allPass metric error absence"
            + " repeatSd"),
        Map.entry(TaskSummary.class, "path taskId modes finals deadBases choices retried afterJudged"),
        Map.entry(TaskSummary.Choice.class, "position candidates"),
        Map.entry(TaskSummary.DeadBases.class, "usd unknown tokens"),
        Map.entry(TaskSummary.TokenCount.class, "input output partial notRecorded"),
        Map.entry(TaskSummary.ModeSpend.class, "fellBack improverUsd executorUsd lessonsScreened budget"
            + " improverUnknown executorUnknown tokens attempts gate"),
        Map.entry(TaskSummary.GateSteps.class, "steps methodFailed baseFinal"),
        Map.entry(TaskSummary.Attempts.class, "count known"),
        Map.entry(TaskSummary.Budget.class, "rollouts sessions"),
        Map.entry(RunIdentity.class, "path executor improver judge seed timing timingMixed cohort writers gate"),
        Map.entry(MetricRow.class, "taskId mode k values absent"));
    written.forEach((type, names) -> assertEquals(names, Arrays.stream(type.getRecordComponents())
        .map(RecordComponent::getName).collect(Collectors.joining(" ")),
        type.getSimpleName() + " has components FactsCodec does not write: add them to FactsCodec and here"));
  }

  @Test
  void judgedFilesSummariesIdentitiesAndFailuresRoundTrip() throws Exception {
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(JudgedFile.class),
        new JudgedFile("/r/ns/judged.json", List.of(Fixtures.scored("t1", "seq", 1, "c1", 1, 1, true))));
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(TaskSummary.class), new TaskSummary("p", "t", Map.of()));
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(RunIdentity.class), new RunIdentity("p", null, null, null,
        null));
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(ReadFailure.class), ReadFailure.of("p", "parse judged",
        new IOException("bad")));
  }
}
