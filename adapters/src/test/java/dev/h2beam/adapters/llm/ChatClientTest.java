package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.llm.ScriptedModelServer.Fault;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The chat client against a real local model server, one fault class at a time. */
class ChatClientTest {
  private static final Duration BASE = Duration.ofMillis(2);
  private static final ChatRequest HELLO = new ChatRequest("tiny-model",
      List.of(ChatMessage.system("You are terse."), ChatMessage.user("Say hello.")), 0.2, 64);

  private ScriptedModelServer server;
  private final List<Duration> waits = Collections.synchronizedList(new ArrayList<>());
  private final Sleeper recording = waits::add;

  @BeforeEach
  void start() throws Exception {
    server = ScriptedModelServer.start(request -> "hello, " + request.path("model").asText());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Endpoint endpoint(String keyEnv, int width, int attempts, double in, double out) {
    return new Endpoint("local", server.baseUrl(), keyEnv, width, 60, attempts, in, out);
  }

  private ChatClient client(Endpoint e, Map<String, String> env) {
    return new ChatClient(e, env, BASE, recording, Duration.ofSeconds(10));
  }

  private ChatClient client(int attempts) {
    return client(endpoint("", 4, attempts, 0, 0), Map.of());
  }

  @Test
  void aCallPostsTheRequestAndReturnsTextModelFinishReasonAndUsage() throws Exception {
    server.modelId(request -> "tiny-model-2024-01");
    ChatReply r = client(3).complete(HELLO);
    assertEquals("hello, tiny-model", r.text());
    assertEquals("tiny-model-2024-01", r.model());
    assertEquals("stop", r.finishReason());
    assertEquals(1, r.attempts());
    long promptChars = "You are terse.".length() + "Say hello.".length();
    assertEquals(new Usage((promptChars + 3) / 4, ("hello, tiny-model".length() + 3L) / 4,
        (long) "You are terse.".length() / 4, 0L), r.usage());
    ScriptedModelServer.Request sent = server.requests().get(0);
    assertEquals("POST", sent.method());
    assertEquals("/v1/chat/completions", sent.path());
    JsonNode body = sent.body();
    assertEquals("tiny-model", body.path("model").asText());
    assertEquals("system", body.path("messages").path(0).path("role").asText());
    assertEquals("Say hello.", body.path("messages").path(1).path("content").asText());
    assertEquals(0.2, body.path("temperature").asDouble());
    assertEquals(64, body.path("max_tokens").asInt());
    assertFalse(body.has("stream"));
    assertFalse(sent.authorized());
    assertTrue(waits.isEmpty());
  }

  @Test
  void temperatureAndMaxTokensAreLeftOutWhenNotConfigured() throws Exception {
    client(1).complete(new ChatRequest("m", List.of(ChatMessage.user("x")), null, null));
    JsonNode body = server.requests().get(0).body();
    assertFalse(body.has("temperature"));
    assertFalse(body.has("max_tokens"));
  }

  @Test
  void theKeyIsSentAsABearerTokenWhenTheEndpointNamesAVariable() throws Exception {
    ChatClient c = client(endpoint("H2B_TEST_KEY", 4, 1, 0, 0), Map.of("H2B_TEST_KEY", "k-123456"));
    c.complete(HELLO);
    assertEquals("Bearer k-123456", server.requests().get(0).authorization());
    assertFalse(c.toString().contains("k-123456"));
    assertFalse(server.requests().get(0).toString().contains("k-123456"));
  }

  /**
   * An endpoint that echoes what it was sent, its key included (a misbehaving gateway): the reply reaches no reader
   * with the endpoint's own key, nor with a key h2beam holds in another variable, in any form a screen looks for;
   * each is replaced, and the warning names the variable, never the value. A key below the floor of a held key (a
   * local server's placeholder) is left: it would be found in every text.
   */
  @Test
  void aReplyEchoingAKeyReachesNoReaderWithIt() throws Exception {
    String own = "k-own-4Jf8Qz2Lw9";
    String other = "sk-other-8Hd3Kq7Zp1Xv";
    server.close();
    server = ScriptedModelServer.start(request -> "echo " + request.path("messages").get(0).path("content").asText()
        + " | " + request.toString().length());
    List<EnvKeys.Held> was = EnvKeys.use(Map.of("OTHER_API_KEY", other));
    PrintStream stderr = System.err;
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
    try {
      ChatClient c = client(endpoint("H2B_TEST_KEY", 4, 1, 0, 0), Map.of("H2B_TEST_KEY", own));
      String reversed = new StringBuilder(other).reverse().toString();
      ChatReply r = c.complete(new ChatRequest("m", List.of(ChatMessage.user(own + " and " + other + " and "
          + reversed + " and " + Base64.getEncoder().encodeToString(other.getBytes(StandardCharsets.UTF_8)))), null,
          null));
      assertTrue(r.text().startsWith("echo [redacted key] and [redacted key] and [redacted key] and [redacted key]"),
          r.text());
      String warning = said.toString(StandardCharsets.UTF_8);
      assertTrue(warning.contains("a reply of endpoint local held the value of $H2B_TEST_KEY, $OTHER_API_KEY;"),
          warning);
      assertFalse(warning.contains("4Jf8Qz2L") || warning.contains("8Hd3Kq7Z"), warning);

      said.reset();
      ChatReply placeholder = client(endpoint("H2B_TEST_KEY", 4, 1, 0, 0), Map.of("H2B_TEST_KEY", "EMPTY"))
          .complete(new ChatRequest("m", List.of(ChatMessage.user("EMPTY rows")), null, null));
      assertTrue(placeholder.text().startsWith("echo EMPTY rows"), placeholder.text());
      assertEquals("", said.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(stderr);
      EnvKeys.restore(was);
    }
  }

  @Test
  void anUnsetOrEmptyKeyVariableIsFatalNamingTheVariableAndNothingIsSent() {
    for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("H2B_TEST_KEY", "  "))) {
      ChatException e = assertThrows(ChatException.class,
          () -> client(endpoint("H2B_TEST_KEY", 4, 3, 0, 0), env).complete(HELLO));
      assertTrue(e.fatal());
      assertEquals(0, e.attempts());
      assertTrue(e.getMessage().contains("the environment variable H2B_TEST_KEY"), e.getMessage());
    }
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void rateLimitedWithRetryAfterSecondsWaitsThatLongThenSucceeds() throws Exception {
    server.next(Fault.rateLimited("3"));
    ChatReply r = client(3).complete(HELLO);
    assertEquals(2, r.attempts());
    assertEquals(List.of(Duration.ofSeconds(3)), waits);
    assertEquals(2, server.requests().size());
  }

  @Test
  void retryAfterAsAnHttpDateIsHonoured() throws Exception {
    String at = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(30));
    server.next(Fault.rateLimited(at));
    client(2).complete(HELLO);
    assertEquals(1, waits.size());
    assertTrue(waits.get(0).compareTo(Duration.ofSeconds(20)) > 0 && waits.get(0).compareTo(Duration.ofSeconds(31)) < 0,
        waits.toString());
  }

  @Test
  void aRetryAfterBeyondTwoMinutesIsCappedAtTwoMinutes() throws Exception {
    server.next(Fault.rateLimited("86400"));
    client(2).complete(HELLO);
    assertEquals(List.of(RetryPolicy.RETRY_AFTER_CAP), waits);
  }

  @Test
  void serverErrorsAreRetriedWithExponentialBackoff() throws Exception {
    server.next(Fault.serverError(), Fault.status(503, null));
    EndpointLoad.Counts before = EndpointLoad.now().get("local");
    ChatReply r = client(3).complete(HELLO);
    EndpointLoad.Counts ended = EndpointLoad.now().get("local").since(before);
    assertTrue(r.costKnown(), "an error status is not billed: the answered attempt's cost is all of it");
    assertEquals(3, ended.calls(), "every attempt ended: " + ended);
    assertEquals(2, ended.failed(), "the 500 and the 503 got no good answer: " + ended);
    assertEquals(3, r.attempts());
    // each attempt is a call record: its status, the tokens of the one that answered, when it was sent and ended
    assertEquals(List.of(500, 503, 200), r.calls().stream().map(c -> c.get("status")).toList(), r.calls().toString());
    assertEquals(r.usage().reported(), ((Number) r.calls().get(2).get("tokens")).longValue());
    assertNull(r.calls().get(0).get("tokens"), "an error reports no tokens: null, never 0");
    for (Map<String, Object> c : r.calls()) {
      assertEquals("/v1/chat/completions", c.get("path"));
      assertTrue(c.get("sent") != null && c.get("dropped") == null && ((Number) c.get("held_s")).doubleValue() >= 0,
          c.toString());
    }
    assertEquals(2, waits.size());
    assertTrue(waits.get(0).toMillis() >= 1 && waits.get(0).toMillis() <= 2, waits.toString());
    assertTrue(waits.get(1).toMillis() >= 2 && waits.get(1).toMillis() <= 4, waits.toString());
  }

  @Test
  void aMalformedBodyIsAFailedAttemptThatIsRetried() throws Exception {
    server.next(Fault.malformed());
    EndpointLoad.Counts before = EndpointLoad.now().get("local");
    assertEquals(2, client(2).complete(HELLO).attempts());
    EndpointLoad.Counts ended = EndpointLoad.now().get("local").since(before);
    assertEquals(2, ended.calls(), ended.toString());
    assertEquals(1, ended.failed(), "a 200 whose body is not the answer failed: " + ended);
    server.next(Fault.malformed(), Fault.malformed());
    ChatException e = assertThrows(ChatException.class, () -> client(2).complete(HELLO));
    assertFalse(e.fatal());
    assertEquals(2, e.attempts());
    assertTrue(e.getMessage().contains("the reply is not JSON"), e.getMessage());
  }

  @Test
  void aReplySlowerThanTheTimeoutIsTransientAndTheCallFailsAfterMaxAttempts() {
    server.next(Fault.slow(Duration.ofSeconds(5)), Fault.slow(Duration.ofSeconds(5)));
    // priced tokens: at prices of 0 any call is a known $0
    ChatClient c = new ChatClient(endpoint("", 4, 2, 1.0, 2.0), Map.of(), BASE, recording, Duration.ofMillis(300));
    ChatException e = assertThrows(ChatException.class, () -> c.complete(HELLO));
    assertFalse(e.fatal());
    assertEquals(2, e.attempts());
    assertTrue(e.getMessage().contains("no answer within 0.3 s"), e.getMessage());
    assertEquals(2, e.calls().size(), "a failed call keeps its attempts' records");
    assertFalse(e.costKnown(), "a call that timed out may have been billed: its cost is not known");
    for (Map<String, Object> call : e.calls()) {
      assertNull(call.get("status"), "no reply came: " + call);
      assertTrue(((Number) call.get("held_s")).doubleValue() >= 0.25, "it held its slot until it gave up: " + call);
    }
    assertEquals(2, server.requests().size());
    assertEquals(1, waits.size());
  }

  @Test
  void emptyContentIsAFailedAttemptWhoseUsageIsStillPaidFor() throws Exception {
    server.next(Fault.emptyContent());
    ChatClient c = client(endpoint("", 4, 2, 1_000_000.0, 2_000_000.0), Map.of());
    ChatReply r = c.complete(HELLO);
    assertEquals(2, r.attempts());
    long prompt = r.usage().promptTokens();
    long completion = r.usage().completionTokens();
    // the empty attempt reported the same prompt and no completion; both attempts are priced
    assertEquals(prompt * 1.0 + (prompt * 1.0 + completion * 2.0), r.costUsd(), 1e-9);
  }

  @Test
  void emptyContentOnEveryAttemptFailsWithTheReason() {
    server.next(Fault.emptyContent(), Fault.emptyContent());
    ChatException e = assertThrows(ChatException.class, () -> client(2).complete(HELLO));
    assertFalse(e.fatal());
    assertTrue(e.getMessage().contains("the reply's content is empty (finish_reason stop)"), e.getMessage());
  }

  /** A connection that broke after the request went: retried, and the lost attempt may have been billed. */
  @Test
  void aDroppedConnectionIsRetried() throws Exception {
    server.next(Fault.drop());
    ChatReply r = client(endpoint("", 4, 2, 1.0, 2.0), Map.of()).complete(HELLO);
    assertEquals(2, r.attempts());
    assertFalse(r.costKnown(), "the dropped attempt reached the endpoint: what it cost is not known");
    assertNull(r.calls().get(0).get("connected"), "it was connected: " + r.calls().get(0));
  }

  /** Nothing listens: no connection is made, the request never leaves, and the attempts cost a known nothing. */
  @Test
  void aRefusedConnectionIsTransientAndFailsAfterMaxAttempts() throws Exception {
    Endpoint nobody = new Endpoint("gone", ScriptedModelServer.unusedBaseUrl(), "", 2, 5, 3, 1.0, 2.0);
    ChatException e = assertThrows(ChatException.class,
        () -> new ChatClient(nobody, Map.of(), BASE, recording, Duration.ofSeconds(5)).complete(HELLO));
    assertFalse(e.fatal());
    assertEquals(3, e.attempts());
    assertTrue(e.getMessage().contains("connection failed: ConnectException"), e.getMessage());
    assertEquals(2, waits.size());
    assertTrue(e.costKnown(), "no attempt left this machine, though the endpoint has prices");
    assertEquals(0.0, e.costUsd());
    assertEquals(3, e.calls().size());
    for (Map<String, Object> call : e.calls()) {
      assertEquals(false, call.get("connected"), call.toString());
      assertNull(call.get("status"), call.toString());
    }
  }

  @Test
  void aBadRequestIsFatalAtOnceWithItsStatusAndBody() {
    server.next(Fault.status(400, null));
    ChatException e = assertThrows(ChatException.class, () -> client(4).complete(HELLO));
    assertTrue(e.fatal());
    assertEquals(1, e.attempts());
    assertEquals(1, server.requests().size());
    assertTrue(e.getMessage().contains("HTTP 400: scripted status 400 (fatal, not retried)"), e.getMessage());
    assertTrue(waits.isEmpty());
  }

  @Test
  void anErrorBodyThatEchoesTheKeyIsQuotedWithoutIt() {
    String key = "k-verysecretvalue-0123456789";
    server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(401,
        "{\"error\": {\"message\": \"Incorrect API key provided: " + call.request().authorization()
            + "\\nsee docs\"}}"));
    ChatException e = assertThrows(ChatException.class,
        () -> client(endpoint("H2B_TEST_KEY", 4, 3, 0, 0), Map.of("H2B_TEST_KEY", key)).complete(HELLO));
    assertTrue(e.fatal());
    assertFalse(e.getMessage().contains(key), e.getMessage());
    assertTrue(e.getMessage().contains("HTTP 401: Incorrect API key provided: Bearer [redacted key] see docs"),
        e.getMessage());
  }

  /** A reply with {@code finish} as its finish reason, {@code message} as its message object, and usage 10 / 5. */
  private static String reply(String finish, String message) {
    return "{\"model\": \"tiny-model\", \"choices\": [{\"index\": 0, \"message\": " + message
        + ", \"finish_reason\": \"" + finish + "\"}], \"usage\": {\"prompt_tokens\": 10, \"completion_tokens\": 5}}";
  }

  /**
   * dogZ #1, #2, #4: a reply cut off at max_tokens was taken as the answer (a rollout's truncated deliverable graded
   * a real 0; an improver's unclosed block sent back as its mistake, at three times the cost); a filtered reply or
   * tool calls with no text were retried as if the server were down. Each is now one fatal attempt, priced from the
   * usage it reported, saying what to change.
   */
  @Test
  void aReplyCutOffFilteredOrOfToolCallsIsNoAnswerAndIsNotRetried() throws Exception {
    Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put(reply("length", "{\"role\": \"assistant\", \"content\": \"Total: \"}"), "the reply was cut off at"
        + " max_tokens (finish_reason length); raise max_tokens of the role that made this call in --config"
        + " (roles.<role>.max_tokens), or leave it unset (fatal, not retried)");
    cases.put(reply("length", "{\"role\": \"assistant\", \"content\": null, \"reasoning_content\": \"hmm\"}"),
        "(finish_reason length, no content: a reasoning model may have spent them all thinking)");
    cases.put(reply("content_filter", "{\"role\": \"assistant\", \"content\": \"I can\"}"), "the endpoint's"
        + " content filter stopped the reply (finish_reason content_filter)");
    cases.put(reply("tool_calls", "{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\":"
        + " \"c1\", \"type\": \"function\", \"function\": {\"name\": \"write\", \"arguments\": \"{}\"}}]}"),
        "the reply is tool calls with no text (finish_reason tool_calls)");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(200, c.getKey()));
      int before = server.requests().size();
      ChatException e = assertThrows(ChatException.class,
          () -> client(endpoint("", 4, 3, 1_000_000.0, 2_000_000.0), Map.of()).complete(HELLO));
      assertTrue(e.fatal(), e.getMessage());
      assertEquals(1, e.attempts(), e.getMessage());
      assertEquals(before + 1, server.requests().size(), "not retried: " + e.getMessage());
      assertTrue(e.getMessage().contains(c.getValue()), e.getMessage());
      assertTrue(e.costKnown(), "its usage was reported");
      assertEquals(10 * 1.0 + 5 * 2.0, e.costUsd(), 1e-9);
    }
    assertTrue(waits.isEmpty());
  }

  /**
   * dogZ #6: a gateway's error object under a 200 (OpenRouter, LiteLLM) made every stage's cost "not known"; it is an
   * error reply, retried, and unbilled as an error status is, so the reply's cost stays known.
   */
  @Test
  void anErrorObjectUnderASuccessStatusIsRetriedAndCostsAKnownNothing() throws Exception {
    int[] n = {0};
    server.route(ScriptedModelServer.CHAT_PATH, call -> {
      if (n[0]++ == 0) call.sendJson(200, "{\"error\": {\"message\": \"upstream overloaded\", \"code\": 502}}");
      else call.sendJson(200, reply("stop", "{\"role\": \"assistant\", \"content\": \"hello\"}"));
    });
    ChatReply r = client(endpoint("", 4, 3, 1_000_000.0, 2_000_000.0), Map.of()).complete(HELLO);
    assertEquals(2, r.attempts());
    assertTrue(r.costKnown(), r.calls().toString());
    assertEquals(20.0, r.costUsd(), 1e-9);
    assertEquals(true, r.calls().get(0).get("error_reply"), r.calls().get(0).toString());
    assertNull(r.calls().get(1).get("error_reply"), r.calls().get(1).toString());
  }

  /**
   * dogZ #10: a redirect said only "HTTP 307: (empty body)"; it names where to, without its query (which may hold a
   * key), and what to set. A refused key names the variable it came from, never its value.
   */
  @Test
  void aRedirectNamesWhereToAndARefusedKeyItsVariable() {
    server.route(ScriptedModelServer.CHAT_PATH, call -> {
      call.exchange().getResponseHeaders().add("Location", "http://127.0.0.1:9/gateway/v1/chat/completions?sig=abc");
      call.sendJson(307, "");
    });
    ChatException moved = assertThrows(ChatException.class, () -> client(4).complete(HELLO));
    assertTrue(moved.getMessage().contains("HTTP 307: the endpoint redirects to"
        + " http://127.0.0.1:9/gateway/v1/chat/completions, and h2beam follows no redirect (the key would go along):"
        + " set base_url to the address it names (fatal, not retried)"), moved.getMessage());
    assertFalse(moved.getMessage().contains("sig=abc"), moved.getMessage());
    assertEquals(1, moved.attempts());

    server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(401, "{\"error\": {\"message\": \"bad key\"}}"));
    ChatException refused = assertThrows(ChatException.class,
        () -> client(endpoint("H2B_TEST_KEY", 4, 3, 0, 0), Map.of("H2B_TEST_KEY", "k-wrong-0123456789"))
            .complete(HELLO));
    assertTrue(refused.getMessage().contains("HTTP 401: bad key; the key sent is $H2B_TEST_KEY"
        + " (endpoints.local.api_key_env): check that it holds this endpoint's key (fatal, not retried)"),
        refused.getMessage());
    assertFalse(refused.getMessage().contains("0123456789"), refused.getMessage());
  }

  /**
   * dogZ #10, #7: a compressed or streamed body was quoted as bytes "not JSON" and retried; each is now said as what it
   * is, once. A reply naming another model than the one asked for (not a version of it) is said once per endpoint.
   */
  @Test
  void aCompressedOrStreamedReplyIsNamedAndAnotherModelIsSaidOnce() throws Exception {
    server.route(ScriptedModelServer.CHAT_PATH, call -> {
      call.exchange().getResponseHeaders().add("Content-Encoding", "gzip");
      call.send(200, "application/json", "\u001f\u008b binary");
    });
    ChatException gzip = assertThrows(ChatException.class, () -> client(3).complete(HELLO));
    assertEquals(1, gzip.attempts());
    assertTrue(gzip.getMessage().contains("the reply is gzip-encoded (Content-Encoding), which h2beam did not ask for"
        + " and does not decode"), gzip.getMessage());
    server.route(ScriptedModelServer.CHAT_PATH, call -> call.send(200, "text/event-stream",
        "data: {\"choices\": []}\n\n"));
    ChatException sse = assertThrows(ChatException.class, () -> client(3).complete(HELLO));
    assertTrue(sse.getMessage().contains("the reply is a stream (text/event-stream), though the request asked for"
        + " none"), sse.getMessage());

    server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(200, reply("stop",
        "{\"role\": \"assistant\", \"content\": \"hello\"}").replace("tiny-model", "other-model-9b")));
    PrintStream stderr = System.err;
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
    try {
      Endpoint routed = new Endpoint("routed", server.baseUrl(), "", 4, 60, 1, 0, 0);
      for (int i = 0; i < 3; i++) assertEquals("hello", client(routed, Map.of()).complete(HELLO).text());
      // a version of the model asked for, in another case, is the same model
      server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(200, reply("stop",
          "{\"role\": \"assistant\", \"content\": \"hello\"}").replace("tiny-model", "Tiny-Model-2024-07-18")));
      assertEquals("hello", client(routed, Map.of()).complete(HELLO).text());
    } finally {
      System.setErr(stderr);
    }
    String warning = said.toString(StandardCharsets.UTF_8);
    assertEquals("warning: endpoint routed answered a call for model tiny-model as model other-model-9b (said once):"
        + " config.json records tiny-model, so runs routed to other models would compare as runs of one; check the"
        + " gateway's routing or name the model it serves\n", warning);
  }

  @Test
  void aPlaceholderKeyOfOneLetterLeavesTheServersWordsWhole() {
    server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(404,
        "{\"error\": {\"message\": \"The model does not exist; you sent " + call.request().authorization() + "\"}}"));
    ChatException e = assertThrows(ChatException.class,
        () -> client(endpoint("H2B_TEST_KEY", 4, 3, 0, 0), Map.of("H2B_TEST_KEY", "x")).complete(HELLO));
    assertTrue(e.getMessage().contains("HTTP 404: The model does not exist; you sent Bearer [redacted key]"),
        e.getMessage());
  }

  @Test
  void aReplyAfterAnAttemptThatTimedOutHasACostNotKnown() throws Exception {
    server.next(Fault.slow(Duration.ofSeconds(5)));
    ChatClient c = new ChatClient(endpoint("", 4, 2, 1.0, 1.0), Map.of(), BASE, recording, Duration.ofMillis(300));
    ChatReply r = c.complete(HELLO);
    assertEquals(2, r.attempts());
    assertTrue(r.costUsd() > 0, "the answered attempt's cost");
    assertFalse(r.costKnown(), "the first attempt's is not known");
    // and its record says why it ended without a reply (dogZ #10), as a relayed call's does
    assertTrue(String.valueOf(r.calls().get(0).get("dropped")).startsWith("no answer within 0.3 s"),
        r.calls().get(0).toString());
    assertNull(r.calls().get(1).get("dropped"), r.calls().get(1).toString());
    assertTrue(client(1).complete(HELLO).costKnown(), "one answered call reporting its tokens: known");
  }

  @Test
  void usageTheServerDoesNotReportIsNullNeverZeroAndCostsNothing() throws Exception {
    server.next(Fault.noUsage());
    ChatReply r = client(endpoint("", 4, 1, 5.0, 5.0), Map.of()).complete(HELLO);
    assertEquals(Usage.NONE, r.usage());
    assertNull(r.usage().promptTokens());
    assertEquals(0.0, r.costUsd());
    assertFalse(r.costKnown(), "an answer without its tokens cost what it cost: not known, not the 0 summed");
    server.next(Fault.noUsage());
    assertTrue(client(1).complete(HELLO).costKnown(), "at prices of 0 (a local model) it is a known $0");
  }

  /**
   * Input and output are priced apart: an answer reporting only one is not priced as if the other were 0. The side it
   * reported is priced, as the relay's calls are ({@link EndpointProxy.Spend#of}), and the amount is marked as only
   * the known part.
   */
  @Test
  void anAnswerReportingOnlyItsPromptTokensLeavesTheCostUnknown() throws Exception {
    server.route(ScriptedModelServer.CHAT_PATH, call -> call.sendJson(200, "{\"id\": \"c1\", \"model\": \"m\","
        + " \"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": \"hi\"},"
        + " \"finish_reason\": \"stop\"}], \"usage\": {\"prompt_tokens\": 12}}"));
    Endpoint prices = endpoint("", 4, 1, 3.0, 15.0);
    ChatReply r = client(prices, Map.of()).complete(HELLO);
    assertEquals("hi", r.text());
    assertEquals(12L, r.usage().promptTokens());
    assertNull(r.usage().completionTokens());
    assertFalse(r.costKnown(), "the completion's tokens were billed at a price of their own, and are not known");
    assertEquals(12 * 3.0 / 1_000_000.0, r.costUsd(), 1e-15, "the known part: the prompt's 12 tokens at $3/Mtok");
    assertEquals(EndpointProxy.Spend.of(prices, r.calls()).usd(), r.costUsd());
    assertEquals(1, r.calls().size());
    assertEquals(12L, ((Number) r.calls().get(0).get("input_tokens")).longValue());
    assertNull(r.calls().get(0).get("output_tokens"));
  }

  @Test
  void costIsTheEndpointPricesTimesTheReportedTokens() throws Exception {
    ChatReply r = client(endpoint("", 4, 1, 3.0, 15.0), Map.of()).complete(HELLO);
    assertEquals((r.usage().promptTokens() * 3.0 + r.usage().completionTokens() * 15.0) / 1_000_000.0, r.costUsd(),
        1e-12);
  }

  @Test
  void noMoreThanMaxConcurrencyCallsAreInFlightAtOnce() throws Exception {
    server.latency(Duration.ofMillis(150));
    ChatClient c = client(endpoint("", 2, 1, 0, 0), Map.of());
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<ChatReply>> calls = new ArrayList<>();
      for (int i = 0; i < 6; i++) calls.add(pool.submit(() -> c.complete(HELLO)));
      for (Future<ChatReply> f : calls) assertEquals("hello, tiny-model", f.get().text());
    } finally {
      pool.shutdownNow();
    }
    assertEquals(6, server.requests().size());
    assertEquals(2, server.maxInFlight());
  }

  @Test
  void anInterruptedCallStopsWithInterruptedException() throws Exception {
    server.next(Fault.slow(Duration.ofSeconds(30)));
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        client(1).complete(HELLO);
      } catch (ChatException | InterruptedException e) {
        thrown.set(e);
      }
    });
    EndpointLoad.Counts before = EndpointLoad.now().get("local");
    t.start();
    while (server.requests().isEmpty()) Thread.sleep(5);
    t.interrupt();
    t.join(10_000);
    assertFalse(t.isAlive());
    assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
    // the call cut by the interrupt ended, failed, and is in flight no more
    EndpointLoad.Counts ended = EndpointLoad.now().get("local").since(before);
    assertEquals(new EndpointLoad.Counts(0, 0, 1, 1, ended.waitedMs()), ended);
  }

  @Test
  void aClosedClientRefusesCalls() {
    ChatClient c = client(1);
    c.close();
    assertThrows(IllegalStateException.class, () -> c.complete(HELLO));
  }
}
