package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AutotriggerTest {
  private static final SurfaceSpec OC = SurfaceSpec.OPENCODE;
  private static final SurfaceSpec CX = SurfaceSpec.CODEX;

  @Test
  void repairAppendsATriggerLineBuiltFromTheDescription() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("guardrails.md", "- Be careful.\n\n");
    tree.put("skills/csv-report/SKILL.md", "---\nname: csv-report\ndescription: the task asks for a CSV report.\n---\n");
    assertEquals(List.of("csv-report"), Autotrigger.repair(OC, tree));
    assertEquals("- Be careful.\n- When the task asks for a CSV report, load the `csv-report` skill.\n",
        tree.get("guardrails.md"));
  }

  @Test
  void repairUsesTheFallbackPhraseWithoutADescription() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("AGENTS.md", "Work carefully.");
    tree.put(".agents/skills/review/SKILL.md", "no front matter");
    Autotrigger.repair(CX, tree);
    assertEquals("Work carefully.\n- When the review workflow applies, read .agents/skills/review/SKILL.md and "
        + "follow it.\n", tree.get("AGENTS.md"));
  }

  @Test
  void repairWritesTheLineAloneWhenTheTargetIsBlank() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("systemprompt.md", "You are an analyst.");
    tree.put("skills/plan/SKILL.md", "description: planning");
    Autotrigger.repair(OC, tree);
    assertEquals("- When planning, load the `plan` skill.\n", tree.get("guardrails.md"));
  }

  @Test
  void repairLeavesSkillsAlreadyNamedInAlwaysOnText() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("systemprompt.md", "Load the plan skill first.");
    tree.put("skills/plan/SKILL.md", "description: planning");
    assertEquals(List.of(), Autotrigger.repair(OC, tree));
    assertEquals(Map.of("systemprompt.md", "Load the plan skill first.", "skills/plan/SKILL.md",
        "description: planning"), tree);
  }

  @Test
  void repairSkipsALineThatWouldPushAlwaysOnTextOverTheCap() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("AGENTS.md", "x".repeat(CX.alwaysOnMax() - 40));
    tree.put(".agents/skills/review/SKILL.md", "description: reviewing");
    assertEquals(List.of(), Autotrigger.repair(CX, tree));
    assertEquals(CX.alwaysOnMax() - 40, tree.get("AGENTS.md").length());
  }

  @Test
  void repairReturnsTheRepairedNamesSortedAndCountsEachLineAgainstTheCap() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("skills/zeta/SKILL.md", "description: z");
    tree.put("skills/alpha/SKILL.md", "description: a");
    tree.put("skills/mid/SKILL.md", "description: m");
    // 90 chars below the cap: room for the alpha and mid lines (34 and 32 chars), not then for zeta's (33).
    tree.put("systemprompt.md", "p".repeat(OC.alwaysOnMax() - 90));
    assertEquals(List.of("alpha", "mid"), Autotrigger.repair(OC, tree));
  }
}
