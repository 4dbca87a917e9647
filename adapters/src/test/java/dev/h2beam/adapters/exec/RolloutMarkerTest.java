package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.Rollout;
import dev.h2beam.adapters.model.Tokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rollout's completion marker records its spend, and a reused rollout reports exactly what the fresh one did: its
 * cost, whether that cost is all of it, and its tokens.
 */
class RolloutMarkerTest {
  @TempDir Path tmp;

  static Stream<Arguments> spends() {
    return Stream.of(
        Arguments.of(120L, 30L, true, new Tokens(120, 30, true)),
        Arguments.of(null, null, true, Tokens.UNKNOWN),
        Arguments.of(120L, 30L, false, new Tokens(120, 30, false)),
        Arguments.of(null, null, false, Tokens.UNKNOWN),
        Arguments.of(null, 30L, true, new Tokens(0, 30, false)),
        Arguments.of(0L, 0L, true, Tokens.NONE));
  }

  @ParameterizedTest
  @MethodSource("spends")
  void aReusedRolloutReportsTheTokensTheFreshOneDid(Long in, Long out, boolean costKnown, Tokens expected)
      throws Exception {
    Path runDir = Files.createDirectories(tmp.resolve("run"));
    ExecResult r = new ExecResult(runDir, 0, 2.5, in, out, 0.25, "", "", costKnown);
    Rollout fresh = RolloutMarker.complete(runDir, runDir, "ns/t/base1", "fp", 1000.0, Map.of(), r, "command:x",
        tmp.resolve("task"));
    assertFalse(fresh.reused());
    assertEquals(expected, fresh.tokens());
    JsonNode mark = Runmark.readMark(runDir);
    assertEquals(in == null, mark.path("input_tokens").isNull(), "an unobserved count stays null: " + mark);
    Rollout reused = RolloutMarker.reused(runDir, mark);
    assertTrue(reused.reused());
    assertEquals(fresh.tokens(), reused.tokens(), mark.toString());
    assertEquals(fresh.costKnown(), reused.costKnown());
    assertEquals(fresh.costUsd(), reused.costUsd());
    assertEquals(fresh.wallS(), reused.wallS());
  }

  /**
   * A marker written before cost_known was recorded priced every call it counted; a count it does not hold as a
   * whole number of at least 0 was not observed.
   */
  @Test
  void anOlderOrOddMarkerIsReadAsItsWriterMeantIt() throws Exception {
    Path runDir = tmp.resolve("run");
    assertEquals(new Tokens(10, 2, true), reused(runDir, "{\"cost_usd\": 0.5, \"input_tokens\": 10,"
        + " \"output_tokens\": 2}").tokens());
    assertEquals(Tokens.UNKNOWN, reused(runDir, "{\"cost_usd\": 0.5}").tokens());
    assertEquals(new Tokens(0, 2, false), reused(runDir, "{\"input_tokens\": -1, \"output_tokens\": 2}").tokens());
    assertEquals(new Tokens(0, 2, false), reused(runDir, "{\"input_tokens\": \"10\", \"output_tokens\": 2}")
        .tokens());
    assertEquals(new Tokens(0, 2, false), reused(runDir, "{\"input_tokens\": 1.5, \"output_tokens\": 2}").tokens());
    assertEquals(new Tokens(10, 2, false), reused(runDir, "{\"cost_known\": false, \"input_tokens\": 10,"
        + " \"output_tokens\": 2}").tokens());
    // a marker without a cost (not an h2beam marker's): its spend is not known, never a known zero
    assertTrue(reused(runDir, "{\"cost_usd\": 0.5}").costKnown());
    assertFalse(reused(runDir, "{\"output_tokens\": 2}").costKnown());
    assertFalse(reused(runDir, "{\"cost_usd\": \"0.5\"}").costKnown());
  }

  /**
   * A rollout whose cost is known and whose tokens are only the part counted (a free endpoint's uncounted call) says
   * so in its marker beside the known cost, and is reused so; a marker says it only when it is false.
   */
  @Test
  void tokensCountedInPartBesideAKnownCostAreMarkedAndReusedSo() throws Exception {
    Path runDir = Files.createDirectories(tmp.resolve("free"));
    ExecResult r = new ExecResult(runDir, 0, 1.0, 40L, 9L, 0.0, "", "", true, false);
    Rollout fresh = RolloutMarker.complete(runDir, runDir, "ns/t/base1", "fp", 1000.0, Map.of(), r, "command:x",
        tmp.resolve("task"));
    assertEquals(new Tokens(40, 9, false), fresh.tokens());
    assertTrue(fresh.costKnown());
    JsonNode mark = Runmark.readMark(runDir);
    assertFalse(mark.path("tokens_known").asBoolean(true), mark.toString());
    assertFalse(mark.has("cost_known"), mark.toString());
    Rollout reused = RolloutMarker.reused(runDir, mark);
    assertEquals(fresh.tokens(), reused.tokens());
    assertTrue(reused.costKnown());

    Path whole = Files.createDirectories(tmp.resolve("whole"));
    RolloutMarker.complete(whole, whole, "ns/t/base2", "fp", 1000.0, Map.of(),
        new ExecResult(whole, 0, 1.0, 40L, 9L, 0.0, "", "", true, true), "command:x", tmp.resolve("task"));
    assertFalse(Runmark.readMark(whole).has("tokens_known"), "written only when false, as cost_known");
    assertEquals(new Tokens(40, 9, true), RolloutMarker.tokens(Runmark.readMark(whole)));
    assertEquals(new Tokens(40, 9, false), RolloutMarker.tokens(Json.MAPPER.readTree(
        "{\"tokens_known\": \"no\", \"input_tokens\": 40, \"output_tokens\": 9}")), "anything but true: not all");
  }

  private static Rollout reused(Path runDir, String mark) throws Exception {
    return RolloutMarker.reused(runDir, Json.MAPPER.readTree(mark));
  }
}
