package dev.h2beam.pipelines.report;

import dev.h2beam.transforms.beam.JsonCoder;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.testing.CoderProperties;
import org.junit.jupiter.api.Test;

/** Every element record of the report pipeline round-trips through the deterministic JSON coder. */
class RecordCodersTest {

  @Test
  void namespaceFactsRoundTripDeterministically() throws Exception {
    Scored graded = Fixtures.scored("t1", "agg", 2, "agg1", 1.5, 2, false);
    Scored absent = Fixtures.absent("t2", "seq", 2, "run-missing");
    TaskSummary summary = new TaskSummary("/r/ns/t1/summary.json", "t1",
        Map.of("agg", new TaskSummary.ModeSpend(1, 0.5, 0.0)));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(graded, absent), List.of(summary),
        new RunIdentity("/r/ns/config.json", "demo/oc", "opencode:m", null, 3L));
    CoderProperties.coderDeterministic(JsonCoder.of(NamespaceFacts.class), facts, facts);
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(NamespaceFacts.class), facts);
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(NamespaceFacts.class), NamespaceFacts.empty("/r/x"));
  }

  @Test
  void factsWithAMetricVectorTimingAndJudgeRepeatsRoundTripDeterministically() throws Exception {
    Scored repeated = new Scored("t1", "agg", 2, "agg1", "", false, 1.5, 2.0, false, "", "", "", 0.125);
    MetricRow row = new MetricRow("t1", "agg", 2, Map.of("cost", 0.5, "total_tokens", 1200.0),
        Map.of("chosen_wall_s", "not-recorded", "quality", "not-applicable"));
    NamespaceFacts facts = new NamespaceFacts("/r/ns", true, List.of(repeated), List.of(),
        new RunIdentity("/r/ns/config.json", "demo/oc", "opencode:m", "j", 3L, "{\"machine\":\"n2\"}", false), true,
        List.of(row));
    CoderProperties.coderDeterministic(JsonCoder.of(NamespaceFacts.class), facts, facts);
    CoderProperties.coderDecodeEncodeEqual(JsonCoder.of(NamespaceFacts.class), facts);
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
