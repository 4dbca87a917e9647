package dev.h2beam.adapters.config;

import java.io.Serializable;
import java.util.Objects;

/**
 * One OpenAI-compatible endpoint of the configuration file.
 *
 * @param name the key under {@code endpoints:}
 * @param baseUrl e.g. {@code http://127.0.0.1:8000/v1} (no trailing slash)
 * @param apiKeyEnv the environment variable holding the key, or "" for an endpoint that needs none; its value is held
 *     ({@link EnvKeys#holdValueOf}) from the moment the endpoint is made
 * @param maxConcurrency calls in flight to this endpoint at once, across the whole job (a job on W workers gives each
 *     its {@link #share}); each worker enforces its share
 * @param timeoutSeconds one HTTP call's limit
 * @param maxAttempts attempts per call, transient failures included (at least 1)
 * @param priceInputPerMtok USD per million prompt tokens
 * @param priceOutputPerMtok USD per million completion tokens
 * @param requestsPerMinute the provider's request rate limit (attempts started in any 60 s), 0 for none
 * @param tokensPerMinute the provider's token rate limit (prompt plus completion tokens the replies of any 60 s
 *     report), 0 for none
 */
public record Endpoint(String name, String baseUrl, String apiKeyEnv, int maxConcurrency, int timeoutSeconds,
    int maxAttempts, double priceInputPerMtok, double priceOutputPerMtok, int requestsPerMinute, int tokensPerMinute)
    implements Serializable {
  /** An endpoint without rate limits. */
  public Endpoint(String name, String baseUrl, String apiKeyEnv, int maxConcurrency, int timeoutSeconds,
      int maxAttempts, double priceInputPerMtok, double priceOutputPerMtok) {
    this(name, baseUrl, apiKeyEnv, maxConcurrency, timeoutSeconds, maxAttempts, priceInputPerMtok,
        priceOutputPerMtok, 0, 0);
  }

  public Endpoint {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(baseUrl, "baseUrl");
    apiKeyEnv = apiKeyEnv == null ? "" : apiKeyEnv;
    // the key this endpoint sends is looked for by every screen and scrub of this JVM, whatever its variable's name
    // or its shape; a record deserializes through this constructor, so a worker given the configuration holds it too
    EnvKeys.holdValueOf(apiKeyEnv);
    if (maxConcurrency < 1 || timeoutSeconds < 1 || maxAttempts < 1) {
      throw new IllegalArgumentException("endpoint " + name + ": max_concurrency, timeout_seconds and max_attempts"
          + " must be >= 1");
    }
    if (!(priceInputPerMtok >= 0) || !(priceOutputPerMtok >= 0)) {
      throw new IllegalArgumentException("endpoint " + name + ": prices must be numbers >= 0");
    }
    if (requestsPerMinute < 0 || tokensPerMinute < 0) {
      throw new IllegalArgumentException("endpoint " + name + ": rate limits must be >= 0 (0: none)");
    }
  }

  /**
   * What one of {@code workers} workers may use so that all of them together keep this endpoint's limits: each limit
   * divided by the workers, rounded down. Refused when a share would be zero, naming the limit: a job on more workers
   * than calls in flight (or requests, or tokens per minute) cannot keep it without waiting on one another.
   */
  public Endpoint share(int workers) {
    if (workers < 1) throw new IllegalArgumentException("workers must be at least 1, got " + workers);
    if (workers == 1) return this;
    String[] names = {"max_concurrency", "requests_per_minute", "tokens_per_minute"};
    int[] limits = {maxConcurrency, requestsPerMinute, tokensPerMinute};
    for (int i = 0; i < limits.length; i++) {
      if (limits[i] > 0 && limits[i] < workers) {
        throw new IllegalArgumentException("endpoints." + name + "." + names[i] + " is " + limits[i] + ", fewer than"
            + " the job's " + workers + " workers, each of which needs a share of at least 1: raise it to " + workers
            + " or more, or run on fewer workers");
      }
    }
    return new Endpoint(name, baseUrl, apiKeyEnv, maxConcurrency / workers, timeoutSeconds, maxAttempts,
        priceInputPerMtok, priceOutputPerMtok, requestsPerMinute / workers, tokensPerMinute / workers);
  }

  /** The same endpoint reached at another base URL (a loopback relay's, given to an agent CLI). */
  public Endpoint at(String otherBaseUrl) {
    return new Endpoint(name, otherBaseUrl, apiKeyEnv, maxConcurrency, timeoutSeconds, maxAttempts, priceInputPerMtok,
        priceOutputPerMtok, requestsPerMinute, tokensPerMinute);
  }

  /** Whether its tokens cost nothing (both prices 0, as when {@code price_per_mtok} is not given): any call is $0. */
  public boolean free() {
    return priceInputPerMtok == 0 && priceOutputPerMtok == 0;
  }

  /** The cost of one call's usage at this endpoint's prices. */
  public double cost(long promptTokens, long completionTokens) {
    return (promptTokens * priceInputPerMtok + completionTokens * priceOutputPerMtok) / 1_000_000.0;
  }
}
