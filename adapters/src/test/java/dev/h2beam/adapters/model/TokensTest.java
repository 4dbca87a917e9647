package dev.h2beam.adapters.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.exec.ExecResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model tokens a rollout or session spent: sums that are known only when every part is, a count that stops
 * being the whole, counts that are never negative; an executor's counts, and the results that carry them (a result
 * that does not say is {@link Tokens#UNKNOWN}, work that calls no model is {@link Tokens#NONE}).
 */
class TokensTest {
  private static final Path DIR = Path.of("/tmp/h2beam-tokens-test");

  @Test
  void noneIsAKnownNothingAndUnknownIsNeverAZero() {
    assertEquals(new Tokens(0, 0, true), Tokens.NONE);
    assertEquals(new Tokens(0, 0, false), Tokens.UNKNOWN);
    assertNotEquals(Tokens.NONE, Tokens.UNKNOWN);
    assertEquals(0, Tokens.NONE.total());
  }

  @Test
  void plusSumsBothSidesAndIsKnownOnlyWhenBothAre() {
    Tokens a = new Tokens(3, 4, true);
    Tokens b = new Tokens(10, 20, true);
    assertEquals(new Tokens(13, 24, true), a.plus(b));
    assertEquals(new Tokens(13, 24, false), a.plus(new Tokens(10, 20, false)));
    assertEquals(new Tokens(13, 24, false), new Tokens(3, 4, false).plus(b));
    assertEquals(new Tokens(13, 24, false), new Tokens(3, 4, false).plus(new Tokens(10, 20, false)));
    assertEquals(a, a.plus(Tokens.NONE), "nothing known adds nothing");
    assertEquals(new Tokens(3, 4, false), a.plus(Tokens.UNKNOWN), "an unknown part makes the sum not the whole");
    assertEquals(37, a.plus(b).total());
  }

  @Test
  void partialKeepsTheCountsAndIsNoLongerAllOfIt() {
    assertEquals(new Tokens(7, 2, false), new Tokens(7, 2, true).partial());
    Tokens already = new Tokens(7, 2, false);
    assertEquals(already, already.partial());
    assertEquals(Tokens.UNKNOWN, Tokens.NONE.partial());
  }

  @Test
  void negativeCountsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Tokens(-1, 0, true));
    assertThrows(IllegalArgumentException.class, () -> new Tokens(0, -1, false));
  }

  @Test
  void theJsonFormNamesInputThenOutput() {
    Map<String, Object> json = new Tokens(12, 3, false).toJson();
    assertEquals(Map.of("input", 12L, "output", 3L), json);
    assertEquals(List.of("input", "output"), List.copyOf(json.keySet()));
  }

  /**
   * What an executor, a marker or an agent observed: known when it observed both and its cost is known, else the part
   * it counted; a count below 0 is no count (a server's or an agent's odd report never fails the work).
   */
  @Test
  void observedTokensAreKnownOnlyWithBothCountsAndTheCostKnown() {
    assertEquals(new Tokens(120, 30, true), Tokens.observed(120L, 30L, true));
    assertEquals(new Tokens(120, 30, false), Tokens.observed(120L, 30L, false), "cost not known: partial");
    assertEquals(new Tokens(0, 30, false), Tokens.observed(null, 30L, true), "an input not observed");
    assertEquals(new Tokens(120, 0, false), Tokens.observed(120L, null, true), "an output not observed");
    assertEquals(Tokens.UNKNOWN, Tokens.observed(null, null, true));
    assertEquals(Tokens.UNKNOWN, Tokens.observed(null, null, false));
    assertEquals(Tokens.NONE, Tokens.observed(0L, 0L, true), "counted zero of both: a known nothing");
    assertEquals(new Tokens(0, 3, false), Tokens.observed(-5L, 3L, true), "a count below 0 is not observed");
    assertEquals(new Tokens(4, 0, false), Tokens.observed(4L, -1L, true));
  }

  @Test
  void anExecResultReportsTheTokensOfItsOwnCountsAndCost() {
    assertEquals(new Tokens(9, 4, true), new ExecResult(DIR, 0, 1.0, 9L, 4L, 0.01, "", "", true).tokens());
    assertEquals(new Tokens(9, 4, false), new ExecResult(DIR, 0, 1.0, 9L, 4L, 0.01, "", "", false).tokens());
    assertEquals(new Tokens(0, 4, false), new ExecResult(DIR, 0, 1.0, null, 4L, 0.0, "", "").tokens());
    assertEquals(Tokens.UNKNOWN, new ExecResult(DIR, 3, 1.0, null, null, 0.0, "exit", "boom").tokens());
  }

  @Test
  void theDemosScriptedRolloutSpendsAKnownNothing() {
    Rollout scripted = new Rollout(DIR, false);
    assertEquals(Tokens.NONE, scripted.tokens());
    assertTrue(scripted.costKnown());
    assertEquals(0.0, scripted.costUsd());
    assertEquals(Tokens.NONE, new Rollout(DIR, true).tokens());
  }

  @Test
  void aRolloutThatDoesNotSayItsTokensIsUnknown() {
    assertEquals(Tokens.UNKNOWN, new Rollout(DIR, false, 0.5, 2.0, true).tokens());
    assertEquals(Tokens.UNKNOWN, new Rollout(DIR, false, 0.5, 2.0).tokens());
    assertEquals(Tokens.UNKNOWN, new Rollout(DIR, false, 0.5, 2.0, true, null).tokens());
    Tokens t = new Tokens(5, 6, true);
    assertEquals(t, new Rollout(DIR, false, 0.5, 2.0, true, t).tokens());
  }

  @Test
  void aScriptedSessionIsAKnownZeroDollarsAndNoTokens() {
    SessionResult r = SessionResult.scripted("the answer");
    assertEquals("the answer", r.text());
    assertEquals("", r.error());
    assertEquals(0.0, r.costUsd());
    assertTrue(r.costKnown());
    assertEquals(Tokens.NONE, r.tokens());
    assertEquals(Map.of(), r.meta());
    assertEquals(Tokens.NONE, r.withMeta(Map.of(SessionResult.MODEL_ID, "m")).tokens(), "meta keeps the tokens");
  }

  @Test
  void aSessionResultThatDoesNotSayItsTokensIsUnknown() {
    assertEquals(Tokens.UNKNOWN, SessionResult.reply("x", 0.0).tokens());
    assertEquals(Tokens.UNKNOWN, SessionResult.failed("no", 0.1).tokens());
    assertEquals(Tokens.UNKNOWN, new SessionResult("x", 0.0, "", Map.of(), true).tokens());
    assertEquals(Tokens.UNKNOWN, new SessionResult("x", 0.0, "", Map.of(), true, null).tokens());
    Tokens t = new Tokens(40, 8, false);
    SessionResult counted = new SessionResult("x", 0.2, "", Map.of(), false, t);
    assertEquals(t, counted.tokens());
    assertEquals(t, counted.withMeta(Map.of(SessionResult.MODEL_ID, "m")).tokens());
  }

  @Test
  void aFailedOrDeadRolloutCarriesItsTokensOrSaysItDoesNot() {
    Tokens t = new Tokens(11, 2, true);
    assertEquals(t, new RolloutFailed("broke", 0.1, true, t).tokens());
    assertEquals(Tokens.UNKNOWN, new RolloutFailed("broke", 0.1, true).tokens());
    assertEquals(Tokens.UNKNOWN, new RolloutFailed("broke", 0.1, true, null).tokens());
    RunView dead = RunView.dead("l", "r", "/nowhere", "broke", 0.1, true, t);
    assertEquals(t, dead.tokens());
    assertFalse(dead.ok());
    assertEquals(Tokens.UNKNOWN, RunView.dead("l", "r", "/nowhere", "broke", 0.0, false).tokens());
    assertEquals(Tokens.UNKNOWN, new RunView("l", "r", "/d", true, true, 0.0, 1.0, "", true).tokens());
  }

  /**
   * A record's tokens as h2beam writes them read back: all counted without a mark, partial with {@code
   * tokens_known: false} (or any mark but true), and none (null, never 0) when the record has no counts or counts of
   * another shape.
   */
  @Test
  void aRecordsTokensReadBackAsWrittenAndNoneWhenItHasNoCounts() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    assertEquals(new Tokens(40, 2, true), Tokens.recorded(json.readTree(
        "{\"tokens\": {\"input\": 40, \"output\": 2}}")));
    assertEquals(new Tokens(40, 2, false), Tokens.recorded(json.readTree(
        "{\"tokens\": {\"input\": 40, \"output\": 2}, \"tokens_known\": false}")));
    assertEquals(new Tokens(40, 2, false), Tokens.recorded(json.readTree(
        "{\"tokens\": {\"input\": 40, \"output\": 2}, \"tokens_known\": null}")));
    for (String none : List.of("{}", "{\"tokens\": null}", "{\"tokens\": {\"input\": 40}}",
        "{\"tokens\": {\"input\": -1, \"output\": 2}}", "{\"tokens\": [40, 2]}", "[]")) {
      assertEquals(null, Tokens.recorded(json.readTree(none)), none);
    }
    assertEquals(null, Tokens.recorded(null));
  }
}
