package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnifiedDiffTest {
  @TempDir Path dir;

  @Test
  void aSmallChangeGivesDifflibsHunks() {
    String a = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";
    String b = "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven";
    assertEquals("--- current/x.md\n+++ cand/x.md\n"
        + "@@ -1,6 +1,6 @@\n one\n two\n-three\n+THREE\n four\n five\n six\n"
        + "@@ -8,3 +8,4 @@\n eight\n nine\n ten\n+eleven", UnifiedDiff.diff("current/x.md", "cand/x.md", a, b));
  }

  @Test
  void linesWithoutANewlineAreWrittenAsTheyAre() {
    assertEquals("--- f\n+++ t\n@@ -1,2 +1,2 @@\n a\n-b+c", UnifiedDiff.diff("f", "t", "a\nb", "a\nc"));
  }

  @Test
  void anAddedFileDiffsFromAnEmptyRange() {
    assertEquals("--- f\n+++ t\n@@ -0,0 +1 @@\n+new\n", UnifiedDiff.diff("f", "t", "", "new\n"));
    assertEquals("--- f\n+++ t\n@@ -1 +0,0 @@\n-old\n", UnifiedDiff.diff("f", "t", "old\n", ""));
  }

  /** A diff made again (the same texts, equal or the very ones) is the one made first; other names, another diff. */
  @Test
  void aDiffMadeAgainIsTheSameAndItsNamesAreItsOwn() {
    String a = "one\ntwo\n";
    String b = "one\n2\n";
    String first = UnifiedDiff.diff("current/x.md", "inv1/x.md", a, b);
    assertEquals(first, UnifiedDiff.diff("current/x.md", "inv1/x.md", new String(a), new String(b)));
    assertEquals("--- current/x.md\n+++ dom1/x.md\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
        UnifiedDiff.diff("current/x.md", "dom1/x.md", a, b));
    assertEquals("--- current/x.md\n+++ inv1/x.md\n@@ -1,2 +1,2 @@\n one\n-two\n+3\n",
        UnifiedDiff.diff("current/x.md", "inv1/x.md", a, "one\n3\n"));
    for (int i = 0; i < 300; i++) UnifiedDiff.diff("f", "t", "a\n", "b" + i + "\n"); // past what is remembered
    assertEquals(first, UnifiedDiff.diff("current/x.md", "inv1/x.md", a, b), "made again once forgotten");
  }

  @Test
  void equalTextsGiveNoDiff() {
    assertEquals("", UnifiedDiff.diff("f", "t", "same\n", "same\n"));
  }

  @Test
  void poolDiffCoversTheUnionOfOnSurfaceFilesInPlainStringOrder() throws IOException {
    Path current = dir.resolve("current");
    Path cand = dir.resolve("cand");
    TreeIO.write(SurfaceSpec.CODEX, Map.of("AGENTS.md", "a\n", "scripts/old.py", "x\n"), current, true);
    TreeIO.write(SurfaceSpec.CODEX, Map.of("AGENTS.md", "b\n", "scripts/new.sh", "echo\n"), cand, true);
    Files.writeString(cand.resolve("notes.txt"), "off surface");
    assertEquals("--- current/AGENTS.md\n+++ agg1/AGENTS.md\n@@ -1 +1 @@\n-a\n+b\n"
        + "--- current/scripts/new.sh\n+++ agg1/scripts/new.sh\n@@ -0,0 +1 @@\n+echo\n"
        + "--- current/scripts/old.py\n+++ agg1/scripts/old.py\n@@ -1 +0,0 @@\n-x\n",
        UnifiedDiff.poolDiff(SurfaceSpec.CODEX, current, cand, "agg1"));
  }

  @Test
  void matchesPythonDifflibOnRandomTexts() throws Exception {
    assumeTrue(ProcessRunner.onPath(System.getenv("PATH"), "python3") != null, "python3 is not installed");
    Random random = new Random(7);
    List<List<String>> pairs = new ArrayList<>();
    StringBuilder expected = new StringBuilder();
    for (int n = 0; n < 60; n++) {
      String a = randomText(random, n < 50 ? 30 : 260);
      String b = mutate(random, a);
      pairs.add(List.of(a, b));
      expected.append(UnifiedDiff.diff("current/f", "cand/f", a, b)).append('\u0000');
    }
    Path input = dir.resolve("pairs.json");
    Files.writeString(input, Json.pretty(pairs), StandardCharsets.UTF_8);
    Path output = dir.resolve("python.txt");
    Process p = new ProcessBuilder("python3", "-c",
        "import difflib, json, sys\n"
            + "out = ''\n"
            + "for a, b in json.load(open(sys.argv[1], encoding='utf-8')):\n"
            + "    out += ''.join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "
            + "fromfile='current/f', tofile='cand/f')) + '\\0'\n"
            + "open(sys.argv[2], 'w', encoding='utf-8', newline='').write(out)\n",
        input.toString(), output.toString()).redirectErrorStream(true).start();
    p.getOutputStream().close();
    p.waitFor(60, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    assertEquals(Files.readString(output, StandardCharsets.UTF_8), expected.toString());
  }

  /** Lines drawn from a small vocabulary, so that repeats, popular lines and missing final newlines all occur. */
  private static String randomText(Random random, int maxLines) {
    String[] vocab = {"a\n", "b\n", "c\n", "d\n", "}\n", "\n", "return x\n", "e\r\n", "f"};
    StringBuilder s = new StringBuilder();
    int lines = random.nextInt(maxLines + 1);
    for (int i = 0; i < lines; i++) {
      String line = vocab[random.nextInt(vocab.length)];
      s.append(line.equals("f") && i < lines - 1 ? "f\n" : line);
    }
    return s.toString();
  }

  private static String mutate(Random random, String text) {
    List<String> lines = new ArrayList<>(Py.splitlines(text, true));
    int edits = random.nextInt(6);
    for (int e = 0; e < edits; e++) {
      int at = lines.isEmpty() ? 0 : random.nextInt(lines.size());
      switch (random.nextInt(3)) {
        case 0 -> lines.add(at, "new " + random.nextInt(4) + "\n");
        case 1 -> {
          if (!lines.isEmpty()) lines.remove(at);
        }
        default -> {
          if (!lines.isEmpty()) lines.set(at, "changed\n");
        }
      }
    }
    return String.join("", lines);
  }
}
