package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.PathOrder;
import dev.h2beam.adapters.model.HarnessRejected;
import dev.h2beam.adapters.proposer.EvidenceView;
import dev.h2beam.transforms.proposer.Proposer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library shown from memory gives the session exactly what a folder with the library linked in gave it (files,
 * bytes, modes and the reply-cache key, so a resumed run finds the sessions an older build ran), while the evidence
 * folder keeps only the library's index.
 */
class ShownLibraryTest {

  private static Path library(Path root) throws Exception {
    Path lib = root.resolve("library/agg/accounting");
    Files.createDirectories(lib.resolve("harnesses/ledger-1/harness/scripts/__pycache__"));
    Files.createDirectories(lib.resolve("harnesses/ledger-2/harness"));
    Files.writeString(lib.resolve("INDEX.md"), "# Library — accounting\n\n- ledger-1\n- ledger-2\n");
    Files.writeString(lib.resolve("harnesses/ledger-1/EXPERIENCE.md"), "- **cue**: totals\n");
    Files.writeString(lib.resolve("harnesses/ledger-1/harness/AGENTS.md"), "sum the column\n");
    Path script = lib.resolve("harnesses/ledger-1/harness/scripts/total.sh");
    Files.writeString(script, "awk '{s+=$2} END {print s}'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));
    Files.writeString(lib.resolve("harnesses/ledger-1/harness/scripts/old.pyc"), "bytecode");
    Files.writeString(lib.resolve("harnesses/ledger-1/harness/scripts/__pycache__/x.pyc"), "bytecode");
    Files.writeString(lib.resolve("harnesses/ledger-2/EXPERIENCE.md"), "- **cue**: dates\n");
    Files.writeString(lib.resolve("harnesses/ledger-2/harness/AGENTS.md"), "mind the dates ✓\n");
    return lib;
  }

  /** An evidence folder as {@link Evidence#build} makes it: a text, then the library shown at library/. */
  private static HeldTree shownAt(Path dest, ShownLibrary lib) throws Exception {
    FileTrees.recreate(dest);
    Placed placed = new Placed(dest);
    placed.text(dest.resolve("task.md"), "the task");
    placed.bytes(dest.resolve("library/INDEX.md"), lib.bytes("INDEX.md"));
    placed.shown(dest.resolve("library"), lib);
    return placed.held();
  }

  /** The evidence folder as it was made before the library was shown from memory: linked in whole. */
  private static Path linkedWhole(Path root, Path libDir) throws Exception {
    Path linked = root.resolve("linked");
    Files.createDirectories(linked);
    Files.writeString(linked.resolve("task.md"), "the task");
    FileTrees.link(libDir, linked.resolve("library"));
    return linked;
  }

  @Test
  void theSessionGetsWhatALinkedLibraryGaveAndTheFolderKeepsTheIndex(@TempDir Path root) throws Exception {
    Path libDir = library(root);
    ShownLibrary lib = ShownLibrary.of(libDir);
    Path dest = root.resolve("runs/task/context/inv1");
    HeldTree held = shownAt(dest, lib);

    // the folder kept in the run: the text and the library's index
    assertEquals(List.of("library/INDEX.md", "task.md"), PathOrder.files(dest));
    assertEquals(Files.readString(libDir.resolve("INDEX.md")), Files.readString(dest.resolve("library/INDEX.md")));
    assertTrue(held.matchesDisk());

    // the folder as it was made before: the library linked in whole, at the same place
    Path linked = linkedWhole(root, libDir);
    HeldTree before = HeldTree.read(linked, PathOrder.list(linked));
    assertEquals(before.files(), held.files());
    assertTrue(held.at(linked).sameAs(before), "the same bytes and modes");
    assertEquals(Proposer.cacheKey("inv1.a1", "mission", "", linked), Proposer.cacheKey("inv1.a1", "mission", "",
        held.at(linked)), "the reply-cache key a folder with the library linked in gives");

    // the session's copy holds all of it, the script still executable
    Path session = root.resolve("session/context");
    held.copyTo(session);
    assertTrue(HeldTree.read(session, PathOrder.list(session)).sameAs(before.at(session)));
    assertEquals(PosixFilePermissions.fromString("rwxr-x---"), Files.getPosixFilePermissions(
        session.resolve("library/harnesses/ledger-1/harness/scripts/total.sh")));

    // and the check the build asserts can fail: a library file changed after it was read
    Files.writeString(libDir.resolve("harnesses/ledger-2/harness/AGENTS.md"), "changed");
    assertFalse(held.matchesDisk());
  }

  /**
   * The view a session reading from memory gets is its copy, listed and read: the same files (no {@code .pyc}), sizes
   * and bytes, whether the library's files are held or read from the library; a copy of one folder holds it alone.
   */
  @Test
  void theViewOfATreeIsWhatItsCopyHolds(@TempDir Path root) throws Exception {
    Path libDir = library(root);
    for (long budget : new long[] {HeldTree.BUDGET, 0}) {
      HeldTree held = shownAt(root.resolve("evidence" + budget), ShownLibrary.of(libDir, null, budget));
      Path session = root.resolve("session" + budget);
      held.copyTo(session);
      EvidenceView copy = EvidenceView.of(session);
      EvidenceView view = held.view();
      assertEquals(copy.files(), view.files());
      assertFalse(view.files().contains("library/harnesses/ledger-1/harness/scripts/old.pyc"));
      assertEquals(Map.of(), view.skipped());
      for (String rel : copy.files()) {
        assertTrue(view.has(rel));
        assertEquals(copy.size(rel), view.size(rel), rel);
        assertArrayEquals(copy.bytes(rel), view.bytes(rel), rel);
      }
      assertFalse(view.has("library/harnesses/ledger-1/harness/scripts/old.pyc"));
      assertThrows(IOException.class, () -> view.bytes("missing.md"));

      Path harness = root.resolve("harness" + budget);
      held.copyTo(harness, "library/harnesses/ledger-1");
      assertEquals(List.of("library/harnesses/ledger-1/EXPERIENCE.md",
          "library/harnesses/ledger-1/harness/AGENTS.md", "library/harnesses/ledger-1/harness/scripts/total.sh"),
          PathOrder.files(harness));
      Path none = root.resolve("none" + budget);
      held.copyTo(none, "harness");
      assertEquals(List.of(), PathOrder.files(none));
      assertTrue(Files.isDirectory(none));
    }
  }

  /** A file the tree does not hold (past its budget) is read from the library, not from the evidence folder. */
  @Test
  void aFileNotHeldIsReadFromTheLibrary(@TempDir Path root) throws Exception {
    Path libDir = library(root);
    ShownLibrary lib = ShownLibrary.of(libDir, null, 0);
    HeldTree held = shownAt(root.resolve("evidence"), lib);
    int i = held.files().indexOf("library/harnesses/ledger-2/harness/AGENTS.md");
    assertNull(held.bytes(i));
    assertEquals(libDir.resolve("harnesses/ledger-2/harness/AGENTS.md"), held.source(i));
    Path session = root.resolve("session");
    held.copyTo(session);
    assertEquals("mind the dates ✓\n",
        Files.readString(session.resolve("library/harnesses/ledger-2/harness/AGENTS.md")));
    Path linked = linkedWhole(root, libDir);
    assertEquals(Proposer.cacheKey("inv1.a1", "mission", "", linked), Proposer.cacheKey("inv1.a1", "mission", "",
        held.at(linked)));
  }

  /**
   * The library changed on disk after it was read for the task: its stages show, and keep, what was read (and
   * screened), the index included.
   */
  @Test
  void aLibraryChangedAfterItWasReadIsShownAsRead(@TempDir Path root) throws Exception {
    Path libDir = library(root);
    ShownLibrary lib = ShownLibrary.of(libDir);
    String index = Files.readString(libDir.resolve("INDEX.md"));
    Files.writeString(libDir.resolve("INDEX.md"), "rewritten\n");
    Files.writeString(libDir.resolve("harnesses/ledger-2/harness/AGENTS.md"), "rewritten\n");
    Path dest = root.resolve("evidence");
    HeldTree held = shownAt(dest, lib);
    assertEquals(index, Files.readString(dest.resolve("library/INDEX.md")));
    Path session = root.resolve("session");
    held.copyTo(session);
    assertEquals(index, Files.readString(session.resolve("library/INDEX.md")));
    assertEquals("mind the dates ✓\n",
        Files.readString(session.resolve("library/harnesses/ledger-2/harness/AGENTS.md")));
  }

  @Test
  void aVerdictInTheLibraryFailsEachStageThatShowsItAndIsScannedOnce(@TempDir Path root) throws Exception {
    Path libDir = library(root);
    Files.writeString(libDir.resolve("harnesses/ledger-2/EXPERIENCE.md"), "{\"pass_rate\": 1}\n");
    ShownLibrary lib = ShownLibrary.of(libDir);
    HarnessRejected e = assertThrows(HarnessRejected.class, lib::requireNoVerdicts);
    assertTrue(e.getMessage().contains("harnesses/ledger-2/EXPERIENCE.md"), e.getMessage());
    assertThrows(HarnessRejected.class, lib::requireNoVerdicts, "every stage, not the first only");
    // an evidence folder's own scan passes the library's files over: they were scanned where they were read
    HeldTree held = shownAt(root.resolve("evidence"), lib);
    VerdictTripwire.assertNone(held);
  }

  /** Shown again after a first, clean showing: a file with other bytes is scanned again, whatever its size. */
  @Test
  void aFileChangedSinceTheLibraryWasLastShownIsScannedAgain(@TempDir Path root) throws Exception {
    Path libDir = library(root);
    ShownLibrary first = ShownLibrary.of(libDir);
    first.requireNoVerdicts();
    ShownLibrary same = ShownLibrary.of(libDir, first);
    same.requireNoVerdicts();
    Path lesson = libDir.resolve("harnesses/ledger-1/EXPERIENCE.md");
    String marked = "\"pass_rate\"";
    Files.writeString(lesson, marked + "x".repeat((int) Files.size(lesson) - marked.length()));
    ShownLibrary changed = ShownLibrary.of(libDir, same);
    HarnessRejected e = assertThrows(HarnessRejected.class, changed::requireNoVerdicts);
    assertTrue(e.getMessage().contains("harnesses/ledger-1/EXPERIENCE.md"), e.getMessage());
    // after a showing that found a verdict, nothing is taken from it: the next one scans every file
    Files.writeString(lesson, "- **cue**: totals\n");
    ShownLibrary.of(libDir, changed).requireNoVerdicts();
  }

  @Test
  void noFolderOrAnEmptyOneIsNoLibrary(@TempDir Path root) throws Exception {
    assertNull(ShownLibrary.of(null));
    assertNull(ShownLibrary.of(root.resolve("missing")));
    Files.createDirectories(root.resolve("empty/harnesses"));
    assertNull(ShownLibrary.of(root.resolve("empty")));
  }
}
