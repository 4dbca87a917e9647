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
}
