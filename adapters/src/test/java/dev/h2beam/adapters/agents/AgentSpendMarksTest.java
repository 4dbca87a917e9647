package dev.h2beam.adapters.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.ResolvedRole;
import dev.h2beam.adapters.exec.ProcessResult;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An agent run's two marks: whether its cost is all of it and whether its tokens are. They part at a free endpoint,
 * where a call the relay could not count cost a known $0 but spent tokens nobody counted.
 */
class AgentSpendMarksTest {
  private static final Path NOWHERE = Path.of("/nonexistent");
  private static final AgentUsage REPORTED = new AgentUsage(120L, 30L, null, null, null);

  private static ResolvedRole role(double inputPrice, double outputPrice) {
    return new ResolvedRole("executor", new Endpoint("local", "http://127.0.0.1:9/v1", "", 1, 60, 1, inputPrice,
        outputPrice), "m", null, null);
  }

  private static AgentRun run(boolean timedOut, List<Map<String, Object>> calls) {
    ProcessResult p = new ProcessResult(timedOut ? null : 0, timedOut, false, 1.0, 0, 0, false, false, NOWHERE,
        NOWHERE, false);
    return new AgentRun(p, NOWHERE, NOWHERE, timedOut, calls);
  }

  private static Map<String, Object> call(Integer status, Long in, Long out) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("method", "POST");
    c.put("sent", "t");
    c.put("status", status);
    c.put("input_tokens", in);
    c.put("output_tokens", out);
    return c;
  }

  @Test
  void everyCallCountedLeavesBothKnown() {
    AgentRun r = run(false, List.of(call(200, 120L, 30L)));
    for (ResolvedRole role : List.of(role(1.0, 2.0), role(0, 0))) {
      assertTrue(AgentExecutor.costKnown(REPORTED, r, role));
      assertTrue(AgentExecutor.tokensKnown(REPORTED, r));
    }
  }

  @Test
  void anUncountedCallAtAFreeEndpointLeavesTheCostKnownAndTheTokensNot() {
    AgentRun r = run(false, List.of(call(200, 120L, 30L), call(200, null, null)));
    assertTrue(AgentExecutor.costKnown(REPORTED, r, role(0, 0)), "free: $0 whatever was counted");
    assertFalse(AgentExecutor.tokensKnown(REPORTED, r), "what the uncounted call spent is not known");
    assertFalse(AgentExecutor.costKnown(REPORTED, r, role(1.0, 2.0)), "priced: its cost is not known either");
    AgentRun unanswered = run(false, List.of(call(200, 120L, 30L), call(null, null, null)));
    assertFalse(AgentExecutor.tokensKnown(REPORTED, unanswered), "sent and unanswered: it may have been billed");
  }

  @Test
  void eventsWithoutCountsLeaveTheTokensNotKnown() {
    assertFalse(AgentExecutor.tokensKnown(new AgentUsage(120L, null, null, null, 0.01),
        run(false, List.of(call(200, 120L, 30L)))), "an output count missing from its events");
  }

  /**
   * dogZ #5: a CLI killed at its timeout may not have reported its last calls, so its events are not its account;
   * its relay saw every call: their sum is the run's spend, known when every call is priced (a runaway agent's 585
   * answered calls were recorded as $0.00 and 0 tokens, not known), not known when one was in flight at the kill.
   */
  @Test
  void aKilledCliIsAccountedByItsRelay() {
    ResolvedRole priced = role(1_000_000.0, 2_000_000.0);
    AgentRun killed = run(true, List.of(call(200, 100L, 20L), call(200, 100L, 20L), call(429, null, null)));
    AgentUsage u = AgentExecutor.account(AgentUsage.NONE, killed, priced);
    assertEquals(200L, u.inputTokens());
    assertEquals(40L, u.outputTokens());
    assertEquals(200 * 1.0 + 40 * 2.0, AgentExecutor.cost(u, priced), 1e-9);
    assertTrue(AgentExecutor.costKnown(u, killed, priced));
    assertTrue(AgentExecutor.tokensKnown(u, killed));
    AgentRun inFlight = run(true, List.of(call(200, 100L, 20L), call(null, null, null)));
    AgentUsage partial = AgentExecutor.account(REPORTED, inFlight, priced);
    assertEquals(100L, partial.inputTokens(), "the part counted");
    assertFalse(AgentExecutor.costKnown(partial, inFlight, priced), "a call in flight at the kill may be billed");
    assertFalse(AgentExecutor.tokensKnown(partial, inFlight));
    // a CLI that ended by itself keeps its own account
    assertEquals(REPORTED, AgentExecutor.account(REPORTED, run(false, List.of(call(200, 1L, 1L))), priced));
  }
}
