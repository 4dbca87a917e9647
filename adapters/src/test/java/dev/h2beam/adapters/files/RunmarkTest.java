package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Harness fingerprints (spec §4.9) and completion markers (spec §2.18). */
class RunmarkTest {
  @TempDir Path dir;

  /** The §4.9 algorithm as CPython runs it, over the folder given as argv[1]. */
  private static final String PYTHON_FINGERPRINT = String.join("\n",
      "import hashlib, sys",
      "from pathlib import Path",
      "root = Path(sys.argv[1])",
      "h = hashlib.sha1()",
      "for p in sorted(root.rglob('*')):",
      "    if not p.is_file():",
      "        continue",
      "    rel = p.relative_to(root)",
      "    if '__pycache__' in rel.parts or p.name in ('.adapt_complete', '.DS_Store') or p.name.endswith('.pyc'):",
      "        continue",
      "    h.update(rel.as_posix().encode('utf-8'))",
      "    h.update(b'\\0')",
      "    h.update(p.read_bytes())",
      "    h.update(b'\\0')",
      "sys.stdout.write(h.hexdigest()[:16])");

  private static void write(Path root, String rel, String text) throws IOException {
    write(root, rel, text.getBytes(StandardCharsets.UTF_8));
  }

  private static void write(Path root, String rel, byte[] bytes) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
  }

  /** A harness folder whose path order differs from plain string order, with files the fingerprint skips. */
  private Path harness() throws IOException {
    Path h = dir.resolve("harness");
    write(h, "B", "upper");
    write(h, "a/a/z", "deep");
    write(h, "a/b", "");
    write(h, "a-b/x", "dash");
    write(h, "a.b", "dot");
    write(h, "skills/README.md", "<!-- stub -->\n");
    write(h, "systemprompt.md", "Use \u2014 care.\r\n");
    write(h, "scripts/blob.bin", new byte[] {0, 1, 2, (byte) 0xff, 0});
    write(h, ".hidden/x", "hidden");
    write(h, Runmark.MARKER, "{}");
    write(h, ".DS_Store", "finder");
    write(h, "scripts/tool.pyc", "bytecode");
    write(h, "__pycache__/m.cpython-311.pyc", "bytecode");
    write(h, "scripts/__pycache__/notes.txt", "cache");
    return h;
  }

  @Test
  void fingerprintOfNullIsBase() {
    assertEquals("base", Runmark.fingerprint(null));
  }

  @Test
  void fingerprintOfAMissingFolderIsAbsent() throws IOException {
    assertEquals("absent", Runmark.fingerprint(dir.resolve("missing")));
    Path file = dir.resolve("file.txt");
    Files.writeString(file, "x");
    assertEquals("absent", Runmark.fingerprint(file));
  }

  @Test
  void fingerprintEqualsThePythonAlgorithm() throws Exception {
    Path h = harness();
    assertEquals(Python3.run(PYTHON_FINGERPRINT, h.toString()), Runmark.fingerprint(h));
  }

  @Test
  void fingerprintOfAnEmptyFolderEqualsThePythonAlgorithm() throws Exception {
    Path h = Files.createDirectories(dir.resolve("empty"));
    assertEquals(Python3.run(PYTHON_FINGERPRINT, h.toString()), Runmark.fingerprint(h));
    assertEquals("da39a3ee5e6b4b0d", Runmark.fingerprint(h));
  }

  @Test
  void fingerprintIsSixteenHexCharacters() throws IOException {
    assertTrue(Runmark.fingerprint(harness()).matches("[0-9a-f]{16}"));
  }

  @Test
  void fingerprintIgnoresMarkerPycacheCompiledFilesAndDsStore() throws IOException {
    Path h = dir.resolve("h");
    write(h, "systemprompt.md", "x");
    String before = Runmark.fingerprint(h);
    write(h, Runmark.MARKER, "{\"version\": 1}");
    write(h, "__pycache__/a.pyc", "b");
    write(h, "skills/s/__pycache__/b.txt", "b");
    write(h, "scripts/c.pyc", "b");
    write(h, "skills/.DS_Store", "b");
    assertEquals(before, Runmark.fingerprint(h));
  }

  @Test
  void fingerprintChangesWithOneByte() throws IOException {
    Path h = harness();
    String before = Runmark.fingerprint(h);
    write(h, "a/b", "!");
    assertNotEquals(before, Runmark.fingerprint(h));
  }

  @Test
  void fingerprintChangesWithAFileName() throws IOException {
    Path h = dir.resolve("h");
    write(h, "one.md", "same");
    String before = Runmark.fingerprint(h);
    Files.move(h.resolve("one.md"), h.resolve("two.md"));
    assertNotEquals(before, Runmark.fingerprint(h));
  }

  @Test
  void markCompleteThenReadMarkRoundTrips() throws IOException {
    Path run = dir.resolve("run");
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("output_fingerprint", "feedbeef00000000");
    Runmark.markComplete(run, "demo-oc-agg2/ledger-1/base1", "0123456789abcdef", 12.5, extra);
    JsonNode m = Runmark.readMark(run);
    assertNotNull(m);
    assertEquals(12.5, m.path("at").asDouble());
    assertEquals("0123456789abcdef", m.path("harness").asText());
    assertEquals("demo-oc-agg2/ledger-1/base1", m.path("run_id").asText());
    assertEquals(1, m.path("version").asInt());
    assertEquals("feedbeef00000000", m.path("output_fingerprint").asText());
  }

  @Test
  void markerIsPrettyJsonWithSortedKeys() throws IOException {
    Path run = dir.resolve("run");
    Runmark.markComplete(run, "r", "h", 1.5, Map.of("solver", "x", "connection", "y"));
    String text = Files.readString(run.resolve(Runmark.MARKER));
    assertEquals("{\n  \"at\": 1.5,\n  \"connection\": \"y\",\n  \"harness\": \"h\",\n  \"run_id\": \"r\",\n"
        + "  \"solver\": \"x\",\n  \"version\": 1\n}", text);
  }

  @Test
  void markCompleteLeavesNoTempFile() throws IOException {
    Path run = dir.resolve("run");
    Runmark.markComplete(run, "r", "h", 0.0, Map.of());
    Runmark.markComplete(run, "r", "h2", 0.0, Map.of());
    try (Stream<Path> s = Files.list(run)) {
      assertEquals(List.of(Runmark.MARKER), s.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void markedRunIsCompleteForTheSameFingerprint() throws IOException {
    Path h = harness();
    Path run = dir.resolve("run");
    Runmark.markComplete(run, "r", Runmark.fingerprint(h), 0.0, Map.of());
    assertEquals("reusable", Runmark.whyNot(run, Runmark.fingerprint(h)));
    assertTrue(Runmark.isComplete(run, Runmark.fingerprint(h)));
  }

  @Test
  void runWithoutMarkerIsNotComplete() throws IOException {
    Path run = Files.createDirectories(dir.resolve("run"));
    assertEquals("no completion marker", Runmark.whyNot(run, "base"));
    assertFalse(Runmark.isComplete(run, "base"));
    assertNull(Runmark.readMark(run));
  }

  @Test
  void markerOfAnotherVersionIsNotComplete() throws IOException {
    Path run = dir.resolve("run");
    write(run, Runmark.MARKER, "{\"at\": 0.0, \"harness\": \"base\", \"run_id\": \"r\", \"version\": 2}");
    assertEquals("marker version mismatch", Runmark.whyNot(run, "base"));
    assertFalse(Runmark.isComplete(run, "base"));
  }

  @Test
  void markerOfAnotherHarnessNamesBothFingerprints() throws IOException {
    Path run = dir.resolve("run");
    Runmark.markComplete(run, "r", "aaaaaaaaaaaaaaaa", 0.0, Map.of());
    assertEquals("harness fingerprint aaaaaaaaaaaaaaaa != bbbbbbbbbbbbbbbb",
        Runmark.whyNot(run, "bbbbbbbbbbbbbbbb"));
    assertFalse(Runmark.isComplete(run, "bbbbbbbbbbbbbbbb"));
  }

  @Test
  void editingTheHarnessAfterMarkingMakesTheRunStale() throws IOException {
    Path h = harness();
    Path run = dir.resolve("run");
    Runmark.markComplete(run, "r", Runmark.fingerprint(h), 0.0, Map.of());
    write(h, "guardrails.md", "new rule");
    assertTrue(Runmark.whyNot(run, Runmark.fingerprint(h)).startsWith("harness fingerprint "));
  }

  @Test
  void unreadableMarkerReadsAsNull() throws IOException {
    Path run = dir.resolve("run");
    write(run, Runmark.MARKER, "{not json");
    assertNull(Runmark.readMark(run));
  }

  @Test
  void unreadableMarkerIsNotCompleteAndSaysSo() throws IOException {
    Path run = dir.resolve("run");
    write(run, Runmark.MARKER, "{not json");
    assertEquals("unreadable completion marker", Runmark.whyNot(run, "base"));
    assertFalse(Runmark.isComplete(run, "base"));
  }

  @Test
  void markerThatIsNotAnObjectReadsAsNull() throws IOException {
    Path run = dir.resolve("run");
    write(run, Runmark.MARKER, "[1, 2]");
    assertNull(Runmark.readMark(run));
  }

  @Test
  void fileDigestIsTheFirstSixteenHexOfSha1() throws IOException {
    Path f = dir.resolve("f.txt");
    Files.writeString(f, "abc");
    assertEquals("a9993e364706816a", Runmark.fileDigest(f));
  }

  /**
   * A fingerprint taken for a rollout is known to the benchmark's own call on the same thread, for that folder alone
   * and only while the rollout runs; another thread, another folder and the time after read the disk.
   */
  @Test
  void aFingerprintJustTakenIsKnownWhileTheRolloutRuns() throws Exception {
    Path harness = Files.createDirectories(dir.resolve("h"));
    Files.writeString(harness.resolve("systemprompt.md"), "one");
    Path other = Files.createDirectories(dir.resolve("o"));
    Files.writeString(other.resolve("systemprompt.md"), "other");
    String taken = Runmark.fingerprint(harness);
    String inside = Runmark.knowing(harness, taken, () -> {
      // a harness never changes while its rollout runs; changing it here shows that it is not read again
      Files.writeString(harness.resolve("systemprompt.md"), "two");
      assertEquals(Runmark.fingerprint(other), Runmark.knowing(other, Runmark.fingerprint(other),
          () -> Runmark.fingerprint(other)));
      String[] elsewhere = new String[1];
      Thread t = new Thread(() -> elsewhere[0] = Runmark.fingerprint(harness));
      t.start();
      t.join();
      assertNotEquals(taken, elsewhere[0], "another thread reads the disk");
      return Runmark.fingerprint(harness);
    });
    assertEquals(taken, inside);
    assertNotEquals(taken, Runmark.fingerprint(harness), "after the rollout the disk is read again");
    assertEquals("base", Runmark.knowing(null, "x", () -> Runmark.fingerprint(null)));
  }

  /**
   * A harness this process wrote is fingerprinted from what it wrote (its files and texts; a file it did not write
   * read from disk) exactly as from disk; a folder it did not write, or forgot, from disk.
   */
  @Test
  void aWrittenHarnessFingerprintsFromMemoryAsFromDisk() throws Exception {
    Path h = Files.createDirectories(dir.resolve("written/skills/a"));
    Path root = dir.resolve("written");
    Files.writeString(root.resolve("systemprompt.md"), "line one\r\nline two\n");
    Files.writeString(h.resolve("SKILL.md"), "é ✓");
    Files.writeString(root.resolve("harness.yaml"), "kept, not written");
    Files.writeString(root.resolve(".DS_Store"), "junk");
    List<String> files = PathOrder.files(root);
    WrittenTrees.remember(root, "oc", files, Map.of(), Map.of("systemprompt.md", "line one\r\nline two\n",
        "skills/a/SKILL.md", "é ✓"));
    String fromDisk = Runmark.fingerprint(root);
    assertEquals(fromDisk, Runmark.fingerprintWritten(root));
    // memory is what was written: a change behind the writer's back shows on disk only
    Files.writeString(root.resolve("systemprompt.md"), "changed");
    assertNotEquals(Runmark.fingerprint(root), Runmark.fingerprintWritten(root));
    assertEquals(fromDisk, Runmark.fingerprintWritten(root));
    WrittenTrees.forget(root);
    assertEquals(Runmark.fingerprint(root), Runmark.fingerprintWritten(root));
    assertEquals("base", Runmark.fingerprintWritten(null));
    assertEquals("absent", Runmark.fingerprintWritten(dir.resolve("missing")));
  }
}
