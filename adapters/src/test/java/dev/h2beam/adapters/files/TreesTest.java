package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreesTest {
  @TempDir Path tmp;

  @Test void removesANestedTreeWithoutFollowingItsLinks() throws Exception {
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("keep.txt"), "keep");
    Path tree = tmp.resolve("tree");
    Files.createDirectories(tree.resolve("a/b/c"));
    Files.writeString(tree.resolve("top.txt"), "1");
    Files.writeString(tree.resolve("a/b/c/deep.txt"), "2");
    Files.createDirectories(tree.resolve("empty"));
    Files.createSymbolicLink(tree.resolve("a/out"), outside);
    Files.createSymbolicLink(tree.resolve("a/b/outfile"), outside.resolve("keep.txt"));
    Files.createSymbolicLink(tree.resolve("dangling"), tmp.resolve("nowhere"));
    Files.createLink(tree.resolve("a/hard.txt"), outside.resolve("keep.txt"));

    Trees.delete(tree);

    assertFalse(Files.exists(tree, LinkOption.NOFOLLOW_LINKS));
    assertEquals("keep", Files.readString(outside.resolve("keep.txt")));
    assertEquals(1, Files.list(tmp).count());   // only outside/ is left
  }

  @Test void aLinkGivenToBeDeletedGoesAloneNotItsTarget() throws Exception {
    Path target = Files.createDirectories(tmp.resolve("target"));
    Files.writeString(target.resolve("f"), "x");
    Path link = Files.createSymbolicLink(tmp.resolve("link"), target);

    Trees.delete(link);

    assertFalse(Files.exists(link, LinkOption.NOFOLLOW_LINKS));
    assertTrue(Files.isRegularFile(target.resolve("f")));
  }

  /** A link that leads nowhere is there to delete, though a look that follows links finds nothing. */
  @Test void aLinkLeadingNowhereIsDeleted() throws Exception {
    Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("gone"));
    Path loop = Files.createSymbolicLink(tmp.resolve("loop"), tmp.resolve("loop"));

    Trees.delete(dangling);
    Trees.delete(loop);

    assertFalse(Files.exists(dangling, LinkOption.NOFOLLOW_LINKS));
    assertFalse(Files.exists(loop, LinkOption.NOFOLLOW_LINKS));
  }

  /** A path below a loop of links cannot be looked at: nothing to remove, and no error, as for a missing path. */
  @Test void aPathBelowALoopOfLinksIsNothingToRemove() throws Exception {
    Path loop = Files.createSymbolicLink(tmp.resolve("around"), tmp.resolve("around"));
    Trees.delete(loop.resolve("child"));
    assertTrue(Files.isSymbolicLink(loop));
  }

  @Test void aFileAndAMissingPath() throws Exception {
    Path f = Files.writeString(tmp.resolve("f"), "x");
    Trees.delete(f);
    assertFalse(Files.exists(f));
    Trees.delete(tmp.resolve("missing"));
    Trees.delete(tmp.resolve("missing/below"));
    assertTrue(Files.isDirectory(tmp));
  }

  /** A path ending in "." or ".." is the folder it denotes, removed whole (the JDK's walk removed its contents, then failed). */
  @Test void aPathEndingInDotsIsTheFolderItDenotes() throws Exception {
    Path keep = Files.writeString(tmp.resolve("keep.txt"), "keep");
    Path a = Files.createDirectories(tmp.resolve("a/b"));
    Files.writeString(a.resolve("f"), "x");
    Trees.delete(tmp.resolve("a/b/."));
    assertFalse(Files.exists(tmp.resolve("a/b")));
    Files.createDirectories(tmp.resolve("a/c"));
    Trees.delete(tmp.resolve("a/c/.."));
    assertFalse(Files.exists(tmp.resolve("a")));
    assertTrue(Files.exists(keep));
  }

  @Test void aTreeDeeperThanTheRelativeRemovalIsRemovedWhole() throws Exception {
    Path tree = tmp.resolve("deep");
    Path d = tree;
    for (int i = 0; i < 150; i++) {
      d = d.resolve("d" + i);
      if (i % 10 == 0) {
        Files.createDirectories(d);
        Files.writeString(d.resolve("f.txt"), "level " + i);
      }
    }
    Files.createDirectories(d);
    Files.writeString(d.resolve("last.txt"), "last");

    Trees.delete(tree);

    assertFalse(Files.exists(tree, LinkOption.NOFOLLOW_LINKS));
  }
}
