package dev.h2beam.adapters.llm;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Token usage of one or more calls as the server reported it. A count the server did not report is null, never 0.
 */
public record Usage(Long promptTokens, Long completionTokens, Long cachedTokens, Long reasoningTokens) {
  public static final Usage NONE = new Usage(null, null, null, null);

  /** The sum of two usages; a count absent on either side stays absent. */
  public Usage plus(Usage o) {
    return new Usage(add(promptTokens, o.promptTokens), add(completionTokens, o.completionTokens),
        add(cachedTokens, o.cachedTokens), add(reasoningTokens, o.reasoningTokens));
  }

  /**
   * The counts under their OpenAI names ({@code prompt_tokens}, {@code completion_tokens}, {@code cached_tokens},
   * {@code reasoning_tokens}), in that order, absent ones as null; for audit files.
   */
  public Map<String, Long> toMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("prompt_tokens", promptTokens);
    m.put("completion_tokens", completionTokens);
    m.put("cached_tokens", cachedTokens);
    m.put("reasoning_tokens", reasoningTokens);
    return Collections.unmodifiableMap(m);
  }

  /** Prompt plus completion tokens as far as reported (what a provider's tokens-per-minute limit counts); 0 if none. */
  public long reported() {
    return (promptTokens == null ? 0 : promptTokens) + (completionTokens == null ? 0 : completionTokens);
  }

  private static Long add(Long a, Long b) {
    return a == null || b == null ? null : a + b;
  }
}
