package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TreePathsTest {
  private static final SurfaceSpec OC = SurfaceSpec.OPENCODE;
  private static final SurfaceSpec CX = SurfaceSpec.CODEX;

  @Test
  void normalizeTrimsAndTurnsBackslashesIntoSlashes() {
    assertEquals("skills/a/SKILL.md", TreePaths.normalize("  skills\\a\\SKILL.md \n"));
  }

  @Test
  void normalizeStripsRepeatedLeadingDotSlashAndOuterSlashes() {
    assertEquals("scripts/x.py", TreePaths.normalize("././scripts/x.py/"));
  }

  @Test
  void normalizeRejectsAnAbsolutePath() {
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> TreePaths.normalize("/etc/passwd"));
    assertTrue(e.getMessage().startsWith("path escapes the harness: '/etc/passwd'"), e.getMessage());
  }

  @Test
  void normalizeRejectsADotDotComponent() {
    assertThrows(HarnessRejected.class, () -> TreePaths.normalize("scripts/../../x.py"));
  }

  @Test
  void normalizeKeepsDotsInsideAComponent() {
    assertEquals("skills/a/scripts/..x", TreePaths.normalize("skills/a/scripts/..x"));
  }

  @Test
  void isAllowedAcceptsEveryOpenCodeComponentKind() {
    for (String rel : List.of("systemprompt.md", "guardrails.md", "LongTermMEMORY.md",
        "tool_descriptions/tool_guidance.md", "skills/csv-report/SKILL.md", "skills/csv-report/scripts/run.py",
        "sub_agents/checker/AGENT.md", "scripts/summarize.py", "plugin/guard.ts")) {
      assertTrue(TreePaths.isAllowed(OC, rel), rel);
    }
  }

  @Test
  void isAllowedAcceptsShellScripts() {
    assertTrue(TreePaths.isAllowed(OC, "scripts/build_report.sh"));
  }

  @Test
  void isAllowedAcceptsCodexHooksFileAndSkillsUnderTheAgentsDir() {
    assertTrue(TreePaths.isAllowed(CX, ".codex/hooks.json"));
    assertTrue(TreePaths.isAllowed(CX, ".agents/skills/review/SKILL.md"));
    assertFalse(TreePaths.isAllowed(CX, "skills/review/SKILL.md"));
  }

  @Test
  void isAllowedRejectsOffSurfacePaths() {
    for (String rel : List.of("README.md", "scripts/Summarize.py", "scripts/sum-up.py", "scripts/notes.txt",
        "scripts/README.md", "skills/A/SKILL.md", "skills/a/b/SKILL.md", "plugin/x.js", "harness.yaml")) {
      assertFalse(TreePaths.isAllowed(OC, rel), rel);
    }
    assertFalse(TreePaths.isAllowed(CX, "plugin/guard.ts"));
  }

  @Test
  void isAllowedNormalizesBeforeMatching() {
    assertTrue(TreePaths.isAllowed(OC, "./scripts\\x.py"));
  }

  @Test
  void isAllowedNeverThrows() {
    assertFalse(TreePaths.isAllowed(OC, "../systemprompt.md"));
    assertFalse(TreePaths.isAllowed(OC, "/systemprompt.md"));
    assertFalse(TreePaths.isAllowed(OC, null));
  }

  @Test
  void skillNamesAreSortedAndCountOnlySkillFiles() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("skills/zeta/SKILL.md", "");
    tree.put("skills/alpha/scripts/run.py", "");
    tree.put("skills/alpha/SKILL.md", "");
    assertEquals(List.of("alpha", "zeta"), TreePaths.skillNames(OC, tree));
  }
}
