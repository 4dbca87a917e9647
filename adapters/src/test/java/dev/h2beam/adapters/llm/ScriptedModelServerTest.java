package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.h2beam.adapters.config.Endpoint;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The test model server itself: what a brain that throws does to the request, and that it is said. */
class ScriptedModelServerTest {
  private static final ChatRequest HELLO = new ChatRequest("tiny-model",
      List.of(ChatMessage.system("You are terse."), ChatMessage.user("Say hello.")), 0.2, 64);

  /**
   * A brain's own bug (here the exception a map shared by the server's threads throws) is no scripted fault: the
   * request goes unanswered, which the client honestly records as an attempt sent with no reply and a cost not known,
   * and retries; the server names what threw, so a test does not take it for a transport event.
   */
  @Test
  void aBrainThatThrowsLeavesItsRequestUnansweredAndTheServerSaysWhatThrew() throws Exception {
    AtomicInteger n = new AtomicInteger();
    try (ScriptedModelServer server = ScriptedModelServer.start(request -> {
      if (n.getAndIncrement() == 0) throw new ConcurrentModificationException();
      return "hello";
    })) {
      Endpoint e = new Endpoint("local", server.baseUrl(), "", 4, 60, 3, 1.0, 2.0);
      ChatReply r = new ChatClient(e, Map.of(), Duration.ofMillis(1), d -> { }, Duration.ofSeconds(10))
          .complete(HELLO);
      assertEquals("hello", r.text());
      assertEquals(2, r.attempts());
      Map<String, Object> lost = r.calls().get(0);
      assertNull(lost.get("status"), lost.toString());
      assertFalse(ModelCall.priced(lost), "sent and unanswered: " + lost);
      assertFalse(r.costKnown());
      assertEquals(List.of("POST /v1/chat/completions: java.util.ConcurrentModificationException"), server.failures());
    }
  }
}
