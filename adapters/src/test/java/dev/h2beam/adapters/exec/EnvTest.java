package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class EnvTest {
  /** A name a shell can export, exactly as the pattern [A-Za-z_][A-Za-z0-9_]* says, for names of every sort. */
  @Test
  void aNameIsWhatThePatternSays() {
    String alphabet = "aZ_09-. =é\u0660\uff21\u212aA";
    Random random = new Random(31);
    for (int round = 0; round < 50_000; round++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(5); k > 0; k--) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      String name = sb.toString();
      assertEquals(name.matches("[A-Za-z_][A-Za-z0-9_]*"), Env.isName(name), name);
    }
    assertFalse(Env.isName(null));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Env.checkName("9LIVES"));
    assertEquals("'9LIVES' is not an environment variable name (want letters, digits and underscores, not starting"
        + " with a digit)", e.getMessage());
  }
}
