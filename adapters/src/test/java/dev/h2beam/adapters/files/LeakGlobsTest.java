package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Leak globs of spec §5.3 with POSIX fnmatch semantics. */
class LeakGlobsTest {
  @TempDir Path dir;

  private static boolean matches(String glob, String rel) {
    return new LeakGlobs(List.of(glob)).matches(rel);
  }

  private static void touch(Path root, String rel) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "x");
  }

  /**
   * A benchmark's globs are one shared matcher, whose kept answers are the patterns' own: every path answers the same
   * asked once, asked again, and asked of a fresh matcher of the same globs.
   */
  @Test
  void theSharedMatcherKeepsThePatternsAnswers() {
    List<String> globs = new ArrayList<>(List.of("answers*", "grader/**", ".codex/key"));
    LeakGlobs shared = LeakGlobs.of(globs);
    assertTrue(shared == LeakGlobs.of(List.copyOf(globs)), "one matcher for equal lists of globs");
    assertFalse(shared == LeakGlobs.of(List.of("answers*")), "another for other globs");
    globs.add("*"); // the caller's list changing later changes nothing
    assertFalse(LeakGlobs.of(List.of("answers*", "grader/**", ".codex/key")).matches("harness/systemprompt.md"));
    LeakGlobs fresh = new LeakGlobs(List.of("answers*", "grader/**", ".codex/key"));
    List<String> paths = List.of("answers/key.txt", "source/answers.md", "grader/x/out.json", "harness/grader.md",
        "deep/.codex/key", ".codex/keys", "rollouts/base1.md", "pool/inv1/harness/systemprompt.md");
    for (int round = 0; round < 2; round++) {
      for (String rel : paths) assertEquals(fresh.matches(rel), shared.matches(rel), rel + ", round " + round);
    }
    assertEquals(List.of(true, true, true, false, true, false, false, false),
        paths.stream().map(shared::matches).toList());
  }

  @Test
  void starCrossesSlashes() {
    assertTrue(matches("answers*", "answers/deep/key.txt"));
    assertTrue(matches("*.key", "a/b/c.key"));
    assertTrue(matches("grader*out.json", "grader/run/1/out.json"));
  }

  @Test
  void doubleStarBehavesLikeStar() {
    assertTrue(matches("answers/**", "answers/a/b.txt"));
    assertTrue(matches("**.key", "x/y.key"));
  }

  @Test
  void questionMarkMatchesExactlyOneCharacter() {
    assertTrue(matches("key?.txt", "key1.txt"));
    assertFalse(matches("key?.txt", "key12.txt"));
    assertFalse(matches("key?.txt", "key.txt"));
    assertTrue(matches("a?b", "a/b"));
  }

  @Test
  void bracketClassMatchesOneListedCharacter() {
    assertTrue(matches("answer[0-9].md", "answer3.md"));
    assertTrue(matches("answer[xy].md", "answery.md"));
    assertFalse(matches("answer[0-9].md", "answerx.md"));
  }

  @Test
  void negatedBracketClassMatchesAnyOtherCharacter() {
    assertTrue(matches("key[!a].txt", "keyb.txt"));
    assertFalse(matches("key[!a].txt", "keya.txt"));
  }

  @Test
  void unclosedBracketIsLiteral() {
    assertTrue(matches("a[b", "a[b"));
    assertFalse(matches("a[b", "ab"));
  }

  @Test
  void otherRegexCharactersAreLiteral() {
    assertTrue(matches("a+b(1).txt", "a+b(1).txt"));
    assertFalse(matches("a.b", "axb"));
    assertTrue(matches("$x^", "$x^"));
  }

  @Test
  void globAlsoMatchesBelowAnyFolder() {
    assertTrue(matches("grader/out.json", "grader/out.json"));
    assertTrue(matches("grader/out.json", "tasks/7/grader/out.json"));
    assertFalse(matches("grader/out.json", "xgrader/out.json"));
    assertFalse(matches("grader/out.json", "grader/out.json.bak"));
  }

  @Test
  void matchingIsCaseSensitive() {
    assertFalse(matches("KEY.txt", "key.txt"));
  }

  @Test
  void leadingDotSlashAndSlashAreStripped() {
    assertTrue(matches("./answers/*", "answers/a"));
    assertTrue(matches("/answers/*", "answers/a"));
    assertTrue(matches(".//answers/*", "answers/a"));
  }

  @Test
  void backslashesAreFolderSeparators() {
    assertTrue(matches("answers\\key.txt", "answers/key.txt"));
  }

  @Test
  void dotGlobKeepsItsDotUnlikeHarness2() {
    // harness2's lstrip("./") would turn .codex/x into codex/x (quirk §21.9); h2beam keeps the dot.
    assertTrue(matches(".codex/x", ".codex/x"));
    assertTrue(matches(".codex/x", "work/.codex/x"));
    assertFalse(matches(".codex/x", "codex/x"));
  }

  @Test
  void noGlobsIsEmptyAndMatchesNothing() {
    LeakGlobs none = new LeakGlobs(List.of());
    assertTrue(none.isEmpty());
    assertFalse(none.matches("anything"));
    assertTrue(new LeakGlobs(List.of("", "./", "/")).isEmpty());
    assertFalse(new LeakGlobs(List.of("*.key")).isEmpty());
  }

  @Test
  void assertNoneIsFineWithoutHitsWithoutGlobsOrWithoutFolder() throws IOException {
    touch(dir, "task.md");
    assertDoesNotThrow(() -> new LeakGlobs(List.of("*.key")).assertNone(dir));
    assertDoesNotThrow(() -> new LeakGlobs(List.of()).assertNone(dir));
    assertDoesNotThrow(() -> new LeakGlobs(List.of("*")).assertNone(dir.resolve("missing")));
  }

  @Test
  void assertNoneListsTheFirstEightHitsSorted() throws IOException {
    for (String rel : List.of("z.key", "b/a.key", "a.key", "c.key", "d.key", "e.key", "f.key", "g.key", "h.key",
        "task.md")) {
      touch(dir, rel);
    }
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> new LeakGlobs(List.of("*.key")).assertNone(dir));
    assertEquals("answer-key path(s) would enter model context: "
        + "[a.key, b/a.key, c.key, d.key, e.key, f.key, g.key, h.key]", e.getMessage());
  }

  /** For each [glob, path] pair, whether CPython's fnmatchcase matches the path or {@code * /path}; null without python3. */
  private static List<Boolean> pythonMatches(List<List<String>> pairs) throws IOException, InterruptedException {
    String script = "import fnmatch, json, sys\n"
        + "for g, p in json.load(sys.stdin):\n"
        + "    print(1 if fnmatch.fnmatchcase(p, g) or fnmatch.fnmatchcase(p, '*/' + g) else 0)\n";
    Process p;
    try {
      p = new ProcessBuilder("python3", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      return null;
    }
    try (OutputStream in = p.getOutputStream()) {
      in.write(Json.canonical(pairs).getBytes(StandardCharsets.UTF_8));
    }
    String out;
    try (InputStream o = p.getInputStream()) {
      out = new String(o.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(0, p.waitFor(), "python3 fnmatch failed");
    List<Boolean> result = new ArrayList<>();
    for (String line : out.strip().split("\n")) result.add(line.strip().equals("1"));
    return result;
  }

  private static void assertSameAsPython(List<String> globs, List<String> paths) throws Exception {
    List<List<String>> pairs = new ArrayList<>();
    for (String g : globs) for (String p : paths) pairs.add(List.of(g, p));
    List<Boolean> python = pythonMatches(pairs);
    assumeTrue(python != null, "python3 is not installed");
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < pairs.size(); i++) {
      List<String> pair = pairs.get(i);
      boolean java = matches(pair.get(0), pair.get(1));
      if (java != python.get(i)) differences.add(pair + " java=" + java + " python=" + python.get(i));
    }
    assertEquals(List.of(), differences);
  }

  @Test
  void matchesAgreeWithPythonFnmatch() throws Exception {
    assertSameAsPython(
        List.of("*.key", "answers/*", "answer?.md", "answer[0-9].md", "key[!a].txt", "a[b", "grader/out.json",
            "**/secret*", "[a-c]*/x", "*[!/]", "x[-]y", "x[a-]y", "x[]]y", "x[!]]y", "a.b", "a+b", "(x)"),
        List.of("a.key", "d/a.key", "answers/x/y", "answer1.md", "answerx.md", "keyb.txt", "keya.txt", "a[b",
            "t/grader/out.json", "grader/out.json", "z/secret.txt", "b/x", "q/b/x", "dir/", "x-y", "xay", "x]y",
            "xby", "a.b", "axb", "a+b", "(x)"));
  }

  @Test
  void bracketAndAmpersandInsideAClassAreLiteralAsInPython() throws Exception {
    assertSameAsPython(List.of("x[[]y", "x[a&&b]y", "x[&]y", "x[~|]y"),
        List.of("x[y", "xay", "x&y", "xby", "x~y", "x|y"));
  }
}
