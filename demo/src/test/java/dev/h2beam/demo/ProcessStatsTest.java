package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench's count of files written: names, distinct files behind hard links, and the new ones since a count. */
class ProcessStatsTest {
  @Test
  void countsNamesAndDistinctFilesAndWhatIsNewSinceACount(@TempDir Path dir) throws Exception {
    Path a = Files.writeString(Files.createDirectories(dir.resolve("x/y")).resolve("a.txt"), "a");
    Files.createLink(dir.resolve("x/a-link.txt"), a);
    Files.createSymbolicLink(dir.resolve("x/a-sym.txt"), a);
    Files.createDirectories(dir.resolve("empty"));
    ProcessStats.FileCount before = ProcessStats.files(dir);
    // two names of one file; the symbolic link and the folders are not regular files
    assertEquals(2, before.names());
    assertEquals(1, before.files().length);

    Files.writeString(dir.resolve("x/b.txt"), "b");
    Files.createLink(dir.resolve("b-link.txt"), a);
    ProcessStats.FileCount after = ProcessStats.files(dir);
    assertEquals(4, after.names());
    // a new name of an old file is not a file written
    assertEquals(1, after.newFiles(before));
    assertEquals(0, ProcessStats.files(dir.resolve("missing")).names());
  }

  @Test
  void aTreeDeeperThanTheRelativeCountIsCountedWhole(@TempDir Path dir) throws Exception {
    Path deep = dir;
    for (int i = 0; i < 70; i++) deep = deep.resolve("d" + i);
    Path bottom = Files.writeString(Files.createDirectories(deep).resolve("f"), "f");
    Files.createLink(dir.resolve("d0/f-link"), bottom);
    Files.writeString(dir.resolve("d0/d1/g"), "g");
    ProcessStats.FileCount c = ProcessStats.files(dir);
    assertEquals(3, c.names());
    assertEquals(2, c.files().length);
  }

  @Test
  void aFileKeyIsItsDeviceAndInodeAndDistinctFilesHaveDistinctKeys(@TempDir Path dir) throws Exception {
    Path a = Files.writeString(dir.resolve("a"), "a");
    Path b = Files.writeString(dir.resolve("b"), "b");
    Object keyA = Files.readAttributes(a, BasicFileAttributes.class).fileKey();
    Object keyB = Files.readAttributes(b, BasicFileAttributes.class).fileKey();
    assertEquals(ProcessStats.key(keyA, a), ProcessStats.key(keyA, b), "the key, not the path, decides");
    assertNotEquals(ProcessStats.key(keyA, a), ProcessStats.key(keyB, b));
    assertEquals(0x12345L ^ (0x803L << 40), ProcessStats.key("(dev=803,ino=74565)", a));
    // no key of Linux's form: the path decides
    assertEquals(a.toAbsolutePath().toString().hashCode(), ProcessStats.key(null, a));
    assertEquals(a.toAbsolutePath().toString().hashCode(), ProcessStats.key("(dev=zz,ino=1)", a));
  }
}
