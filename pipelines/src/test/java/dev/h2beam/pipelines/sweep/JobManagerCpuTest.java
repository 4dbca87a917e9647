package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JobManager's CPU time, which the bench shows beside h2beam's for a sweep on a cluster, is read from its REST
 * metrics after their next refresh (Flink answers from a store it refreshes every 10 s by default, so a first answer
 * may leave out the last seconds); anything else is an unknown with its reason, never a number.
 */
class JobManagerCpuTest {
  private HttpServer jobManager;
  private final AtomicInteger asked = new AtomicInteger();
  private final List<String> queries = new CopyOnWriteArrayList<>();

  /** A JobManager whose metrics answer {@code answers} in turn (the last one from then on), with {@code status}. */
  private String serve(int status, String... answers) throws Exception {
    jobManager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    jobManager.createContext("/jobmanager/metrics", x -> {
      queries.add(x.getRequestURI().getQuery());
      int i = Math.min(asked.getAndIncrement(), answers.length - 1);
      byte[] body = answers[i].getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(status, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    jobManager.start();
    return "127.0.0.1:" + jobManager.getAddress().getPort();
  }

  private static String cpu(String value) {
    return "[{\"id\":\"Status.JVM.CPU.Time\",\"value\":\"" + value + "\"}]";
  }

  @AfterEach
  void stop() {
    if (jobManager != null) jobManager.stop(0);
  }

  @Test
  void theValueIsTheOneAfterTheMetricsRefresh() throws Exception {
    String master = serve(200, cpu("38690000000"), cpu("38690000000"), cpu("41250000000"));
    FlinkCluster.JobManagerCpu c = FlinkCluster.jobManagerCpu(master, Duration.ofSeconds(10));
    assertTrue(c.known(), c.unknown());
    assertEquals(41.25, c.seconds(), 1e-9, "nanoseconds, the refreshed value, not the stale first one");
    assertEquals(3, asked.get());
    assertEquals("get=Status.JVM.CPU.Time", queries.get(0));
  }

  @Test
  void metricsThatDoNotRefreshAreUnknownNotTheStaleValue() throws Exception {
    String master = serve(200, cpu("38690000000"));
    FlinkCluster.JobManagerCpu c = FlinkCluster.jobManagerCpu(master, Duration.ofMillis(1200));
    assertFalse(c.known());
    assertTrue(Double.isNaN(c.seconds()));
    assertTrue(c.unknown().contains("did not refresh in 1 s"), c.unknown());
  }

  @Test
  void aNewJobManagersFirstRefreshedValueIsTaken() throws Exception {
    // a JobManager that has never been asked answers an empty store, and refreshes it because it was asked
    String master = serve(200, "[]", "[]", cpu("2500000000"));
    FlinkCluster.JobManagerCpu c = FlinkCluster.jobManagerCpu(master, Duration.ofSeconds(10));
    assertTrue(c.known(), c.unknown());
    assertEquals(2.5, c.seconds(), 1e-9);
    assertEquals(3, asked.get(), "the store's first value was read after the question: no second refresh waited for");
  }

  @Test
  void aJvmThatDoesNotMeasureItsCpuOrAnAnswerWithoutItIsUnknown() throws Exception {
    String master = serve(200, cpu("-1"));
    FlinkCluster.JobManagerCpu c = FlinkCluster.jobManagerCpu(master, Duration.ofMillis(1200));
    assertTrue(c.unknown().contains("does not report Status.JVM.CPU.Time in 1 s"), c.unknown());
    assertTrue(asked.get() >= 2, "asked again while the wait lasts: " + asked.get());
    stop();
    master = serve(200, "[]");
    c = FlinkCluster.jobManagerCpu(master, Duration.ofMillis(1200));
    assertTrue(c.unknown().contains("does not report Status.JVM.CPU.Time"), c.unknown());
    assertTrue(Double.isNaN(c.seconds()));
  }

  @Test
  void anErrorOrNoJobManagerIsUnknownWithWhy() throws Exception {
    String master = serve(503, "busy");
    FlinkCluster.JobManagerCpu c = FlinkCluster.jobManagerCpu(master, Duration.ofSeconds(5));
    assertTrue(c.unknown().startsWith("HTTP 503 from http://" + master + "/jobmanager/metrics"), c.unknown());
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    c = FlinkCluster.jobManagerCpu("127.0.0.1:" + port, Duration.ofSeconds(5));
    assertTrue(c.unknown().startsWith("no answer from http://127.0.0.1:" + port), c.unknown());
  }
}
