package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.files.Trees;
import dev.h2beam.adapters.files.WrittenTrees;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeIOTest {
  private static final SurfaceSpec OC = SurfaceSpec.OPENCODE;
  private static final SurfaceSpec CX = SurfaceSpec.CODEX;

  @TempDir Path dir;

  private void put(String rel, String text) throws IOException {
    Path p = dir.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  @Test
  void readWalksInPythonPathOrder() throws IOException {
    put("skills/a-b/SKILL.md", "2");
    put("skills/a/SKILL.md", "1");
    put("guardrails.md", "0");
    // Component order puts skills/a before skills/a-b; plain string order would not.
    assertEquals(List.of("guardrails.md", "skills/a/SKILL.md", "skills/a-b/SKILL.md"),
        new ArrayList<>(TreeIO.read(OC, dir, null).keySet()));
  }

  @Test
  void readSkipsStubsSilentlyAndCollectsOffSurfaceFiles() throws IOException {
    put("systemprompt.md", "hi");
    put("scripts/README.md", "stub");
    put("harness.yaml", "x");
    put("scripts/notes.txt", "x");
    List<String> rejected = new ArrayList<>();
    Map<String, String> tree = TreeIO.read(OC, dir, rejected);
    assertEquals(Map.of("systemprompt.md", "hi"), tree);
    assertEquals(List.of("harness.yaml", "scripts/notes.txt"), rejected);

    // the files given (a harvest's) stand for the listing: read, skipped and rejected alike, in their order
    List<String> given = new ArrayList<>();
    assertEquals(tree, TreeIO.read(OC, dir, PathOrder.files(dir), given));
    assertEquals(rejected, given);
    assertEquals(Map.of(), TreeIO.read(OC, dir, List.of("scripts/README.md"), null), "only what was given");
  }

  @Test
  void readSkipsPycache() throws IOException {
    put("scripts/__pycache__/x.py", "cached");
    put("scripts/x.py", "print(1)\n");
    List<String> rejected = new ArrayList<>();
    assertEquals(List.of("scripts/x.py"), new ArrayList<>(TreeIO.read(OC, dir, rejected).keySet()));
    assertEquals(List.of(), rejected);
  }

  @Test
  void readOfAMissingDirectoryIsEmpty() {
    assertTrue(TreeIO.read(OC, dir.resolve("absent"), null).isEmpty());
  }

  @Test
  void readTranslatesWindowsAndOldMacLineEnds() throws IOException {
    put("AGENTS.md", "a\r\nb\rc\n");
    assertEquals("a\nb\nc\n", TreeIO.read(CX, dir, null).get("AGENTS.md"));
  }

  @Test
  void isTreeNeedsAnAlwaysOnFile() throws IOException {
    put("scripts/x.py", "");
    assertFalse(TreeIO.isTree(OC, dir));
    put("tool_descriptions/tool_guidance.md", "");
    assertTrue(TreeIO.isTree(OC, dir));
    assertFalse(TreeIO.isTree(OC, dir.resolve("absent")));
  }

  @Test
  void writePreservesOffSurfaceFiles() throws IOException {
    put("harness.yaml", "model: x\n");
    put("scripts/notes.txt", "keep me");
    TreeIO.write(OC, Map.of("systemprompt.md", "be brief"), dir, true);
    assertEquals("model: x\n", Files.readString(dir.resolve("harness.yaml")));
    assertEquals("keep me", Files.readString(dir.resolve("scripts/notes.txt")));
  }

  @Test
  void writeDeletesOnSurfaceFilesThatAreNotInTheTree() throws IOException {
    put("scripts/old.py", "print(1)\n");
    put("skills/gone/SKILL.md", "x");
    TreeIO.write(OC, Map.of("systemprompt.md", "be brief"), dir, false);
    assertFalse(Files.exists(dir.resolve("scripts/old.py")));
    assertFalse(Files.exists(dir.resolve("skills/gone/SKILL.md")));
  }

  @Test
  void writeCreatesMissingAlwaysOnFilesEmpty() throws IOException {
    TreeIO.write(OC, Map.of("systemprompt.md", "be brief"), dir, false);
    assertEquals("be brief", Files.readString(dir.resolve("systemprompt.md")));
    assertEquals("", Files.readString(dir.resolve("guardrails.md")));
    assertEquals("", Files.readString(dir.resolve("LongTermMEMORY.md")));
    assertEquals("", Files.readString(dir.resolve("tool_descriptions/tool_guidance.md")));
  }

  @Test
  void writeAddsStubsOnlyWhenAsked() throws IOException {
    Path with = TreeIO.write(CX, Map.of("AGENTS.md", "x"), dir.resolve("with"), true);
    Path without = TreeIO.write(CX, Map.of("AGENTS.md", "x"), dir.resolve("without"), false);
    for (String stub : CX.stubs().keySet()) {
      assertEquals(CX.stubs().get(stub), Files.readString(with.resolve(stub)));
      assertFalse(Files.exists(without.resolve(stub)), stub);
    }
  }

  @Test
  void writeThenReadGivesTheTreeBack() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("AGENTS.md", "Use `python3 scripts/x.py`.\n");
    tree.put("scripts/x.py", "print('é')\n");
    TreeIO.write(CX, tree, dir, true);
    assertEquals(tree, TreeIO.read(CX, dir, null));
  }

  @Test
  void writeRejectsAnEscapingPathBeforeTouchingTheDisk() throws IOException {
    put("scripts/old.py", "print(1)\n");
    assertThrows(HarnessRejected.class, () -> TreeIO.write(OC, Map.of("../evil.md", "x"), dir, true));
    assertTrue(Files.exists(dir.resolve("scripts/old.py")));
  }

  @Test
  void alwaysOnTextJoinsTheFilesInSurfaceOrderWithBlankLines() {
    assertEquals("S\n\n\n\nM\n\n", TreeIO.alwaysOnText(OC, Map.of("LongTermMEMORY.md", "M", "systemprompt.md", "S")));
    assertEquals(6, TreeIO.alwaysOnText(OC, Map.of()).length());
  }

  @Test
  void aHarnessFileThatIsNotUtf8IsRefusedNamingTheFile() throws IOException {
    put("systemprompt.md", "hi");
    Path binary = dir.resolve("scripts/tool.sh");
    Files.createDirectories(binary.getParent());
    Files.write(binary, new byte[] {'e', 'c', 'h', 'o', ' ', (byte) 0xc3, '\n'});
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> TreeIO.read(OC, dir, null));
    assertTrue(e.getMessage().startsWith("harness file " + binary + " is not UTF-8 text (byte 0xC3 at offset 5"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("save it as UTF-8, or remove it: a harness holds text files only"),
        e.getMessage());
  }

  /**
   * A folder this process wrote is read from memory exactly as from disk: its files, its tree (newlines made
   * universal, stubs and off-surface files left out, always-on files made empty), for either surface.
   */
  @Test
  void aWrittenFolderReadsFromMemoryAsItWouldFromDisk() throws IOException {
    put("harness.yaml", "off the surface, kept");
    put("scripts/old.py", "replaced");
    LinkedHashMap<String, String> tree = new LinkedHashMap<>();
    tree.put("skills/b/SKILL.md", "windows\r\nline\rold mac\n");
    tree.put("scripts/x.py", "print(1)\n");
    tree.put("systemprompt.md", "é ünïcode ✓\n");
    // a name a file system may normalise: that folder is listed again after the write, not taken from the names
    LinkedHashMap<String, String> accented = new LinkedHashMap<>(tree);
    accented.put("skills/\u00e9t\u00e9/SKILL.md", "accented\n");
    for (SurfaceSpec surface : List.of(OC, CX)) for (Map<String, String> given : List.of(tree, accented)) {
      Path dest = dir.resolve(surface.name() + given.size());
      Files.createDirectories(dest);
      Files.writeString(dest.resolve("harness.yaml"), "off the surface, kept");
      TreeIO.writeHarness(surface, given, dest, true);
      assertTrue(WrittenTrees.of(dest) != null, "noted as written");
      LinkedHashMap<String, String> fromMemory = TreeIO.readHarness(surface, dest);
      List<String> listed = TreeIO.files(dest);
      Map<String, String> texts = TreeIO.writtenTexts(dest);
      WrittenTrees.forget(dest);
      // every file the write put there, byte for byte (newlines as written, stubs and empty always-on files too);
      // the off-surface file it left alone is not among them
      assertTrue(Files.isRegularFile(dest.resolve("harness.yaml")));
      assertFalse(texts.containsKey("harness.yaml"));
      List<String> written = new ArrayList<>(PathOrder.files(dest));
      written.remove("harness.yaml");
      assertEquals(new java.util.TreeSet<>(written), new java.util.TreeSet<>(texts.keySet()));
      for (String rel : written) {
        assertEquals(new String(Files.readAllBytes(dest.resolve(rel)), java.nio.charset.StandardCharsets.UTF_8),
            texts.get(rel), rel);
      }
      assertTrue(texts.get("skills/b/SKILL.md").contains("\r\n"), "as written, not as read");
      assertEquals(Map.of(), TreeIO.writtenTexts(dest), "forgotten");
      assertEquals(TreeIO.read(surface, dest, null), fromMemory);
      assertEquals(new ArrayList<>(TreeIO.read(surface, dest, null).keySet()), new ArrayList<>(fromMemory.keySet()));
      assertEquals(PathOrder.files(dest), listed);
    }
  }

  /** A written folder deleted (and made again some other way) is read from disk again. */
  @Test
  void aWrittenFolderDeletedIsReadFromDiskAgain() throws IOException {
    Path dest = dir.resolve("h");
    TreeIO.writeHarness(OC, Map.of("systemprompt.md", "one"), dest, false);
    Trees.delete(dest);
    Files.createDirectories(dest);
    Files.writeString(dest.resolve("systemprompt.md"), "two");
    assertEquals("two", TreeIO.readHarness(OC, dest).get("systemprompt.md"));
    assertEquals(List.of("systemprompt.md"), TreeIO.files(dest));
    // and a folder written again is noted anew
    TreeIO.writeHarness(OC, Map.of("systemprompt.md", "three", "guardrails.md", "g"), dest, false);
    assertEquals("three", TreeIO.readHarness(OC, dest).get("systemprompt.md"));
    assertTrue(TreeIO.files(dest).contains("guardrails.md"));
  }

  /** What checks stored trees reads the disk: a plain write notes nothing, and read never answers from memory. */
  @Test
  void checksOfStoredTreesReadTheDisk() throws IOException {
    Path stored = dir.resolve("library-entry");
    TreeIO.write(OC, Map.of("systemprompt.md", "clean"), stored, false);
    assertEquals(null, WrittenTrees.of(stored));
    Path candidate = dir.resolve("candidate");
    TreeIO.writeHarness(OC, Map.of("systemprompt.md", "clean"), candidate, false);
    Files.writeString(candidate.resolve("systemprompt.md"), "edited on disk");
    assertEquals("edited on disk", TreeIO.read(OC, candidate, null).get("systemprompt.md"));
    assertEquals("clean", TreeIO.readHarness(OC, candidate).get("systemprompt.md"), "the task's own stages");
  }

  /**
   * A folder made by the write (not listed first) and one that was there with files of its own are both noted as a
   * listing finds them; a folder that is a link to another is not noted (a listing skips the link) but still written.
   */
  @Test
  void aFolderMadeByTheWriteAndOneThatWasThereAreNotedAsListed() throws IOException {
    Path fresh = dir.resolve("a/b/fresh");
    TreeIO.writeHarness(OC, Map.of("systemprompt.md", "s", "skills/x/SKILL.md", "k"), fresh, true);
    assertEquals(PathOrder.files(fresh), TreeIO.files(fresh));
    assertEquals(TreeIO.read(OC, fresh, null), TreeIO.readHarness(OC, fresh));
    Path there = dir.resolve("there");
    Files.createDirectories(there.resolve("notes"));
    Files.writeString(there.resolve("notes/keep.txt"), "off the surface");
    Files.writeString(there.resolve("guardrails.md"), "old");
    TreeIO.writeHarness(OC, Map.of("systemprompt.md", "s"), there, false);
    assertEquals(PathOrder.files(there), TreeIO.files(there));
    assertTrue(TreeIO.files(there).contains("notes/keep.txt"));
    Path target = Files.createDirectories(dir.resolve("target"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), target);
    TreeIO.writeHarness(OC, Map.of("systemprompt.md", "through the link"), link, false);
    assertEquals("through the link", Files.readString(target.resolve("systemprompt.md")));
    assertEquals(null, WrittenTrees.of(link));
  }
}
