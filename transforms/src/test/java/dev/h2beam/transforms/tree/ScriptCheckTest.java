package dev.h2beam.transforms.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ScriptCheckTest {
  @Test
  void compileDetailReadsASyntaxErrorTraceback() {
    assertEquals("SyntaxError: invalid syntax (line 1)", ScriptCheck.compileDetail(
        "  File \"scripts/a.py\", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax\n"));
  }

  @Test
  void compileDetailReadsASorryReport() {
    assertEquals("IndentationError: unexpected indent (line 2)",
        ScriptCheck.compileDetail("Sorry: IndentationError: unexpected indent (scripts/b.py, line 2)"));
    assertEquals("ValueError: source code string cannot contain null bytes",
        ScriptCheck.compileDetail("Sorry: ValueError: source code string cannot contain null bytes"));
  }

  @Test
  void compileDetailWithoutALineNumberKeepsTheError() {
    assertEquals("SyntaxError: source code string cannot contain null bytes",
        ScriptCheck.compileDetail("SyntaxError: source code string cannot contain null bytes\n"));
  }
}
