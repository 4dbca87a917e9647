package dev.h2beam.transforms.prompts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RepliesTest {

  @Test
  void notesTakesTheFirstNotesBlockTrimmed() {
    String reply = "I edited two files.\n<notes>\n  added skill x\n</notes>\n<notes>second</notes>";
    assertEquals("added skill x", Replies.notes(reply));
  }

  @Test
  void notesSpanLines() {
    assertEquals("a\nb", Replies.notes("<notes>\na\nb\n</notes>"));
  }

  @Test
  void notesFallBackToTheWholeReplyTrimmed() {
    assertEquals("KEEP_BASE, nothing warranted", Replies.notes("\n  KEEP_BASE, nothing warranted \n"));
  }

  @Test
  void choiceReadsABlockWithNewlines() {
    assertEquals(Optional.of("B"), Replies.choice("<why>x</why>\n\n```choice\nB\n```\n"));
  }

  @Test
  void choiceReadsABlockWithoutNewlines() {
    assertEquals(Optional.of("AA"), Replies.choice("```choice AA```"));
  }

  @Test
  void choiceToleratesSurroundingSpaces() {
    assertEquals(Optional.of("agg_1-x"), Replies.choice("```choice  \n   agg_1-x   \n  ```"));
  }

  @Test
  void firstChoiceBlockWins() {
    assertEquals(Optional.of("C"), Replies.choice("```choice\nC\n```\nOn reflection:\n```choice\nA\n```"));
  }

  @Test
  void choiceIsEmptyWithoutAChoiceBlock() {
    assertEquals(Optional.empty(), Replies.choice("I pick B.\n```json\n{\"choice\": \"B\"}\n```"));
  }

  @Test
  void choiceRejectsABlockHoldingMoreThanAnId() {
    assertEquals(Optional.empty(), Replies.choice("```choice\nB because it is complete\n```"));
  }

  @Test
  void whyTakesTheFirstBlockTrimmed() {
    assertEquals("DELIVERY decided it.", Replies.why("<why>\n DELIVERY decided it. \n</why><why>other</why>"));
  }

  @Test
  void whyIsCutTo2000Characters() {
    assertEquals(2000, Replies.why("<why>" + "x".repeat(2500) + "</why>").length());
  }

  @Test
  void whyIsEmptyWithoutAWhyBlock() {
    assertEquals("", Replies.why("```choice\nA\n```"));
  }

  @Test
  void editsTakesTheBlockTrimmed() {
    assertEquals(Optional.of("component: guardrails.md"), Replies.edits("<edits>\ncomponent: guardrails.md\n</edits>"));
  }

  @Test
  void editsIsEmptyWithoutAnEditsBlock() {
    assertEquals(Optional.empty(), Replies.edits("NO_ENTRY"));
  }

  @Test
  void completeExperienceKeepsKnownKeysInLineOrderThenEdits() {
    String reply = """
        <edits>
        component: skills/dates/SKILL.md
        verdict: helped
        </edits>

        <experience>
        Lesson : add a date-check skill triggered by "dates in the file"
        CUE: the request turns on deadlines
        note: ignored
        evidence: row 1: inv2 rollout step 14
        confidence: medium, one rollout
        </experience>
        """;
    Map<String, String> exp = Replies.experience(reply);
    assertEquals(List.of("lesson", "cue", "evidence", "confidence", "edits"), List.copyOf(exp.keySet()));
    assertEquals("add a date-check skill triggered by \"dates in the file\"", exp.get("lesson"));
    assertEquals("row 1: inv2 rollout step 14", exp.get("evidence"));
    assertEquals("component: skills/dates/SKILL.md\nverdict: helped", exp.get("edits"));
  }

  @Test
  void experienceWithoutEditsBlockHasNoEditsKey() {
    Map<String, String> exp = Replies.experience("<experience>\ncue: a\nlesson: b\nevidence: c\n</experience>");
    assertEquals(List.of("cue", "lesson", "evidence"), List.copyOf(exp.keySet()));
  }

  @Test
  void experienceMissingALessonIsEmpty() {
    assertTrue(Replies.experience("<experience>\ncue: a\nevidence: c\nconfidence: high\n</experience>").isEmpty());
  }

  @Test
  void experienceWithBlankEvidenceIsEmpty() {
    assertTrue(Replies.experience("<experience>\ncue: a\nlesson: b\nevidence:   \n</experience>").isEmpty());
  }

  @Test
  void noEntryReplyGivesEmptyExperienceEvenWithEditRows() {
    String reply = "<edits>\ncomponent: AGENTS.md\nverdict: confounded\n</edits>\n\nNO_ENTRY\n";
    assertTrue(Replies.experience(reply).isEmpty());
  }
}
