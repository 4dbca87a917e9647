package dev.h2beam.adapters.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 (a free port) that behaves like a model, for tests of everything
 * that talks to one. Shared with other modules' tests through the adapters test-jar.
 *
 * <ul>
 *   <li>Answers come from a {@link Brain}: the request's JSON in, the assistant's text out, so answers depend on
 *       what was sent. Every successful chat response carries {@code usage} computed from the sizes: prompt tokens =
 *       ⌈characters of all messages / 4⌉, completion tokens = ⌈characters of the answer / 4⌉, cached tokens =
 *       ⌊characters of the system messages / 4⌋ (as if the system prompt were cached), reasoning tokens = 0.
 *   <li>Every request is recorded: method, path, parsed JSON body, whether an {@code Authorization} header came. The
 *       header's value is kept in memory only, for tests that must check the key was sent; it is never printed.
 *   <li>Faults are scripted for the next requests, one per request in order ({@link #next}): a status with an optional
 *       {@code Retry-After}, a malformed body, a slow reply, empty content, a reply without usage, a dropped
 *       connection.
 *   <li>It is a router: {@code POST /v1/chat/completions} is built in and {@link #route} adds or replaces a path, so
 *       streaming endpoints (SSE chat completions, the Responses API) can be added beside it.
 *   <li>A brain or route that throws is a bug of the test, not a fault it scripted: the request gets no reply (the
 *       connection closes, as for {@link Fault#drop}, and the client records an attempt sent and unanswered), and the
 *       server says so on stderr and in {@link #failures}. The JDK's server would log it only at TRACE, leaving a
 *       retried call that looks like a transport event.
 *   <li>It keeps its own timeline of every request ({@link #timings}): when it came, when the last write of its reply
 *       began, and when the server was done with it.
 * </ul>
 */
public final class ScriptedModelServer implements AutoCloseable {

  /** Thinks of the assistant's reply to one chat request. */
  @FunctionalInterface
  public interface Brain {
    String answer(JsonNode request) throws InterruptedException;

    /** The same text for every request. */
    static Brain saying(String text) {
      return request -> text;
    }

    /** The given replies in turn, then the last one again. */
    static Brain inTurn(String... replies) {
      List<String> all = List.of(replies);
      AtomicInteger next = new AtomicInteger();
      return request -> all.get(Math.min(next.getAndIncrement(), all.size() - 1));
    }
  }

  /** Serves the requests of one path. The fault scripted for this request (or null) is the route's to act on. */
  @FunctionalInterface
  public interface Route {
    void handle(Call call) throws IOException, InterruptedException;
  }

  /**
   * The {@code total_tokens} a successful chat response to {@code request} with content {@code text} reports: prompt
   * tokens plus completion tokens, as in the class comment. For tests that bound what the replies reported.
   */
  public static long totalTokens(JsonNode request, String text) {
    return promptTokens(request) + (text.length() + 3) / 4;
  }

  private static long promptTokens(JsonNode request) {
    return (chars(request, null) + 3) / 4;
  }

  /** The characters of the messages' contents, of every message ({@code role} null) or those with {@code role}. */
  private static long chars(JsonNode request, String role) {
    long n = 0;
    for (JsonNode m : request.path("messages")) {
      if (role == null || role.equals(m.path("role").asText())) n += m.path("content").asText("").length();
    }
    return n;
  }

  /** One recorded request. {@code authorization} is the header's value (null when absent); toString hides it. */
  public record Request(String method, String path, JsonNode body, String rawBody, String authorization) {
    public boolean authorized() {
      return authorization != null;
    }

    /** The content of the last message with role {@code role}, or "" when there is none. */
    public String lastMessage(String role) {
      String out = "";
      for (JsonNode m : body.path("messages")) if (role.equals(m.path("role").asText())) out = m.path("content").asText();
      return out;
    }

    @Override public String toString() {
      return "Request[" + method + " " + path + ", authorized=" + authorized() + ", body=" + rawBody.length()
          + " chars]";
    }
  }

  /**
   * One request as the server's own timeline has it ({@link #timings}).
   *
   * @param method the request's method
   * @param path the request's path
   * @param request the request, or null when its body could not be read
   * @param arrived when the server took the request, before reading its body
   * @param answered when the route began its answer ({@link Call#beginResponse}), or null
   * @param lastWrite when the last write to the reply's body began, or null when nothing was written to it
   * @param closing when the server began to close the exchange, after the route returned
   * @param ended when the exchange was closed
   */
  public record Timing(String method, String path, Request request, Instant arrived, Instant answered,
      Instant lastWrite, Instant closing, Instant ended) {

    /**
     * The last instant the server noted before a client could see the reply whole: the start of the reply's last
     * write, else (a reply without a body) when the route began its answer, else (none: the connection was closed)
     * when the exchange began to close. A client sees its reply end only through that write (its last event, or its
     * last bytes) or what follows it, so a client that takes its next call once it has seen the end never has that
     * call arrive before this instant; what the server notes after it (the stream's last chunk, the route's return)
     * may come after the client already saw the end and sent its next call.
     */
    public Instant end() {
      return lastWrite != null ? lastWrite : answered != null ? answered : closing;
    }
  }

  /** A scripted misbehaviour for one request. */
  public record Fault(Kind kind, int status, String retryAfter, Duration delay) {
    public enum Kind { STATUS, MALFORMED, SLOW, EMPTY_CONTENT, NO_USAGE, DROP }

    public Fault {
      Objects.requireNonNull(kind, "kind");
      delay = delay == null ? Duration.ZERO : delay;
    }

    /** An error status with a JSON error body, and {@code Retry-After} when not null. */
    public static Fault status(int status, String retryAfter) {
      return new Fault(Kind.STATUS, status, retryAfter, null);
    }

    public static Fault rateLimited(String retryAfter) {
      return status(429, retryAfter);
    }

    public static Fault serverError() {
      return status(500, null);
    }

    /** 200 with a body that is not JSON. */
    public static Fault malformed() {
      return new Fault(Kind.MALFORMED, 200, null, null);
    }

    /** A normal answer, sent only after {@code delay}. */
    public static Fault slow(Duration delay) {
      return new Fault(Kind.SLOW, 200, null, delay);
    }

    /** 200 with usage but an empty content. */
    public static Fault emptyContent() {
      return new Fault(Kind.EMPTY_CONTENT, 200, null, null);
    }

    /** A normal answer without a {@code usage} object. */
    public static Fault noUsage() {
      return new Fault(Kind.NO_USAGE, 200, null, null);
    }

    /** The connection is closed without a response. */
    public static Fault drop() {
      return new Fault(Kind.DROP, 0, null, null);
    }
  }

  /** A request being served: what came, the fault to act out (or null), and ways to answer. */
  public final class Call {
    private final HttpExchange exchange;
    private final Request request;
    private final Fault fault;
    private boolean answered;
    private volatile Instant answeredAt;

    Call(HttpExchange exchange, Request request, Fault fault) {
      this.exchange = exchange;
      this.request = request;
      this.fault = fault;
    }

    public Request request() {
      return request;
    }

    public Fault fault() {
      return fault;
    }

    /** The exchange itself, for routes that stream. Call {@link #beginResponse} before writing to it. */
    public HttpExchange exchange() {
      return exchange;
    }

    /** Marks this request answered (it stops counting as in flight); for routes that write the exchange directly. */
    public void beginResponse() {
      if (!answered) {
        answered = true;
        answeredAt = Instant.now();
        inFlight.decrementAndGet();
      }
    }

    public void sendJson(int status, String json) throws IOException {
      send(status, "application/json", json);
    }

    public void send(int status, String contentType, String text) throws IOException {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      beginResponse();
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  public static final String CHAT_PATH = "/v1/chat/completions";

  private final HttpServer server;
  private final ExecutorService threads;
  private final Map<String, Route> routes = new ConcurrentHashMap<>();
  private final List<Request> requests = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private final List<Timing> timings = new ArrayList<>();
  private final Deque<Fault> faults = new ArrayDeque<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private volatile Brain brain;
  private volatile Duration latency = Duration.ZERO;
  private volatile Function<JsonNode, String> modelId = request -> request.path("model").asText("");
  private volatile Predicate<Request> withoutUsage = request -> false;

  private ScriptedModelServer(Brain brain) throws IOException {
    this.brain = brain;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    this.threads = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "scripted-model");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(threads);
    server.createContext("/", this::dispatch);
    routes.put(CHAT_PATH, this::chat);
    server.start();
  }

  /** Starts a server answering with {@code brain}. */
  public static ScriptedModelServer start(Brain brain) throws IOException {
    // the JDK server writes headers and body apart: without TCP_NODELAY each small reply waits ~40 ms for a
    // delayed ACK, which measures the test double instead of h2beam (read once, before the first server starts)
    System.setProperty("sun.net.httpserver.nodelay", "true");
    return new ScriptedModelServer(brain);
  }

  /** A base URL like {@link #baseUrl()}'s on a loopback port where nothing listens (free a moment ago). */
  public static String unusedBaseUrl() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return "http://127.0.0.1:" + s.getLocalPort() + "/v1";
    }
  }

  /** {@code http://127.0.0.1:<port>/v1}, the base URL a configuration names. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port() + "/v1";
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public void brain(Brain b) {
    this.brain = b;
  }

  /**
   * Chat answers to the requests {@code which} picks carry no {@code usage}, as a server that reports none for some
   * models does (deterministic where {@link Fault#noUsage} depends on the order requests arrive in).
   */
  public void withoutUsage(Predicate<Request> which) {
    withoutUsage = which;
  }

  /** How long every chat answer takes before it is sent (faults aside); lets tests see calls overlap. */
  public void latency(Duration d) {
    this.latency = d;
  }

  /** How long every answer takes before it is sent. */
  public Duration latency() {
    return latency;
  }

  /** The model id the responses report; by default the requested model. */
  public void modelId(Function<JsonNode, String> id) {
    this.modelId = id;
  }

  /** Adds or replaces the route of a path such as {@code /v1/responses}. */
  public void route(String path, Route route) {
    routes.put(path, route);
  }

  /** The route serving a path now, or null: a route that replaces it can hand it the requests it does not serve. */
  public Route routeOf(String path) {
    return routes.get(path);
  }

  /** Scripts faults for the next requests, one each, in order; later requests are served normally. */
  public synchronized void next(Fault... scripted) {
    faults.addAll(Arrays.asList(scripted));
  }

  public synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  /**
   * What the brain or a route threw while serving a request, in order, each as
   * {@code "<method> <path>: <exception>"}; each such request got no reply. Tests whose model must never fail assert
   * this is empty.
   */
  public synchronized List<String> failures() {
    return List.copyOf(failures);
  }

  /** Every request the server has been done with, in the order it was done with them ({@link Timing}). */
  public synchronized List<Timing> timings() {
    return List.copyOf(timings);
  }

  /** The most requests that were being served at once. */
  public int maxInFlight() {
    return maxInFlight.get();
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    Instant arrived = Instant.now();
    // every write to the reply goes through this one, which notes when the last began (the JDK's exchange hands out
    // the stream set here; its own stream still carries the bytes)
    TimedBody reply = new TimedBody(exchange.getResponseBody());
    exchange.setStreams(null, reply);
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    Call call = null;
    try {
      String raw = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      JsonNode body;
      try {
        body = raw.isEmpty() ? Json.MAPPER.createObjectNode() : Json.MAPPER.readTree(raw);
      } catch (IOException e) {
        body = Json.MAPPER.createObjectNode();
      }
      Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), body, raw,
          exchange.getRequestHeaders().getFirst("Authorization"));
      Fault fault;
      synchronized (this) {
        requests.add(request);
        fault = faults.pollFirst();
      }
      call = new Call(exchange, request, fault);
      Route route = routes.get(request.path());
      if (route == null) {
        call.sendJson(404, error("no route for " + request.path() + "; known: " + routes.keySet()));
      } else if (!actOutCommon(call)) {
        route.handle(call);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // the request gets no reply all the same (the exchange closes unanswered); said, not lost at the JDK's TRACE
      String what = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + ": " + e;
      synchronized (this) {
        failures.add(what);
      }
      System.err.println("ScriptedModelServer: " + what + "; the request gets no reply (the connection closes)");
      e.printStackTrace();
    } finally {
      Instant answered = call == null ? null : call.answeredAt;
      if (call != null) call.beginResponse();
      else inFlight.decrementAndGet();
      Instant closing = Instant.now();
      exchange.close();
      Timing t = new Timing(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
          call == null ? null : call.request(), arrived, answered, reply.lastWrite, closing, Instant.now());
      synchronized (this) {
        timings.add(t);
      }
    }
  }

  /** A reply's body that notes when its last write began, and passes everything on unchanged. */
  private static final class TimedBody extends OutputStream {
    private final OutputStream out;
    volatile Instant lastWrite;

    TimedBody(OutputStream out) {
      this.out = out;
    }

    @Override public void write(int b) throws IOException {
      lastWrite = Instant.now();
      out.write(b);
    }

    @Override public void write(byte[] b, int off, int len) throws IOException {
      if (len > 0) lastWrite = Instant.now();
      out.write(b, off, len);
    }

    @Override public void flush() throws IOException {
      out.flush();
    }

    @Override public void close() throws IOException {
      out.close();
    }
  }

  /** Faults every route shares: an error status and a dropped connection. True when the request is done. */
  private boolean actOutCommon(Call call) throws IOException {
    Fault f = call.fault();
    if (f == null) return false;
    if (f.kind() == Fault.Kind.DROP) {
      // closing an exchange before its response headers closes the connection: the client reads no bytes
      call.beginResponse();
      call.exchange().close();
      return true;
    }
    if (f.kind() == Fault.Kind.STATUS) {
      if (f.retryAfter() != null) call.exchange().getResponseHeaders().set("Retry-After", f.retryAfter());
      call.sendJson(f.status(), error("scripted status " + f.status()));
      return true;
    }
    return false;
  }

  private void chat(Call call) throws IOException, InterruptedException {
    Fault f = call.fault();
    Fault.Kind kind = f == null ? null : f.kind();
    if (kind == Fault.Kind.MALFORMED) {
      call.sendJson(200, "{\"choices\": [{\"message\": ");
      return;
    }
    Duration wait = kind == Fault.Kind.SLOW ? f.delay() : latency;
    if (!wait.isZero()) Thread.sleep(wait.toMillis());
    JsonNode req = call.request().body();
    String text = kind == Fault.Kind.EMPTY_CONTENT ? "" : brain.answer(req);
    ObjectNode out = Json.MAPPER.createObjectNode();
    out.put("id", "chatcmpl-" + requests().size());
    out.put("object", "chat.completion");
    out.put("created", 0);
    out.put("model", modelId.apply(req));
    ObjectNode choice = out.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", text);
    choice.put("finish_reason", "stop");
    if (kind != Fault.Kind.NO_USAGE && !withoutUsage.test(call.request())) {
      long prompt = promptTokens(req);
      long completion = (text.length() + 3) / 4;
      ObjectNode usage = out.putObject("usage");
      usage.put("prompt_tokens", prompt);
      usage.put("completion_tokens", completion);
      usage.put("total_tokens", prompt + completion);
      usage.putObject("prompt_tokens_details").put("cached_tokens", chars(req, "system") / 4);
      usage.putObject("completion_tokens_details").put("reasoning_tokens", 0);
    }
    call.sendJson(200, Json.MAPPER.writeValueAsString(out));
  }

  private static String error(String message) {
    ObjectNode e = Json.MAPPER.createObjectNode();
    e.putObject("error").put("message", message).put("type", "scripted");
    return e.toString();
  }

  @Override public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
