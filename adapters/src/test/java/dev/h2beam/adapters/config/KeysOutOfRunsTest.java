package dev.h2beam.adapters.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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

  /**
   * A file whose name holds the key, exact or split apart, is renamed with the key taken out and keeps its text; the
   * warning names it as it is now. Its old name would go into the completion marker, the evidence and the prompts.
   */
  @Test
  void aFileNamedWithTheKeyIsRenamed() throws IOException {
    Path out = Files.createDirectories(tmp.resolve("run/output"));
    Files.writeString(out.resolve("name-" + KEY + ".txt"), "42\n");
    Files.writeString(out.resolve("a sk-can ary-E9x7.md"), "43\n");
    Files.writeString(out.resolve("answer.md"), "clean\n");
    KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(tmp.resolve("run"));
    assertEquals(List.of("a redacted-key.md", "answer.md", "name-redacted-key.txt"), names(out));
    assertEquals("42\n", Files.readString(out.resolve("name-redacted-key.txt")));
    assertEquals(List.of("run/output/a redacted-key.md", "run/output/name-redacted-key.txt"), found.renamed());
    assertEquals(List.of(), found.files());
    assertTrue(found.any());
    assertWarns(found, "run/output/name-redacted-key.txt");
  }

  /**
   * Folders whose name holds the key, one inside another, are renamed deepest first, with what is in them: each path
   * the warning names is the one it has now, and the text of a file below, rewritten too, is found there.
   */
  @Test
  void foldersNamedWithTheKeyAreRenamedDeepestFirst() throws IOException {
    Path deep = Files.createDirectories(tmp.resolve("run/output/dir-" + KEY + "/in-" + KEY));
    Files.writeString(deep.resolve("x-" + KEY + ".txt"), "key " + KEY + "\n");
    Files.writeString(deep.getParent().resolve("y.txt"), "y\n");
    KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(tmp.resolve("run"));
    Path now = tmp.resolve("run/output/dir-redacted-key/in-redacted-key");
    assertEquals("key " + R + "\n", Files.readString(now.resolve("x-redacted-key.txt")));
    assertEquals("y\n", Files.readString(now.getParent().resolve("y.txt")));
    assertEquals(List.of("dir-redacted-key"), names(tmp.resolve("run/output")));
    assertEquals(List.of("run/output/dir-redacted-key", "run/output/dir-redacted-key/in-redacted-key",
        "run/output/dir-redacted-key/in-redacted-key/x-redacted-key.txt"), found.renamed());
    assertEquals(List.of("run/output/dir-redacted-key/in-redacted-key/x-redacted-key.txt"), found.files());
    assertWarns(found, "run/output/dir-redacted-key/in-redacted-key/x-redacted-key.txt");
  }

  /**
   * A symbolic link whose target holds the key is removed, not followed; one named with the key is renamed; one to a
   * file outside that holds the key is left, and so is that file: no link is ever followed.
   */
  @Test
  void aLinkToTheKeyIsRemovedAndNoLinkIsFollowed() throws IOException {
    Path out = Files.createDirectories(tmp.resolve("run/output"));
    Path outside = Files.writeString(tmp.resolve("outside.txt"), "key " + KEY + "\n");
    Files.createSymbolicLink(out.resolve("link.txt"), Path.of("/nonexistent/" + KEY));
    Files.createSymbolicLink(out.resolve("to-" + KEY), Path.of("answer.md"));
    Files.createSymbolicLink(out.resolve("out.txt"), outside);
    Files.createSymbolicLink(out.resolve("dir"), tmp);
    Files.writeString(out.resolve("answer.md"), "clean\n");
    KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(tmp.resolve("run"));
    assertEquals(List.of("answer.md", "dir", "out.txt", "to-redacted-key"), names(out));
    assertEquals(Path.of("answer.md"), Files.readSymbolicLink(out.resolve("to-redacted-key")));
    assertEquals("key " + KEY + "\n", Files.readString(outside));
    assertEquals(List.of("run/output/link.txt"), found.removed());
    assertEquals(List.of("run/output/to-redacted-key"), found.renamed());
    assertEquals(List.of(), found.files());
    assertWarns(found, "symbolic link(s) (run/output/link.txt), removed");
  }

  /** A name already taken is never overwritten: the renamed file or folder gets a suffix before its extension. */
  @Test
  void aRenameNeverOverwrites() throws IOException {
    Path out = Files.createDirectories(tmp.resolve("run/output"));
    Files.writeString(out.resolve("name-redacted-key.txt"), "mine\n");
    Files.writeString(out.resolve("name-redacted-key-2.txt"), "mine too\n");
    Files.writeString(out.resolve("name-" + KEY + ".txt"), "theirs\n");
    Files.createDirectories(out.resolve("redacted-key"));
    Files.writeString(Files.createDirectories(out.resolve(KEY)).resolve("f.txt"), "below\n");
    KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(tmp.resolve("run"));
    assertEquals("mine\n", Files.readString(out.resolve("name-redacted-key.txt")));
    assertEquals("mine too\n", Files.readString(out.resolve("name-redacted-key-2.txt")));
    assertEquals("theirs\n", Files.readString(out.resolve("name-redacted-key-3.txt")));
    assertEquals(List.of(), names(out.resolve("redacted-key")));
    assertEquals("below\n", Files.readString(out.resolve("redacted-key-2/f.txt")));
    assertEquals(List.of("run/output/name-redacted-key-3.txt", "run/output/redacted-key-2"), found.renamed());
    assertNamesOnly(found.warning("r1 of d/t"));
  }

  /**
   * A file larger than {@link KeysOutOfRuns#LARGEST} is streamed: the key at its start, across the boundary of two
   * chunks read and at its end goes, the rest stays, and the warning is printed though no smaller file held it; a
   * large file without the key is not written at all. The file is sparse, so it costs little disk until rewritten.
   */
  @Test
  void aFileLargerThanTheLimitIsStreamed() throws IOException {
    Path out = Files.createDirectories(tmp.resolve("run/output"));
    Path big = out.resolve("big.log");
    Path clean = out.resolve("clean.log");
    long size = KeysOutOfRuns.LARGEST + 3 * KeysOutOfRuns.CHUNK + 17;
    long across = 5L * KeysOutOfRuns.CHUNK - 5;
    byte[] key = KEY.getBytes(StandardCharsets.US_ASCII);
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw");
        RandomAccessFile c = new RandomAccessFile(clean.toFile(), "rw")) {
      f.setLength(size);
      f.write(key);
      f.seek(across);
      f.write(key);
      f.seek(size - key.length);
      f.write(key);
      c.setLength(size);
      c.write("sk-canary-E9x8".getBytes(StandardCharsets.US_ASCII));
    }
    Files.setPosixFilePermissions(big, PosixFilePermissions.fromString("rw-r-----"));
    Object cleanInode = Files.getAttribute(clean, "unix:ino");
    KeysOutOfRuns.Found found = KeysOutOfRuns.scrub(tmp.resolve("run"));
    assertEquals(List.of("run/output/big.log"), found.files());
    assertEquals(cleanInode, Files.getAttribute(clean, "unix:ino"));
    assertEquals(List.of("big.log", "clean.log"), names(out)); // no temporary file left
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(big)));
    byte[] r = R.getBytes(StandardCharsets.US_ASCII);
    long newSize = size + 3L * (r.length - key.length);
    assertEquals(newSize, Files.size(big));
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "r")) {
      assertArrayEquals(r, at(f, 0, r.length));
      assertArrayEquals(join(new byte[5], r, new byte[5]), at(f, across - 5 + r.length - key.length, r.length + 10));
      assertArrayEquals(r, at(f, newSize - r.length, r.length));
    }
    assertWarns(found, "run/output/big.log");
  }

  /** The forms of the key are found in a large file as in a small one, at each place the longest first. */
  @Test
  void aFileLargerThanTheLimitLosesTheEncodedForms() throws IOException {
    Path f = Files.createDirectories(tmp.resolve("run")).resolve("a.bin");
    String hex = java.util.HexFormat.of().formatHex(KEY.getBytes(StandardCharsets.US_ASCII));
    String b64 = java.util.Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.US_ASCII));
    String reversed = new StringBuilder(KEY).reverse().toString();
    String text = "a " + hex + " b " + b64 + " c " + reversed + " d " + KEY + KEY + " e sk-canary-E9x\n";
    Files.writeString(f, text);
    TreeSet<String> variables = new TreeSet<>();
    assertTrue(KeysOutOfRuns.streamedOut(f, EnvKeys.current(), variables));
    assertEquals("a " + R + " b " + R + " c " + R + " d " + R + R + " e sk-canary-E9x\n", Files.readString(f));
    assertEquals(Set.of(VARIABLE), variables);
    assertFalse(KeysOutOfRuns.streamedOut(f, EnvKeys.current(), variables));
  }

  private static List<String> names(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> in = Files.newDirectoryStream(dir)) {
      for (Path p : in) out.add(p.getFileName().toString());
    }
    Collections.sort(out);
    return out;
  }

  private static byte[] at(RandomAccessFile f, long offset, int length) throws IOException {
    byte[] b = new byte[length];
    f.seek(offset);
    f.readFully(b);
    return b;
  }

  /** {@code found}'s warning names the variable and {@code shown}, and no piece of the key. */
  private static void assertWarns(KeysOutOfRuns.Found found, String shown) {
    String warning = found.warning("r1 of d/t");
    assertNamesOnly(warning);
    assertTrue(warning.contains(shown), warning);
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
