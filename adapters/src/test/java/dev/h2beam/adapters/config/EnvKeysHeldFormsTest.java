package dev.h2beam.adapters.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * dogP D1, D6, D8: the key an endpoint is configured to read is held whatever its variable's name or its shape, and
 * a held key is found without its public prefix, in upper or lower case and its body reversed: in a rollout's files
 * (the scrub), in messages ({@link EnvKeys#redact}). Each test names its own variables: a variable an endpoint reads
 * stays held for the rest of the JVM, as it must.
 */
class EnvKeysHeldFormsTest {
  /** A key with no digit (dogP D1(b)), and of no provider's shape ({@link KeyShapes}): only holding it finds it. */
  private static final String DIGITLESS = "local-QwErTyUiOpAsDfGhJkLzXc";
  /** dogP D6's key: its body {@code 7Q9xZ3kLmN5pR8tV2wY4} is all of its entropy. */
  private static final String KEY = "sk-audit-7Q9xZ3kLmN5pR8tV2wY4";
  private static final String BODY = "7Q9xZ3kLmN5pR8tV2wY4";
  private static final String R = EnvKeys.REDACTED;

  @TempDir Path tmp;

  private static Endpoint endpointReading(String variable) {
    return new Endpoint("audit", "http://127.0.0.1:8000/v1", variable, 1, 30, 1, 0, 0);
  }

  private static boolean holds(String variable) {
    for (EnvKeys.Held h : EnvKeys.current()) if (h.variable().equals(variable)) return true;
    return false;
  }

  @Test
  void anEndpointsKeyIsHeldWhateverItsVariablesNameOrItsShape() {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_CRED_A1", DIGITLESS, "AUDIT_KEY_A1", DIGITLESS + "x"));
    try {
      // neither named as a key nor with a digit: not held by the name and shape rules alone
      assertFalse(holds("AUDIT_CRED_A1") || holds("AUDIT_KEY_A1"));
      assertEquals("x " + DIGITLESS + " y", EnvKeys.redact("x " + DIGITLESS + " y"));
      byte[] in = ("answer: " + DIGITLESS + "\n").getBytes(StandardCharsets.UTF_8);
      assertArrayEquals(in, KeysOutOfRuns.scrub(in, "r1 of d/t"));
      endpointReading("AUDIT_CRED_A1");
      assertTrue(holds("AUDIT_CRED_A1"));
      assertFalse(holds("AUDIT_KEY_A1"), "only the variable an endpoint reads");
      assertEquals("invalid key " + R + " sent", EnvKeys.redact("invalid key " + DIGITLESS + " sent"));
      byte[] out = KeysOutOfRuns.scrub(in, "r1 of d/t");
      assertEquals("answer: " + R + "\n", new String(out, StandardCharsets.UTF_8));
    } finally {
      EnvKeys.restore(was);
    }
  }

  @Test
  void aConfigurationFilesKeyVariableIsHeldOnceTheConfigurationIsRead() throws ConfigError {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_CRED_B1", DIGITLESS));
    try {
      assertFalse(holds("AUDIT_CRED_B1"));
      RunConfig.parse("""
          endpoints:
            local: {base_url: "http://127.0.0.1:8000/v1", api_key_env: "AUDIT_CRED_B1"}
          roles:
            executor: {endpoint: local, model: "m"}
          """, "cfg.yaml");
      assertTrue(holds("AUDIT_CRED_B1"));
      assertEquals("[" + R + "]", EnvKeys.redact("[" + DIGITLESS + "]"));
    } finally {
      EnvKeys.restore(was);
    }
  }

  /** A worker gets the configuration by Java serialization: its endpoints, deserialized, hold their keys there. */
  @Test
  void anEndpointDeserializedHoldsItsKey() throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(endpointReading("AUDIT_CRED_C1"));
    }
    // the same endpoint naming a variable no endpoint of this JVM was made with, as on a fresh worker
    byte[] serialized = new String(bytes.toByteArray(), StandardCharsets.ISO_8859_1)
        .replace("AUDIT_CRED_C1", "AUDIT_CRED_C2").getBytes(StandardCharsets.ISO_8859_1);
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_CRED_C2", DIGITLESS));
    try {
      assertFalse(holds("AUDIT_CRED_C2"));
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialized))) {
        assertEquals("AUDIT_CRED_C2", ((Endpoint) in.readObject()).apiKeyEnv());
      }
      assertTrue(holds("AUDIT_CRED_C2"));
    } finally {
      EnvKeys.restore(was);
    }
  }

  /** A configured value also held after the environment it was read from is put back, and read from this one. */
  @Test
  void aVariableConfiguredWhileATestEnvironmentIsUsedIsReadFromEachEnvironment() {
    endpointReading("AUDIT_CRED_D1");
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_CRED_D1", DIGITLESS));
    try {
      assertTrue(holds("AUDIT_CRED_D1"));
    } finally {
      EnvKeys.restore(was);
    }
    assertFalse(holds("AUDIT_CRED_D1"), "this process's environment has no AUDIT_CRED_D1");
  }

  /** A local server's placeholder ({@code EMPTY}, {@code none}) would otherwise be redacted from every text. */
  @Test
  void aConfiguredValueShorterThanTheFloorIsNotHeld() {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_CRED_E1", "EMPTY", "AUDIT_CRED_E2", "none"));
    try {
      endpointReading("AUDIT_CRED_E1");
      endpointReading("AUDIT_CRED_E2");
      assertFalse(holds("AUDIT_CRED_E1") || holds("AUDIT_CRED_E2"));
      assertEquals("EMPTY is none of it", EnvKeys.redact("EMPTY is none of it"));
    } finally {
      EnvKeys.restore(was);
    }
  }

  @Test
  void theBodyIsWhatFollowsTheLastSeparatorWhenLongEnough() {
    assertEquals(BODY, EnvKeys.body(KEY));
    assertEquals("abcdefghij0123456789", EnvKeys.body("token_x-abcdefghij0123456789"));
    assertNull(EnvKeys.body("sk-proj-abcdefghijklmnopq-rstuvwxyz1234")); // a last part of 13: none
    assertNull(EnvKeys.body("abcdefghij0123456789")); // no separator: the value itself
    // no form shorter than 16 characters or the value, whichever is less, nor than MIN_CHARS
    for (String v : List.of(KEY, "tok3nABCdef99", "ab-cdefgh1", "x_abcdefghijklmnop")) {
      int least = Math.max(EnvKeys.MIN_CHARS, Math.min(16, v.length()));
      for (String f : EnvKeys.encodings(v)) assertTrue(f.length() >= least, v + ": " + f.length());
    }
  }

  /** dogP D6 and D8: the body alone, the key and the body in another case, the body reversed. */
  @ParameterizedTest
  @ValueSource(strings = {
    BODY,
    "SK-AUDIT-7Q9XZ3KLMN5PR8TV2WY4",
    "sk-audit-7q9xz3klmn5pr8tv2wy4",
    "7Q9XZ3KLMN5PR8TV2WY4",
    "7q9xz3klmn5pr8tv2wy4",
    "4Yw2Vt8Rp5NmLk3Zx9Q7"
  })
  void aHeldKeysBodyAndOtherCasesAreScrubbedAndRedacted(String form) throws IOException {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_KEY", KEY));
    try {
      Path run = Files.createDirectories(tmp.resolve("run"));
      Files.writeString(run.resolve("answer.md"), "# answer\nstderr half: " + form + "\n");
      KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(run);
      assertEquals("# answer\nstderr half: " + R + "\n", Files.readString(run.resolve("answer.md")));
      assertEquals(List.of("AUDIT_KEY"), List.copyOf(found.variables()));
      assertEquals("400: invalid key body=" + R, EnvKeys.redact("400: invalid key body=" + form));
      assertEquals("AUDIT_KEY", EnvKeys.foundIn("x" + form + "x").variable());
    } finally {
      EnvKeys.restore(was);
    }
  }

  /** The body split across lines is taken out whole, as the value split is. */
  @Test
  void theBodySplitApartIsScrubbed() {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_KEY", KEY));
    try {
      byte[] in = "k = \"7Q9xZ3kLmN\" +\n  \"5pR8tV2wY4\";\n".getBytes(StandardCharsets.UTF_8);
      assertEquals("k = \"" + R + "\";\n", new String(KeysOutOfRuns.scrub(in, "r1"), StandardCharsets.UTF_8));
      // the value split apart is one split, not also its body again
      assertEquals(1, EnvKeys.splitIn("k = \"sk-audit-\" +\n \"7Q9xZ3kLmN5pR8tV2wY4\"").size());
    } finally {
      EnvKeys.restore(was);
    }
  }

  /** The public prefix anyone can guess, or a 10-character piece of the body, is not the key. */
  @ParameterizedTest
  @ValueSource(strings = {"use the sk-audit- prefix", "piece 7Q9xZ3kLmN here", "PIECE 7Q9XZ3KLMN", "tail 5pR8tV2wY4"})
  void aPrefixOrAShortPieceOfTheBodyIsLeftAlone(String text) {
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("AUDIT_KEY", KEY));
    try {
      byte[] in = text.getBytes(StandardCharsets.UTF_8);
      assertArrayEquals(in, KeysOutOfRuns.scrub(in, "r1"));
      assertEquals(text, EnvKeys.redact(text));
      assertNull(EnvKeys.foundIn(text));
      assertEquals(List.of(), EnvKeys.splitIn(text));
    } finally {
      EnvKeys.restore(was);
    }
  }
}
