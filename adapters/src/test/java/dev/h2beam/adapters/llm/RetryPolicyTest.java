package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The retry policy's arithmetic and the wire format's reading of replies, without a server. */
class RetryPolicyTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

  @Test
  void retryAfterReadsSecondsDecimalsAndHttpDates() {
    assertEquals(Optional.of(Duration.ofSeconds(7)), RetryPolicy.retryAfter("7", NOW));
    assertEquals(Optional.of(Duration.ofMillis(1500)), RetryPolicy.retryAfter(" 1.5 ", NOW));
    assertEquals(Optional.of(Duration.ofSeconds(10)), RetryPolicy.retryAfter("Fri, 02 Jan 2026 03:04:15 GMT", NOW));
    assertEquals(Optional.of(Duration.ZERO), RetryPolicy.retryAfter("Fri, 02 Jan 2026 03:00:00 GMT", NOW));
    assertEquals(Optional.empty(), RetryPolicy.retryAfter("soon", NOW));
    assertEquals(Optional.empty(), RetryPolicy.retryAfter("-3", NOW));
    assertEquals(Optional.empty(), RetryPolicy.retryAfter(null, NOW));
  }

  @Test
  void backoffDoublesPerAttemptWithinJitterAndStopsAtTheCap() {
    RetryPolicy p = new RetryPolicy(Duration.ofMillis(100), new SplittableRandom(7));
    for (int i = 0; i < 50; i++) {
      long first = p.backoff(1, null).toMillis();
      long third = p.backoff(3, null).toMillis();
      assertTrue(first >= 50 && first <= 100, "attempt 1: " + first);
      assertTrue(third >= 200 && third <= 400, "attempt 3: " + third);
      long late = p.backoff(40, null).toMillis();
      assertTrue(late >= RetryPolicy.BACKOFF_CAP.toMillis() / 2 && late <= RetryPolicy.BACKOFF_CAP.toMillis(),
          "attempt 40: " + late);
    }
  }

  @Test
  void aServerRequestedWaitReplacesTheBackoffUpToTheCap() {
    RetryPolicy p = new RetryPolicy(Duration.ofMillis(100), new SplittableRandom(7));
    assertEquals(Duration.ofSeconds(5), p.backoff(1, Duration.ofSeconds(5)));
    assertEquals(RetryPolicy.RETRY_AFTER_CAP, p.backoff(1, Duration.ofHours(1)));
  }

  @Test
  void rateLimitsTimeoutsAndServerErrorsAreTransientOtherClientErrorsFatal() {
    for (int s : new int[] {408, 429, 500, 502, 503, 504}) assertTrue(RetryPolicy.transientStatus(s), "" + s);
    for (int s : new int[] {400, 401, 403, 404, 413, 422}) assertFalse(RetryPolicy.transientStatus(s), "" + s);
  }

  @Test
  void anErrorExcerptIsOneClippedLineWithoutKeys() {
    String body = "{\"error\": {\"message\": \"bad\\n\\tthing sk-abcdefghijklmnopqrstuvwxyz012345 " + "x".repeat(400)
        + "\"}}";
    String excerpt = ChatWire.excerpt(body.getBytes(StandardCharsets.UTF_8), null);
    assertTrue(excerpt.startsWith("bad thing [redacted key] xxx"), excerpt);
    assertEquals(ChatWire.EXCERPT_CHARS + 1, excerpt.length());
    assertEquals("(empty body)", ChatWire.excerpt(new byte[0], null));
    assertEquals("plain text", ChatWire.excerpt("plain\r\ntext".getBytes(StandardCharsets.UTF_8), null));
  }

  @Test
  void aShortKeyIsRedactedWhereItStandsAloneAndALongOneWhereverItOccurs() {
    byte[] body = "{\"error\": \"model x does not exist; key=x, Bearer x\"}".getBytes(StandardCharsets.UTF_8);
    assertEquals("model [redacted key] does not exist; key=[redacted key], Bearer [redacted key]",
        ChatWire.excerpt(body, "x"));
    String longKey = "abcdefgh";
    byte[] echoed = ("{\"error\": \"key" + longKey + "9 unknown\"}").getBytes(StandardCharsets.UTF_8);
    assertEquals("key[redacted key]9 unknown", ChatWire.excerpt(echoed, longKey));
  }

  @Test
  void contentGivenAsPartsIsJoined() {
    String body = "{\"model\": \"m\", \"choices\": [{\"message\": {\"content\": [{\"type\": \"text\", \"text\": \"a\"},"
        + " {\"type\": \"text\", \"text\": \"b\"}]}, \"finish_reason\": \"stop\"}]}";
    Attempt a = ChatWire.read(200, null, body.getBytes(StandardCharsets.UTF_8), false, null, NOW);
    assertEquals(new Attempt.Answered("ab", "m", "stop", Usage.NONE), a);
  }

  @Test
  void aTruncatedOrChoicelessReplyIsTransient() {
    byte[] ok = "{\"choices\": []}".getBytes(StandardCharsets.UTF_8);
    assertTrue(ChatWire.read(200, null, ok, false, null, NOW) instanceof Attempt.Transient t
        && t.reason().startsWith("the reply has no choices"));
    assertTrue(ChatWire.read(200, null, ok, true, null, NOW) instanceof Attempt.Transient t2
        && t2.reason().startsWith("the reply is larger than"));
  }
}
