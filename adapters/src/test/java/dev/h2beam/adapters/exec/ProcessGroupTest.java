package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProcessGroupTest {
  private static long[] parse(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
    return ProcessGroup.parseStat(bytes, bytes.length);
  }

  /** The state, group and session after the last ')': a name may hold spaces and parentheses. */
  @Test
  void aStatLineGivesItsStateGroupAndSession() {
    assertArrayEquals(new long[] {1, 4242, 4200}, parse("4243 (sh) S 4242 4242 4200 0 -1 4194560 96 0 0 0\n"));
    assertArrayEquals(new long[] {1, 77, 1}, parse("80 (a (b) c) R 79 77 1 34816 80 0\n"));
    assertArrayEquals(new long[] {0, 5, 5}, parse("6 (z) Z 5 5 5 0\n"));
    assertArrayEquals(new long[] {0, 5, 5}, parse("6 (z) X 5 5 5 0\n"));
    assertArrayEquals(new long[] {0, 5, 5}, parse("6 (z) x 5 5 5 0\n"));
    // the session as the line's last field, and a line without its newline
    assertArrayEquals(new long[] {1, 9, 8}, parse("10 (p) S 1 9 8\n"));
    assertArrayEquals(new long[] {1, 9, 8}, parse("10 (p) S 1 9 8"));
    assertArrayEquals(new long[] {1, -1, 8}, parse("10 (p) S 1 -1 8 0"));
  }

  /** Anything else is not a stat line: null, never a group of 0 or an exception. */
  @Test
  void whatIsNotAStatLineGivesNull() {
    for (String bad : new String[] {"", "\n", "10 (p", "10 (p)", "10 (p)\n", "10 (p) S", "10 (p) S 1 9\n",
        "10 (p) S 1 x9 8 0", "10 (p) S 1 9 8x 0", "10 (p) S 1  9 8 0", "10 (p)S 1 9 8 0", "10 (p) S 1 - 8 0",
        "10 (p) S 1 9 1234567890123456789 0"}) {
      assertNull(parse(bad), bad);
    }
  }

  /** This process's own stat file, read the way a leftover check reads it, is a line of its form. */
  @Test
  void thisProcessesOwnStatParses() throws Exception {
    Path stat = Path.of("/proc/self/stat");
    if (!Files.isReadable(stat)) return;
    byte[] bytes = Files.readAllBytes(stat);
    String line = new String(bytes, StandardCharsets.ISO_8859_1);
    long[] st = ProcessGroup.parseStat(bytes, bytes.length);
    assertNotNull(st, line);
    // the fields split out the plain way
    String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
    assertArrayEquals(new long[] {1, Long.parseLong(f[2]), Long.parseLong(f[3])}, st, line);
  }
}
