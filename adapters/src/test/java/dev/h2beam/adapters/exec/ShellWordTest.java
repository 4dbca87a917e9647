package dev.h2beam.adapters.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A word for a command line people paste (a printed next command): each path or glob is read back by a real shell as
 * it was, and a plain one stays plain.
 */
class ShellWordTest {

  /** What {@code sh} makes of {@code word} as one argument. */
  static String throughTheShell(String word) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", "printf '%s' " + word).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  @Test
  void aPathWithSpacesQuotesAndUnicodeIsReadBackAsItWas() throws Exception {
    for (String s : new String[] {"/tmp/runs/demo-oc-agg2", "/tmp/sp ace/ü ñ 日本 'q\"x/s", "/runs/demo-oc-agg2-s*",
        "it's", "a$b`c`\\d", "/runs/a,/runs/b"}) {
      assertEquals(s, throughTheShell(Shell.word(s)), Shell.word(s));
    }
    assertEquals("/tmp/runs/demo-oc-agg2", Shell.word("/tmp/runs/demo-oc-agg2"), "a plain path stays plain");
    assertEquals("'/runs/demo-oc-agg2-s*'", Shell.word("/runs/demo-oc-agg2-s*"), "a glob is left to h2beam");
  }
}
