package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InventoryTest {
  @Test
  void countsComponentsThenAlwaysOnChars() {
    Map<String, String> tree = Map.of("systemprompt.md", "x".repeat(56), "scripts/summarize.py", "print(1)\n");
    assertEquals("1 scripts; 62 always-on chars", Inventory.line(SurfaceSpec.OPENCODE, tree));
  }

  @Test
  void aTreeWithoutComponentsIsAlwaysOnEditsOnlyWithGroupedDigits() {
    assertEquals("always-on edits only; 1,234 always-on chars",
        Inventory.line(SurfaceSpec.CODEX, Map.of("AGENTS.md", "x".repeat(1_234))));
  }

  @Test
  void listsKindsInSpecOrderWhateverTheTreeOrder() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("plugin/guard.ts", "");
    tree.put("scripts/a.sh", "");
    tree.put("skills/plan/scripts/go.py", "");
    tree.put("sub_agents/critic/AGENT.md", "");
    tree.put("skills/plan/SKILL.md", "");
    tree.put("skills/act/SKILL.md", "");
    assertEquals("2 skills, 1 sub_agents, 1 scripts, 1 plugins; 6 always-on chars",
        Inventory.line(SurfaceSpec.OPENCODE, tree));
  }

  @Test
  void countsTheCodexHooksFile() {
    assertEquals("1 hooks; 1 always-on chars",
        Inventory.line(SurfaceSpec.CODEX, Map.of("AGENTS.md", "x", ".codex/hooks.json", "{}")));
  }
}
