package dev.h2beam.adapters.files;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Questions to a Flink JobManager's REST endpoint (its shape, a job's state, its metrics), on one client for the
 * process: a client of its own per question started a selector thread each time, and the bench asks for the metrics
 * every half second while they refresh.
 */
public final class JobManagerRest {
  private JobManagerRest() {}

  private static final class Client {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** {@code GET uri}, answered within {@code timeout}. */
  public static HttpResponse<String> get(URI uri, Duration timeout) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build());
  }

  /** {@code PATCH uri} with no body, answered within {@code timeout}. */
  public static HttpResponse<String> patch(URI uri, Duration timeout) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri).timeout(timeout).method("PATCH", HttpRequest.BodyPublishers.noBody())
        .build());
  }

  private static HttpResponse<String> send(HttpRequest r) throws IOException, InterruptedException {
    return Client.HTTP.send(r, HttpResponse.BodyHandlers.ofString());
  }

  /** Why {@code uri} gave no answer, for a message. */
  public static String noAnswer(URI uri, IOException e) {
    return "no answer from " + uri + " (" + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
        + ")";
  }
}
