package dev.h2beam.pipelines.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.files.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

/** The judge pipeline's own pieces, apart from a run. */
class JudgePipelineTest {

  /**
   * A namespace written by the shard that graded it must be written as one whose rows went through the grouping: a
   * row coded as the grouping's coder would give it back equals the row coded and decoded whole, field by field and as
   * written to judged.json, for the values a coder gives back otherwise (unordered and nested maps, numbers of every
   * type, values that are not finite, nulls).
   */
  @Test
  void aRowCodedForItsWriterEqualsTheRowThroughTheGroupingsCoder() throws Exception {
    Map<String, Object> nested = new LinkedHashMap<>();
    nested.put("z", 1);
    nested.put("a", new ArrayList<>(Arrays.asList(2.5f, Long.MAX_VALUE, new BigDecimal("1.50"), Double.NaN, null)));
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("n_passed", 1);
    raw.put("b", nested);
    raw.put("a", Double.POSITIVE_INFINITY);
    raw.put("m", null);
    raw.put("big", new BigInteger("123456789012345678901234567890"));
    raw.put("f", 0.1f);
    List<JudgedRow> rows = List.of(
        new JudgedRow("ns", "t1", "agg", 2, "agg1", "r1", false, 3L, 4.0f, true, raw, "", null),
        new JudgedRow("ns", "t2", "seq", 1, "c1", "r2", true, new BigDecimal("0.50"), Double.NaN, false, Map.of(),
            "e", "judge-failed"),
        new JudgedRow("ns", "t3", "agg", 1, null, null, false, null, null, null, null, null, null),
        JudgedRow.absent("ns", "t4", "gat", 3, "g3", "r4", false, Absence.RUN_MISSING, "gone"));
    JudgePipeline.Graded whole = CoderUtils.decodeFromByteArray(JudgePipeline.GRADED,
        CoderUtils.encodeToByteArray(JudgePipeline.GRADED,
            new JudgePipeline.Graded(rows, Map.of(), java.util.Collections.nCopies(rows.size(), 0))));
    List<JudgedRow> together = NamespaceWrite.asCoded(rows);
    for (int i = 0; i < rows.size(); i++) {
      JudgedRow coded = together.get(i);
      assertEquals(coded, NamespaceWrite.asCoded(List.of(rows.get(i))).get(0), "row " + i + " coded alone");
      assertEquals(whole.rows().get(i), coded, "row " + i);
      assertEquals(Json.pretty(whole.rows().get(i).toJson()), Json.pretty(coded.toJson()), "row " + i + " as written");
    }
  }

  /**
   * Each row's spend goes from the grading step to the namespace's writer through the same coder: every part of it,
   * the selection's cost or the reason it has none and the mode's tokens or theirs included, comes back as it was.
   */
  @Test
  void aRowsSpendComesThroughTheGroupingsCoderWhole() throws Exception {
    Map<String, MetricVector.Spend> spend = new LinkedHashMap<>();
    spend.put("a", new MetricVector.Spend("/r/a", 0.5, 0.25, 0.125, null, 1.0));
    spend.put("b", new MetricVector.Spend("/r/b", null, 0.25, null, "spend-unaccounted", null)
        .withSeen(new MetricVector.Seen(true, true, 120.0, 30.0, null, null, 2.5)));
    spend.put("c", new MetricVector.Spend("", 0.5, null, null, "not-recorded", null)
        .withSeen(MetricVector.Seen.NO_RUN_DIR));
    // the mode's tokens, counted or the reason they are not
    spend.put("d", new MetricVector.Spend("/r/d", 0.5, 0.25, 0.125, null, 0.0, 9300.0, 740.0, null, null));
    spend.put("e", new MetricVector.Spend("/r/e", 0.5, 0.25, 0.125, null, 0.0, null, null, "spend-unaccounted",
        MetricVector.Seen.NO_RUN_DIR));
    JudgePipeline.Graded back = CoderUtils.decodeFromByteArray(JudgePipeline.GRADED,
        CoderUtils.encodeToByteArray(JudgePipeline.GRADED, new JudgePipeline.Graded(List.of(), spend, List.of())));
    assertEquals(spend, back.spend());
  }
}
