package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Repeated evidence texts share one file; nothing shared is ever changed through another name. */
class SharedTextTest {
  @TempDir Path dir;

  static Object inode(Path p) throws Exception {
    return Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
  }

  @Test
  void aRepeatedTextIsLinkedAndADifferentOneWritten() throws Exception {
    String text = "rollout of " + dir + "\n";
    new Placed(dir).text(dir.resolve("a/rollouts/base1.md"), text);
    new Placed(dir).text(dir.resolve("b/rollouts/base1.md"), text);
    new Placed(dir).text(dir.resolve("c/rollouts/base1.md"), text + "more");
    assertEquals(inode(dir.resolve("a/rollouts/base1.md")), inode(dir.resolve("b/rollouts/base1.md")));
    assertNotEquals(inode(dir.resolve("a/rollouts/base1.md")), inode(dir.resolve("c/rollouts/base1.md")));
    assertEquals(text, Files.readString(dir.resolve("b/rollouts/base1.md")));
  }

  @Test
  void rewritingALinkedNameLeavesTheOtherNameAlone() throws Exception {
    String text = "task of " + dir + "\n";
    new Placed(dir).text(dir.resolve("a/task.md"), text);
    new Placed(dir).text(dir.resolve("b/task.md"), text);
    new Placed(dir).text(dir.resolve("b/task.md"), "changed");
    assertEquals(text, Files.readString(dir.resolve("a/task.md")));
    assertEquals("changed", Files.readString(dir.resolve("b/task.md")));
  }

  @Test
  void aFirstFileThatNowHoldsOtherBytesIsNotLinked() throws Exception {
    String text = "deliverable of " + dir + "\n";
    Path first = dir.resolve("a/answer.md");
    new Placed(dir).text(first, text);
    Files.delete(first);
    Files.writeString(first, "something else entirely");
    new Placed(dir).text(dir.resolve("b/answer.md"), text);
    assertEquals(text, Files.readString(dir.resolve("b/answer.md")));
    assertNotEquals(inode(first), inode(dir.resolve("b/answer.md")));
  }

  /**
   * Once a first file was read back and linked, later links check its identity instead of its bytes: a file changed
   * in place since (another time) is read back again and, holding other bytes, not linked.
   */
  @Test
  void aFirstFileChangedInPlaceAfterItWasLinkedIsNotLinkedAgain() throws Exception {
    String text = "trajectory of " + dir + "\n";
    Path first = dir.resolve("a/rollouts/base1.md");
    new Placed(dir).text(first, text);
    new Placed(dir).text(dir.resolve("b/rollouts/base1.md"), text); // read back, linked, its identity noted
    new Placed(dir).text(dir.resolve("c/rollouts/base1.md"), text); // linked on the identity alone
    assertEquals(inode(first), inode(dir.resolve("c/rollouts/base1.md")));
    Files.writeString(first, text.toUpperCase(java.util.Locale.ROOT)); // same size, same inode, through every name
    Files.setLastModifiedTime(first, java.nio.file.attribute.FileTime.fromMillis(
        Files.getLastModifiedTime(first).toMillis() + 5_000));
    new Placed(dir).text(dir.resolve("d/rollouts/base1.md"), text);
    assertEquals(text, Files.readString(dir.resolve("d/rollouts/base1.md")));
    assertNotEquals(inode(first), inode(dir.resolve("d/rollouts/base1.md")));
  }

  /**
   * A name written over with a text of the same size, and a folder built again, are forgotten as the places of the
   * texts they held, even when the new file gets the same inode, size and time as the old one.
   */
  @Test
  void aNameWrittenOverOrAFolderBuiltAgainIsForgotten() throws Exception {
    String text = "produced by " + dir + "\n";
    String other = text.toUpperCase(java.util.Locale.ROOT);
    Placed placed = new Placed(dir);
    Path first = dir.resolve("a/produced.md");
    placed.text(first, text);
    new Placed(dir).text(dir.resolve("b/produced.md"), text); // the identity of a/produced.md noted
    placed.text(first, other); // written over in the same build
    new Placed(dir).text(dir.resolve("c/produced.md"), text);
    assertEquals(text, Files.readString(dir.resolve("c/produced.md")));
    assertEquals(other, Files.readString(first));

    Path stage = dir.resolve("stage");
    FileTrees.recreate(stage);
    new Placed(stage).text(stage.resolve("task.md"), text + "!");
    new Placed(dir).text(dir.resolve("d/task.md"), text + "!");
    SharedText.forgetBelow(stage);
    FileTrees.recreate(stage);
    new Placed(stage).text(stage.resolve("task.md"), other + "?");
    new Placed(dir).text(dir.resolve("e/task.md"), text + "!");
    assertEquals(text + "!", Files.readString(dir.resolve("e/task.md")));
  }

  /**
   * Texts that share a hash code but not their bytes are two files; and a text let go of past the bounds (4,096 texts
   * or 32 MiB held) is written again rather than linked.
   */
  @Test
  void textsAreKeyedByTheirBytesAndLetGoPastTheBounds() throws Exception {
    // "Aa" and "BB" have the same hash code as strings, and so do their bytes' Arrays.hashCode
    byte[] one = ("Aa" + dir).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] two = ("BB" + dir).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(java.util.Arrays.hashCode(one), java.util.Arrays.hashCode(two));
    new Placed(dir).bytes(dir.resolve("h/one.md"), one);
    new Placed(dir).bytes(dir.resolve("h/two.md"), two);
    assertNotEquals(inode(dir.resolve("h/one.md")), inode(dir.resolve("h/two.md")));
    assertEquals("BB" + dir, Files.readString(dir.resolve("h/two.md")));
    // a big text, then enough others to pass the byte bound: the big one is let go of
    String big = "x".repeat(8 << 20) + dir;
    new Placed(dir).text(dir.resolve("big/a.md"), big);
    new Placed(dir).text(dir.resolve("big/b.md"), big);
    assertEquals(inode(dir.resolve("big/a.md")), inode(dir.resolve("big/b.md")));
    for (int i = 0; i < 4; i++) new Placed(dir).text(dir.resolve("fill/" + i + ".md"), i + "y".repeat(8 << 20) + dir);
    new Placed(dir).text(dir.resolve("big/c.md"), big);
    assertNotEquals(inode(dir.resolve("big/a.md")), inode(dir.resolve("big/c.md")));
    assertEquals(big, Files.readString(dir.resolve("big/c.md")));
  }
}
