package dev.h2beam.adapters.llm;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A successful completion: the assistant text, the model id and finish reason the server reported, the usage of the
 * successful attempt, the cost of every attempt made (their calls at the endpoint's prices, {@link
 * EndpointProxy.Spend#of}), how many attempts it took, the wall time of all of them, and each attempt as a call record
 * ({@code calls}: when it waited for the endpoint's limits and held its slot, its status and tokens; see {@link
 * ModelCall#line}).
 *
 * @param costKnown whether {@code costUsd} is all the attempts cost: false when one got no answer, or succeeded without
 *     reporting both its token counts ({@link ModelCall#priced}); the sum then holds only the sides reported
 */
public record ChatReply(String text, String model, String finishReason, Usage usage, double costUsd, int attempts,
    double wallS, List<Map<String, Object>> calls, boolean costKnown) {
  public ChatReply {
    Objects.requireNonNull(text, "text");
    model = model == null ? "" : model;
    finishReason = finishReason == null ? "" : finishReason;
    usage = usage == null ? Usage.NONE : usage;
    calls = calls == null ? List.of() : List.copyOf(calls);
  }
}
