package dev.h2beam.transforms.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class CandidateHeaderTest {
  /** The header as the format it replaces wrote it: sizes grouped by commas, lines counted as Python splits them. */
  @Test
  void theHeaderIsWhatTheFormatWrote() {
    String[] texts = {"", "one line", "one line\n", "a\nb\n", "a\n\nb", "x".repeat(1234) + "\n".repeat(1001),
        "é\n".repeat(5)};
    for (String text : texts) {
      long lines = text.isEmpty() ? 0 : text.split("\n", -1).length - (text.endsWith("\n") ? 1 : 0);
      String expected = String.format(Locale.ROOT,
          "<!-- candidate %s: %,d chars, %,d lines. This is the complete %s, nothing trimmed. -->\n", "AB",
          text.length(), lines, "report");
      assertEquals(expected, Selector.candidateHeader("AB", text, "report"));
    }
    assertEquals("<!-- candidate A: 2,235 chars, 1,001 lines. This is the complete answer, nothing trimmed. -->\n",
        Selector.candidateHeader("A", "x".repeat(1234) + "\n".repeat(1001), "answer"));
  }

  /** A deliverable whose reading was cut is not called complete: the header says where it was cut, and of how much. */
  @Test
  void aCutDeliverableIsSaidToBeCut() {
    String text = "y".repeat(2000) + "…(+2800189 chars — render truncation)";
    assertEquals("<!-- candidate B: 2,037 chars, 1 lines. This is the beginning of the answer, cut after 2,000 of its"
        + " 2,802,189 chars (the rest is not shown). -->\n", Selector.candidateHeader("B", text, "answer"));
  }
}
