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

  /**
   * A harvested folder is moved (the same files, not copies) when a copy would hold the same files, copied when it
   * holds compiled Python, and refused whole, untouched, when it holds a symbolic link.
   */
  @Test
  void aHarvestedFolderIsMovedCopiedOrRefusedAsItsFilesAsk(@TempDir Path from, @TempDir Path to) throws Exception {
    Path plain = Files.createDirectories(from.resolve("plain/skills/a"));
    Files.writeString(plain.resolve("SKILL.md"), "skill");
    Files.createDirectories(from.resolve("plain/__pycache__"));
    Files.writeString(from.resolve("plain/__pycache__/m.cpython-311.pyc"), "bytecode");
    Files.writeString(from.resolve("plain/systemprompt.md"), "prompt");
    Object inode = Files.readAttributes(from.resolve("plain/systemprompt.md"),
        java.nio.file.attribute.BasicFileAttributes.class).fileKey();
    java.util.List<String> listed = PathOrder.files(from.resolve("plain"));
    assertEquals(listed, FileTrees.moveRefusingLinks(from.resolve("plain"), to.resolve("plain")), "what it placed");
    assertFalse(Files.exists(from.resolve("plain")), "moved");
    assertEquals(listed, PathOrder.files(to.resolve("plain")));
    assertEquals(inode, Files.readAttributes(to.resolve("plain/systemprompt.md"),
        java.nio.file.attribute.BasicFileAttributes.class).fileKey());

    Files.createDirectories(from.resolve("compiled"));
    Files.writeString(from.resolve("compiled/systemprompt.md"), "prompt");
    Files.writeString(from.resolve("compiled/helper.pyc"), "bytecode");
    assertEquals(java.util.List.of("systemprompt.md"),
        FileTrees.moveRefusingLinks(from.resolve("compiled"), to.resolve("compiled")), "what it placed");
    assertEquals(java.util.List.of("systemprompt.md"), PathOrder.files(to.resolve("compiled")), "copied, .pyc left");

    Files.createDirectories(from.resolve("linked"));
    Files.writeString(from.resolve("linked/systemprompt.md"), "prompt");
    Files.createSymbolicLink(from.resolve("linked/escape"), Path.of("/etc/passwd"));
    java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
        () -> FileTrees.moveRefusingLinks(from.resolve("linked"), to.resolve("linked")));
    assertTrue(e.getMessage().contains("symbolic links or special files in " + from.resolve("linked")), e.getMessage());
    assertFalse(Files.exists(to.resolve("linked")));
    assertTrue(Files.isSymbolicLink(from.resolve("linked/escape")), "left as it was");
  }
}
