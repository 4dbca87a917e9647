package dev.h2beam.transforms.prompts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.BenchPrompts;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BlocksTest {
  private static BenchPrompts words(String domainWord, String deliverable) {
    return new BenchPrompts("Work.", domainWord, "inv", "dom", "yardstick", deliverable, "lens", "checks", "", "full",
        "adapt");
  }

  /**
   * The one pass gives the three replacements' text in turn: for templates of placeholders, braces and look-alikes,
   * and words that are plain, empty, braced, or pieces of a placeholder's name (which, put between a template's
   * braces, make a placeholder for a later replacement).
   */
  @Test
  void fillingInOnePassIsFillingInTurn() {
    String[] pieces = {"{domain_word}", "{DOMAIN_WORD}", "{deliverable}", "{", "}", "{domain_", "word}", "DOMAIN_WORD",
        "deliverable", "{{", "}}", "text ", "\n", "{cap}", "é"};
    String[] words = {"practice area", "ledger", "", "{deliverable}", "DOMAIN_WORD", "domain", "word", "deliver", "}",
        "a{b", "x", "Résumé"};
    Random random = new Random(37);
    for (int round = 0; round < 20_000; round++) {
      StringBuilder template = new StringBuilder();
      for (int k = random.nextInt(8); k > 0; k--) template.append(pieces[random.nextInt(pieces.length)]);
      String word = words[random.nextInt(words.length)];
      String deliverable = words[random.nextInt(words.length)];
      String t = template.toString();
      assertEquals(Blocks.fillInTurn(t, word, word.toUpperCase(Locale.ROOT), deliverable),
          Blocks.fill(t, words(word, deliverable)), t + " | " + word + " | " + deliverable);
    }
    assertEquals("a memo for the PRACTICE AREA of practice area",
        Blocks.fill("a {deliverable} for the {DOMAIN_WORD} of {domain_word}", words("practice area", "memo")));
  }
}
