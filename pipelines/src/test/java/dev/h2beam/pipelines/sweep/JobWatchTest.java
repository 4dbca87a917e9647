package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client asks the JobManager, as Flink's REST API answers, what becomes of its job while it waits: its state, its
 * restarts and when it last restarted, its subtasks waiting for slots; a JobManager that stops answering is said at
 * once, and after {@code giveUpMs} the wait for the job ends, its failure naming the silence.
 */
class JobWatchTest {
  private HttpServer jobManager;
  private final Map<String, String> answers = new ConcurrentHashMap<>();
  private final AtomicLong now = new AtomicLong(1_000_000);

  /** A JobManager answering each path (with its query) from {@link #answers}, 404 for any other. */
  private String serve() throws Exception {
    jobManager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    jobManager.createContext("/", x -> {
      String q = x.getRequestURI().getQuery();
      String body = answers.get(x.getRequestURI().getPath() + (q == null ? "" : "?" + q));
      byte[] bytes = (body == null ? "{}" : body).getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
      x.getResponseBody().write(bytes);
      x.close();
    });
    jobManager.start();
    return "http://127.0.0.1:" + jobManager.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    if (jobManager != null) jobManager.stop(0);
  }

  private void job(String state, int scheduled, long restarting, String restarts) {
    answers.put("/jobs/overview", "{\"jobs\":[{\"jid\":\"old\",\"name\":\"other\",\"state\":\"RUNNING\"},"
        + "{\"jid\":\"j1\",\"name\":\"h2beam-sweep-1\",\"state\":\"" + state + "\",\"tasks\":{\"running\":0,"
        + "\"scheduled\":" + scheduled + ",\"total\":24}}]}");
    answers.put("/jobs/j1", "{\"jid\":\"j1\",\"state\":\"" + state + "\",\"timestamps\":{\"RESTARTING\":" + restarting
        + ",\"RUNNING\":1}}");
    answers.put("/jobs/j1/metrics?get=numRestarts", "[{\"id\":\"numRestarts\",\"value\":\"" + restarts + "\"}]");
  }

  @Test
  void theJobsStateRestartsAndSubtasksWaitingForSlotsAreReadFromTheJobManager() throws Exception {
    JobWatch w = new JobWatch(serve(), "h2beam-sweep-1", now::get, 30_000);
    answers.put("/jobs/overview", "{\"jobs\":[]}");
    w.lookOnce();
    assertEquals("job not on the cluster yet (being submitted)", w.status().describe());
    job("RUNNING", 24, 0, "0");
    w.lookOnce();
    assertEquals("job RUNNING, waiting for slots (24 of 24 subtasks)", w.status().describe());
    job("RUNNING", 0, 0, "0");
    w.lookOnce();
    assertEquals("", w.status().describe(), "a job that runs with no restart needs no word");
    job("RESTARTING", 0, 5_000, "0");
    w.lookOnce();
    assertEquals(5_000, w.status().restartedMs());
    assertEquals("job RESTARTING after 1 restart", w.status().describe(), "seen before the metrics refresh");
    job("RUNNING", 0, 9_000, "1");
    w.lookOnce();
    assertEquals("job RUNNING after 2 restarts", w.status().describe(), "each new restart time is one more");
    job("RUNNING", 0, 9_000, "3");
    w.lookOnce();
    assertEquals(3, w.status().restarts(), "Flink's count, when it knows more");
  }

  /** A name given twice ({@code --jobName}): the line speaks of the job that may still write, wherever it is listed. */
  @Test
  void aNameGivenTwiceIsWatchedAsTheJobThatMayStillWrite() throws Exception {
    JobWatch w = new JobWatch(serve(), "h2beam-sweep-1", now::get, 30_000);
    job("RESTARTING", 0, 0, "0");
    String earlier = "{\"jid\":\"j0\",\"name\":\"h2beam-sweep-1\",\"state\":\"CANCELED\"}";
    String current = "{\"jid\":\"j1\",\"name\":\"h2beam-sweep-1\",\"state\":\"RESTARTING\"}";
    for (String jobs : new String[] {earlier + "," + current, current + "," + earlier}) {
      answers.put("/jobs/overview", "{\"jobs\":[" + jobs + "]}");
      w.lookOnce();
      assertEquals("job RESTARTING", w.status().describe(), jobs);
    }
  }

  /**
   * A JobManager that answers, but with an error status or a body that is no JSON, tells the client nothing of its job
   * either: the line says it answers only with errors, since when and what it answered, and the watch counts the time
   * toward giving up as for silence; a refused connection after that is silence again.
   */
  @Test
  void aJobManagerAnsweringOnlyWithErrorsIsSaidToDoSo() throws Exception {
    String rest = serve();
    job("RUNNING", 0, 0, "0");
    JobWatch w = new JobWatch(rest, "h2beam-sweep-1", now::get, 30_000);
    w.lookOnce();
    answers.remove("/jobs/overview");
    w.lookOnce();
    assertFalse(w.status().answering());
    assertTrue(w.status().erring());
    assertTrue(w.status().describe().startsWith("the JobManager at " + rest + " answers only with errors since "),
        w.status().describe());
    assertTrue(w.status().describe().endsWith("(HTTP 404 from " + rest + "/jobs/overview)"), w.status().describe());
    answers.put("/jobs/overview", "<html>Service Unavailable</html>");
    now.addAndGet(5_000);
    w.lookOnce();
    assertTrue(w.status().erring(), w.status().describe());
    assertEquals(1_000_000, w.status().silentSinceMs(), "counted from the first look without a usable answer");
    jobManager.stop(0);
    jobManager = null;
    w.lookOnce();
    assertFalse(w.status().erring());
    assertTrue(w.status().describe().contains(" does not answer since "), w.status().describe());
  }

  /**
   * A killed JobManager: the first look without an answer says so, naming since when; the client's wait goes on
   * until the JobManager has been silent for {@code giveUpMs}, then ends with the runner's failure, the silence at its
   * bottom, and the waiting thread not left interrupted.
   */
  @Test
  void aSilentJobManagerIsSaidAtOnceAndTheWaitForTheJobEndsAfterTheLimit() throws Exception {
    String rest = serve();
    job("RUNNING", 0, 0, "0");
    JobWatch w = new JobWatch(rest, "h2beam-sweep-1", now::get, 30_000);
    w.lookOnce();
    jobManager.stop(0);
    jobManager = null;
    w.lookOnce();
    assertFalse(w.status().answering());
    assertEquals(1_000_000, w.status().silentSinceMs());
    assertTrue(w.status().describe().startsWith("the JobManager at " + rest + " does not answer since "),
        w.status().describe());
    CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
    RuntimeException runner = new RuntimeException("the runner's wait", new InterruptedException());
    // the wait is under way before the clock moves: a look made before it would have no thread to interrupt
    java.util.concurrent.CountDownLatch waiting = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.ExecutorService own = java.util.concurrent.Executors.newSingleThreadExecutor();
    CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() -> {
      try {
        w.await(() -> {
          waiting.countDown();
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            // as Flink's client: the interrupt becomes its failure, cleared; then the job is cancelled, waiting
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException again) {
              // the cancel's wait cut short
            }
            throw runner;
          }
          return null;
        });
        return null;
      } catch (Exception e) {
        return e;
      } finally {
        interruptedAfter.complete(Thread.currentThread().isInterrupted());
      }
    }, own);
    assertTrue(waiting.await(10, TimeUnit.SECONDS), "the wait began");
    now.addAndGet(29_000);
    w.lookOnce();
    Thread.sleep(300);
    assertFalse(ended.isDone(), "29 s without an answer: the client still waits");
    now.addAndGet(1_000);
    w.lookOnce();
    Thread.sleep(300);
    assertFalse(ended.isDone(), "the runner took the interrupt for its failure and now cancels its job");
    now.addAndGet(2_000);
    w.lookOnce();
    Throwable e = ended.get(10, TimeUnit.SECONDS);
    assertSame(runner, e, "the runner's failure, as it was");
    Throwable bottom = e;
    while (bottom.getCause() != null) bottom = bottom.getCause();
    assertTrue(bottom instanceof java.net.ConnectException && bottom.getMessage().contains("does not answer since")
        && bottom.getMessage().contains("30 s without an answer"), String.valueOf(bottom));
    assertFalse(interruptedAfter.get(), "the interrupt was for the wait only");
    own.shutdownNow();
  }

  @Test
  void aWaitThatEndsWhileTheJobManagerAnswersIsLeftAlone() throws Exception {
    JobWatch w = new JobWatch(serve(), "h2beam-sweep-1", now::get, 30_000);
    job("RUNNING", 0, 0, "0");
    w.lookOnce();
    assertEquals("done", w.await(() -> "done"));
    IllegalStateException failed = new IllegalStateException("the job failed");
    assertSame(failed, assertThrows(IllegalStateException.class, () -> w.await(() -> {
      throw failed;
    })));
    assertEquals(null, failed.getCause());
  }
}
