package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.PathOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder built through {@link Placed} is held exactly as reading it back from disk would hold it. */
class PlacedTest {

  @Test
  void whatWasPlacedIsWhatTheFolderHolds(@TempDir Path from, @TempDir Path root) throws Exception {
    // a harness to link: an executable script, a .pyc and a __pycache__ folder (left out), nested folders
    Files.createDirectories(from.resolve("scripts/__pycache__"));
    Files.writeString(from.resolve("scripts/run.sh"), "echo hi\n");
    Files.setPosixFilePermissions(from.resolve("scripts/run.sh"), PosixFilePermissions.fromString("rwxr-x---"));
    Files.writeString(from.resolve("scripts/__pycache__/x.cpython-311.pyc"), "bytecode");
    Files.writeString(from.resolve("scripts/y.pyc"), "bytecode");
    Files.writeString(from.resolve("AGENTS.md"), "be careful\n");

    Path dest = root.resolve("evidence");
    FileTrees.recreate(dest);
    Placed placed = new Placed(dest);
    placed.text(dest.resolve("task.md"), "the task");
    placed.text(dest.resolve("rollouts/base1.md"), "same text");
    placed.text(dest.resolve("rollouts/base2.md"), "same text"); // linked to base1's bytes by SharedText
    placed.text(dest.resolve("rollouts/base3.md"), "first");
    placed.text(dest.resolve("rollouts/base3.md"), "written over"); // a failed rendering replaced
    placed.text(dest.resolve("deliverables/base1/INDEX.md"), "é ünïcode ✓");
    placed.text(dest.resolve("pool/__pycache__/rollout.md"), "below a __pycache__ folder: no file of the tree");
    List<String> files = PathOrder.files(from);
    assertEquals(2, FileTrees.link(from, dest.resolve("harness"), files));
    placed.linked(dest.resolve("harness"), files);
    assertEquals(2, FileTrees.link(from, dest.resolve("pool/inv1/harness"), files));
    placed.linked(dest.resolve("pool/inv1/harness"), files);

    HeldTree held = placed.held();
    HeldTree read = HeldTree.read(dest, PathOrder.list(dest));
    assertEquals(read.files(), held.files());
    assertTrue(held.sameAs(read), "the same bytes and modes as read from disk");
    assertFalse(held.files().contains("pool/__pycache__/rollout.md"));
    assertEquals("written over", Files.readString(dest.resolve("rollouts/base3.md")));
    int script = held.files().indexOf("harness/scripts/run.sh");
    assertEquals(PosixFilePermissions.fromString("rwxr-x---"), held.mode(script));
  }

  /** The comparison the build asserts can fail: a file changed on disk after it was placed is told apart. */
  @Test
  void aFolderChangedAfterItWasPlacedIsNotTheSame(@TempDir Path root) throws Exception {
    Placed placed = new Placed(root);
    placed.text(root.resolve("a.md"), "one");
    HeldTree held = placed.held();
    Files.delete(root.resolve("a.md"));
    Files.writeString(root.resolve("a.md"), "two");
    assertFalse(held.sameAs(HeldTree.read(root, PathOrder.list(root))));
    Files.writeString(root.resolve("b.md"), "an extra file");
    assertFalse(placed.held().sameAs(HeldTree.read(root, PathOrder.list(root))), "a file nobody placed");
  }
}
