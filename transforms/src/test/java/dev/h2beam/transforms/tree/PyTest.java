package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PyTest {
  @Test
  void splitlinesBreaksOnEveryUniversalNewline() {
    assertEquals(List.of("a\r\n", "b\r", "c\u000b", "d\u2028", "e"), Py.splitlines("a\r\nb\rc\u000bd\u2028e", true));
    assertEquals(List.of("a", "", "b"), Py.splitlines("a\n\nb\n", false));
    assertEquals(List.of(), Py.splitlines("", true));
  }

  @Test
  void stripRemovesPythonWhitespaceIncludingNoBreakSpace() {
    assertEquals("x", Py.strip("\u00a0\t x \u2029\u0085"));
    assertTrue(Py.isBlank(" \u3000\n"));
  }

  @Test
  void reprQuotesLikePython() {
    assertEquals("'a'", Py.repr("a"));
    assertEquals("\"it's\"", Py.repr("it's"));
    assertEquals("'a\\n\\x00'", Py.repr("a\n\u0000"));
    assertEquals("['a', 'b']", Py.repr(List.of("a", "b")));
  }

  @Test
  void plainStringOrderIsByCodePoint() {
    assertTrue(Py.compare("\uffff", "😀") < 0);
    assertTrue(Py.compare("a-b", "a/b") < 0);
  }

  @Test
  void formatSubstitutesEachFieldOnce() {
    assertEquals("- When {name} x, load the `n` skill.",
        Py.format("- When {desc}, load the `{name}` skill.", java.util.Map.of("name", "n", "desc", "{name} x")));
  }

  /** Groups of three digits as Python's format(n, ",") and Java's "%,d" in the root locale write them. */
  @Test
  void commasGroupDigitsAsPythonDoes() {
    long[] values = {0, 7, 999, 1000, -1000, 12345, -123456, 1234567, 999999999, Long.MAX_VALUE, Long.MIN_VALUE};
    for (long n : values) {
      assertEquals(String.format(java.util.Locale.ROOT, "%,d", n), Py.commas(n), Long.toString(n));
    }
    assertEquals("1,234,567", Py.commas(1234567));
  }
}
