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

  /** The same script is checked once per process; another text, or another name, is checked anew. */
  @Test
  void aScriptAlreadyCheckedIsNotCheckedAgain() {
    ScriptCheck check = ScriptCheck.system();
    String ok = "#!/bin/sh\necho reuse-" + System.nanoTime() + "\n";
    String broken = "#!/bin/sh\nif then fi ( " + System.nanoTime() + "\n";
    long before = ScriptCheck.STARTED.get();
    org.junit.jupiter.api.Assertions.assertNull(check.problem("scripts/a.sh", ok));
    org.junit.jupiter.api.Assertions.assertNull(check.problem("scripts/a.sh", ok));
    assertEquals(before + 1, ScriptCheck.STARTED.get());
    org.junit.jupiter.api.Assertions.assertNull(check.problem("scripts/b.sh", ok));
    assertEquals(before + 2, ScriptCheck.STARTED.get(), "another name is another check");
    String first = check.problem("scripts/a.sh", broken);
    org.junit.jupiter.api.Assertions.assertTrue(first.startsWith("scripts/a.sh does not parse"), first);
    assertEquals(first, check.problem("scripts/a.sh", broken), "a failed parse is reported the same way again");
    assertEquals(before + 3, ScriptCheck.STARTED.get());
  }
}
