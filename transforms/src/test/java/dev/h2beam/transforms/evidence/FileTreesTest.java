package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Hashes;
import dev.h2beam.adapters.files.PathOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
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
  /**
   * A tree read once copies as the JDK's copy does (bytes and mode, executable bits included) and digests as the files
   * streamed from disk, whether its files are held in memory or past the budget and read again.
   */
  @Test
  void aTreeReadOnceCopiesAndDigestsAsTheFilesOnDisk(@TempDir Path from, @TempDir Path to) throws Exception {
    Files.createDirectories(from.resolve("scripts"));
    Files.writeString(from.resolve("scripts/run.sh"), "echo hi\n");
    Files.setPosixFilePermissions(from.resolve("scripts/run.sh"), PosixFilePermissions.fromString("rwxr-x---"));
    Files.write(from.resolve("big.bin"), new byte[5000]);
    Files.writeString(from.resolve("a.md"), "text");
    Files.writeString(from.resolve("x.pyc"), "bytecode");
    PathOrder.Listing listing = PathOrder.list(from);
    String streamed = digest(HeldTree.read(from, listing, 0));
    for (long budget : new long[] {0, 100, 1 << 20}) {
      HeldTree tree = HeldTree.read(from, listing, budget);
      assertEquals(budget > 0, tree.held(listing.files().indexOf("a.md")), "held within the budget " + budget);
      assertEquals(budget >= 5008, tree.held(listing.files().indexOf("big.bin")));
      assertEquals(streamed, digest(tree), "the same digest with a budget of " + budget);
      Path copy = to.resolve("b" + budget);
      tree.copyTo(copy);
      for (String rel : listing.files()) {
        if (rel.endsWith(".pyc")) continue;
        assertArrayEquals(Files.readAllBytes(from.resolve(rel)), Files.readAllBytes(copy.resolve(rel)), rel);
        assertEquals(Files.getPosixFilePermissions(from.resolve(rel)), Files.getPosixFilePermissions(copy.resolve(rel)),
            rel + "'s mode");
      }
      assertFalse(Files.exists(copy.resolve("x.pyc")), ".pyc left out");
    }
  }

  private static String digest(HeldTree tree) throws Exception {
    MessageDigest sha = Hashes.digest("SHA-256");
    for (int i = 0; i < tree.files().size(); i++) tree.update(sha, i);
    return Hashes.hex(sha.digest());
  }
}
