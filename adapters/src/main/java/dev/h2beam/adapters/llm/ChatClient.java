package dev.h2beam.adapters.llm;

import dev.h2beam.adapters.config.Endpoint;
import dev.h2beam.adapters.config.EnvKeys;
import dev.h2beam.adapters.config.KeyFree;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Chat completions against one OpenAI-compatible endpoint over {@code java.net.http}, with the one retry policy of
 * h2beam ({@link RetryPolicy}): 429, 408, 5xx, timeouts and refused or dropped connections are transient (exponential
 * backoff with jitter, {@code Retry-After} honoured up to two minutes, up to the endpoint's max_attempts); any other
 * 4xx is fatal at once; an empty or unparsable reply is a failed attempt with its reason. At most the endpoint's
 * max_concurrency calls are in flight per endpoint in this JVM ({@link EndpointSlots}); a call holds its slot only
 * while an attempt is on the wire, not while it backs off.
 *
 * <p>Why not the OpenAI Java SDK: {@code com.openai:openai-java} is Kotlin on OkHttp and is published against Jackson
 * 2.18, whose features it needs to tolerate new response fields (openai/openai-java#301); Beam pins Jackson 2.15
 * through the parent's BOM, so the SDK would run on a Jackson it was not built for. One non-streaming POST needs
 * neither.
 *
 * <p>The key is read once from the variable the endpoint names and lives only in this object's memory and the
 * {@code Authorization} header; it is never logged, never part of a message, and scrubbed from error bodies that echo
 * it. Thread-safe: one client serves many concurrent sessions.
 */
public final class ChatClient implements AutoCloseable {
  /** The largest reply body read; a chat completion is far smaller. */
  static final int MAX_BODY_BYTES = 16 << 20;

  static final Duration DEFAULT_BACKOFF_BASE = Duration.ofSeconds(1);

  private final Endpoint endpoint;
  private final URI uri;
  private final String key;
  private final String keyProblem;
  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final Duration callTimeout;
  private final HttpClient http;
  private volatile boolean closed;

  /**
   * @param env where the key variable named by the endpoint is read (normally {@code System.getenv()})
   */
  public ChatClient(Endpoint endpoint, Map<String, String> env) {
    this(endpoint, env, DEFAULT_BACKOFF_BASE, Sleeper.REAL, Duration.ofSeconds(endpoint.timeoutSeconds()));
  }

  /** For tests: a short backoff base, a sleeper that records waits, and a call timeout below a second. */
  ChatClient(Endpoint endpoint, Map<String, String> env, Duration backoffBase, Sleeper sleeper, Duration callTimeout) {
    this.endpoint = endpoint;
    this.uri = URI.create(endpoint.baseUrl() + "/chat/completions");
    String var = endpoint.apiKeyEnv();
    String value = var.isEmpty() ? null : env.get(var);
    value = value == null ? null : value.strip();
    if (var.isEmpty()) {
      this.key = null;
      this.keyProblem = null;
    } else if (value == null || value.isEmpty()) {
      this.key = null;
      this.keyProblem = "the environment variable " + var + " (api_key_env of endpoint " + endpoint.name()
          + ") is not set or empty; export it with the endpoint's key before the run";
    } else if (!value.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
      this.key = null;
      this.keyProblem = "the environment variable " + var + " holds characters no key has (spaces, line breaks or"
          + " non-ASCII); check how it was exported";
    } else {
      this.key = value;
      this.keyProblem = null;
    }
    this.policy = new RetryPolicy(backoffBase, new SplittableRandom());
    this.sleeper = sleeper;
    this.callTimeout = callTimeout;
    // Local OpenAI-compatible servers speak HTTP/1.1 and some mishandle the h2c upgrade; TLS negotiates HTTP/2 itself.
    this.http = HttpClient.newBuilder()
        .version(uri.getScheme().equals("http") ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
        .connectTimeout(callTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  public Endpoint endpoint() {
    return endpoint;
  }

  /** Runs one call to completion (all its attempts). */
  public ChatReply complete(ChatRequest request) throws ChatException, InterruptedException {
    if (closed) throw new IllegalStateException("chat client for endpoint " + endpoint.name() + " is closed");
    String who = "endpoint " + endpoint.name() + " (" + endpoint.baseUrl() + "), model " + request.model() + ": ";
    if (keyProblem != null) throw new ChatException(who + keyProblem, true, 0, 0.0);
    byte[] body = ChatWire.requestBody(request);
    Semaphore slots = EndpointSlots.of(endpoint);
    RateWindow rate = RateWindow.of(endpoint);
    EndpointLoad load = EndpointLoad.of(endpoint);
    long started = System.nanoTime();
    String last = "";
    List<Map<String, Object>> calls = new ArrayList<>();
    for (int attempt = 1; attempt <= endpoint.maxAttempts(); attempt++) {
      if (Thread.interrupted()) throw new InterruptedException("chat call interrupted");
      Attempt a;
      ModelCall record = load.arrive("POST", uri.getRawPath());
      try (record) {
        slots.acquire();
        try {
          if (rate != null) rate.awaitTurn();
          record.sent();
          a = send(body, record);
          // charged before its slot is free, as the relay does: the next holder's turn is checked against these
          // tokens (charged after, a call waiting for the slot could start on a window that does not hold them yet)
          if (rate != null) rate.charge(a.usage().reported());
        } finally {
          record.close(); // ended before its slot is free: its record never overlaps the next holder's
          slots.release();
        }
      } catch (InterruptedException | RuntimeException e) {
        // the caller is being cancelled (or the client broke): the call ended all the same, and counts as failed
        record.dropped = e instanceof InterruptedException ? "the run ended" : "the chat client failed";
        record.finish();
        throw e;
      }
      long tokens = a.usage().reported();
      record.tokens = tokens > 0 ? tokens : null;
      record.inputTokens = a.usage().promptTokens();
      record.outputTokens = a.usage().completionTokens();
      record.unusable = !(a instanceof Attempt.Answered);
      record.errorReply = a instanceof Attempt.Transient t && t.errorReply();
      if (!(a instanceof Attempt.Answered) && record.dropped == null && record.status == null) {
        record.dropped = a instanceof Attempt.Transient t ? t.reason() : ((Attempt.Fatal) a).reason();
      }
      calls.add(record.finish());
      if (a instanceof Attempt.Answered ok) {
        servedAs(request.model(), ok.model());
        EndpointProxy.Spend spend = EndpointProxy.Spend.of(endpoint, calls);
        return new ChatReply(keyFree(ok.text()), ok.model(), ok.finishReason(), ok.usage(), spend.usd(), attempt,
            (System.nanoTime() - started) / 1e9, calls, spend.known());
      }
      if (a instanceof Attempt.Fatal fatal) {
        EndpointProxy.Spend spend = EndpointProxy.Spend.of(endpoint, calls);
        throw new ChatException(who + fatal.reason() + keyAdvice(fatal.reason()) + " (fatal, not retried)", true,
            attempt, spend.usd(), calls, spend.known());
      }
      Attempt.Transient t = (Attempt.Transient) a;
      last = t.reason();
      if (attempt < endpoint.maxAttempts()) sleeper.sleep(policy.backoff(attempt, t.retryAfter()));
    }
    EndpointProxy.Spend spend = EndpointProxy.Spend.of(endpoint, calls);
    throw new ChatException(who + "no reply after " + endpoint.maxAttempts() + " attempt(s); last: " + last
        + "; check that the server is up and serves this model, or raise max_attempts", false,
        endpoint.maxAttempts(), spend.usd(), calls, spend.known(), last);
  }

  /**
   * One attempt on the wire; network failures and timeouts come back as transient attempts. The status the server
   * answered goes into {@code record}.
   */
  private Attempt send(byte[] body, ModelCall record) throws InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .timeout(callTimeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (key != null) b.header("Authorization", "Bearer " + key);
    CompletableFuture<HttpResponse<CappedBody.Bytes>> call =
        http.sendAsync(b.build(), info -> new CappedBody(MAX_BODY_BYTES));
    HttpResponse<CappedBody.Bytes> r;
    try {
      // the request timeout bounds the wait for headers; this bounds the body too
      r = call.get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      call.cancel(true);
      throw e;
    } catch (TimeoutException e) {
      call.cancel(true);
      return Attempt.Transient.of(noAnswer());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      // no connection made (a connect timeout included): the request never left, and its cost is a known nothing
      record.unconnected = ModelCall.neverConnected(cause);
      if (cause instanceof HttpConnectTimeoutException) {
        return Attempt.Transient.of("no connection within " + callTimeout.toMillis() / 1000.0 + " s (timeout_seconds)");
      }
      if (cause instanceof HttpTimeoutException) return Attempt.Transient.of(noAnswer());
      if (cause instanceof IOException) {
        return Attempt.Transient.of("connection failed: " + cause.getClass().getSimpleName()
            + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
      }
      if (cause instanceof RuntimeException re) throw re;
      if (cause instanceof Error err) throw err;
      throw new IllegalStateException("chat call failed unexpectedly", cause);
    }
    record.status = r.statusCode();
    if (r.statusCode() / 100 == 3) {
      // followed, the request and its key would go where base_url does not say
      String to = r.headers().firstValue("Location").map(l -> l.replaceAll("[?#].*", "")).orElse("(no Location)");
      return new Attempt.Fatal("HTTP " + r.statusCode() + ": the endpoint redirects to " + ChatWire.withoutKey(
          dev.h2beam.adapters.config.KeyShapes.redact(to), key) + ", and h2beam follows no redirect (the key would"
          + " go along): set base_url to the address it names");
    }
    if (r.statusCode() / 100 == 2) {
      // a body h2beam cannot read, the same on every attempt: said as what it is, not quoted as bytes "not JSON"
      String encoding = r.headers().firstValue("Content-Encoding").orElse("identity").strip();
      if (!encoding.isEmpty() && !encoding.equalsIgnoreCase("identity")) {
        return new Attempt.Fatal("the reply is " + encoding + "-encoded (Content-Encoding), which h2beam did not ask"
            + " for and does not decode: configure the server or gateway to answer uncompressed");
      }
      if (r.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT)
          .startsWith("text/event-stream")) {
        return new Attempt.Fatal("the reply is a stream (text/event-stream), though the request asked for none:"
            + " configure the server or gateway not to stream when the request does not say stream: true");
      }
    }
    return ChatWire.read(r.statusCode(), r.headers().firstValue("Retry-After").orElse(null), r.body().bytes(),
        r.body().truncated(), key, Instant.now());
  }

  /**
   * A reply's text without any key h2beam holds ({@link KeyFree}), nor this endpoint's own key, each replaced by
   * {@link EnvKeys#REDACTED} before anything reads, keeps or prompts with it: an endpoint or gateway that echoes the
   * key it was sent would otherwise put it into a judge's reasons, an improver's archived reply or a lesson. Said
   * once per reply, naming the variable, never the value.
   */
  private String keyFree(String text) {
    java.util.TreeSet<String> found = new java.util.TreeSet<>();
    String out = KeyFree.text(text, found);
    // a placeholder key (EMPTY, none) is below the floor every held key is: it would be found in every text
    if (key != null && key.length() >= EnvKeys.MIN_CHARS && out.contains(key)) {
      out = out.replace(key, EnvKeys.REDACTED);
      found.add(endpoint.apiKeyEnv());
    }
    if (!found.isEmpty() && ECHO_SAID.add(endpoint.name() + "\0" + found)) {
      System.err.println("h2beam: a reply of endpoint " + endpoint.name() + " held the value of $"
          + String.join(", $", found) + "; it was replaced with " + EnvKeys.REDACTED + " before anything read it,"
          + " as it is in every later reply (said once). An endpoint that echoes its key is misbehaving: rotate the"
          + " key");
    }
    return out;
  }

  /** For a refused key (401, 403): where the key came from, never its value. */
  private String keyAdvice(String reason) {
    if (!reason.startsWith("HTTP 401") && !reason.startsWith("HTTP 403")) return "";
    return endpoint.apiKeyEnv().isEmpty() ? "; endpoint " + endpoint.name() + " sends no key (it names no api_key_env)"
        : "; the key sent is $" + endpoint.apiKeyEnv() + " (endpoints." + endpoint.name() + ".api_key_env): check"
        + " that it holds this endpoint's key";
  }

  /** The (endpoint, model asked, model served) said already. */
  private static final java.util.Set<String> SERVED_SAID = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * Says once when the reply names another model than the one asked for, and not one of its versions (asked
   * {@code gpt-4o-mini}, served {@code gpt-4o-mini-2024-07-18} is the same model, in any case): a gateway that routes
   * calls to another model makes runs that config.json records as of the same model differ in what answered.
   */
  private void servedAs(String asked, String served) {
    if (served == null || served.isBlank() || asked == null
        || served.toLowerCase(java.util.Locale.ROOT).startsWith(asked.toLowerCase(java.util.Locale.ROOT))) {
      return;
    }
    if (!SERVED_SAID.add(endpoint.name() + "\0" + asked + "\0" + served)) return;
    System.err.println("warning: endpoint " + endpoint.name() + " answered a call for model " + asked + " as model "
        + served + " (said once): config.json records " + asked + ", so runs routed to other models would compare as"
        + " runs of one; check the gateway's routing or name the model it serves");
  }

  /** Endpoints whose echo of a key was said already, with the variables named: said once per command. */
  private static final java.util.Set<String> ECHO_SAID = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private String noAnswer() {
    return "no answer within " + callTimeout.toMillis() / 1000.0 + " s (timeout_seconds)";
  }

  /** Refuses further calls. The JDK 17 HTTP client has nothing to close; its threads end when it is collected. */
  @Override public void close() {
    closed = true;
  }

  @Override public String toString() {
    return "ChatClient[" + endpoint.name() + " " + endpoint.baseUrl() + "]";
  }
}
