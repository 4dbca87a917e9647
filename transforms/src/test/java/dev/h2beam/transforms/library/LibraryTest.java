package dev.h2beam.transforms.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.model.SurfaceSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One mode's experience library for one domain (spec §3.5, §7.5). */
class LibraryTest {
  private static final String EXPLANATION = "Each entry is an earlier task of this domain whose chosen harness is"
      + " stored in full, with the reason it was picked; browse this index, then open the entries that look"
      + " relevant.";

  @TempDir Path root;

  private Library library() {
    return new Library(root.resolve("agg"), "accounting", SurfaceSpec.OPENCODE);
  }

  /** The four always-on files and one script. */
  private static Map<String, String> tree() {
    Map<String, String> t = new LinkedHashMap<>();
    t.put("systemprompt.md", "You are careful.\n");
    t.put("guardrails.md", "- Check totals.\n");
    t.put("LongTermMEMORY.md", "");
    t.put("tool_descriptions/tool_guidance.md", "Use the shell.\n");
    t.put("scripts/summarize.sh", "#!/bin/sh\necho ok\n");
    return t;
  }

  private static Map<String, String> experience() {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("cue", "totals disagree");
    e.put("lesson", "sum signed amounts");
    e.put("evidence", "inv1 trajectory");
    e.put("confidence", "high");
    e.put("edits", "- added scripts/summarize.sh");
    return e;
  }

  private static Map<String, String> experience(String cue, String lesson, String evidence) {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("cue", cue);
    e.put("lesson", lesson);
    e.put("evidence", evidence);
    return e;
  }

  /**
   * A gated mode that rejects every candidate delivers one of the task's base rollouts, which live in the summaries'
   * namespace: its library entry names that namespace, and the same sweep's resume was refused as another run's
   * (dogAD F11). A run of any other namespace is still another run's.
   */
  @Test
  void aGatedEntryNamingTheSharedBaseRolloutIsTheRunsOwn() throws IOException {
    Library gated = new Library(root.resolve("gat"), "accounting", SurfaceSpec.OPENCODE);
    assertTrue(gated.add("ledger-1", tree(), "No candidate passed.", "base2", "demo-oc-agg2/ledger-1/base2",
        experience()));
    assertEquals(List.of(), Library.othersEntries(root.resolve("gat"), java.util.Set.of("demo-oc-gat2",
        "demo-oc-agg2"), SurfaceSpec.OPENCODE));
    List<String> other = Library.othersEntries(root.resolve("gat"), java.util.Set.of("demo-oc-gat2", "demo-oc-agg3"),
        SurfaceSpec.OPENCODE);
    assertEquals(1, other.size(), other.toString());
    assertTrue(other.get(0).endsWith("(run `demo-oc-agg2/ledger-1/base2`)"), other.toString());
  }

  private void add(Library lib, String task) throws IOException {
    assertTrue(lib.add(task, tree(), "It reconciles.", "agg2", "demo-oc-agg2/" + task + "/agg2", experience()));
  }

  @Test
  void domainDirTurnsSlashesWithSurroundingSpacesIntoDoubleUnderscores() {
    assertEquals("a__b", Library.domainDir("a / b"));
    assertEquals("a__b", Library.domainDir("a/b"));
    assertEquals("a__b", Library.domainDir("a \\ b"));
    assertEquals("Business__Financial Ops", Library.domainDir("Business / Financial Ops"));
    assertEquals("x", Library.domainDir("  x  "));
  }

  @Test
  void blankDomainDirIsUnknown() {
    assertEquals("unknown", Library.domainDir(""));
    assertEquals("unknown", Library.domainDir("   "));
  }

  @Test
  void libraryLivesInTheDomainDir() {
    Library lib = new Library(root.resolve("seq"), "legal / contracts", SurfaceSpec.OPENCODE);
    assertEquals(root.resolve("seq").resolve("legal__contracts"), lib.dir());
    assertEquals(lib.dir().resolve("INDEX.md"), lib.index());
    assertEquals(lib.dir().resolve("harnesses").resolve("a__1"), lib.entryDir("a/1"));
  }

  @Test
  void hasExperienceNeedsNonBlankCueLessonAndEvidence() {
    assertTrue(Library.hasExperience(experience("c", "l", "e")));
    assertFalse(Library.hasExperience(experience("c", "l", " ")));
    assertFalse(Library.hasExperience(experience("", "l", "e")));
    assertFalse(Library.hasExperience(Map.of("cue", "c", "lesson", "l")));
    assertFalse(Library.hasExperience(Map.of()));
    assertFalse(Library.hasExperience(Map.of("cue", "c", "lesson", "l", "evidence", 3)));
  }

  @Test
  void shownIsNullUntilAnExperienceExists() throws IOException {
    Library lib = library();
    assertNull(lib.shown());
    lib.retain(List.of());
    assertTrue(lib.exists());
    assertNull(lib.shown());
    add(lib, "ledger-1");
    assertEquals(lib.dir(), lib.shown().dir());
  }

  @Test
  void retainOnAnEmptyLibraryWritesTheEmptyIndex() throws IOException {
    Library lib = library();
    lib.retain(List.of());
    assertEquals("# Library — accounting\n\n" + EXPLANATION + "\n\n"
        + "_(empty — this is the first task in this domain)_\n", Files.readString(lib.index()));
  }

  @Test
  void retainKeepsExactlyThePrefixEntriesAndDeletesTheOthers() throws IOException {
    Library lib = library();
    for (String t : List.of("ledger-1", "ledger-2", "ledger-3", "a/4")) add(lib, t);
    assertEquals(List.of("a__4", "ledger-1", "ledger-2", "ledger-3"), lib.entries());
    lib.retain(List.of("ledger-1", "a/4", "never-added"));
    assertEquals(List.of("a__4", "ledger-1"), lib.entries());
    assertFalse(Files.exists(lib.entryDir("ledger-2")));
    assertFalse(Files.exists(lib.entryDir("ledger-3")));
    String index = Files.readString(lib.index());
    assertTrue(index.contains("## `harnesses/ledger-1/`"), index);
    assertTrue(index.contains("## `harnesses/a__4/`"), index);
    assertFalse(index.contains("ledger-2"), index);
  }

  @Test
  void retainOfNothingEmptiesTheLibrary() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    lib.retain(List.of());
    assertEquals(List.of(), lib.entries());
    assertNull(lib.shown());
    assertTrue(Files.readString(lib.index()).contains("_(empty — this is the first task in this domain)_"));
  }

  @Test
  void forgetDeletesTheEntryAndRebuildsTheIndex() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    add(lib, "ledger-2");
    lib.forget(List.of("ledger-2", "unknown-task"));
    assertEquals(List.of("ledger-1"), lib.entries());
    assertFalse(Files.readString(lib.index()).contains("ledger-2"));
  }

  @Test
  void anIndexMadeEntryByEntryEqualsOneMadeFromDiskAlone() throws IOException {
    Library lib = library();
    for (String t : List.of("ledger-1", "ledger-2", "ledger-3")) {
      add(lib, t);
      Path kept = Files.copy(lib.index(), root.resolve("kept.md"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      library().writeIndex(); // another library of the same folder keeps nothing
      assertEquals(Files.readString(kept), Files.readString(lib.index()), "after " + t);
    }
    lib.forget(List.of("ledger-2"));
    String afterForget = Files.readString(lib.index());
    library().writeIndex();
    assertEquals(Files.readString(lib.index()), afterForget);
    assertFalse(afterForget.contains("ledger-2"), afterForget);
  }

  @Test
  void anEntryChangedOnDiskIsReadAgainForTheIndex() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    add(lib, "ledger-2");
    // another writer stores ledger-1 anew: another lesson, and a harness without its script
    Path entry = lib.entryDir("ledger-1");
    Path experience = entry.resolve("EXPERIENCE.md");
    Path moved = Files.writeString(entry.resolve("next.md"),
        Files.readString(experience).replace("totals disagree", "signs flip"));
    Files.move(moved, experience, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    add(lib, "ledger-3");
    String index = Files.readString(lib.index());
    assertTrue(index.contains("- cue:     signs flip"), index);
    library().writeIndex();
    assertEquals(Files.readString(lib.index()), index);
    // then only its harness, without the script
    Path harness = entry.resolve("harness");
    Path fresh = Files.createDirectories(entry.resolve("harness-next"));
    for (String f : List.of("systemprompt.md", "guardrails.md", "LongTermMEMORY.md")) {
      Files.copy(harness.resolve(f), fresh.resolve(f));
    }
    dev.h2beam.transforms.evidence.FileTrees.delete(harness);
    Files.move(fresh, harness);
    add(lib, "ledger-4");
    index = Files.readString(lib.index());
    library().writeIndex();
    assertEquals(Files.readString(lib.index()), index);
    String[] parts = index.split("## `harnesses/");
    assertTrue(parts[1].startsWith("ledger-1/") && parts[2].startsWith("ledger-2/"), index);
    assertNotEquals(parts[1].lines().skip(1).findFirst(), parts[2].lines().skip(1).findFirst(), index);
  }

  @Test
  void addRefusesAnIncompleteExperience() throws IOException {
    Library lib = library();
    assertFalse(lib.add("ledger-1", tree(), "why", "agg2", "r", experience("cue", "", "evidence")));
    assertFalse(Files.exists(lib.entryDir("ledger-1")));
    assertEquals(List.of(), lib.entries());
  }

  @Test
  void addStoresTheHarnessWithoutStubs() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    assertEquals(tree(), lib.treeOf("ledger-1"));
    assertFalse(Files.exists(lib.entryDir("ledger-1").resolve("harness").resolve("skills/README.md")));
  }

  @Test
  void addReplacesAnEarlierHarnessOfTheSameTask() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    Map<String, String> smaller = tree();
    smaller.remove("scripts/summarize.sh");
    assertTrue(lib.add("ledger-1", smaller, "again", "agg1", "", experience()));
    assertEquals(smaller, lib.treeOf("ledger-1"));
  }

  /** Each file under the library with its file key: a file written again (atomically) is a new file. */
  private Map<String, Object> keys(Library lib) throws IOException {
    Map<String, Object> keys = new java.util.TreeMap<>();
    try (java.util.stream.Stream<Path> s = Files.walk(lib.dir())) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          keys.put(lib.dir().relativize(p).toString(),
              Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).fileKey());
        }
      }
    }
    return keys;
  }

  @Test
  void theSameEntryAddedAgainWritesNothing() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    add(lib, "ledger-2");
    Map<String, Object> before = keys(lib);
    assertTrue(before.values().stream().allMatch(java.util.Objects::nonNull));
    add(lib, "ledger-1");
    lib.settle(List.of("ledger-1", "ledger-2"));
    assertEquals(before, keys(lib), "a resume's replay of stored entries writes no file, index included");
    assertEquals(tree(), lib.treeOf("ledger-1"));
  }

  @Test
  void anEntryThatDiffersInAnyWayIsWrittenAgainExactly() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    Path entry = lib.entryDir("ledger-1");
    Path harness = entry.resolve("harness");
    String experience = Files.readString(entry.resolve("EXPERIENCE.md"));
    String index = Files.readString(lib.index());
    List<java.util.function.Consumer<Path>> damage = List.of(
        h -> write(h.resolve("guardrails.md"), "- Check nothing.\n"),
        h -> write(h.resolve("skills/extra/SKILL.md"), "extra\n"),
        h -> mkdir(h.resolve("empty")),
        h -> delete(h.resolve("scripts/summarize.sh")),
        h -> write(h.getParent().resolve("EXPERIENCE.md"), "edited by hand"),
        h -> write(h.resolve("LongTermMEMORY.md"), "\u00e9"));
    java.io.PrintStream err = System.err;
    for (java.util.function.Consumer<Path> d : damage) {
      d.accept(harness);
      java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
      System.setErr(new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
      try {
        add(lib, "ledger-1");
      } finally {
        System.setErr(err);
      }
      // said, never in silence: an edit by hand is lost to the result it must hold (dogAG A4)
      assertTrue(said.toString(java.nio.charset.StandardCharsets.UTF_8).contains("[ledger-1] library entry " + entry
          + " written again from the task's result"), said.toString(java.nio.charset.StandardCharsets.UTF_8));
      assertEquals(tree(), lib.treeOf("ledger-1"));
      assertFalse(Files.exists(harness.resolve("skills")) || Files.exists(harness.resolve("empty")));
      assertEquals(experience, Files.readString(entry.resolve("EXPERIENCE.md")));
      assertEquals(index, Files.readString(lib.index()));
    }
  }

  @Test
  void settleCutsToTheTasksAndCountsTheirEntries() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    add(lib, "ledger-2");
    add(lib, "ledger-3");
    assertEquals(2, lib.entriesOf(List.of("ledger-1", "ledger-3", "ledger-9")));
    assertEquals(0, lib.entriesOf(List.of()));
    lib.settle(List.of("ledger-1", "ledger-2"));
    assertEquals(List.of("ledger-1", "ledger-2"), lib.entries());
    String index = Files.readString(lib.index());
    assertTrue(index.contains("harnesses/ledger-2/") && !index.contains("ledger-3"), index);
    Files.writeString(lib.index(), "stale");
    lib.settle(List.of("ledger-1", "ledger-2"));
    assertEquals(index, Files.readString(lib.index()), "a stale index is written again");
  }

  private static void write(Path p, String text) {
    try {
      Files.createDirectories(p.getParent());
      Files.writeString(p, text);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void mkdir(Path p) {
    try {
      Files.createDirectories(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void delete(Path p) {
    try {
      Files.delete(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void experienceFileHasTheExactFormat() throws IOException {
    Library lib = library();
    add(lib, "ledger-1");
    assertEquals(String.join("\n",
        "# ledger-1",
        "",
        "- adopted: `agg2`  (run `demo-oc-agg2/ledger-1/agg2`)",
        "- components: 1 scripts; 54 always-on chars",
        "",
        "## Why this was chosen",
        "It reconciles.",
        "",
        "## What each edit did",
        "- added scripts/summarize.sh",
        "",
        "## Transferable lesson",
        "- **cue**: totals disagree",
        "- **lesson**: sum signed amounts",
        "- **evidence**: inv1 trajectory",
        "- **confidence**: high",
        ""), Files.readString(lib.entryDir("ledger-1").resolve("EXPERIENCE.md"), StandardCharsets.UTF_8));
  }

  @Test
  void experienceFileLeavesOutEmptySections() throws IOException {
    Library lib = library();
    assertTrue(lib.add("ledger-1", tree(), "  ", "c1", "", experience("cue", "lesson", "evidence")));
    assertEquals(String.join("\n",
        "# ledger-1",
        "",
        "- adopted: `c1`",
        "- components: 1 scripts; 54 always-on chars",
        "",
        "## Transferable lesson",
        "- **cue**: cue",
        "- **lesson**: lesson",
        "- **evidence**: evidence",
        ""), Files.readString(lib.entryDir("ledger-1").resolve("EXPERIENCE.md"), StandardCharsets.UTF_8));
  }

  @Test
  void indexHasTheExactFormat() throws IOException {
    Library lib = library();
    add(lib, "ledger-2");
    assertTrue(lib.add("a/1", Map.of("systemprompt.md", "Hi"), "", "agg1", "", experience("x: y", "l", "e")));
    assertEquals(String.join("\n",
        "# Library — accounting",
        "",
        EXPLANATION,
        "",
        "## `harnesses/a__1/`",
        "- harness: `harnesses/a__1/harness/` — always-on edits only; 8 always-on chars",
        "- why:     `harnesses/a__1/EXPERIENCE.md`",
        "- cue:     x: y",
        "",
        "## `harnesses/ledger-2/`",
        "- harness: `harnesses/ledger-2/harness/` — 1 scripts; 54 always-on chars",
        "- why:     `harnesses/ledger-2/EXPERIENCE.md`",
        "- cue:     totals disagree",
        "",
        ""), Files.readString(lib.index(), StandardCharsets.UTF_8));
  }

  @Test
  void addRefusesATreeHoldingAGraderVerdict() throws IOException {
    Library lib = library();
    Map<String, String> leaky = tree();
    leaky.put("LongTermMEMORY.md", "Last run: {\"pass_rate\": 0.75}\n");
    assertThrows(HarnessRejected.class, () -> lib.add("ledger-1", leaky, "why", "agg2", "r", experience()));
    assertFalse(Files.exists(lib.entryDir("ledger-1")));
  }

  @Test
  void addRefusesALessonHoldingAGraderVerdict() throws IOException {
    Library lib = library();
    Map<String, String> leaky = experience("cue", "aim for \"pass_rate\" 1.0", "evidence");
    assertThrows(HarnessRejected.class, () -> lib.add("ledger-1", tree(), "why", "agg2", "r", leaky));
    assertFalse(Files.exists(lib.entryDir("ledger-1")));
  }

  @Test
  void addRefusesAWhyHoldingAGraderVerdict() throws IOException {
    Library lib = library();
    assertThrows(HarnessRejected.class, () -> lib.add("ledger-1", tree(),
        "it had the best \"pass_rate\"", "agg2", "r", experience()));
    assertFalse(Files.exists(lib.entryDir("ledger-1")));
  }
}
