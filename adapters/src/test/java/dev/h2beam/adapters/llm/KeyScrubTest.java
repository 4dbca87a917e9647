package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A reply passes without the key however its reads cut it, a line at a time, and a long line is not held whole. */
class KeyScrubTest {
  private static final String KEY = "sk-live-abc123XYZ";

  private static String through(String reply, int piece) {
    KeyScrub scrub = new KeyScrub(KEY);
    byte[] all = reply.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < all.length; i += piece) {
      byte[] chunk = java.util.Arrays.copyOfRange(all, i, Math.min(all.length, i + piece));
      out.writeBytes(scrub.pass(chunk, chunk.length));
    }
    out.writeBytes(scrub.rest());
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theKeyIsTakenOutWhereverTheReadsCutIt() {
    String reply = "data: {\"echo\": \"Bearer " + KEY + "\"}\n\ndata: " + KEY + KEY + "\n\ndata: [DONE]\n\nend " + KEY;
    String want = reply.replace(KEY, "[redacted key]");
    for (int piece = 1; piece <= reply.length(); piece++) {
      assertEquals(want, through(reply, piece), "pieces of " + piece);
    }
  }

  @Test
  void whatEndsALinePassesAtOnceAndALongLineIsNotHeldWhole() {
    KeyScrub scrub = new KeyScrub(KEY);
    byte[] event = "data: {}\n\ndata: {\"par".getBytes(StandardCharsets.UTF_8);
    assertEquals("data: {}\n\n", new String(scrub.pass(event, event.length), StandardCharsets.UTF_8));
    byte[] longLine = "x".repeat(KeyScrub.HELD_AT_MOST).getBytes(StandardCharsets.UTF_8);
    int passed = scrub.pass(longLine, longLine.length).length;
    assertEquals("data: {\"par".length() + KeyScrub.HELD_AT_MOST - (KEY.length() - 1), passed);
    assertEquals(KEY.length() - 1, scrub.rest().length);
  }
}
