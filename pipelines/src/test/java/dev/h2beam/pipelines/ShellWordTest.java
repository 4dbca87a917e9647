package dev.h2beam.pipelines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A printed next command pastes whole: each path or glob in it is read back by a real shell as it was. */
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
      assertEquals(s, throughTheShell(Flags.shellWord(s)), Flags.shellWord(s));
    }
    assertEquals("/tmp/runs/demo-oc-agg2", Flags.shellWord("/tmp/runs/demo-oc-agg2"), "a plain path stays plain");
    assertEquals("'/runs/demo-oc-agg2-s*'", Flags.shellWord("/runs/demo-oc-agg2-s*"), "a glob is left to h2beam");
  }
}
