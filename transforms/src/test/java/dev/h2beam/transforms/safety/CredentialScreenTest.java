package dev.h2beam.transforms.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.config.EnvKeys;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CredentialScreenTest {
  /** Runs {@code body} with {@code keys} held, as h2beam holds its endpoints' keys, then puts back what was held. */
  private static void holding(Map<String, String> keys, Runnable body) {
    List<EnvKeys.Held> was = EnvKeys.use(keys);
    try {
      body.run();
    } finally {
      EnvKeys.restore(was);
    }
  }


  private static List<String> scan(String text) {
    return CredentialScreen.findings(Map.of("scripts/x.sh", text));
  }

  @Test
  void namesTheFileAndLineAndTellsWhatToDo() {
    assertEquals(List.of("scripts/x.sh line 3, field apiKey (apiKey=…) holds what looks like a literal credential;"
            + " harness trees must never carry credentials: rotate the key first (it has been written to disk and may"
            + " have reached a model), then remove it and read it from the environment at run time"),
        scan("#!/bin/sh\n\napiKey=Zx81kQ93mLp0\n"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "api_key: \"q8Zr1LmN0pX4\"",
    "token = 'a1b2c3d4e5f6g7'",
    "secret=Hk29sLq8Wm3n",
    "password: hunter2hunter2",
    "ACCESS_KEY=\"wJalrXUtnFEMIbPxRfiCY\"",
    "export GITHUB_TOKEN=abcd1234efgh5678",
    "{\"apiKey\": \"q8Zr1LmN0pX4vv\"}",
    "db_password = \"correcthorsebattery\""
  })
  void flagsACredentialNamedKeyWithALiteralValue(String line) {
    assertEquals(1, scan(line).size(), line);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "client = OpenAI(api_key=\"sk-abcdefghijklmnopqrstuvwx\")",
    "aws = AKIAIOSFODNN7EXAMPLQ",
    "git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r",
    "SLACK=xoxb-123456789012-abcdefghij",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----",
    "maps key AIzaSyA1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q"
  })
  void flagsAWellKnownKeyShape(String line) {
    assertEquals(1, scan(line).size(), line);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "API_KEY=$API_KEY",
    "token: ${GITHUB_TOKEN}",
    "api_key = <your-api-key>",
    "password = os.environ[\"DB_PASSWORD\"]",
    "secret = os.environ.get(\"SECRET_VALUE\")",
    "const token = process.env.SERVICE_TOKEN;",
    "api_key: YOUR_API_KEY_HERE",
    "password: \"********\""
  })
  void ignoresAValueReadFromTheEnvironmentOrAPlaceholder(String line) {
    assertEquals(List.of(), scan(line), line);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "Count the tokens before answering; the token budget is small.",
    "max_tokens = 4096",
    "token=abc",
    "The secret: anything the client marks confidential stays out.",
    "password = getpass.getpass()",
    "token = sys.argv[1]",
    "api_key = cfg.api_key",
    "tokenizer: whitespace_splitter",
    "sk-learn is not a key"
  })
  void ignoresProseCodeAndShortValues(String line) {
    assertEquals(List.of(), scan(line), line);
  }

  @Test
  void keyShapeFindingShowsOnlyTheKindOfKey() {
    assertTrue(scan("x = \"xoxb-123456789012-abcdefghij\"").get(0).contains("(xoxb-…)"));
    assertTrue(scan("-----BEGIN EC PRIVATE KEY-----").get(0).contains("(-----BEGIN EC PRIVATE KEY-----)"));
  }

  @Test
  void theExactValueOfAKeyInTheEnvironmentIsFoundWhateverItsShapeAndNamedByItsVariable() {
    String key = "token-abc123-local-vllm";
    holding(Map.of("VLLM_API_KEY", key, "HOME", "/home/someone-long", "SHORT_KEY", "x"), () -> {
      List<String> found = scan("# notes\nRemember: " + key + "\nsee /home/someone-long\n");
      assertEquals(1, found.size(), found.toString());
      assertTrue(found.get(0).startsWith("scripts/x.sh line 2 (the value of $VLLM_API_KEY) holds"), found.get(0));
      assertFalse(found.get(0).contains(key), found.get(0));
      // a variable not named as a key, or a value too short to be one, is not looked for
      assertEquals(List.of(), scan("x marks the spot in /home/someone-long\n"));
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
    "curl -H 'Authorization: Bearer 9f86d081884c7d659a2feaa0c55ad015'",
    "jwt = eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N"
  })
  void aBearerTokenOrAJsonWebTokenIsACredential(String line) {
    assertEquals(1, scan(line).size(), line);
  }

  @ParameterizedTest
  @ValueSource(strings = {"Authorization: Bearer your-token-goes-here", "send it as a Bearer $TOKEN header",
      "Bearer <token>"})
  void bearerProseIsNot(String line) {
    assertEquals(List.of(), scan(line), line);
  }

  @Test
  void neverRepeatsTheSecret() {
    String finding = scan("token = \"Zx81kQ93mLp0Zx81\"").get(0);
    assertFalse(finding.contains("Zx81kQ93mLp0"));
    assertTrue(finding.contains("(token=…)"));
  }

  @Test
  void filesAreReportedInSortedPathOrder() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("systemprompt.md", "Be brief.\nsecret: Qm29xLp0Rt7z\n");
    tree.put("AGENTS.md", "token: \"Hk29sLq8Wm3n\"");
    List<String> f = CredentialScreen.findings(tree);
    assertEquals(2, f.size());
    assertTrue(f.get(0).startsWith("AGENTS.md line 1, field token "));
    assertTrue(f.get(1).startsWith("systemprompt.md line 2, field secret "));
  }

  @Test
  void cleanTreeHasNoFindings() {
    assertEquals(List.of(), CredentialScreen.findings(Map.of(
        "guardrails.md", "- When the request names a deadline, load the `dates` skill.\n",
        "scripts/fetch.py", "import os\nTOKEN = os.environ[\"API_TOKEN\"]\n")));
  }

  /**
   * The look at the whole text first finds what the look at every line finds: texts pieced from credential fields,
   * key shapes, look-alikes, words cut by a line break, letters that lower to ASCII (the Kelvin sign, a dotted capital
   * I) and every kind of line break.
   */
  @Test
  void theWholeTextLookFindsWhatTheLineLookFinds() {
    String[] pieces = {"api_key = \"Zq8vR2mT5xW9\"", "token: a1B2c3D4e5F6g7", "ke", "y", "\u212Aey = \"Zq8vR2mT5xW9\"",
        "\u0130", "sk-", "abcdefghijklmnopqrstuvwx12", "secrets:", "  - \"Zq8vR2mT5xW9q\"", "passw",
        "ord = hunter2hunter2", "plain words", "ΟΔΟΣ", " ", "\n", "\r\n", "\r", "\u2028", "\u0085", "\u000B", "AKIA",
        "IOSFODNN7EXAMPLE", "=", "[", "]", ","};
    java.util.Random random = new java.util.Random(3);
    int found = 0;
    for (int round = 0; round < 5_000; round++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(10); k > 0; k--) sb.append(pieces[random.nextInt(pieces.length)]);
      String text = sb.toString();
      List<CredentialScreen.Hit> byLine = CredentialScreen.hitsByLine(text);
      assertEquals(byLine, CredentialScreen.hits(text), text);
      if (!byLine.isEmpty()) found++;
    }
    assertTrue(found > 500, "texts with a credential: " + found);
  }

  /** dogE D3: a key held in a file's name, as in {@code skills/ok/scripts/sk-canary-E9x7} in a base harness. */
  @Test
  void aKeyInAFileNameIsAFindingThatNeverShowsTheKey() {
    String key = "sk-canary-E9x7";
    holding(Map.of("CANARY_API_KEY", key), () -> {
      LinkedHashMap<String, String> tree = new LinkedHashMap<>();
      tree.put("systemprompt.md", "You reconcile ledgers.\n");
      tree.put("skills/ok/scripts/" + key, "hi\n");
      tree.put("skills/ok/scripts/sk-abcdefghijklmnopqrstuvwx1.sh", "echo hi\n");
      List<String> found = CredentialScreen.findings(tree);
      assertEquals(2, found.size(), found.toString());
      assertTrue(found.get(0).startsWith("skills/ok/scripts/[redacted key].sh holds what looks like a credential in"
          + " its name (sk-…)"), found.get(0));
      assertTrue(found.get(1).startsWith("skills/ok/scripts/[redacted key] holds what looks like a credential in its"
          + " name (the value of $CANARY_API_KEY); harness trees must never carry credentials"), found.get(1));
      for (String f : found) assertFalse(f.contains(key) || f.contains("abcdefghij"), f);
      // a key in the name and in the text: two findings, both with the path redacted
      List<String> both = CredentialScreen.findings(Map.of("scripts/" + key + ".sh", "echo " + key + "\n"));
      assertEquals(2, both.size(), both.toString());
      assertTrue(both.get(1).startsWith("scripts/[redacted key].sh line 1 (the value of $CANARY_API_KEY)"),
          both.get(1));
      assertEquals("off the surface: [skills/[redacted key]/SKILL.md]",
          CredentialScreen.redact("off the surface: [skills/" + key + "/SKILL.md]"));
    });
  }

  /** dogE D7: trivial variants of a held value, each found and named by its variable, never shown. */
  @ParameterizedTest
  @ValueSource(strings = {
    "UTF-16LE:key sk-canary-E9x7", // the file's bytes in UTF-16LE, read as UTF-8 (a NUL after each letter)
    "key sk\u200b-canary-E9x7",
    "key sk-can\u2060ary-E9x7\ufeff",
    "key c2stY2FuYXJ5LUU5eDc=", // base64 of the value alone
    "key c2stY2FuYXJ5LUU5eDc", // the same without padding
    "blob a2V5OnNrLWNhbmFyeS1FOXg3Cg==", // base64 of "key:sk-canary-E9x7\n": one lead byte
    "blob eDpzay1jYW5hcnktRTl4Nw==", // "x:sk-canary-E9x7": two
    "blob eHg6c2stY2FuYXJ5LUU5eDc", // "xx:sk-canary-E9x7": three, the alignment of the value alone
    "key 736b2d63616e6172792d45397837",
    "key 736B2D63616E6172792D45397837"
  })
  void aHeldValueIsFoundThroughHiddenCharactersAndEncodings(String given) {
    String line = given.startsWith("UTF-16LE:")
        ? new String(given.substring(9).getBytes(StandardCharsets.UTF_16LE), StandardCharsets.UTF_8) : given;
    holding(Map.of("CANARY_API_KEY", "sk-canary-E9x7"), () -> {
      List<String> found = scan("# notes\n" + line + "\n");
      assertEquals(1, found.size(), line + " -> " + found);
      assertTrue(found.get(0).startsWith("scripts/x.sh line 2 (the value of $CANARY_API_KEY) holds"), found.get(0));
      assertFalse(found.get(0).contains("canary"), found.get(0));
    });
  }

  @Test
  void otherEncodedTextAndHiddenCharactersInProseAreNotFindings() {
    holding(Map.of("CANARY_API_KEY", "sk-canary-E9x7"), () -> {
      assertEquals(List.of(), scan("logo: aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=\nhash 736b2d63616e6172792d\n"));
      assertEquals(List.of(), scan("Zero\u200bwidth joiners in prose\u00ad are fine\n"));
    });
  }

  /**
   * A held value split apart, across lines, by string concatenation or white space inside it, or written backwards,
   * is found where it starts and named by its variable, never shown.
   */
  @ParameterizedTest
  @ValueSource(strings = {
    "KEY = \"sk-canary-\" +\n    \"E9x7\";", // Java, JavaScript
    "key = ('sk-can'\n       'ary-E9x7')", // Python's implicit concatenation
    "export K=\"sk-canary\"\\\n\"-E9x7\"", // a shell line continued
    "key sk-canary-\nE9x7", // broken by a line break
    "key s k - c a n a r y - E 9 x 7",
    "key sk-ca\tnary -E9x7",
    "key $k = 'sk-canary' . '-E9x7';", // PHP
    "key 7x9E-yranac-ks",
    "key \"7x9E-yra\" +\n\"nac-ks\""
  })
  void aHeldValueSplitApartOrReversedIsFound(String split) {
    holding(Map.of("CANARY_API_KEY", "sk-canary-E9x7"), () -> {
      List<String> found = scan("# notes\n" + split + "\n# end\n");
      assertEquals(1, found.size(), split + " -> " + found);
      assertTrue(found.get(0).startsWith("scripts/x.sh line 2 (the value of $CANARY_API_KEY"), found.get(0));
      assertFalse(found.get(0).contains("canary") || found.get(0).contains("yranac"), found.get(0));
    });
  }

  @Test
  void aReversedHeldValueIsNamedSoAndRedacted() {
    holding(Map.of("CANARY_API_KEY", "sk-canary-E9x7"), () -> {
      assertEquals(List.of(new CredentialScreen.Hit(1, "", "the value of $CANARY_API_KEY, reversed")),
          CredentialScreen.hits("see 7x9E-yranac-ks"));
      assertEquals("see [redacted key]", CredentialScreen.redact("see 7x9E-yranac-ks"));
    });
  }

  /** Pieces of a held value with other text between them, or a value one character off, are not the value. */
  @ParameterizedTest
  @ValueSource(strings = {
    "sk-canary- and later E9x7",
    "sk-canary-E9x8",
    "sk-canary-\n- E9x7",
    "E9x7 sk-canary-",
    "sk-canary-E9",
    "canary: sk-\nE9x7 is not it"
  })
  void piecesOfAHeldValueWithTextBetweenAreNotFindings(String text) {
    holding(Map.of("CANARY_API_KEY", "sk-canary-E9x7"), () -> {
      assertEquals(List.of(), scan("# notes\n" + text + "\n"), text);
    });
  }

  /**
   * dogP D6: a harness text holding a held key's body (the secret after its public prefix), alone, in another case or
   * reversed, is refused as the key is, and named by its variable, never shown.
   */
  @ParameterizedTest
  @ValueSource(strings = {
    "Remember the access code: 7Q9xZ3kLmN5pR8tV2wY4",
    "Remember the access code: 7Q9XZ3KLMN5PR8TV2WY4",
    "Remember the access code: SK-AUDIT-7Q9XZ3KLMN5PR8TV2WY4",
    "Remember the access code: 4Yw2Vt8Rp5NmLk3Zx9Q7",
    "code = \"7Q9xZ3kLmN\" +\n  \"5pR8tV2wY4\""
  })
  void aHeldKeysBodyOrAnotherCaseOfItIsAFinding(String text) {
    holding(Map.of("AUDIT_KEY", "sk-audit-7Q9xZ3kLmN5pR8tV2wY4"), () -> {
      List<String> found = scan("# notes\n" + text + "\n");
      assertEquals(1, found.size(), text + " -> " + found);
      assertTrue(found.get(0).startsWith("scripts/x.sh line 2 (the value of $AUDIT_KEY"), found.get(0));
      assertFalse(found.get(0).toLowerCase(java.util.Locale.ROOT).contains("7q9x"), found.get(0));
    });
  }

  /** The public prefix anyone can guess, or a 10-character piece of the body, is not the key. */
  @ParameterizedTest
  @ValueSource(strings = {"Keys start with sk-audit- here", "a piece 7Q9xZ3kLmN of it", "5pR8tV2wY4 and more"})
  void aPrefixOrAShortPieceOfAHeldKeysBodyIsNotAFinding(String text) {
    holding(Map.of("AUDIT_KEY", "sk-audit-7Q9xZ3kLmN5pR8tV2wY4"), () -> {
      assertEquals(List.of(), scan("# notes\n" + text + "\n"), text);
    });
  }
}
