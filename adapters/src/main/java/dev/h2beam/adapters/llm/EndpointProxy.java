package dev.h2beam.adapters.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.model.Tokens;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A loopback relay between one agent CLI run and its endpoint that holds the endpoint's limits for every HTTP call the
 * CLI makes. An agent CLI (OpenCode, Codex) calls the model itself, so h2beam cannot wrap its calls the way
 * {@link ChatClient} wraps its own; instead the CLI is given this relay's address as its base URL, and each request
 * it sends takes one of the endpoint's {@link EndpointSlots} (its {@code max_concurrency} share in this worker) and
 * waits its turn in the endpoint's {@link RateWindow} (its {@code requests_per_minute} share) before it is sent on; the
 * slot is held until the reply's last byte, or until the CLI leaves having read what it wants (Codex closes its
 * connection at a Responses stream's {@code response.completed}, before the stream's last chunk: the endpoint's server
 * may still be ending that stream when the slot's next call reaches it), and the tokens the reply reports (the
 * {@code usage} of a chat completion, of a Chat Completions stream's last chunk, or of a Responses stream's
 * {@code response.completed}) are charged to the {@code tokens_per_minute} share. These are the same slots and
 * windows the chat channel's calls take, so sessions, rollouts and judges on one endpoint share one limit, whichever
 * way they call it.
 *
 * <p>The relay holds the endpoint's key, so the CLI never has it: opened with the key ({@link #open(Endpoint, Path,
 * Map)}), it gives the CLI a {@link #token} of its own in the key's place, good for this relay only, and refuses a
 * request that does not carry it in a key header ({@code Authorization}, {@code api-key}, {@code x-api-key}). It puts
 * the key there and nowhere else (a request with the token in its target or another header is refused, as is one
 * outside the base URL's path: either would let a reply that echoes the request hand the agent the key), and takes the
 * key out of every reply. An agent told to print its environment, or a harness that asks it to, prints only the token,
 * which is worth nothing once the run ends. Otherwise the relay changes nothing in what passes: method, path, query,
 * headers and body go on as they came, and the reply comes back as it is streamed (flushed as it comes, a line at a
 * time when the relay holds a key), except that it asks the endpoint for an uncompressed reply so that the usage can be
 * read. It never logs or writes the key. The CLI's own retries each count as a request. A relay serves one run and is
 * closed with it: a request still waiting for a slot is then dropped, and a reply still streaming is cut, releasing its
 * slot. It reads the CLI's connections itself ({@link RelayWire}), so it also sees the CLI leave: a request whose
 * client left while it waited (the CLI's own timeout ran out, and it retries) is dropped unsent, and a reply whose
 * client left is cut.
 */
public final class EndpointProxy implements AutoCloseable {
  /** The name of a rollout's call log in its run folder, whichever executor made the calls. */
  public static final String CALL_LOG = "model_calls.jsonl";

  /**
   * What recorded calls ({@link #calls}, or a chat reply's) add up to at an endpoint's prices, by h2beam's one rule for
   * pricing calls: the amount is the price of the tokens counted ({@link #tokens}: each side a call reported, the
   * input and the output priced apart), and it is all the calls cost only when every call is priced. A call that
   * reported one side adds that side's price; what it cost beyond is not known, and marks the amount as the known
   * part, never the whole. So the amount and the tokens beside it are the same calls, and the amount never drops a
   * side that was reported.
   *
   * @param known whether {@code usd} is all they cost: the endpoint is free, or every call is priced (never sent, not
   *     a POST, or answered, and a success with its input and output tokens: {@link ModelCall#priced})
   * @param tokens the tokens the calls reported ({@link #tokens}): all of them only when every call is priced, else
   *     the part counted, whatever the endpoint's prices (a free endpoint's cost is known, its tokens may not be)
   */
  public record Spend(double usd, boolean known, Tokens tokens) {
    /** The calls' spend at {@code endpoint}'s prices. */
    public static Spend of(Endpoint endpoint, List<Map<String, Object>> calls) {
      // a call whose cost is not known has tokens that are not known either: the sums are then not the whole; when
      // every call's is known, a side no call reported was spent by none (no call, or none answered and billed).
      // Priced once, over the sums: whole numbers add up the same in any order (an agent's calls end in any), so the
      // amount is the same for the same calls
      Tokens t = tokens(calls);
      return new Spend(endpoint.cost(t.input(), t.output()), endpoint.free() || t.known(), t);
    }

    /**
     * The tokens the calls reported, added up: known when what every call cost is known from what it reported
     * (whatever the endpoint's prices: a free endpoint's tokens are still counted), else the part counted.
     */
    public static Tokens tokens(List<Map<String, Object>> calls) {
      long in = 0;
      long out = 0;
      boolean known = true;
      for (Map<String, Object> c : calls) {
        known &= ModelCall.priced(c);
        Long i = ModelCall.count(c, "input_tokens");
        Long o = ModelCall.count(c, "output_tokens");
        if (i != null) in += i;
        if (o != null) out += o;
      }
      return new Tokens(in, out, known);
    }
  }

  /**
   * What a run's calls through its relay came to, for the message of a run that failed or timed out: how many, and
   * their outcomes counted in the order first seen ({@code its 28 model calls: HTTP 500 x28}); it asks whether the
   * server is up only when no call got a reply from it.
   */
  public static String outcomes(List<Map<String, Object>> calls, Endpoint endpoint) {
    if (calls.isEmpty()) return "it made no model call";
    Map<String, Integer> counts = new LinkedHashMap<>();
    boolean answered = false;
    for (Map<String, Object> c : calls) {
      String outcome;
      if (c.get("status") instanceof Number n) {
        outcome = "HTTP " + n.intValue();
        answered = true;
      } else if (Boolean.FALSE.equals(c.get("connected"))) {
        outcome = "no connection";
      } else if (c.get("dropped") != null) {
        outcome = String.valueOf(c.get("dropped"));
      } else {
        outcome = "no reply";
      }
      counts.merge(outcome, 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((outcome, n) -> parts.add(outcome + " x" + n));
    return "its " + calls.size() + " model call" + (calls.size() == 1 ? "" : "s") + ": " + String.join(", ", parts)
        + (answered ? "" : " (is the model server at " + endpoint.baseUrl() + " up?)");
  }

  /** The largest request body relayed; an agent's whole conversation is far smaller. */
  static final int MAX_REQUEST_BYTES = 64 << 20;

  /** The longest reply line (or non-streamed reply) read for its usage; longer ones pass on unread. */
  static final int MAX_SCANNED_BYTES = 16 << 20;

  /** Headers that belong to one connection, or that the JDK's client sets itself, so are not relayed. */
  private static final Set<String> NOT_RELAYED = Set.of("host", "connection", "content-length", "expect", "upgrade",
      "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection", "proxy-authorization", "date", "via",
      "warning", "from", "accept-encoding");

  private final Endpoint endpoint;
  private final URI upstream;
  private final ServerSocket listener;
  /** The CLI's open connections, closed with the relay. */
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final ExecutorService threads;
  private final HttpClient http;
  /** The endpoint's slots and rate window in this JVM, which every relay and chat client of the endpoint shares. */
  private final Semaphore slots;
  private final RateWindow rate;
  private final EndpointLoad load;
  /** The endpoint's replies being relayed now: closing one ends a read blocked on it, which no interrupt does. */
  private final Set<InputStream> streaming = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  /** Where each call is recorded, one JSON line per call, or null. */
  private final Path callLog;
  /** Each call's record, in the order the calls ended. */
  private final List<Map<String, Object>> served = Collections.synchronizedList(new ArrayList<>());
  /** The calls taken and not yet recorded; each is recorded once, by its own thread or by {@link #close}. */
  private final Set<ModelCall> open = ConcurrentHashMap.newKeySet();

  /** The endpoint's key, put on each call where {@link #token} was; null: calls pass with what they carry. */
  private final String key;
  /** What the CLI has in the key's place; null without a key. */
  private final String token;

  /** The longest error reply read whole, to take out a key it echoes; the rest of a longer one is not sent on. */
  static final int MAX_ERROR_BYTES = 1 << 20;

  private EndpointProxy(Endpoint endpoint, Path callLog, String key) throws IOException {
    this.endpoint = endpoint;
    this.callLog = callLog;
    this.key = key == null || key.isBlank() ? null : key;
    this.token = this.key == null ? null : newToken();
    this.slots = EndpointSlots.of(endpoint);
    this.rate = RateWindow.of(endpoint);
    this.load = EndpointLoad.of(endpoint);
    this.upstream = URI.create(endpoint.baseUrl());
    if (upstream.getScheme() == null || upstream.getRawAuthority() == null) {
      throw new IllegalArgumentException("endpoints." + endpoint.name() + ".base_url " + endpoint.baseUrl()
          + " is not an absolute http(s) URL");
    }
    // a client of its own, not one shared by the JVM's relays (which would save ~4 ms a run): a shared client's
    // selector thread would live as long as the worker, pinning the class loader of the job that started it
    this.http = HttpClient.newBuilder()
        .version(upstream.getScheme().equals("http") ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
        .connectTimeout(Duration.ofSeconds(endpoint.timeoutSeconds()))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    this.threads = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "h2beam-endpoint-relay-" + endpoint.name());
      t.setDaemon(true);
      return t;
    });
    this.listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    threads.execute(this::accept);
  }

  /**
   * Starts a relay for one run, on a free loopback port. With a {@code callLog} (else null) it records each call there
   * (the file is created on the first call), one JSON line per call: when it arrived, when it was sent on (null if
   * never), when it gave its slot back (or, never sent, was dropped), the seconds it waited for its slot and rate turn
   * and held its slot, its method, path and status (null when it got no reply: the endpoint was not reached, or the
   * run ended first), the tokens its reply reported (null when none), and why it ended without its reply
   * ({@code the client left} while it waited, {@code the run ended}, {@code the endpoint's reply broke off},
   * {@code it did not carry its run's token}, {@code it carried its run's token outside a key header},
   * {@code its target is not under the endpoint's path}; else null).
   */
  public static EndpointProxy open(Endpoint endpoint, Path callLog) throws IOException {
    return new EndpointProxy(endpoint, callLog, null);
  }

  /**
   * As {@link #open(Endpoint, Path)}, holding the endpoint's key, read from its {@code api_key_env} in {@code env}:
   * give the CLI {@link #token} in the key variable instead of the key.
   */
  public static EndpointProxy open(Endpoint endpoint, Path callLog, Map<String, String> env) throws IOException {
    String var = endpoint.apiKeyEnv();
    return new EndpointProxy(endpoint, callLog, var.isEmpty() ? null : env.get(var));
  }

  /**
   * What the CLI is to have in the endpoint's key variable: a random token this relay alone accepts, and replaces with
   * the key on each call; null when the relay holds no key (the endpoint needs none, or it was opened without it).
   */
  public String token() {
    return token;
  }

  /** {@code env} with the key variable holding {@link #token} instead of the key; {@code env} itself without one. */
  public Map<String, String> withToken(Map<String, String> env) {
    if (token == null) return env;
    Map<String, String> out = new LinkedHashMap<>(env);
    out.put(endpoint.apiKeyEnv(), token);
    return out;
  }

  private static String newToken() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    StringBuilder hex = new StringBuilder("h2beam-relay-");
    for (byte x : b) hex.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    return hex.toString();
  }

  /**
   * The headers a key travels in (OpenAI's {@code Authorization: Bearer}, Azure's {@code api-key}, Anthropic's
   * {@code x-api-key}): the only places the relay puts it. Put wherever the token stood (a header of the agent's
   * choosing, the target's path or query), the key would come back to the agent in any reply that echoes the request.
   */
  private static final Set<String> KEY_HEADERS = Set.of("authorization", "api-key", "x-api-key");

  /** Whether the request carries this relay's token in a key header; always when it holds no key. */
  private boolean carriesToken(RelayWire.Request r) {
    if (token == null) return true;
    for (Map.Entry<String, String> h : r.headers()) {
      if (KEY_HEADERS.contains(h.getKey().toLowerCase(Locale.ROOT)) && h.getValue().contains(token)) return true;
    }
    return false;
  }

  /** Where else than a key header the request carries the token (its target, or a header named), or null. */
  private String tokenElsewhere(RelayWire.Request r) {
    if (token == null) return null;
    if (r.target().contains(token)) return "its target";
    for (Map.Entry<String, String> h : r.headers()) {
      if (!KEY_HEADERS.contains(h.getKey().toLowerCase(Locale.ROOT)) && h.getValue().contains(token)) {
        return "header " + h.getKey();
      }
    }
    return null;
  }

  /**
   * Whether {@code target} is under the endpoint's own path ({@code /v1} and below), with no dot segment and no
   * encoded dot, slash or backslash: the relay reaches nothing else on the endpoint's host with the key.
   */
  boolean underBase(String target) {
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String lower = path.toLowerCase(Locale.ROOT);
    if (!path.startsWith("/") || lower.contains("%2e") || lower.contains("%2f") || lower.contains("%5c")
        || path.contains("\\")) {
      return false;
    }
    for (String segment : path.split("/", -1)) if (segment.equals(".") || segment.equals("..")) return false;
    String base = basePath();
    return base.isEmpty() || path.equals(base) || path.startsWith(base + "/");
  }

  /** The endpoint's own path without a trailing slash: {@code /v1}, or empty for none. */
  private String basePath() {
    String base = upstream.getRawPath() == null ? "" : upstream.getRawPath();
    while (base.endsWith("/")) base = base.substring(0, base.length() - 1);
    return base;
  }

  /** {@code text} with the token replaced by the key, for the endpoint; unchanged when the relay holds no key. */
  private String keyed(String text) {
    return token == null ? text : text.replace(token, key);
  }

  /** The base URL to give the CLI: this relay's address with the endpoint's own path ({@code /v1} and the like). */
  public String baseUrl() {
    String path = upstream.getRawPath() == null ? "" : upstream.getRawPath();
    return "http://127.0.0.1:" + listener.getLocalPort() + path;
  }

  /**
   * The record of every call the relay served ({@link ModelCall#line}), in the order they ended; complete once the
   * relay is closed: {@link #close} waits for every call to end, and records one that outlives its wait as it stands
   * (cut, {@code still running when its run ended}).
   */
  public List<Map<String, Object>> calls() {
    synchronized (served) {
      return List.copyOf(served);
    }
  }

  /** The endpoint as the CLI is to see it: this relay's base URL, everything else the endpoint's own. */
  public Endpoint relayed() {
    return endpoint.at(baseUrl());
  }

  /** Takes the CLI's connections until the relay closes. */
  private void accept() {
    while (!closed) {
      Socket s;
      try {
        s = listener.accept();
      } catch (IOException e) {
        return; // the relay closed its listener
      }
      connections.add(s);
      try {
        threads.execute(() -> serve(s));
      } catch (RejectedExecutionException e) {
        connections.remove(s);
        closeQuietly(s);
      }
    }
  }

  /**
   * One connection of the CLI: its requests one after another, each relayed on a thread of its own while this one
   * reads the connection. A client that leaves while its call still waits for its turn (its own request timeout ran
   * out, and it will retry) has its call dropped, unsent: sent later, the call would be paid for and read by nobody,
   * and hold a slot the calls still wanted were waiting for.
   */
  private void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      InputStream in = new BufferedInputStream(s.getInputStream(), 16 << 10);
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 16 << 10);
      while (!closed) {
        RelayWire.Request request;
        try {
          request = RelayWire.read(in, out, MAX_REQUEST_BYTES);
        } catch (RelayWire.BadRequest e) {
          RelayWire.head(out, e.status, Map.of("Content-Type", List.of("application/json")), true, false);
          try (OutputStream body = new RelayWire.Chunked(out)) {
            body.write(errorBody(e.getMessage()));
          }
          return;
        }
        if (request == null) return;
        Relayed call = new Relayed(request);
        Future<?> relayed;
        try {
          relayed = threads.submit(() -> exchange(call, s, out));
        } catch (RejectedExecutionException e) {
          return; // the relay is closing
        }
        // the next byte is the next request's, or the end of the connection: only a client that left ends it early
        in.mark(1);
        int next;
        try {
          next = in.read();
        } catch (IOException e) {
          next = -1;
        }
        if (next < 0 && !relayed.isDone()) {
          // waiting: dropped unsent; streaming: cut, its reply's stream closed (a read blocked on it ignores the
          // interrupt), so its slot is free now rather than when the endpoint next sends. A read ended by the relay
          // closing the connection is the run's end, not the client leaving (close sets closed first)
          if (!closed) call.left = true;
          relayed.cancel(true);
          InputStream reply = call.reply;
          if (reply != null) closeQuietly(reply);
        }
        try {
          relayed.get();
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
          return;
        }
        if (next < 0 || !call.keepAlive) return;
        in.reset();
      }
    } catch (IOException e) {
      // the connection broke: nothing more can be read from it or written to it
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the relay is closing
    } finally {
      connections.remove(s);
    }
  }

  /** A request as it is relayed, and what became of it. */
  private static final class Relayed {
    final RelayWire.Request request;
    final boolean keepAlive;
    /** The client closed its connection before the reply was done. */
    volatile boolean left;
    /** The endpoint's reply while it is relayed, or null. */
    volatile InputStream reply;

    Relayed(RelayWire.Request request) {
      this.request = request;
      this.keepAlive = request.keepAlive();
    }
  }

  /** Relays one request: its turn under the endpoint's limits, then the request sent on and its reply back. */
  private void exchange(Relayed relayed, Socket s, OutputStream out) {
    ModelCall call = load.arrive(relayed.request.method(), relayed.request.path());
    open.add(call);
    UsageScan usage = new UsageScan();
    try {
      try (call) {
        if (!carriesToken(relayed.request)) {
          // another program on this machine found the port, or the CLI lost its settings: nothing goes on with the key
          call.dropped = "it did not carry its run's token";
          fail(out, relayed.keepAlive, 401, "h2beam's relay for endpoint " + endpoint.name() + " takes only calls that"
              + " carry its run's token, which the agent was given in " + endpoint.apiKeyEnv()
              + " in place of the key");
          return;
        }
        String elsewhere = tokenElsewhere(relayed.request);
        if (elsewhere != null || !underBase(relayed.request.target())) {
          // the key goes in a key header only, and only to the endpoint's own path: sent anywhere else, it may come
          // back to the agent (a route that echoes the request) or reach what the endpoint's host serves besides
          call.dropped = elsewhere != null ? "it carried its run's token outside a key header"
              : "its target is not under the endpoint's path";
          fail(out, relayed.keepAlive, elsewhere != null ? 400 : 404, elsewhere != null
              ? "h2beam's relay for endpoint " + endpoint.name() + " puts the key only in the Authorization, api-key"
                  + " or x-api-key header; this request carries its token in " + elsewhere
              : "h2beam's relay for endpoint " + endpoint.name() + " sends on only requests under "
                  + (basePath().isEmpty() ? "/" : basePath()) + " (the path of its base_url), with no dot segment");
          return;
        }
        slots.acquire();
        try {
          if (rate != null) rate.awaitTurn();
          // the slot may come free because close() cut the call holding it, and reach this call before close()'s
          // interrupt does: a call not yet sent when the run ended is dropped unsent
          if (closed) throw new InterruptedException("the run ended before the call was sent");
          call.sent();
          forward(relayed, out, usage, call);
        } finally {
          // a reply cut short (the CLI gone, the run ended) is charged what it reported before the cut
          long tokens = usage.tokens();
          if (rate != null) rate.charge(tokens);
          call.close(); // ended before its slot is free: its record never overlaps the next holder's
          slots.release();
          call.tokens = tokens > 0 ? tokens : null;
          call.inputTokens = usage.input;
          call.outputTokens = usage.output;
        }
      }
    } catch (InterruptedException | IOException e) {
      // the client left: while the call waited (dropped, unsent), or while its reply streamed, which a CLI does once
      // it has read all it wants (Codex at response.completed), so that is no drop. Looked at first: such a CLI then
      // exits and its run closes the relay, which did not cut its call. Else the run ended: the call was dropped
      // waiting, or cut while its reply streamed
      if (relayed.left) {
        call.dropped = call.sent == null ? "the client left" : call.dropped;
      } else if (closed) {
        call.dropped = "the run ended";
      }
      closeQuietly(s);
    } finally {
      // an interrupt that came as the reply ended must not stop the call's line being written (file channels are
      // closed by an interrupt); the thread is the pool's, and the task ends here
      Thread.interrupted();
      record(call);
      if (!relayed.keepAlive) closeQuietly(s);
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing: nothing more to do with it
    }
  }

  /** Sends the request on and streams the reply back, reading the tokens it reports into {@code usage}. */
  private void forward(Relayed relayed, OutputStream out, UsageScan usage, ModelCall call)
      throws IOException, InterruptedException {
    RelayWire.Request in = relayed.request;
    byte[] body = in.body();
    HttpRequest request;
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(upstream.getScheme() + "://"
              + upstream.getRawAuthority() + in.target()))
          .timeout(Duration.ofSeconds(endpoint.timeoutSeconds()))
          .method(in.method(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      for (Map.Entry<String, String> h : in.headers()) {
        String name = h.getKey().toLowerCase(Locale.ROOT);
        if (!NOT_RELAYED.contains(name)) b.header(h.getKey(), KEY_HEADERS.contains(name) ? keyed(h.getValue())
            : h.getValue());
      }
      request = b.build();
    } catch (IllegalArgumentException e) {
      // the JDK's message may quote the target or a header, either of which can hold the key: not repeated
      fail(out, relayed.keepAlive, 400, "the relay cannot send this request on: its target is not a valid URI, or a"
          + " header's name or value is not valid HTTP");
      return;
    }
    HttpResponse<InputStream> r;
    try {
      r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      // no connection made: the request never left, and its cost is a known nothing (else it may have been billed)
      call.unconnected = ModelCall.neverConnected(e);
      fail(out, relayed.keepAlive, 502, "h2beam could not reach endpoint " + endpoint.name() + " ("
          + endpoint.baseUrl() + "): " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()));
      return;
    }
    Map<String, List<String>> headers = new LinkedHashMap<>();
    r.headers().map().forEach((name, values) -> {
      if (!name.startsWith(":") && !NOT_RELAYED.contains(name.toLowerCase(Locale.ROOT))) headers.put(name, values);
    });
    int status = r.statusCode();
    call.status = status;
    boolean empty = status == 204 || status == 304 || in.method().equals("HEAD");
    usage.begin(r.headers().firstValue("Content-Type").orElse("").contains("event-stream"));
    streaming.add(r.body());
    relayed.reply = r.body();
    try (InputStream from = r.body()) {
      if (closed || relayed.left) throw new InterruptedException("the reply was cut as it began");
      RelayWire.head(out, status, headers, !empty, relayed.keepAlive);
      if (empty) {
        out.flush();
        return;
      }
      OutputStream to = new RelayWire.Chunked(out);
      if (key != null && status >= 400) {
        // an error reply may quote what it was sent, the key among it: read whole, sent on without the key
        to.write(withoutKey(from.readNBytes(MAX_ERROR_BYTES)));
        to.close();
        return;
      }
      // a success that echoes the request (a gateway's debug route) would hand the agent the key: taken out too
      KeyScrub scrub = key == null ? null : new KeyScrub(key);
      byte[] buf = new byte[16 << 10];
      while (true) {
        int n;
        try {
          n = from.read(buf);
        } catch (IOException e) {
          if (!closed && !relayed.left) call.dropped = "the endpoint's reply broke off";
          throw e;
        }
        if (n < 0) break;
        usage.feed(buf, n);
        if (scrub == null) {
          to.write(buf, 0, n);
        } else {
          byte[] now = scrub.pass(buf, n);
          to.write(now, 0, now.length);
        }
        if (Thread.interrupted()) throw new InterruptedException("the reply was cut while it streamed");
      }
      if (scrub != null) {
        byte[] rest = scrub.rest();
        to.write(rest, 0, rest.length);
      }
      to.close();
    } catch (IOException e) {
      if (closed || relayed.left) throw new InterruptedException("the reply was cut while it streamed");
      throw e;
    } finally {
      streaming.remove(r.body());
    }
  }

  /** An error reply's bytes without the key, for the CLI; as they came when they hold none. */
  private byte[] withoutKey(byte[] reply) {
    String text = new String(reply, StandardCharsets.UTF_8);
    if (!text.contains(key)) return reply;
    return text.replace(key, "[redacted key]").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Keeps the call's record ({@link #calls}) and appends it to the call log, if any; a log that cannot be written is
   * reported, and the call stands.
   */
  private void record(ModelCall call) {
    if (!open.remove(call)) return; // recorded already: the relay closed while it ran
    Map<String, Object> line = call.finish();
    served.add(line);
    if (callLog == null) return;
    try {
      String text = ModelCall.jsonLine(line);
      synchronized (this) {
        Files.writeString(callLog, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
    } catch (IOException e) {
      System.err.println("h2beam: could not record a call through the relay of endpoint " + endpoint.name() + " in "
          + callLog + ": " + e.getMessage());
    }
  }

  /** Answers the CLI with an error in the OpenAI shape, so it reports the reason as it would an endpoint's. */
  private static void fail(OutputStream out, boolean keepAlive, int status, String message) throws IOException {
    RelayWire.head(out, status, Map.of("Content-Type", List.of("application/json")), true, keepAlive);
    try (OutputStream body = new RelayWire.Chunked(out)) {
      body.write(errorBody(message));
    }
  }

  private static byte[] errorBody(String message) throws IOException {
    return Json.MAPPER.writeValueAsBytes(Map.of("error", Map.of("message", message, "type", "h2beam_relay")));
  }

  /**
   * Stops the relay: no new request is taken, waiting ones are dropped and streaming ones cut; returns once every
   * call has given its slot back (at most a few seconds), so a run that ended holds nothing of its endpoint.
   */
  @Override public void close() {
    closed = true;
    closeQuietly(listener);
    for (Socket s : connections) closeQuietly(s);
    threads.shutdownNow();
    for (InputStream in : streaming) {
      try {
        in.close();
      } catch (IOException e) {
        // it is being cut: nothing more to read from it
      }
    }
    try {
      if (!threads.awaitTermination(10, TimeUnit.SECONDS)) {
        System.err.println("h2beam: a call through the relay of endpoint " + endpoint.name() + " did not end within"
            + " 10 s of its run's end");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // a call still running is recorded as it stands, cut: its run cannot count it as priced, nor leave it out
    for (ModelCall call : List.copyOf(open)) {
      if (call.dropped == null) call.dropped = "still running when its run ended";
      record(call);
    }
  }

  /**
   * The tokens a reply reports, read as it passes: each {@code data:} line of an event stream, or the whole body of
   * any other reply, parsed as JSON; the last usage seen counts (prompt plus completion tokens, or input plus output
   * tokens, else {@code total_tokens}), and its two parts apart when it names both ({@link #input}, {@link #output}).
   */
  static final class UsageScan {
    private boolean stream;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean overflow;
    private long tokens;
    /** The last usage's prompt (input) and completion (output) tokens, both null unless it named both. */
    Long input;
    Long output;

    /** Starts on a reply: an event stream is read line by line, any other body whole. */
    void begin(boolean eventStream) {
      this.stream = eventStream;
    }

    void feed(byte[] bytes, int length) {
      int from = 0;
      for (int i = 0; stream && i < length; i++) {
        if (bytes[i] == '\n') {
          keep(bytes, from, i - from);
          line();
          from = i + 1;
        }
      }
      keep(bytes, from, length - from);
    }

    /** The tokens of the last usage seen so far (a whole body is read at this call); 0 when none was reported. */
    long tokens() {
      if (pending.size() > 0) line();
      return tokens;
    }

    private void keep(byte[] bytes, int from, int length) {
      if (overflow || length <= 0) return;
      if (pending.size() + length > MAX_SCANNED_BYTES) {
        overflow = true;
        pending.reset();
        return;
      }
      pending.write(bytes, from, length);
    }

    private void line() {
      String text = overflow ? "" : pending.toString(StandardCharsets.UTF_8).strip();
      pending.reset();
      overflow = false;
      if (stream) {
        if (!text.startsWith("data:")) return;
        text = text.substring(5).strip();
      }
      if (!text.startsWith("{")) return;
      try {
        JsonNode n = Json.MAPPER.readTree(text);
        long t = tokensOf(n);
        long[] parts = usageOf(n).isObject() ? parts(usageOf(n)) : null;
        if (t > 0 || (parts != null && tokens == 0 && input == null)) {
          // a usage naming both counts, 0 and 0 included (a reply that cost nothing is priced at $0), unless a usage
          // with tokens came first (an event stream's last usage is its whole)
          tokens = t;
          input = parts == null ? null : parts[0];
          output = parts == null ? null : parts[1];
        }
      } catch (IOException e) {
        // not JSON: no usage in it
      }
    }

    /** A body's usage object (a chat completion's, or a Responses event's {@code response.usage}), or missing. */
    private static JsonNode usageOf(JsonNode n) {
      return n.path("usage").isObject() ? n.get("usage") : n.path("response").path("usage");
    }

    /** A usage's prompt (input) and completion (output) tokens, or null unless it names both, each a count. */
    private static long[] parts(JsonNode u) {
      JsonNode in = u.has("prompt_tokens") ? u.get("prompt_tokens") : u.path("input_tokens");
      JsonNode out = u.has("completion_tokens") ? u.get("completion_tokens") : u.path("output_tokens");
      return Tokens.count(in) != null && Tokens.count(out) != null ? new long[] {in.asLong(), out.asLong()} : null;
    }

    static long tokensOf(JsonNode n) {
      JsonNode u = usageOf(n);
      if (!u.isObject()) return 0;
      long[] parts = parts(u);
      if (parts != null) return parts[0] + parts[1];
      return u.path("total_tokens").canConvertToLong() ? u.get("total_tokens").asLong() : 0;
    }
  }
}
