package dev.h2beam.transforms.proposer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.Tokens;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a journal record says of its work's model tokens: nothing for work that called no model (the demo's records
 * stay as they were), the counts when all were counted, and the counts marked {@code tokens_known: false} when they
 * are only part of it, nothing counted included: an unknown is never a record that reads as none.
 */
class JournalTokensTest {
  private static Map<String, Object> line(Tokens t) {
    Map<String, Object> line = new LinkedHashMap<>();
    Journal.putTokens(line, t);
    return line;
  }

  @Test
  void aRecordSaysWhatItsWorkSpentAndWhetherThatIsAllOfIt() {
    assertEquals(Map.of(), line(Tokens.NONE));
    assertEquals(Map.of("tokens", Map.of("input", 120L, "output", 7L)), line(new Tokens(120, 7, true)));
    assertEquals(Map.of("tokens", Map.of("input", 120L, "output", 7L), "tokens_known", false),
        line(new Tokens(120, 7, false)));
    assertEquals(Map.of("tokens", Map.of("input", 0L, "output", 0L), "tokens_known", false), line(Tokens.UNKNOWN));
  }
}
