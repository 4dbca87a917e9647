package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileMarkTest {
  private static FileMark look(Path file) throws Exception {
    return FileMark.of(Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
  }

  /** Two looks at an untouched file are equal and hash alike; a file rewritten, resized or another file is not. */
  @Test
  void aMarkIsEqualOnlyToTheSameFileUntouched(@TempDir Path dir) throws Exception {
    Path a = Files.writeString(dir.resolve("a"), "text");
    Path b = Files.writeString(dir.resolve("b"), "text");
    FileMark first = look(a);
    assertNotNull(first);
    assertEquals(first, look(a));
    assertEquals(first.hashCode(), look(a).hashCode());
    assertNotEquals(first, look(b));
    Files.setLastModifiedTime(a, FileTime.fromMillis(1_000));
    FileMark touched = look(a);
    assertNotEquals(first, touched);
    Files.writeString(a, "longer text");
    Files.setLastModifiedTime(a, FileTime.fromMillis(1_000));
    assertNotEquals(touched, look(a));
    assertNotEquals(first, null);
    assertNotEquals(first, "a string");
  }

  /** Each component takes part in equality, and equal marks hash alike. */
  @Test
  void everyComponentTakesPartInEquality() {
    FileMark m = new FileMark("key", 5, FileTime.fromMillis(7));
    assertEquals(m, new FileMark("key", 5, FileTime.fromMillis(7)));
    assertEquals(m.hashCode(), new FileMark("key", 5, FileTime.fromMillis(7)).hashCode());
    for (FileMark other : List.of(new FileMark("other", 5, FileTime.fromMillis(7)),
        new FileMark("key", 6, FileTime.fromMillis(7)), new FileMark("key", 5, FileTime.fromMillis(8)))) {
      assertNotEquals(m, other);
    }
  }
}
