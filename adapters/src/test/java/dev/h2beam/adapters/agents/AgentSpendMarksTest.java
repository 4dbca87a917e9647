package dev.h2beam.adapters.agents;

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
  void aKilledCliOrEventsWithoutCountsLeaveTheTokensNotKnown() {
    assertFalse(AgentExecutor.tokensKnown(REPORTED, run(true, List.of(call(200, 120L, 30L)))),
        "killed at its timeout: its last calls may be missing from its events");
    assertFalse(AgentExecutor.tokensKnown(new AgentUsage(120L, null, null, null, 0.01),
        run(false, List.of(call(200, 120L, 30L)))), "an output count missing from its events");
  }
}
