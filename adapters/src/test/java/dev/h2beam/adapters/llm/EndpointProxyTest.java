package dev.h2beam.adapters.llm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Tokens;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The loopback relay an agent CLI calls its endpoint through: what passes, passes unchanged and streamed; every call
 * takes the endpoint's slot and rate turn, which are those the chat channel's calls take; the usage of a plain, a
 * Chat Completions stream or a Responses stream reply is charged to the token window; an endpoint that cannot be
 * reached is a 502 naming it; closing the relay drops what waits and frees what it held.
 */
class EndpointProxyTest {
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final String CHAT = "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";

  static HttpRequest post(String url, String body) {
    return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  @Test
  void aRequestPassesUnchangedAndItsReplyStreamsBackPieceByPieceWithItsTokensCharged() throws Exception {
    CountDownLatch firstRead = new CountDownLatch(1);
    AtomicBoolean streamed = new AtomicBoolean();
    AtomicReference<String> query = new AtomicReference<>();
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      server.route("/v1/stream", call -> {
        query.set(call.exchange().getRequestURI().getRawQuery());
        call.beginResponse();
        call.exchange().getResponseHeaders().set("Content-Type", "text/event-stream");
        call.exchange().sendResponseHeaders(200, 0);
        try (OutputStream out = call.exchange().getResponseBody()) {
          out.write("data: {\"choices\": [{\"delta\": {\"content\": \"a\"}}], \"usage\": null}\n\n".getBytes(
              StandardCharsets.UTF_8));
          out.flush();
          streamed.set(firstRead.await(10, TimeUnit.SECONDS));
          out.write(("data: {\"choices\": [], \"usage\": {\"prompt_tokens\": 7, \"completion_tokens\": 5,"
              + " \"total_tokens\": 12}}\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
        }
      });
      Endpoint e = new Endpoint("relayed", server.baseUrl(), "", 2, 30, 1, 0, 0, 0, 1_000_000);
      try (EndpointProxy relay = EndpointProxy.open(e, null)) {
        assertTrue(relay.baseUrl().startsWith("http://127.0.0.1:") && relay.baseUrl().endsWith("/v1"),
            relay.baseUrl());
        assertEquals(relay.baseUrl(), relay.relayed().baseUrl());
        assertEquals(e, relay.relayed().at(e.baseUrl()));
        HttpRequest r = HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/stream?a=b%20c"))
            .header("Authorization", "Bearer secret-1").header("X-Trace", "t1")
            .POST(HttpRequest.BodyPublishers.ofString("{\"stream\": true}")).build();
        HttpResponse<InputStream> reply = CLIENT.send(r, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, reply.statusCode());
        assertEquals("text/event-stream", reply.headers().firstValue("Content-Type").orElse(""));
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(reply.body(), StandardCharsets.UTF_8))) {
          lines.add(in.readLine());
          firstRead.countDown();
          for (String l; (l = in.readLine()) != null; ) lines.add(l);
        }
        assertTrue(streamed.get(), "the first event reached the client before the server sent the rest");
        assertEquals("data: [DONE]", lines.get(lines.size() - 2));
      }
      // once closed, the relay has finished with every call (the client can read the last byte a moment before)
      assertEquals(12, RateWindow.of(e).tokensInWindow(System.nanoTime()));
      ScriptedModelServer.Request seen = server.requests().get(0);
      assertEquals("/v1/stream", seen.path());
      assertEquals("a=b%20c", query.get());
      assertEquals("Bearer secret-1", seen.authorization());
      assertEquals("{\"stream\": true}", seen.rawBody());
    }
  }

  @Test
  void theRelayHoldsTheKeyTheAgentHasOnlyItsTokenAndAnErrorThatEchoesTheKeyComesBackWithoutIt() throws Exception {
    String key = "sk-real-key-0123456789abcdefghij";
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      server.route("/v1/echo", call -> call.sendJson(401, "{\"error\": {\"message\": \"Incorrect API key provided: "
          + call.request().authorization() + "\"}}"));
      Endpoint e = new Endpoint("held", server.baseUrl(), "H2B_RELAY_KEY", 2, 30, 1, 0, 0, 0, 0);
      Map<String, String> env = Map.of("H2B_RELAY_KEY", key, "PATH", "/usr/bin");
      Path log = Files.createTempDirectory("h2beam-relay-key").resolve("calls.jsonl");
      try (EndpointProxy relay = EndpointProxy.open(e, log, env)) {
        String token = relay.token();
        assertTrue(token.startsWith("h2beam-relay-") && token.length() > 40 && !token.contains(key), token);
        assertEquals(Map.of("H2B_RELAY_KEY", token, "PATH", "/usr/bin"), relay.withToken(env));
        HttpResponse<String> ok = CLIENT.send(HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/chat/completions"))
            .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(CHAT)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("Bearer " + key, server.requests().get(0).authorization(), "the endpoint got the key");

        HttpResponse<String> stranger = CLIENT.send(HttpRequest.newBuilder(URI.create(relay.baseUrl()
            + "/chat/completions")).header("Authorization", "Bearer guessed").POST(HttpRequest.BodyPublishers
            .ofString(CHAT)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, stranger.statusCode());
        assertTrue(stranger.body().contains("carry its run's token") && stranger.body().contains("H2B_RELAY_KEY"),
            stranger.body());
        assertEquals(1, server.requests().size(), "a call without the token went nowhere");

        HttpResponse<String> echoed = CLIENT.send(HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/echo"))
            .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(401, echoed.statusCode());
        assertFalse(echoed.body().contains(key), echoed.body());
        assertTrue(echoed.body().contains("Incorrect API key provided: Bearer [redacted key]"), echoed.body());
      }
      String calls = Files.readString(log);
      assertFalse(calls.contains(key) || calls.contains("guessed"), calls);
      JsonNode refused = Json.MAPPER.readTree(calls.lines().toList().get(1));
      assertEquals("it did not carry its run's token", refused.path("dropped").asText(), calls);
      assertTrue(refused.path("sent").isNull(), calls);
    }
  }

  /**
   * An endpoint route that echoes the request in a success (a gateway's debug route) gives the agent nothing: the relay
   * puts the key only in the key header, takes it out of every reply, and sends on nothing that carries the token
   * elsewhere (a header of the agent's choosing, the path) or goes outside the base URL's path.
   */
  @Test
  void theKeyGoesOnlyInTheKeyHeaderToTheEndpointsPathAndNoReplyBringsItBack() throws Exception {
    String key = "sk-real-key-0123456789abcdefghij";
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      ScriptedModelServer.Route echo = call -> call.send(200, "text/plain", "auth " + call.request().authorization()
          + "\nmine " + call.exchange().getRequestHeaders().getFirst("X-Mine") + "\npath "
          + call.exchange().getRequestURI());
      server.route("/v1/echo", echo);
      server.route("/other", echo);
      Endpoint e = new Endpoint("held", server.baseUrl(), "H2B_RELAY_KEY", 2, 30, 1, 0, 0, 0, 0);
      Path log = Files.createTempDirectory("h2beam-relay-echo").resolve("calls.jsonl");
      try (EndpointProxy relay = EndpointProxy.open(e, log, Map.of("H2B_RELAY_KEY", key))) {
        String token = relay.token();
        HttpResponse<String> ok = CLIENT.send(HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/echo?q=1"))
            .header("Authorization", "Bearer " + token).header("X-Mine", "plain").GET().build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("auth Bearer [redacted key]\nmine plain\npath /v1/echo?q=1", ok.body());
        assertEquals("Bearer " + key, server.requests().get(0).authorization(), "the endpoint got the key");

        HttpResponse<String> header = CLIENT.send(HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/echo"))
            .header("Authorization", "Bearer " + token).header("X-Mine", token).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(400, header.statusCode(), header.body());
        assertTrue(header.body().contains("carries its token in header X-Mine"), header.body());
        HttpResponse<String> path = CLIENT.send(HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/echo/" + token))
            .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, path.statusCode(), path.body());
        assertTrue(path.body().contains("carries its token in its target"), path.body());
        String root = relay.baseUrl().substring(0, relay.baseUrl().length() - "/v1".length());
        for (String outside : List.of("/other", "/v1/%2e%2e/other", "/v1x/echo")) {
          HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(root + outside))
              .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
          assertEquals(404, r.statusCode(), outside + ": " + r.body());
          assertTrue(r.body().contains("only requests under /v1"), r.body());
        }
        assertEquals(1, server.requests().size(), "nothing refused went on: " + server.requests());
      }
      String calls = Files.readString(log);
      assertFalse(calls.contains(key), calls);
      assertEquals(2, calls.lines().filter(l -> l.contains("outside a key header")).count(), calls);
      assertEquals(3, calls.lines().filter(l -> l.contains("not under the endpoint's path")).count(), calls);
    }
  }

  @Test
  void aTargetIsUnderTheBasePathOnlyWithNoDotSegmentOrEncodedSeparator() throws Exception {
    Endpoint e = new Endpoint("p", "http://127.0.0.1:9/v1/", "", 1, 30, 1, 0, 0, 0, 0);
    try (EndpointProxy relay = EndpointProxy.open(e, null)) {
      for (String in : List.of("/v1", "/v1/chat/completions", "/v1/responses?x=/..", "/v1/models")) {
        assertTrue(relay.underBase(in), in);
      }
      for (String out : List.of("/", "/v2/x", "/v1x", "/v1/../admin", "/v1/./x", "/v1/%2E%2e/x", "/v1/a%2fb",
          "/v1/a%5Cb", "/v1\\..\\x", "http://elsewhere/v1/x", "*")) {
        assertFalse(relay.underBase(out), out);
      }
    }
  }

  @Test
  void theOutcomesOfARunsCallsAreCountedAndTheServerIsQuestionedOnlyWhenNothingAnswered() {
    Endpoint e = new Endpoint("o", "http://127.0.0.1:9/v1", "", 1, 30, 1, 0, 0, 0, 0);
    Map<String, Object> failed = new java.util.HashMap<>(Map.of("status", 500));
    Map<String, Object> unconnected = new java.util.HashMap<>(Map.of("connected", false));
    unconnected.put("status", null);
    Map<String, Object> left = Map.of("dropped", "the client left");
    assertEquals("its 3 model calls: HTTP 500 x2, the client left x1",
        EndpointProxy.outcomes(List.of(failed, left, failed), e));
    assertEquals("its 1 model call: no connection x1 (is the model server at http://127.0.0.1:9/v1 up?)",
        EndpointProxy.outcomes(List.of(unconnected), e));
    assertEquals("it made no model call", EndpointProxy.outcomes(List.of(), e));
  }

  @Test
  void withoutAKeyTheRelayGivesNoTokenAndPassesWhatComes() throws Exception {
    Endpoint e = new Endpoint("keyless", "http://127.0.0.1:9/v1", "", 1, 30, 1, 0, 0, 0, 0);
    try (EndpointProxy relay = EndpointProxy.open(e, null, Map.of("OPENAI_API_KEY", "sk-unrelated"))) {
      assertNull(relay.token());
      assertEquals(Map.of("OPENAI_API_KEY", "sk-unrelated"), relay.withToken(Map.of("OPENAI_API_KEY",
          "sk-unrelated")));
    }
  }

  @Test
  void aReplyCutWhenTheRunEndsIsChargedWhatItReportedAndFreesItsSlot() throws Exception {
    CountDownLatch cut = new CountDownLatch(1);
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      server.route("/v1/stall", call -> {
        call.beginResponse();
        call.exchange().getResponseHeaders().set("Content-Type", "text/event-stream");
        call.exchange().sendResponseHeaders(200, 0);
        OutputStream out = call.exchange().getResponseBody();
        out.write("data: {\"usage\": {\"input_tokens\": 5, \"output_tokens\": 3}}\n\n".getBytes(
            StandardCharsets.UTF_8));
        out.flush();
        cut.await(20, TimeUnit.SECONDS); // a model that stops sending mid-reply
      });
      Endpoint e = new Endpoint("cut", server.baseUrl(), "", 1, 30, 1, 0, 0, 0, 1_000);
      EndpointProxy relay = EndpointProxy.open(e, null);
      HttpResponse<InputStream> reply = CLIENT.send(post(relay.baseUrl() + "/stall", "{}"),
          HttpResponse.BodyHandlers.ofInputStream());
      try (BufferedReader in = new BufferedReader(new InputStreamReader(reply.body(), StandardCharsets.UTF_8))) {
        assertTrue(in.readLine().contains("input_tokens"));
        assertEquals(0, EndpointLimits.freeSlots(e), "the streaming reply holds the slot");
        assertArrayEquals(new int[] {0, 1}, inFlight("cut"), "and counts as sending");
        relay.close();
      } catch (java.io.IOException expected) {
        // the relay cut the reply
      } finally {
        cut.countDown();
      }
      assertEquals(1, EndpointLimits.freeSlots(e), "closing the relay gave the slot back");
      assertArrayEquals(new int[] {0, 0}, inFlight("cut"), "and the call counts no more");
      assertEquals(8, RateWindow.of(e).tokensInWindow(System.nanoTime()), "and charged what the reply reported");
    }
  }

  @Test
  void callsThroughSeveralRelaysOfOneEndpointShareItsMaxConcurrency() throws Exception {
    assertEquals(1, peakInFlight(1));
    assertTrue(peakInFlight(4) >= 2, "with room for four, the six calls overlap");
  }

  /** The most calls the server had at once when six are sent at once through three relays of one endpoint. */
  private static int peakInFlight(int maxConcurrency) throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      server.latency(Duration.ofMillis(300));
      Endpoint e = new Endpoint("narrow", server.baseUrl(), "", maxConcurrency, 30, 1, 0, 0);
      List<EndpointProxy> relays = List.of(EndpointProxy.open(e, null), EndpointProxy.open(e, null),
          EndpointProxy.open(e, null));
      try {
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          calls.add(CLIENT.sendAsync(post(relays.get(i % 3).baseUrl() + "/chat/completions", CHAT),
              HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> c : calls) {
          HttpResponse<String> r = c.get(30, TimeUnit.SECONDS);
          assertEquals(200, r.statusCode(), r.body());
          assertEquals("x", Json.MAPPER.readTree(r.body()).at("/choices/0/message/content").asText());
        }
      } finally {
        relays.forEach(EndpointProxy::close);
      }
      assertEquals(maxConcurrency, EndpointLimits.freeSlots(e), "every slot is back once the relays are closed");
      return server.maxInFlight();
    }
  }

  @Test
  void theUsageOfPlainRepliesAndOfBothStreamsIsReadWhereverTheReplyIsCut() {
    String chat = "data: {\"choices\": [{\"delta\": {\"content\":"
        + " \"the \\\"usage\\\": {\\\"prompt_tokens\\\": 900}\"}}], \"usage\": null}\n\n: keep-alive\n\n"
        + "data: {\"choices\": [], \"usage\": {\"prompt_tokens\": 30,"
        + " \"completion_tokens\": 12, \"total_tokens\": 42}}\n\ndata: [DONE]\n\n";
    String responses = "event: response.created\ndata: {\"type\": \"response.created\", \"response\": {\"id\": \"r\","
        + " \"usage\": null}}\n\nevent: response.completed\ndata: {\"type\": \"response.completed\", \"response\":"
        + " {\"id\": \"r\", \"usage\": {\"input_tokens\": 100, \"input_tokens_details\": {\"cached_tokens\": 0},"
        + " \"output_tokens\": 11, \"total_tokens\": 111}}}\n\n";
    String plain = "{\n  \"choices\": [],\n  \"usage\": {\n    \"total_tokens\": 9\n  }\n}";
    for (int piece : new int[] {1, 7, 64, 1 << 16}) {
      assertEquals(42, scan(chat, true, piece), "chat stream in pieces of " + piece);
      assertEquals(111, scan(responses, true, piece), "responses stream in pieces of " + piece);
      assertEquals(9, scan(plain, false, piece), "plain reply in pieces of " + piece);
      assertEquals(0, scan("data: {\"choices\": []}\n\ndata: [DONE]\n\n", true, piece), "no usage");
      assertEquals(0, scan("<html>busy</html>", false, piece), "not JSON");
    }
    assertEquals(5, scan("data: {\"usage\": {\"prompt_tokens\": 2, \"completion_tokens\": 3}}", true, 4),
        "a last line without its newline still counts");
  }

  private static long scan(String reply, boolean stream, int piece) {
    return scanner(reply, stream, piece).tokens();
  }

  private static EndpointProxy.UsageScan scanner(String reply, boolean stream, int piece) {
    byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
    EndpointProxy.UsageScan s = new EndpointProxy.UsageScan();
    s.begin(stream);
    for (int i = 0; i < bytes.length; i += piece) {
      byte[] part = java.util.Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + piece));
      s.feed(part, part.length);
    }
    s.tokens();
    return s;
  }

  /**
   * What recorded calls add up to: a call never sent or not a POST is not billed; a call sent and unanswered, or a
   * success without both counts, leaves the cost unknown and the token sums marked as the part counted (a sum of
   * some is not the whole); an endpoint whose prices are 0 costs a known nothing whatever its calls reported, and
   * its tokens are still marked as the part counted.
   */
  @Test
  void theSpendOfRecordedCallsIsKnownOnlyWhenEveryBilledCallReportedItsTokens() {
    Endpoint priced = new Endpoint("p", "http://127.0.0.1:9/v1", "", 1, 5, 1, 1.0, 2.0);
    Map<String, Object> answered = call("POST", "t", 200, 10L, 5L);
    Map<String, Object> waitedAndDropped = call("POST", null, null, null, null);
    Map<String, Object> models = call("GET", "t", 200, null, null);
    Map<String, Object> refused = call("POST", "t", 429, null, null);
    EndpointProxy.Spend all = EndpointProxy.Spend.of(priced, List.of(answered, waitedAndDropped, models, refused,
        answered));
    assertTrue(all.known(), "never sent, a GET and an error status are not billed");
    assertEquals(2 * (10 * 1.0 + 5 * 2.0) / 1_000_000.0, all.usd(), 1e-15);
    assertEquals(new Tokens(20, 10, true), all.tokens());

    Map<String, Object> cut = call("POST", "t", null, null, null);
    Map<String, Object> noUsage = call("POST", "t", 200, null, null);
    for (Map<String, Object> bad : List.of(cut, noUsage, call("POST", "t", 200, 7L, null))) {
      EndpointProxy.Spend s = EndpointProxy.Spend.of(priced, List.of(answered, bad));
      assertFalse(s.known(), bad.toString());
    }
    assertEquals(new Tokens(10, 5, false), EndpointProxy.Spend.of(priced, List.of(answered, noUsage)).tokens(),
        "a success without its counts: the token sums are the part counted, not the whole");
    Endpoint free = new Endpoint("f", "http://127.0.0.1:9/v1", "", 1, 5, 1, 0, 0);
    EndpointProxy.Spend local = EndpointProxy.Spend.of(free, List.of(cut, noUsage));
    assertTrue(local.known(), "free tokens: $0 whatever was reported");
    assertEquals(0.0, local.usd());
    assertEquals(new Tokens(10, 5, false), EndpointProxy.Spend.of(free, List.of(answered, noUsage)).tokens(),
        "free: its cost is known, its tokens are the part counted");
  }

  /**
   * When every call's cost is known, a token side no call reported was spent by none: no call at all, or only calls
   * not billed, add up to a known 0 and 0, never to null (which says a count is missing).
   */
  @Test
  void callsThatAreAllPricedAddUpToKnownCountsEvenWhenNoneReportedAny() {
    Endpoint priced = new Endpoint("p", "http://127.0.0.1:9/v1", "", 1, 5, 1, 1.0, 2.0);
    assertEquals(new EndpointProxy.Spend(0.0, true, Tokens.NONE), EndpointProxy.Spend.of(priced, List.of()));
    EndpointProxy.Spend unbilled = EndpointProxy.Spend.of(priced, List.of(call("POST", null, null, null, null),
        call("GET", "t", 200, null, null), call("POST", "t", 429, null, null)));
    assertEquals(new EndpointProxy.Spend(0.0, true, Tokens.NONE), unbilled);
    EndpointProxy.Spend oneSide = EndpointProxy.Spend.of(priced, List.of(call("POST", "t", 429, 3L, null)));
    assertEquals(new Tokens(3, 0, true), oneSide.tokens(), oneSide.toString());
    assertEquals(3 * 1.0 / 1_000_000.0, oneSide.usd(), 1e-15, "the side it reported is priced, as it is counted");
  }

  /**
   * One rule prices recorded calls, the relay's and the chat client's alike: the amount is the price of the tokens
   * counted, each side a call reported priced apart. A success that reported only its input adds its input's price,
   * and marks the amount as the known part; the side it did not report is not known, never priced as 0, and the side
   * it did report is never dropped (an amount below the tokens shown beside it would hide spend that is known).
   */
  @Test
  void aCallReportingOneSideAddsThatSidesPriceToAnAmountMarkedNotKnown() {
    Endpoint priced = new Endpoint("p", "http://127.0.0.1:9/v1", "", 1, 5, 1, 3.0, 15.0);
    Map<String, Object> answered = call("POST", "t", 200, 10L, 5L);
    EndpointProxy.Spend s = EndpointProxy.Spend.of(priced, List.of(answered, call("POST", "t", 200, 12L, null),
        call("POST", "t", 200, null, 4L)));
    assertFalse(s.known());
    assertEquals(new Tokens(22, 9, false), s.tokens());
    assertEquals((22 * 3.0 + 9 * 15.0) / 1_000_000.0, s.usd(), 1e-15, "the price of the tokens counted");
    assertEquals(priced.cost(s.tokens().input(), s.tokens().output()), s.usd(), "the same figure, priced once");
  }

  /**
   * The tokens recorded calls add up to: every count a call reported is summed, and the sum is all of it only when
   * every call is priced (never sent, never connected, not a POST, an error status, or a success with both counts),
   * whatever the endpoint's prices; otherwise it is the part counted.
   */
  @Test
  void theTokensOfRecordedCallsAreSummedAndKnownOnlyWhenEveryCallIsPriced() {
    Map<String, Object> answered = call("POST", "t", 200, 10L, 5L);
    Map<String, Object> other = call("POST", "t", 200, 100L, 7L);
    Map<String, Object> waitedAndDropped = call("POST", null, null, null, null);
    Map<String, Object> models = call("GET", "t", 200, null, null);
    Map<String, Object> refused = call("POST", "t", 429, null, null);
    Map<String, Object> notFound = call("POST", "t", 404, null, null);
    Map<String, Object> unconnected = call("POST", "t", null, null, null);
    unconnected.put("connected", false);
    assertEquals(new Tokens(110, 12, true), EndpointProxy.Spend.tokens(List.of(answered, other)));
    assertEquals(new Tokens(120, 17, true), EndpointProxy.Spend.tokens(List.of(answered, waitedAndDropped, models,
        refused, notFound, unconnected, other, answered)), "calls not billed are known and add nothing");
    assertEquals(Tokens.NONE, EndpointProxy.Spend.tokens(List.of()));
    assertEquals(Tokens.NONE, EndpointProxy.Spend.tokens(List.of(unconnected)), "it never left: a known nothing");
    assertEquals(Tokens.NONE, EndpointProxy.Spend.tokens(List.of(refused, notFound)), "an error status: not billed");

    Map<String, Object> noUsage = call("POST", "t", 200, null, null);
    Map<String, Object> cut = call("POST", "t", null, null, null);
    Map<String, Object> halfUsage = call("POST", "t", 200, 7L, null);
    assertEquals(new Tokens(110, 12, false), EndpointProxy.Spend.tokens(List.of(answered, noUsage, other)),
        "a success without its usage may have been billed: the counted part, not all of it");
    assertEquals(new Tokens(10, 5, false), EndpointProxy.Spend.tokens(List.of(answered, cut)),
        "a call sent and unanswered may have been billed");
    assertEquals(new Tokens(17, 5, false), EndpointProxy.Spend.tokens(List.of(answered, halfUsage)),
        "a success with one count: that count is kept, and the sum is not all of it");
    assertEquals(Tokens.UNKNOWN, EndpointProxy.Spend.tokens(List.of(noUsage)));
    // the endpoint's prices do not matter: a free endpoint's cost is known, its tokens are still not all counted
    Endpoint free = new Endpoint("f", "http://127.0.0.1:9/v1", "", 1, 5, 1, 0, 0);
    assertTrue(EndpointProxy.Spend.of(free, List.of(answered, noUsage)).known());
    assertFalse(EndpointProxy.Spend.tokens(List.of(answered, noUsage)).known());
  }

  private static Map<String, Object> call(String method, String sent, Integer status, Long in, Long out) {
    Map<String, Object> c = new java.util.LinkedHashMap<>();
    c.put("method", method);
    c.put("sent", sent);
    c.put("status", status);
    c.put("input_tokens", in);
    c.put("output_tokens", out);
    return c;
  }

  /** Input and output are priced apart, so a call is priced only from a usage that names both. */
  @Test
  void theUsagesInputAndOutputTokensAreKeptApartWhenItNamesBoth() {
    EndpointProxy.UsageScan chat = scanner("{\"usage\": {\"prompt_tokens\": 11, \"completion_tokens\": 4}}", false, 5);
    assertEquals(List.of(11L, 4L), List.of(chat.input, chat.output));
    EndpointProxy.UsageScan responses = scanner("data: {\"type\": \"response.created\"}\n\ndata: {\"type\":"
        + " \"response.completed\", \"response\": {\"usage\": {\"input_tokens\": 7, \"output_tokens\": 2}}}\n\n",
        true, 3);
    assertEquals(List.of(7L, 2L), List.of(responses.input, responses.output));
    assertEquals(9, responses.tokens());
    EndpointProxy.UsageScan total = scanner("{\"usage\": {\"total_tokens\": 30}}", false, 64);
    assertEquals(30, total.tokens());
    assertNull(total.input, "a total alone cannot be priced");
    assertNull(total.output);
  }

  /**
   * Nothing listens at the endpoint: the CLI gets a 502 naming it (never the key), and the call, which never left
   * this machine, costs a known nothing at the endpoint's prices.
   */
  @Test
  void anEndpointThatCannotBeReachedIsA502NamingItWithoutTheKey() throws Exception {
    Endpoint e = new Endpoint("gone", ScriptedModelServer.unusedBaseUrl(), "", 1, 5, 1, 1.0, 2.0);
    try (EndpointProxy relay = EndpointProxy.open(e, null)) {
      HttpRequest keyed = HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/chat/completions"))
          .header("Authorization", "Bearer sk-relay-secret-42").POST(HttpRequest.BodyPublishers.ofString(CHAT))
          .build();
      HttpResponse<String> r = CLIENT.send(keyed, HttpResponse.BodyHandlers.ofString());
      assertEquals(502, r.statusCode());
      assertTrue(!r.body().contains("relay-secret") && r.headers().map().toString().indexOf("relay-secret") < 0,
          r.body());
      JsonNode error = Json.MAPPER.readTree(r.body()).path("error");
      assertTrue(error.path("message").asText().contains("endpoint gone (" + e.baseUrl() + ")"),
          r.body());
      relay.close(); // waits for the call's record, which follows the reply
      List<Map<String, Object>> calls = relay.calls();
      assertEquals(1, calls.size(), calls.toString());
      assertEquals(false, calls.get(0).get("connected"), calls.toString());
      // every call's cost is known: a side no call reported was spent by none, a known 0 (not a missing count)
      assertEquals(new EndpointProxy.Spend(0.0, true, Tokens.NONE), EndpointProxy.Spend.of(e, calls));
      assertEquals(Tokens.NONE, EndpointProxy.Spend.tokens(calls));
    }
    assertEquals(1, EndpointLimits.freeSlots(e));
  }

  @Test
  void aCallBeyondTheRequestRateWaitsAndClosingTheRelayDropsItAndFreesItsSlot() throws Exception {
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      Endpoint e = new Endpoint("paced", server.baseUrl(), "", 1, 30, 1, 0, 0, 1, 0);
      EndpointLoad.Counts before = EndpointLoad.now().get("paced");
      Path log = Files.createTempDirectory("relay").resolve("calls.jsonl");
      EndpointProxy relay = EndpointProxy.open(e, log);
      assertEquals(200, CLIENT.send(post(relay.baseUrl() + "/chat/completions", CHAT),
          HttpResponse.BodyHandlers.ofString()).statusCode());
      CompletableFuture<HttpResponse<String>> second = CLIENT.sendAsync(post(relay.baseUrl() + "/chat/completions",
          CHAT), HttpResponse.BodyHandlers.ofString());
      Thread.sleep(1_000);
      assertEquals(1, server.requests().size(), "the second call waits for the minute's one request to leave");
      assertEquals(0, EndpointLimits.freeSlots(e), "and holds the endpoint's one slot while it waits");
      assertArrayEquals(new int[] {1, 0}, inFlight("paced"), "it counts as waiting, not sending");
      relay.close();
      assertEquals(1, EndpointLimits.freeSlots(e), "closing the relay gave the slot back");
      assertArrayEquals(new int[] {0, 0}, inFlight("paced"), "and counts no more once dropped");
      EndpointLoad.Counts ended = EndpointLoad.now().get("paced").since(before);
      assertEquals(2, ended.calls(), "both calls ended: " + ended);
      assertEquals(1, ended.failed(), "the dropped one with no answer: " + ended);
      assertTrue(ended.waitedMs() >= 900, "it waited its second and more for the rate window: " + ended);
      assertTrue(second.handle((r, t) -> t != null || r.statusCode() != 200).get(10, TimeUnit.SECONDS),
          "the dropped call got no answer");
      assertEquals(1, server.requests().size(), "and never reached the endpoint");
      List<String> lines = Files.readAllLines(log);
      assertEquals(2, lines.size(), lines.toString());
      Map<String, Object> sent = Json.readMap(lines.get(0));
      assertEquals(List.of("arrived", "sent", "done", "waited_s", "held_s", "method", "path", "status", "tokens",
          "input_tokens", "output_tokens", "dropped"), List.copyOf(sent.keySet()));
      assertEquals("POST /v1/chat/completions 200", sent.get("method") + " " + sent.get("path") + " "
          + sent.get("status"));
      assertTrue(((Number) sent.get("tokens")).longValue() > 0, lines.get(0));
      assertEquals(((Number) sent.get("tokens")).longValue(), ((Number) sent.get("input_tokens")).longValue()
          + ((Number) sent.get("output_tokens")).longValue(), lines.get(0));
      Map<String, Object> dropped = Json.readMap(lines.get(1));
      assertTrue(dropped.get("sent") == null && dropped.get("status") == null && dropped.get("held_s") == null
          && dropped.get("tokens") == null, lines.get(1));
      assertTrue(((Number) dropped.get("waited_s")).doubleValue() >= 0.5, "it waited until the relay closed: "
          + lines.get(1));
      assertEquals("the run ended", dropped.get("dropped"), lines.get(1));
      assertNull(sent.get("dropped"), lines.get(0));
    }
  }

  /**
   * A CLI whose own request timeout runs out while its call waits for the endpoint's turn closes the connection and
   * retries. The relay sees it leave and drops the call unsent: sent later, it would be paid for and read by nobody,
   * and hold the slot the retry waits for. The retry then gets its turn as the call before it ends.
   */
  @Test
  void aCallWhoseClientLeftWhileItWaitedIsNeverSentAndItsRetryGetsTheSlot() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      server.route("/v1/hold", call -> {
        release.await(20, TimeUnit.SECONDS); // the call ahead, holding the endpoint's one slot
        call.sendJson(200, "{\"usage\": {\"prompt_tokens\": 2, \"completion_tokens\": 1}}");
      });
      Endpoint e = new Endpoint("left", server.baseUrl(), "", 1, 30, 1, 0, 0, 0, 0);
      Path log = Files.createTempDirectory("relay").resolve("calls.jsonl");
      try (EndpointProxy relay = EndpointProxy.open(e, log)) {
        CompletableFuture<HttpResponse<String>> ahead = CLIENT.sendAsync(post(relay.baseUrl() + "/hold", "{}"),
            HttpResponse.BodyHandlers.ofString());
        awaitRequests(server, 1);
        // a client with a short timeout of its own: its call waits behind the one ahead, and it gives up
        HttpClient impatient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest late = HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/chat/completions"))
            .timeout(Duration.ofMillis(500)).POST(HttpRequest.BodyPublishers.ofString(CHAT)).build();
        assertThrows(java.net.http.HttpTimeoutException.class,
            () -> impatient.send(late, HttpResponse.BodyHandlers.ofString()));
        awaitLoad("left", 0, 1); // the relay saw it leave: only the call ahead is left
        // its retry waits in turn, and is sent once the call ahead ends
        CompletableFuture<HttpResponse<String>> retry = CLIENT.sendAsync(post(relay.baseUrl() + "/chat/completions",
            CHAT), HttpResponse.BodyHandlers.ofString());
        awaitLoad("left", 1, 1);
        release.countDown();
        assertEquals(200, ahead.get(10, TimeUnit.SECONDS).statusCode());
        assertEquals(200, retry.get(10, TimeUnit.SECONDS).statusCode());
      }
      assertEquals(List.of("/v1/hold", "/v1/chat/completions"),
          server.requests().stream().map(ScriptedModelServer.Request::path).toList(),
          "the call whose client left never reached the endpoint");
      assertEquals(1, EndpointLimits.freeSlots(e));
      List<Map<String, Object>> calls = new java.util.ArrayList<>();
      for (String line : Files.readAllLines(log)) calls.add(Json.readMap(line));
      assertEquals(3, calls.size(), calls.toString());
      Map<String, Object> gone = calls.get(0);
      assertEquals("the client left", gone.get("dropped"), gone.toString());
      assertNull(gone.get("sent"), gone.toString());
    }
  }

  /**
   * A client that has read its reply's last event and leaves (Codex does at {@code response.completed}, before the
   * stream's last chunk) frees the slot at once, though the endpoint has not ended the stream: here its thread is held
   * up after the last event (as a loaded machine deschedules it) until the next call has come. So the endpoint has
   * that call while its handler still runs, and counts two at once if it takes a call's end where the handler
   * returned, one (as the relay's record does) where the client could see the reply whole ({@link
   * ScriptedModelServer.Timing#end}, its last write): a count that can hold nothing but the relay's own slot.
   */
  @Test
  void aClientThatLeavesAtItsLastEventFreesTheSlotBeforeTheEndpointEndsItsStream() throws Exception {
    CountDownLatch nextCame = new CountDownLatch(1);
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      server.route("/v1/last", call -> {
        call.beginResponse();
        call.exchange().getResponseHeaders().set("Content-Type", "text/event-stream");
        call.exchange().sendResponseHeaders(200, 0);
        OutputStream out = call.exchange().getResponseBody();
        out.write(("event: response.completed\ndata: {\"type\": \"response.completed\", \"response\": {\"usage\":"
            + " {\"input_tokens\": 3, \"output_tokens\": 2}}}\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        nextCame.await(10, TimeUnit.SECONDS);
        try {
          out.close(); // the stream's last chunk, to a relay that may have closed the connection already
        } catch (java.io.IOException e) {
          // it had
        }
      });
      ScriptedModelServer.Route chat = server.routeOf(ScriptedModelServer.CHAT_PATH);
      server.route(ScriptedModelServer.CHAT_PATH, call -> {
        nextCame.countDown();
        chat.handle(call);
      });
      Endpoint e = new Endpoint("leaves", server.baseUrl(), "", 1, 30, 1, 0, 0, 0, 0);
      Path log = Files.createTempDirectory("relay").resolve("calls.jsonl");
      try (EndpointProxy relay = EndpointProxy.open(e, log)) {
        URI base = URI.create(relay.baseUrl());
        try (java.net.Socket cli = new java.net.Socket(base.getHost(), base.getPort())) {
          cli.getOutputStream().write(("POST /v1/last HTTP/1.1\r\nHost: " + base.getAuthority()
              + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}").getBytes(StandardCharsets.UTF_8));
          cli.getOutputStream().flush();
          BufferedReader in = new BufferedReader(new InputStreamReader(cli.getInputStream(), StandardCharsets.UTF_8));
          for (String line = in.readLine(); !line.startsWith("data: "); line = in.readLine()) {
            assertTrue(line != null, "the reply ended before its event");
          }
        } // the client has its reply's last event and leaves
        HttpResponse<String> next = CLIENT.send(post(relay.baseUrl() + "/chat/completions", CHAT),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, next.statusCode(), next.body());
      }
      List<ScriptedModelServer.Timing> t = server.timings().stream()
          .sorted(java.util.Comparator.comparing(ScriptedModelServer.Timing::arrived)).toList();
      assertEquals(List.of("/v1/last", "/v1/chat/completions"), t.stream().map(ScriptedModelServer.Timing::path)
          .toList());
      ScriptedModelServer.Timing first = t.get(0);
      ScriptedModelServer.Timing second = t.get(1);
      assertTrue(second.arrived().isBefore(first.ended()), "the next call came before the endpoint ended the stream: "
          + t);
      assertTrue(first.end().isBefore(second.arrived()), "and after the last write of its reply: " + t);
      List<Map<String, Object>> calls = new ArrayList<>();
      for (String line : Files.readAllLines(log)) calls.add(Json.readMap(line));
      assertEquals(2, calls.size(), calls.toString());
      Map<String, Object> left = calls.get(0).get("path").equals("/v1/last") ? calls.get(0) : calls.get(1);
      Map<String, Object> other = left == calls.get(0) ? calls.get(1) : calls.get(0);
      assertTrue(!java.time.Instant.parse((String) other.get("sent")).isBefore(java.time.Instant.parse(
          (String) left.get("done"))), "the relay held one call at a time: " + calls);
      assertEquals(200, ((Number) left.get("status")).intValue(), left.toString());
      assertNull(left.get("dropped"), "a client that leaves once it has its reply cut nothing it wanted: " + left);
      assertEquals(5, ((Number) left.get("tokens")).intValue(), left.toString());
      assertEquals(1, EndpointLimits.freeSlots(e));
    }
  }

  /** An endpoint that breaks off its reply: the CLI sees the reply end early, and the call log says why. */
  @Test
  void aReplyTheEndpointBreaksOffIsRecordedAsSuchAndFreesItsSlot() throws Exception {
    // a model's server that falls over mid-reply: one event, then its connection is gone
    try (java.net.ServerSocket model = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> {
        try (java.net.Socket s = model.accept()) {
          BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
          while (!in.readLine().isEmpty()) {
            // the request's head; its body is not needed
          }
          String event = "data: {\"usage\": {\"prompt_tokens\": 4, \"completion_tokens\": 2}}\n\n";
          s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(event.length()) + "\r\n" + event
              + "\r\n").getBytes(StandardCharsets.UTF_8));
          s.getOutputStream().flush();
        } catch (java.io.IOException e) {
          // the test fails on what the relay saw
        }
      });
      server.start();
      Endpoint e = new Endpoint("broken", "http://127.0.0.1:" + model.getLocalPort() + "/v1", "", 1, 30, 1, 0, 0, 0,
          0);
      Path log = Files.createTempDirectory("relay").resolve("calls.jsonl");
      try (EndpointProxy relay = EndpointProxy.open(e, log)) {
        HttpResponse<InputStream> reply = CLIENT.send(post(relay.baseUrl() + "/chat/completions", "{}"),
            HttpResponse.BodyHandlers.ofInputStream());
        assertThrows(java.io.IOException.class, () -> reply.body().readAllBytes(), "the reply ends early");
      }
      server.join(10_000);
      assertEquals(1, EndpointLimits.freeSlots(e));
      Map<String, Object> line = Json.readMap(Files.readAllLines(log).get(0));
      assertEquals("the endpoint's reply broke off", line.get("dropped"), line.toString());
      assertEquals(6, ((Number) line.get("tokens")).intValue(), "charged what it reported before the break");
    }
  }

  private static void awaitRequests(ScriptedModelServer server, int n) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (server.requests().size() < n) {
      assertTrue(System.nanoTime() < deadline, "the endpoint got " + server.requests().size() + " of " + n);
      Thread.sleep(10);
    }
  }

  /** Waits until the endpoint has {@code waiting} calls waiting and {@code sending} sent in this JVM. */
  static void awaitLoad(String endpoint, int waiting, int sending) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!java.util.Arrays.equals(new int[] {waiting, sending}, inFlight(endpoint))) {
      assertTrue(System.nanoTime() < deadline, endpoint + ": " + java.util.Arrays.toString(
          inFlight(endpoint)) + ", not " + waiting + " waiting and " + sending + " sending");
      Thread.sleep(10);
    }
  }

  /** The endpoint's calls waiting and sending in this JVM now. */
  static int[] inFlight(String endpoint) {
    EndpointLoad.Counts c = EndpointLoad.now().get(endpoint);
    return c == null ? null : new int[] {c.waiting(), c.sending()};
  }
}
