package dev.h2beam.transforms.ledger;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.Tokens;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The budget ledger of spec §2.8: R = 4k rollouts, P = 3k sessions, no label twice. */
class LedgerTest {
  private static final List<String> PARALLEL_ROLLOUTS =
      List.of("base1", "base2", "inv1", "dom1", "inv2", "dom2", "agg1", "agg2");
  private static final List<String> PARALLEL_SESSIONS = List.of("inv1", "dom1", "inv2", "dom2", "agg1", "agg2");

  private static Ledger ledger(List<String> rollouts, List<String> sessions) {
    Ledger l = new Ledger("agg", "ledger-1", 2);
    for (String r : rollouts) l.rollout(r, 0.0, true, Tokens.NONE);
    for (String s : sessions) l.session(s, 0.0, false, 1, true, Tokens.NONE);
    return l;
  }

  @Test
  void fourKRolloutsAndThreeKSessionsPass() {
    assertDoesNotThrow(() -> ledger(PARALLEL_ROLLOUTS, PARALLEL_SESSIONS).assertIdentity());
  }

  @Test
  void sequentialLabelsAtKOnePass() {
    Ledger l = new Ledger("seq", "t", 1);
    for (String r : List.of("base1", "inv1", "dom1", "c1")) l.rollout(r, 0.0);
    for (String s : List.of("inv1", "dom1", "c1")) l.session(s, 0.5, true, 0);
    assertDoesNotThrow(l::assertIdentity);
  }

  @Test
  void shortRolloutCountFailsWithActualWantedAndLabels() {
    Ledger l = ledger(PARALLEL_ROLLOUTS.subList(0, 7), PARALLEL_SESSIONS);
    BudgetError e = assertThrows(BudgetError.class, l::assertIdentity);
    String m = e.getMessage();
    assertTrue(m.contains("R=7 (want 8)"), m);
    assertTrue(m.contains("P=6 (want 6)"), m);
    assertTrue(m.contains("rollouts [base1, base2, inv1, dom1, inv2, dom2, agg1]"), m);
    assertTrue(m.contains("sessions [inv1, dom1, inv2, dom2, agg1, agg2]"), m);
  }

  @Test
  void shortSessionCountFailsWithActualWantedAndLabels() {
    Ledger l = ledger(PARALLEL_ROLLOUTS, PARALLEL_SESSIONS.subList(0, 4));
    BudgetError e = assertThrows(BudgetError.class, l::assertIdentity);
    String m = e.getMessage();
    assertTrue(m.contains("R=8 (want 8)"), m);
    assertTrue(m.contains("P=4 (want 6)"), m);
    assertTrue(m.contains("sessions [inv1, dom1, inv2, dom2]"), m);
  }

  /**
   * A spend not all known stays out of no sum silently: the sums are the known parts, and the ledger names the entries
   * they leave out; a ledger whose every spend is known keeps harness2's keys, then h2beam's tokens.
   */
  @Test
  void entriesWhoseSpendIsNotAllKnownAreNamedBesideTheSums() {
    Ledger l = new Ledger("agg", "t", 2);
    for (String r : PARALLEL_ROLLOUTS) l.rollout(r, 0.5, !r.equals("inv2"), Tokens.NONE);
    for (String s : PARALLEL_SESSIONS) l.session(s, 0.25, false, 1, !s.startsWith("agg"), Tokens.NONE);
    Map<String, Object> json = l.toJson();
    assertEquals(5.5, json.get("usd"));
    assertEquals(4.0, json.get("rollout_usd"));
    assertEquals(Map.of("rollouts", List.of("inv2"), "sessions", List.of("agg1", "agg2")), json.get("cost_unknown"));
    assertEquals(List.of("rollouts", "sessions", "cost_unknown", "tokens"),
        List.copyOf(json.keySet()).subList(json.size() - 4, json.size()));
    assertEquals(List.of("inv2"), l.unknownCost("rollout"));

    Map<String, Object> known = ledger(PARALLEL_ROLLOUTS, PARALLEL_SESSIONS).toJson();
    assertEquals(List.of("mode", "task_id", "k", "R", "expected_R", "P", "session_attempts", "expected_P", "usd",
        "rollout_usd", "session_usd", "rollouts", "sessions", "tokens"), List.copyOf(known.keySet()));
  }

  /**
   * The tokens are every entry's, added up as far as they were counted; the entries whose tokens are not all counted
   * are named, as those whose cost is not known are, so the sum is never taken for the whole. A ledger of work that
   * called no model records a known 0 and 0, not nothing.
   */
  @Test
  void tokensSumEveryEntryAndNameThoseNotAllCounted() {
    Ledger l = new Ledger("seq", "t", 1);
    l.rollout("base1", 0.0, true, new Tokens(100, 10, true));
    l.session("inv1", 0.0, false, 1, true, new Tokens(2000, 300, true));
    l.rollout("inv1", 0.0, true, new Tokens(50, 5, false));
    l.session("dom1", 0.0, false, 1, true, Tokens.UNKNOWN);
    l.session("c1", 0.0, true, 1, true, new Tokens(7, 1, true));
    Map<String, Object> json = l.toJson();
    assertEquals(Map.of("input", 2157L, "output", 316L), json.get("tokens"));
    assertEquals(Map.of("rollouts", List.of("inv1"), "sessions", List.of("dom1")), json.get("tokens_unknown"));
    assertEquals("tokens_unknown", List.copyOf(json.keySet()).get(json.size() - 1));
    assertEquals(new Tokens(2157, 316, false), l.tokens());
    assertEquals(List.of("dom1"), l.unknownTokens("session"));
    assertTrue(l.unknownCost("session").isEmpty(), "a cost can be known while the tokens are not (a free endpoint)");

    Map<String, Object> none = ledger(PARALLEL_ROLLOUTS, PARALLEL_SESSIONS).toJson();
    assertEquals(Map.of("input", 0L, "output", 0L), none.get("tokens"));
    assertFalse(none.containsKey("tokens_unknown"));
    assertFalse(none.containsKey("cost_unknown"));
  }

  @Test
  void budgetErrorIsAnAssertionError() {
    assertTrue(AssertionError.class.isAssignableFrom(BudgetError.class));
  }

  @Test
  void duplicateRolloutLabelFailsEvenWhenCountsAreRight() {
    List<String> rollouts = List.of("base1", "base2", "inv1", "dom1", "inv1", "dom2", "agg1", "agg2");
    BudgetError e = assertThrows(BudgetError.class, () -> ledger(rollouts, PARALLEL_SESSIONS).assertIdentity());
    assertTrue(e.getMessage().contains("R=8 (want 8)"), e.getMessage());
    assertTrue(e.getMessage().contains("duplicate labels [inv1]"), e.getMessage());
  }

  @Test
  void duplicateSessionLabelFailsEvenWhenCountsAreRight() {
    List<String> sessions = List.of("inv1", "dom1", "inv2", "dom2", "agg1", "agg1");
    BudgetError e = assertThrows(BudgetError.class, () -> ledger(PARALLEL_ROLLOUTS, sessions).assertIdentity());
    assertTrue(e.getMessage().contains("P=6 (want 6)"), e.getMessage());
    assertTrue(e.getMessage().contains("duplicate labels [agg1]"), e.getMessage());
  }

  @Test
  void toJsonKeysAreInSpecOrder() {
    Map<String, Object> json = ledger(PARALLEL_ROLLOUTS, PARALLEL_SESSIONS).toJson();
    assertEquals(List.of("mode", "task_id", "k", "R", "expected_R", "P", "session_attempts", "expected_P", "usd",
        "rollout_usd", "session_usd", "rollouts", "sessions", "tokens"), List.copyOf(json.keySet()));
  }

  @Test
  void toJsonHoldsCountsAndLabelsInRecordingOrder() {
    Map<String, Object> json = ledger(PARALLEL_ROLLOUTS, PARALLEL_SESSIONS).toJson();
    assertEquals("agg", json.get("mode"));
    assertEquals("ledger-1", json.get("task_id"));
    assertEquals(2, json.get("k"));
    assertEquals(8, json.get("R"));
    assertEquals(8, json.get("expected_R"));
    assertEquals(6, json.get("P"));
    assertEquals(6, json.get("expected_P"));
    assertEquals(PARALLEL_ROLLOUTS, json.get("rollouts"));
    assertEquals(PARALLEL_SESSIONS, json.get("sessions"));
  }

  @Test
  void sessionAttemptsSumsAttemptsOfSessions() {
    Ledger l = new Ledger("seq", "t", 1);
    l.rollout("base1", 0.0);
    l.session("inv1", 0.0, false, 2);
    l.session("dom1", 0.0, true, 0);
    l.session("c1", 0.0, false, 1);
    assertEquals(3, l.toJson().get("session_attempts"));
  }

  /**
   * session_attempts - P counts retries only while every session made an attempt: a session that made none (a gated
   * step that asked for none) hid another's retry, so the ledger then says its retries itself; one whose attempts are
   * not known is left out of the sum and named. A ledger whose sessions each made one attempt at least is unchanged.
   */
  @Test
  void retriesAreSaidWhereTheSumCannotTellThemAndUnknownAttemptsAreNamed() {
    Ledger l = new Ledger("gat", "t", 1);
    l.session("g1", 0.0, false, 2);
    l.session("g2", 0.0, false, 0);
    l.session("g3", 0.0, false, 1);
    Map<String, Object> j = l.toJson();
    assertEquals(3, j.get("session_attempts"));
    assertEquals(1, j.get("session_retries"), "g1's second attempt; 3 - P would say 0");
    assertFalse(j.containsKey("attempts_unknown"));

    Ledger u = new Ledger("gat", "t", 1);
    u.session("g1", 0.0, false, Ledger.ATTEMPTS_UNKNOWN);
    u.session("g2", 0.0, false, 3);
    u.session("g3", 0.0, false, 1);
    Map<String, Object> k = u.toJson();
    assertEquals(4, k.get("session_attempts"), "the known ones");
    assertEquals(List.of("g1"), k.get("attempts_unknown"));
    assertFalse(k.containsKey("session_retries"), "every known session made an attempt: the sum tells them");

    Ledger plain = new Ledger("agg", "t", 1);
    plain.session("inv1", 0.0, false, 1);
    plain.session("dom1", 0.0, false, 2);
    assertFalse(plain.toJson().containsKey("session_retries") || plain.toJson().containsKey("attempts_unknown"));
  }

  @Test
  void usdSumsSessionsRoundedToSixDecimalsAndRolloutsCostNothing() {
    Ledger l = new Ledger("agg", "t", 1);
    l.rollout("base1", 0.0);
    l.session("inv1", 0.1, false, 1);
    l.session("dom1", 0.2, false, 1);
    l.session("agg1", 0.0000004, false, 1);
    Map<String, Object> json = l.toJson();
    assertEquals(0.3, json.get("usd"));
    assertEquals(0.3, json.get("session_usd"));
    assertEquals(0.0, json.get("rollout_usd"));
  }

  @Test
  void labelsListsOneKindInRecordingOrder() {
    Ledger l = new Ledger("seq", "t", 1);
    l.rollout("base1", 0.0);
    l.session("inv1", 0, false, 1);
    l.rollout("inv1", 0.0);
    assertEquals(List.of("base1", "inv1"), l.labels("rollout"));
    assertEquals(List.of("inv1"), l.labels("session"));
    assertEquals(2, l.rolloutCount());
    assertEquals(1, l.sessionCount());
  }

  @Test
  void kBelowOneIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new Ledger("agg", "t", 0));
  }

  @Test
  void round6RoundsToSixDecimals() {
    assertEquals(0.3, Ledger.round6(0.1 + 0.2));
    assertEquals(1.234568, Ledger.round6(1.2345675000000000398));
    assertEquals(0.123456, Ledger.round6(0.1234565));
    assertEquals(3.000002, Ledger.round6(3.0000015));
    assertEquals(0.0, Ledger.round6(0.0000004));
    assertEquals(-0.5, Ledger.round6(-0.5));
    assertEquals(12.0, Ledger.round6(12.0));
  }

  @Test
  void round6AgreesWithPythonRoundOnDecimalTies() {
    // Python: round(1.25e-05, 6) == 1.3e-05; round(1.35e-05, 6) == 1.3e-05; round(2.0000005, 6) == 2.000001
    assertEquals(0.000013, Ledger.round6(0.0000125));
    assertEquals(0.000013, Ledger.round6(0.0000135));
    assertEquals(2.000001, Ledger.round6(2.0000005));
  }
}
