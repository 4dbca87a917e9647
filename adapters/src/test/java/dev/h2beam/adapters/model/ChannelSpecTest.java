package dev.h2beam.adapters.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Channel resolution (spec §2.1), part of harness2's test_recursion_budget_and_resume. */
class ChannelSpecTest {

  @Test
  void aBlankDefaultModelResolvesToABlankSpec() {
    assertEquals(ChannelSpec.of("opencode", ""), ChannelSpec.resolve(null, null, ""));
  }

  @Test
  void anExplicitBlankModelIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ChannelSpec.resolve("opencode", "", "p/m"));
  }

  @Test
  void kindAndModelAreOverriddenTogether() {
    assertThrows(IllegalArgumentException.class, () -> ChannelSpec.resolve("opencode", null, "p/m"));
    assertThrows(IllegalArgumentException.class, () -> ChannelSpec.resolve(null, "p/m", "p/m"));
  }

  @Test
  void opencodeNeedsAProviderAndClaudeForbidsOne() {
    assertEquals("google/gemini", ChannelSpec.resolve(null, null, "google/gemini").model());
    assertThrows(IllegalArgumentException.class, () -> ChannelSpec.resolve("opencode", "gemini", null));
    assertThrows(IllegalArgumentException.class, () -> ChannelSpec.resolve("claude_cli", "a/b", null));
    assertEquals("claude-x", ChannelSpec.resolve("claude_cli", "claude-x", null).model());
  }
}
