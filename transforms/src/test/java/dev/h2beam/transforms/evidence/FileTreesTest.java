package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.AtomicFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Evidence pieces are hard-linked, and writers that replace files never change a linked copy. */
class FileTreesTest {

  @Test
  void linkSharesTheBytesOfEveryFile(@TempDir Path from, @TempDir Path to) throws Exception {
    Files.createDirectories(from.resolve("a/b"));
    Files.writeString(from.resolve("a/b/c.md"), "text");
    FileTrees.link(from, to.resolve("x"));
    assertEquals("text", Files.readString(to.resolve("x/a/b/c.md")));
    assertTrue(Files.isSameFile(from.resolve("a/b/c.md"), to.resolve("x/a/b/c.md")), "a hard link, not a copy");
  }

  @Test
  void anAtomicRewriteOfTheOriginalLeavesTheLinkedEvidenceAsItWas(@TempDir Path from, @TempDir Path to)
      throws Exception {
    Files.writeString(from.resolve("INDEX.md"), "one entry");
    FileTrees.link(from, to);
    AtomicFiles.writeString(from.resolve("INDEX.md"), "two entries");
    assertEquals("one entry", Files.readString(to.resolve("INDEX.md")));
  }

  /** A file already at a link's place is replaced by the link; folders are made as the listing needs them. */
  @Test
  void linkReplacesWhatIsAlreadyThereAndCountsWhatItLinked(@TempDir Path from, @TempDir Path to) throws Exception {
    Files.createDirectories(from.resolve("a/b"));
    Files.writeString(from.resolve("a/b/c.md"), "new");
    Files.writeString(from.resolve("a/d.md"), "d");
    Files.writeString(from.resolve("e.pyc"), "bytecode");
    Files.createDirectories(to.resolve("a/b"));
    Files.writeString(to.resolve("a/b/c.md"), "stale");
    assertEquals(2, FileTrees.link(from, to, dev.h2beam.adapters.files.PathOrder.files(from)), ".pyc left out");
    assertEquals("new", Files.readString(to.resolve("a/b/c.md")));
    assertTrue(Files.isSameFile(from.resolve("a/b/c.md"), to.resolve("a/b/c.md")));
    assertTrue(Files.isSameFile(from.resolve("a/d.md"), to.resolve("a/d.md")));
    assertTrue(!Files.exists(to.resolve("e.pyc")));
  }
}
