package dev.h2beam.transforms.tree;

import static dev.h2beam.transforms.tree.TestTrees.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.SurfaceSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiffSummaryTest {
  private static final SurfaceSpec OC = SurfaceSpec.OPENCODE;

  @Test
  void listsAddedRemovedAndModifiedPathsInPlainStringOrder() {
    Map<String, String> before = tree("scripts/b.py", "1", "skills/a/SKILL.md", "x", "scripts/keep.py", "k",
        "systemprompt.md", "s");
    Map<String, String> after = tree("systemprompt.md", "S", "scripts/z.py", "", "scripts/a-b.py", "",
        "scripts/keep.py", "k", "skills/a/SKILL.md", "y");
    DiffSummary d = DiffSummary.of(OC, before, after);
    assertEquals(List.of("scripts/a-b.py", "scripts/z.py"), d.added());
    assertEquals(List.of("scripts/b.py"), d.removed());
    assertEquals(List.of("skills/a/SKILL.md", "systemprompt.md"), d.modified());
  }

  @Test
  void alwaysOnCharDeltaIsTheChangeInAlwaysOnLength() {
    DiffSummary d = DiffSummary.of(OC, tree("guardrails.md", "abc"), tree("guardrails.md", "a", "systemprompt.md",
        "hello", "scripts/x.py", "long text that is not always-on"));
    assertEquals(3, d.alwaysOnCharDelta());
  }

  @Test
  void equalTreesAreUnchanged() {
    DiffSummary d = DiffSummary.of(OC, tree("systemprompt.md", "s"), tree("systemprompt.md", "s"));
    assertTrue(d.unchanged());
    assertFalse(DiffSummary.of(OC, tree(), tree("scripts/x.py", "")).unchanged());
  }

  @Test
  void toJsonKeepsTheSpecKeyOrder() {
    Map<String, Object> json = DiffSummary.of(OC, tree(), tree("guardrails.md", "ab")).toJson();
    assertEquals(List.of("added", "removed", "modified", "always_on_char_delta"), List.copyOf(json.keySet()));
    assertEquals(List.of("guardrails.md"), json.get("added"));
    assertEquals(2, json.get("always_on_char_delta"));
  }

  @Test
  void withoutASurfaceOnlyPathChangesAreSummarised() {
    DiffSummary d = DiffSummary.of(tree("guardrails.md", "a"), tree("guardrails.md", "abc"));
    assertEquals(List.of("guardrails.md"), d.modified());
    assertEquals(0, d.alwaysOnCharDelta());
  }
}
