package dev.h2beam.adapters.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A held key an executor wrote into its rollout split apart (across lines, as string concatenation, spaced out) or
 * reversed is taken out of its files and its output as the exact value is: the credential screen finds it there, and
 * a scrub that left it would let it travel on into prompts, evidence and the library.
 */
class KeysOutOfRunsTest {
  private static final String VARIABLE = "CANARY_API_KEY";
  private static final String KEY = "sk-canary-E9x7";
  private static final String R = EnvKeys.REDACTED;

  @TempDir Path tmp;
  private List<EnvKeys.Held> was;

  @BeforeEach
  void holdTheKey() {
    was = EnvKeys.use(Map.of(VARIABLE, KEY));
  }

  @AfterEach
  void restore() {
    EnvKeys.restore(was);
  }

  /** What an executor wrote, and what must be left of it. */
  static List<Arguments> splitApart() {
    return List.of(
        Arguments.of("KEY = \"sk-canary-\" +\n    \"E9x7\";", "KEY = \"" + R + "\";"), // Java, JavaScript
        Arguments.of("key = ('sk-can'\n       'ary-E9x7')", "key = ('" + R + "')"), // Python's implicit concatenation
        Arguments.of("export K=\"sk-canary\"\\\n\"-E9x7\"", "export K=\"" + R + "\""), // a shell line continued
        Arguments.of("key sk-canary-\nE9x7 end", "key " + R + " end"), // broken by a line break
        Arguments.of("key s k - c a n a r y - E 9 x 7 end", "key " + R + " end"),
        Arguments.of("key sk-ca\tnary -E9x7 end", "key " + R + " end"),
        Arguments.of("key $k = 'sk-canary' . '-E9x7';", "key $k = '" + R + "';"), // PHP
        Arguments.of("key \"7x9E-yra\" +\n\"nac-ks\"", "key \"" + R + "\""), // reversed, split
        Arguments.of("key 7x9E-y r a n a c-\n\tks end", "key " + R + " end"), // reversed, spaced
        // an unrelated string beside it stays
        Arguments.of("t = \"sk-other-A1b2\" + \"sk-can\" + \"ary-E9x7\" + \"E9x7\"",
            "t = \"sk-other-A1b2\" + \"" + R + "\" + \"E9x7\""),
        // adjacent, the first exact
        Arguments.of("sk-canary-E9x7sk-canary-\nE9x7", R + R),
        // overlapping: the key's reverse ends with the s it starts with, exact and split
        Arguments.of("id 7x9E-yranac-ksk-canary-E9x7 end", "id " + R + " end"),
        Arguments.of("id \"7x9E-yranac-\" + \"ksk-canary-\" + \"E9x7\" end", "id \"" + R + "\" end"));
  }

  @ParameterizedTest
  @MethodSource("splitApart")
  void aKeySplitApartIsTakenOutOfAFileAndNamed(String written, String left) throws IOException {
    Path run = Files.createDirectories(tmp.resolve("run"));
    Files.writeString(run.resolve("answer.py"), "# notes\n" + written + "\n# end\n");
    KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(run);
    assertEquals("# notes\n" + left + "\n# end\n", Files.readString(run.resolve("answer.py")), written);
    assertEquals(List.of("run/answer.py"), found.files());
    assertEquals(List.of(VARIABLE), List.copyOf(found.variables()));
    assertNamesOnly(found.warning("r1 of d/t"));
  }

  @ParameterizedTest
  @MethodSource("splitApart")
  void aKeySplitApartIsTakenOutOfProgramOutputAndNamed(String written, String left) {
    Output out = output(("# notes\n" + written + "\n# end\n").getBytes(StandardCharsets.UTF_8));
    assertEquals("# notes\n" + left + "\n# end\n", out.text(), written);
    assertNamesOnly(out.warning());
  }

  /**
   * What is only like the key stays as it was (half of it, its characters with letters between, its pieces with text
   * between, one character off), in the same text as a key split apart that goes.
   */
  @ParameterizedTest
  @ValueSource(strings = {
    "half sk-canary- only",
    "sxkx-xcxaxnxaxrxyx-xEx9xxx7",
    "sk-canary- and later E9x7",
    "sk-canary-E9x8",
    "E9x7 sk-canary-",
    "sk-canary-\n- E9x7",
    "7x9E-yranac-k"
  })
  void whatIsOnlyLikeTheKeyStays(String nearMiss) throws IOException {
    String text = nearMiss + "\n# then\nk = \"sk-canary-\" +\n  \"E9x7\"\n";
    String left = nearMiss + "\n# then\nk = \"" + R + "\"\n";
    Path run = Files.createDirectories(tmp.resolve("run"));
    Files.writeString(run.resolve("a.txt"), text);
    KeysOutOfRuns.scrub(run);
    assertEquals(left, Files.readString(run.resolve("a.txt")));
    Output out = output(text.getBytes(StandardCharsets.UTF_8));
    assertEquals(left, out.text());
    assertNamesOnly(out.warning());
  }

  /** A file that is not UTF-8 keeps every other byte; so does a UTF-8 one, a zero-width space inside its key. */
  @Test
  void aFileKeepsItsOtherBytes() throws IOException {
    byte[] before = {0, (byte) 0xff, (byte) 0xfe, (byte) 0x80, 'a', ' '};
    byte[] after = {'"', (byte) 0xc3, '(', 0, (byte) 0x9f, '\n'};
    byte[] binary = join(before, "\"sk-canary-\" +\n\"E9x7".getBytes(StandardCharsets.US_ASCII), after);
    byte[] want = join(before, ("\"" + R).getBytes(StandardCharsets.US_ASCII), after);
    String utf8 = "naïve → sk-can\u200bary-E9x7 ✓ 键\n";
    String utf8Left = "naïve → " + R + " ✓ 键\n";
    Path run = Files.createDirectories(tmp.resolve("run"));
    Files.write(run.resolve("blob.bin"), binary);
    Files.writeString(run.resolve("notes.md"), utf8);
    KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(run);
    assertArrayEquals(want, Files.readAllBytes(run.resolve("blob.bin")));
    assertEquals(utf8Left, Files.readString(run.resolve("notes.md")));
    assertEquals(List.of("run/blob.bin", "run/notes.md"), found.files());
    assertNamesOnly(found.warning("r1 of d/t"));
    assertArrayEquals(want, output(binary).bytes());
    assertEquals(utf8Left, output(utf8.getBytes(StandardCharsets.UTF_8)).text());
  }

  /** A key whose end is its start, written so that two of it overlap, leaves none of itself behind. */
  @Test
  void aKeyOverlappingItselfGoesWhole() throws IOException {
    EnvKeys.use(Map.of(VARIABLE, "k1-abcdek"));
    Path run = Files.createDirectories(tmp.resolve("run"));
    Files.writeString(run.resolve("a.txt"), "id k1-abcdek1-abcdek end\nid k1-ab\ncdek1-abcdek end\n");
    KeysOutOfRuns.scrub(run);
    assertEquals("id " + R + " end\nid " + R + " end\n", Files.readString(run.resolve("a.txt")));
  }

  /** The warning names the variable, and holds neither the key nor any six characters of it, forwards or back. */
  private static void assertNamesOnly(String warning) {
    assertTrue(warning.contains("wrote the value of $" + VARIABLE + " into"), warning);
    String reversed = new StringBuilder(KEY).reverse().toString();
    for (int i = 0; i + 6 <= KEY.length(); i++) {
      assertFalse(warning.contains(KEY.substring(i, i + 6)) || warning.contains(reversed.substring(i, i + 6)),
          warning);
    }
  }

  /** A program's output as h2beam writes it, and the warning printed. */
  private record Output(byte[] bytes, String warning) {
    String text() {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** {@code bytes} scrubbed as a program's output. */
  private static Output output(byte[] bytes) {
    PrintStream err = System.err;
    ByteArrayOutputStream warned = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(warned, true, StandardCharsets.UTF_8));
      return new Output(KeysOutOfRuns.scrub(bytes, "r1 of d/t"), warned.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(err);
    }
  }

  private static byte[] join(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) out.writeBytes(p);
    return out.toByteArray();
  }
}
