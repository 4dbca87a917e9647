package dev.h2beam.adapters.llm;

import static dev.h2beam.adapters.llm.EndpointProxyTest.awaitLoad;
import static dev.h2beam.adapters.llm.EndpointProxyTest.inFlight;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Tokens;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing a relay while its calls hang, over real loopback sockets: an endpoint that took a request and never
 * answers, one that stalls mid-stream, a request still waiting for the endpoint's one slot, and a relay thread that
 * close() cannot reach. close() returns every time; the CLI's connections end; and each call is recorded as cut or
 * dropped, never as a complete call, so that its run's spend is not taken for all of it.
 */
class EndpointProxyCloseTest {
  private static final String CHAT = "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";
  /** A bound on close() that only a hang exceeds: its own wait for its threads is 10 s. */
  private static final Duration LIVENESS = Duration.ofSeconds(60);

  /**
   * An endpoint that reads the request and sends nothing: close() interrupts the call where it waits for the reply's
   * head, in time (no warning that a call outlived the wait), and the CLI's connection ends with no byte of a reply.
   * The call is recorded as sent and cut when the run ended: no status, no tokens, so its cost is not known (it may
   * have been billed); it no longer holds its slot, and neither the key nor the token is in its record.
   */
  @Test
  void aCallTheEndpointNeverAnswersIsCutAtCloseAndRecordedAsSentUnansweredAndNotPriced() throws Exception {
    String key = "sk-close-key-0123456789abcdefghij";
    try (HangingEndpoint model = new HangingEndpoint(new byte[0])) {
      Endpoint e = new Endpoint("close-silent", model.baseUrl(), "H2B_CLOSE_KEY", 2, 120, 1, 1.0, 2.0);
      Path log = Files.createTempDirectory("relay-close").resolve("calls.jsonl");
      EndpointProxy relay = EndpointProxy.open(e, log, Map.of("H2B_CLOSE_KEY", key));
      try (Socket client = request(relay, "/chat/completions", relay.token())) {
        model.awaitRequests(1);
        assertArrayEquals(new int[] {0, 1}, inFlight("close-silent"), "the call is sent and waits for its reply");
        String err = stderrOf(() -> assertTimeoutPreemptively(LIVENESS, relay::close));
        assertFalse(err.contains("did not end within"), err);
        Reply reply = readToEnd(client);
        assertEquals("", reply.text(), "the CLI got no byte of a reply");
        assertNull(reply.failure(), "its connection was closed, not reset");
      }
      assertTrue(model.heads().get(0).contains("Bearer " + key), "the endpoint got the key");
      assertEquals(2, EndpointLimits.freeSlots(e), "the cut call gave its slot back");
      assertArrayEquals(new int[] {0, 0}, inFlight("close-silent"));
      List<Map<String, Object>> calls = logged(relay.calls());
      assertEquals(1, calls.size(), calls.toString());
      Map<String, Object> cut = calls.get(0);
      assertEquals("POST /v1/chat/completions", cut.get("method") + " " + cut.get("path"), cut.toString());
      assertNotNull(cut.get("sent"), cut.toString());
      assertNull(cut.get("status"), cut.toString());
      assertNull(cut.get("tokens"), cut.toString());
      assertNull(cut.get("connected"), "it was connected: it may have been billed: " + cut);
      assertEquals("the run ended", cut.get("dropped"), cut.toString());
      assertFalse(ModelCall.priced(cut), cut.toString());
      EndpointProxy.Spend spend = EndpointProxy.Spend.of(e, calls);
      assertEquals(new EndpointProxy.Spend(0.0, false, Tokens.UNKNOWN), spend, "the $0 is not all it cost");
      String text = Files.readString(log);
      assertEquals(List.of(cut), readLog(log), "the call log has the same record, once");
      assertFalse(text.contains(key) || text.contains(relay.token()), text);
    }
  }

  /**
   * An endpoint that streams a few events and stalls without reporting its usage (a Chat Completions stream reports
   * it only in its last chunk): close() cuts the reply, and the CLI's connection ends with the events that came and
   * without the chunked body's end, so the CLI cannot take the reply for whole. The call is recorded answered (200)
   * and cut when the run ended, with no tokens, so its cost is not known.
   */
  @Test
  void aStreamThatStallsBeforeItsUsageIsCutAtCloseAndItsCostIsNotKnown() throws Exception {
    byte[] events = sse("data: {\"choices\": [{\"delta\": {\"content\": \"a\"}}], \"usage\": null}\n\n",
        "data: {\"choices\": [{\"delta\": {\"content\": \"b\"}}], \"usage\": null}\n\n");
    try (HangingEndpoint model = new HangingEndpoint(events)) {
      Endpoint e = new Endpoint("close-stall", model.baseUrl(), "", 1, 120, 1, 1.0, 2.0, 0, 1_000);
      Path log = Files.createTempDirectory("relay-close").resolve("calls.jsonl");
      EndpointProxy relay = EndpointProxy.open(e, log);
      try (Socket client = request(relay, "/chat/completions", null)) {
        String seen = readUntil(client.getInputStream(), "\"b\"");
        assertTrue(seen.startsWith("HTTP/1.1 200"), seen);
        assertArrayEquals(new int[] {0, 1}, inFlight("close-stall"), "the stalled reply is still sending");
        assertTimeoutPreemptively(LIVENESS, relay::close);
        Reply rest = readToEnd(client);
        assertNull(rest.failure(), "its connection was closed, not reset");
        assertFalse((seen + rest.text()).contains("\r\n0\r\n\r\n"), "the chunked body never ended: " + rest.text());
      }
      assertEquals(1, EndpointLimits.freeSlots(e), "the cut reply gave its slot back");
      assertArrayEquals(new int[] {0, 0}, inFlight("close-stall"));
      assertEquals(0, RateWindow.of(e).tokensInWindow(System.nanoTime()), "nothing reported, nothing charged");
      List<Map<String, Object>> calls = logged(relay.calls());
      assertEquals(List.of(calls.get(0)), readLog(log));
      Map<String, Object> cut = calls.get(0);
      assertEquals(200, cut.get("status"), cut.toString());
      assertEquals("the run ended", cut.get("dropped"), cut.toString());
      assertTrue(cut.get("tokens") == null && cut.get("input_tokens") == null && cut.get("output_tokens") == null,
          cut.toString());
      assertFalse(ModelCall.priced(cut), "a success without its usage may have been billed: " + cut);
      assertEquals(new EndpointProxy.Spend(0.0, false, Tokens.UNKNOWN), EndpointProxy.Spend.of(e, calls));
    }
  }

  /**
   * An endpoint whose stream reports its usage as it goes (a server's running usage in every chunk) and then stalls:
   * close() cuts it, and the call keeps the last usage it saw, charged to the token window and recorded with the cut.
   * By {@link ModelCall#priced} (a success that reported both sides is priced; a stream's last usage is its whole) the
   * call's cost then counts as known: what this test pins is that the tokens seen are neither lost nor doubled.
   */
  @Test
  void aStreamThatStallsAfterReportingItsUsageIsCutAtCloseAndKeepsTheTokensItReported() throws Exception {
    byte[] events = sse("data: {\"choices\": [{\"delta\": {\"content\": \"a\"}}], \"usage\": {\"prompt_tokens\": 9,"
        + " \"completion_tokens\": 1}}\n\n", "data: {\"choices\": [{\"delta\": {\"content\": \"b\"}}], \"usage\":"
        + " {\"prompt_tokens\": 9, \"completion_tokens\": 2}}\n\n");
    try (HangingEndpoint model = new HangingEndpoint(events)) {
      Endpoint e = new Endpoint("close-usage", model.baseUrl(), "", 1, 120, 1, 1.0, 2.0, 0, 1_000);
      Path log = Files.createTempDirectory("relay-close").resolve("calls.jsonl");
      EndpointProxy relay = EndpointProxy.open(e, log);
      try (Socket client = request(relay, "/chat/completions", null)) {
        readUntil(client.getInputStream(), "\"completion_tokens\": 2");
        assertTimeoutPreemptively(LIVENESS, relay::close);
        assertNull(readToEnd(client).failure());
      }
      assertEquals(1, EndpointLimits.freeSlots(e));
      assertEquals(11, RateWindow.of(e).tokensInWindow(System.nanoTime()), "charged the last usage, once");
      List<Map<String, Object>> calls = logged(relay.calls());
      assertEquals(List.of(calls.get(0)), readLog(log));
      Map<String, Object> cut = calls.get(0);
      assertEquals("the run ended", cut.get("dropped"), cut.toString());
      assertEquals(List.of(200, 11, 9, 2), List.of(cut.get("status"), cut.get("tokens"), cut.get("input_tokens"),
          cut.get("output_tokens")), cut.toString());
      EndpointProxy.Spend spend = EndpointProxy.Spend.of(e, calls);
      assertEquals(new Tokens(9, 2, true), spend.tokens(), spend.toString());
      assertEquals(e.cost(9, 2), spend.usd(), 1e-15);
    }
  }

  /**
   * With the endpoint's one slot held by a call the endpoint never answers, a second call waits for the slot; close()
   * drops it unsent: the endpoint never receives it, it is recorded as never sent (so it costs a known nothing), both
   * CLI connections end, and the slot is back.
   */
  @Test
  void aCallWaitingForTheSlotAtCloseIsDroppedUnsentAndTheEndpointNeverGetsIt() throws Exception {
    try (HangingEndpoint model = new HangingEndpoint(new byte[0])) {
      Endpoint e = new Endpoint("close-queued", model.baseUrl(), "", 1, 120, 1, 1.0, 2.0);
      Path log = Files.createTempDirectory("relay-close").resolve("calls.jsonl");
      EndpointProxy relay = EndpointProxy.open(e, log);
      try (Socket ahead = request(relay, "/chat/completions", null)) {
        model.awaitRequests(1);
        try (Socket queued = request(relay, "/responses", null)) {
          awaitLoad("close-queued", 1, 1);
          assertEquals(0, EndpointLimits.freeSlots(e), "the call ahead holds the one slot");
          assertTimeoutPreemptively(LIVENESS, relay::close);
          assertEquals(new Reply("", null), readToEnd(queued), "the dropped call's client got no reply");
        }
        assertEquals(new Reply("", null), readToEnd(ahead));
      }
      Thread.sleep(300); // anything the relay still sent would reach the endpoint by now
      assertEquals(1, model.heads().size(), "only the call ahead reached the endpoint: " + model.heads());
      assertTrue(model.heads().get(0).startsWith("POST /v1/chat/completions "), model.heads().toString());
      assertEquals(1, EndpointLimits.freeSlots(e), "the slot is back");
      assertArrayEquals(new int[] {0, 0}, inFlight("close-queued"));
      List<Map<String, Object>> calls = logged(relay.calls());
      assertEquals(2, calls.size(), calls.toString());
      assertTrue(readLog(log).containsAll(calls) && readLog(log).size() == 2, "the log has both: " + readLog(log));
      Map<String, Object> queued = calls.stream().filter(c -> "/v1/responses".equals(c.get("path"))).findFirst()
          .orElseThrow();
      assertTrue(queued.get("sent") == null && queued.get("held_s") == null && queued.get("status") == null,
          queued.toString());
      assertEquals("the run ended", queued.get("dropped"), queued.toString());
      assertTrue(ModelCall.priced(queued), "never sent: a known nothing");
      Map<String, Object> cut = calls.get(calls.indexOf(queued) == 0 ? 1 : 0);
      assertTrue(cut.get("sent") != null && "the run ended".equals(cut.get("dropped")), cut.toString());
      assertFalse(EndpointProxy.Spend.of(e, calls).known(), "the call ahead was sent and cut: not known");
    }
  }

  /**
   * A relay thread that close() cannot reach: the call log is a pipe no one reads yet (a file system that hangs), so
   * the thread recording an answered call blocks where no interrupt ends it. close() still returns, after its 10 s
   * wait, saying which endpoint's call did not end; the call is in {@link EndpointProxy#calls} already; and once the
   * log can be written, the thread writes the call's line whole: close()'s interrupt does not cost the log its line.
   * (Every path of a call to the endpoint or the CLI ends on close() at once: no hanging socket reaches this wait.)
   */
  @Test
  void aRelayThreadCloseCannotReachHoldsCloseForItsTenSecondsOnlyAndItsCallKeepsItsLine() throws Exception {
    Path dir = Files.createTempDirectory("relay-close");
    Path log = dir.resolve("calls.jsonl");
    Process mkfifo;
    try {
      mkfifo = new ProcessBuilder("mkfifo", log.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      mkfifo = null;
    }
    assumeTrue(mkfifo != null && mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0,
        "this test needs mkfifo");
    try (ScriptedModelServer server = ScriptedModelServer.start(ScriptedModelServer.Brain.saying("x"))) {
      Endpoint e = new Endpoint("close-stuck", server.baseUrl(), "", 1, 30, 1, 0, 0);
      EndpointProxy relay = EndpointProxy.open(e, log);
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> r = client.send(EndpointProxyTest.post(relay.baseUrl() + "/chat/completions", CHAT),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (relay.calls().isEmpty()) { // kept, and its line next: the thread now waits to open the log
        assertTrue(System.nanoTime() < deadline, "the call was never recorded");
        Thread.sleep(10);
      }
      long start = System.nanoTime();
      String err = stderrOf(() -> assertTimeoutPreemptively(LIVENESS, relay::close));
      double took = (System.nanoTime() - start) / 1e9;
      assertTrue(took >= 9.5, "close() waited its 10 s for the stuck thread, took " + took + " s");
      assertTrue(err.contains("h2beam: a call through the relay of endpoint close-stuck did not end within 10 s"),
          err);
      assertEquals(1, relay.calls().size(), relay.calls().toString());
      assertEquals(200, relay.calls().get(0).get("status"));
      String[] written = new String[1];
      String late = stderrOf(() -> {
        written[0] = readPipe(log);
        Thread.sleep(200); // a write that failed says so as its thread ends
      });
      assertFalse(late.contains("could not record"), late);
      assertTrue(written[0].startsWith("{"), "the call log holds " + written[0]);
      assertEquals(logged(relay.calls()), List.of(Json.readMap(written[0].strip())), written[0]);
    }
  }

  /** The SSE events as an HTTP/1.1 200 event stream, each its own chunk, the body left open. */
  private static byte[] sse(String... events) {
    StringBuilder b = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n");
    for (String ev : events) {
      b.append(Integer.toHexString(ev.getBytes(StandardCharsets.UTF_8).length)).append("\r\n").append(ev)
          .append("\r\n");
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A CLI's call to {@code path} under the relay's base URL on a raw connection, with the run's token if any. */
  private static Socket request(EndpointProxy relay, String path, String token) throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), java.net.URI.create(relay.baseUrl()).getPort());
    s.setSoTimeout(30_000);
    byte[] body = CHAT.getBytes(StandardCharsets.UTF_8);
    String head = "POST " + java.net.URI.create(relay.baseUrl()).getPath() + path + " HTTP/1.1\r\nHost: relay\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n"
        + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n";
    s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
    s.getOutputStream().write(body);
    s.getOutputStream().flush();
    return s;
  }

  /** What a CLI read until its connection ended, and the failure that ended it (null: the relay closed it). */
  private record Reply(String text, String failure) {}

  private static Reply readToEnd(Socket s) {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    try {
      for (int n; (n = s.getInputStream().read(buf)) >= 0; ) got.write(buf, 0, n);
      return new Reply(got.toString(StandardCharsets.UTF_8), null);
    } catch (IOException e) {
      // a read timeout is a hang: it fails the test as a failure named here
      return new Reply(got.toString(StandardCharsets.UTF_8), e.toString());
    }
  }

  /** Reads until {@code marker} has come; what came. */
  private static String readUntil(InputStream in, String marker) throws IOException {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    while (!got.toString(StandardCharsets.UTF_8).contains(marker)) {
      int n = in.read(buf);
      assertTrue(n >= 0, "the reply ended before " + marker + ": " + got);
      got.write(buf, 0, n);
    }
    return got.toString(StandardCharsets.UTF_8);
  }

  private static List<Map<String, Object>> readLog(Path log) throws IOException {
    List<Map<String, Object>> lines = new ArrayList<>();
    for (String l : Files.readAllLines(log)) lines.add(Json.readMap(l));
    return lines;
  }

  /** The records as a call log has them (its counts read back as JSON numbers), to compare with one. */
  private static List<Map<String, Object>> logged(List<Map<String, Object>> calls) throws IOException {
    List<Map<String, Object>> lines = new ArrayList<>();
    for (Map<String, Object> c : calls) lines.add(Json.readMap(ModelCall.jsonLine(c)));
    return lines;
  }

  /** What the writer of the pipe {@code log} wrote until it closed it; a note when none came within 30 s. */
  private static String readPipe(Path log) throws Exception {
    CompletableFuture<String> reader = CompletableFuture.supplyAsync(() -> {
      try (InputStream in = new FileInputStream(log.toFile())) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        for (int n; (n = in.read(buf)) >= 0; ) got.write(buf, 0, n); // a pipe: no readAllBytes, which seeks
        return got.toString(StandardCharsets.UTF_8);
      } catch (IOException x) {
        return "unreadable: " + x;
      }
    });
    try {
      return reader.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException x) {
      new FileOutputStream(log.toFile()).close(); // no writer came: the reader is let go
      return "nothing: the stuck thread never wrote";
    }
  }

  /** Code that may throw, run by {@link #stderrOf}. */
  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  /** What {@code r} printed to System.err while it ran. */
  private static String stderrOf(Body r) throws Exception {
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream before = System.err;
    System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
    try {
      r.run();
    } finally {
      System.setErr(before);
    }
    return said.toString(StandardCharsets.UTF_8);
  }

  /**
   * A model endpoint on a raw loopback socket that reads each request's head, sends {@code reply} (nothing, or the
   * start of a reply) and then nothing more, holding the connection open until it is closed.
   */
  private static final class HangingEndpoint implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final byte[] reply;

    HangingEndpoint(byte[] reply) throws IOException {
      this.reply = reply;
      Thread t = new Thread(this::accept, "hanging-endpoint");
      t.setDaemon(true);
      t.start();
    }

    String baseUrl() {
      return "http://127.0.0.1:" + listener.getLocalPort() + "/v1";
    }

    /** The head of each request it got (request line and headers), in the order they came. */
    List<String> heads() {
      return List.copyOf(heads);
    }

    void awaitRequests(int n) throws InterruptedException {
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (heads.size() < n) {
        assertTrue(System.nanoTime() < deadline, "the endpoint got " + heads.size() + " of " + n + " requests");
        Thread.sleep(10);
      }
    }

    private void accept() {
      while (true) {
        Socket s;
        try {
          s = listener.accept();
        } catch (IOException e) {
          return; // closed
        }
        sockets.add(s);
        Thread t = new Thread(() -> serve(s), "hanging-endpoint-connection");
        t.setDaemon(true);
        t.start();
      }
    }

    private void serve(Socket s) {
      try {
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          int b = in.read();
          if (b < 0) return;
          head.write(b);
        }
        heads.add(head.toString(StandardCharsets.ISO_8859_1));
        s.getOutputStream().write(reply);
        s.getOutputStream().flush();
        while (in.read() >= 0) {
          // the body, then nothing until the relay gives up the connection: no byte more is sent
        }
      } catch (IOException e) {
        // the relay cut the connection, or the test closed it
      }
    }

    @Override public void close() throws IOException {
      listener.close();
      for (Socket s : sockets) s.close();
    }
  }
}
