package dev.h2beam.adapters.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeyShapesTest {
  /** One key of each shape, in SHAPES order (made-up values of the right form). */
  private static final List<String> KEYS = List.of(
      "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
      "AKIAABCDEFGHIJKLMNOP",
      "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "github_pat_abcdefghijklmnopqrstuvwxyz0123456789ABCD",
      "hf_abcdefghijklmnopqrstuvwxyz0123456",
      "xoxb-12345-abcdef",
      "-----BEGIN RSA PRIVATE KEY-----",
      "AIzaabcdefghijklmnopqrstuvwxyz012345678",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
      "Bearer 9f86d081884c7d659a2feaa0c55ad015");

  @Test
  void everyShapeIsFoundInsideATextAndItsMarkerLetsItThrough() {
    assertEquals(KeyShapes.SHAPES.size(), KEYS.size(), "a new shape needs a key here (and a marker)");
    for (int i = 0; i < KEYS.size(); i++) {
      String text = "config: " + KEYS.get(i) + " # set by hand";
      assertTrue(KeyShapes.SHAPES.get(i).pattern().matcher(text).find(), KEYS.get(i));
      assertTrue(KeyShapes.mayContainKey(text), "the prefilter must let " + KEYS.get(i) + " through");
      Optional<String> sample = KeyShapes.sample(text);
      assertTrue(sample.isPresent(), KEYS.get(i));
      assertFalse(sample.get().length() > 3 && sample.get().equals(KEYS.get(i)) && i != 6,
          "a sample never shows the whole key: " + sample.get());
    }
  }

  @Test
  void environmentKeysAreTheLongValuesOfVariablesNamedAsKeys() {
    List<EnvKeys.Held> held = EnvKeys.of(java.util.Map.of("OPENAI_API_KEY", "sk-0123456789", "HF_TOKEN",
        "hf_abcdefghijkl0123456789", "DB_PASSWORD", "hunter2hunter2", "SHORT_KEY", "x", "HOME", "/home/someone-long",
        "PATH", "/usr/local/bin:/usr/bin", "SORT_KEY", "lastname", "APT_KEY", "/etc/apt/trusted2.gpg",
        "SIGNING_KEY_URL", "https://example.org/key1.asc"));
    assertEquals(List.of("HF_TOKEN", "DB_PASSWORD", "OPENAI_API_KEY"), held.stream().map(EnvKeys.Held::variable)
        .toList(), "longest value first");
  }

  @Test
  void proseWithoutAnyMarkerHoldsNoKey() {
    String prose = "Sum the amounts in ledger.csv, then write the total to output/answer.md; think it through.";
    assertFalse(KeyShapes.mayContainKey(prose));
    assertTrue(KeyShapes.sample(prose).isEmpty());
    assertEquals(prose, KeyShapes.redact(prose));
  }
}
