package dev.h2beam.adapters.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock whose holder submitted a cluster job: named in the lock while the job runs, and not taken over while the
 * JobManager cannot say the job has ended. (The JobManager's answers themselves, running, cancelled and a cancel
 * through its REST API, are tested on a real cluster: {@code FlinkClusterIT} in the demo module.)
 */
class ClusterJobLockTest {
  @TempDir Path dir;

  /** A loopback address where nothing listens: a JobManager that cannot be asked. */
  static String nobodyListening() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return "http://127.0.0.1:" + s.getLocalPort();
    }
  }

  @Test
  void aGoneHoldersLockWhoseJobCannotBeAskedIsKeptAndTheRefusalSaysWhenToDeleteIt() throws Exception {
    ClusterJob job = ClusterJob.of(nobodyListening(), "h2beam-sweep-root-1205-0a1b2c3d");
    Path file = dir.resolve(WriterLock.FILE);
    String lock = "{\"what\": \"sweep of x-oc-agg1\", \"host\": \"" + WriterLock.host() + "\", \"pid\": "
        + WriterLockTest.gonePid() + ", \"started_at\": \"2026-01-01T00:00:00Z\", \"token\": \"t\", \"job\": "
        + Json.pretty(job.record()) + "}";
    Files.writeString(file, lock);
    WriterLock.Held e = assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(dir, "sweep", Duration.ZERO));
    assertTrue(e.getMessage().contains(job.describe() + " cannot be asked (no answer from " + job.rest()
        + "/jobs/overview") && e.getMessage().endsWith("Once you know that job has ended, delete " + file),
        e.getMessage());
    assertEquals(lock, Files.readString(file), "the lock is left as it was");
    assertFalse(WriterLock.holder(dir).isEmpty(), "the folder counts as held");
  }

  /**
   * A cancel of a job whose JobManager refuses every connection (its process gone) stops asking after {@link
   * ClusterJob#REFUSED}: the client's exit waited the whole wait for it, twice, a minute after a lost JobManager
   * (dogAC F3). A JobManager that answers, or is slow to, is still waited for the whole wait (the test above and
   * {@code FlinkClusterIT}).
   */
  @Test
  void aCancelOfAJobWhoseJobManagerRefusesEveryConnectionEndsSoon() throws Exception {
    ClusterJob job = ClusterJob.of(nobodyListening(), "h2beam-sweep-root-1207-0a1b2c3d");
    long start = System.nanoTime();
    ClusterJob.State s = job.cancel(Duration.ofSeconds(120));
    long waitedS = Duration.ofNanos(System.nanoTime() - start).toSeconds();
    assertEquals(ClusterJob.Phase.UNKNOWN, s.phase(), s.toString());
    assertTrue(s.refused() && s.why().startsWith("no answer from " + job.rest() + "/jobs/overview"), s.toString());
    assertTrue(waitedS >= ClusterJob.REFUSED.toSeconds() && waitedS < 60, "asked for " + waitedS + " s");
  }

  /**
   * A JobManager's REST endpoint on loopback that answers {@code GET /jobs/overview} as Flink 1.19 does, with one job
   * of {@code name} in {@code state}.
   */
  static HttpServer jobManager(String name, String state) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/jobs/overview", x -> {
      byte[] body = ("{\"jobs\":[{\"jid\":\"12c95ad848f0adf4a8fbaba392f8eb68\",\"name\":\"" + name + "\","
          + "\"start-time\":1764897190000,\"end-time\":-1,\"duration\":5012,\"state\":\"" + state + "\","
          + "\"last-modification\":1764897190512,\"tasks\":{\"running\":2,\"total\":6}}]}")
          .getBytes(StandardCharsets.UTF_8);
      x.getResponseHeaders().add("Content-Type", "application/json; charset=UTF-8");
      x.sendResponseHeaders(200, body.length);
      try (var out = x.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return server;
  }

  /**
   * A folder whose client still runs, waiting for its job, is refused naming that client as alive (dogAC F9: it was
   * said to be a job running on after its client was killed); one whose client is gone says the job ran on.
   */
  @Test
  void aRunningJobsLockSaysWhetherItsClientStillWaitsForIt() throws Exception {
    String name = "h2beam-sweep-1207042815-96c11beb";
    HttpServer jm = jobManager(name, "RUNNING");
    try {
      ClusterJob job = ClusterJob.of("http://127.0.0.1:" + jm.getAddress().getPort(), name);
      Path file = dir.resolve(WriterLock.FILE);
      for (long pid : new long[] {ProcessHandle.current().pid(), WriterLockTest.gonePid()}) {
        Files.writeString(file, "{\"what\": \"sweep of x-oc-agg2\", \"host\": \"" + WriterLock.host()
            + "\", \"pid\": " + pid + ", \"started_at\": \"" + Instant.now() + "\", \"token\": \"t\", \"job\": "
            + Json.pretty(job.record()) + "}");
        String refusal = assertThrows(WriterLock.Held.class, () -> WriterLock.acquire(dir, "sweep", Duration.ZERO))
            .getMessage();
        boolean alive = pid == ProcessHandle.current().pid();
        assertEquals(alive, refusal.contains("submitted and still waits for (stopping that client with Ctrl-C or kill "
            + pid + " cancels the job)"), refusal);
        assertEquals(!alive, refusal.contains("a job runs on when its client is killed"), refusal);
        assertTrue(refusal.contains(job.describe() + " (RUNNING)") && refusal.endsWith("flink cancel"
            + " 12c95ad848f0adf4a8fbaba392f8eb68) and run again"), refusal);
      }
    } finally {
      jm.stop(0);
    }
  }

  @Test
  void everyHeldLockNamesTheJobWhileItRunsAndALockClosedMeanwhileGoesWhenItEnds() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    ClusterJob job = ClusterJob.of("http://127.0.0.1:8081", "h2beam-sweep-root-1205-4e5f6a7b");
    try (WriterLock outer = WriterLock.acquire(a, "sweep", Duration.ZERO)) {
      WriterLock inner = WriterLock.acquire(b, "sweep", Duration.ZERO);
      String token = Json.readTree(b.resolve(WriterLock.FILE)).path("token").asText();
      WriterLock.jobStarted(job);
      try {
        for (Path d : new Path[] {a, b}) {
          assertEquals(job, ClusterJob.from(Json.readTree(d.resolve(WriterLock.FILE))), d.toString());
        }
        assertEquals(token, Json.readTree(b.resolve(WriterLock.FILE)).path("token").asText(), "the same holder");
        inner.close();
        assertTrue(Files.exists(b.resolve(WriterLock.FILE)), "kept while a job may write");
      } finally {
        WriterLock.jobEnded(job);
      }
      assertFalse(Files.exists(b.resolve(WriterLock.FILE)), "let go once the job ended");
      assertEquals(null, ClusterJob.from(Json.readTree(a.resolve(WriterLock.FILE))), "the job is no longer named");
    }
    assertFalse(Files.exists(a.resolve(WriterLock.FILE)));
  }

  /** The JobManager's answer to {@code GET /jobs/overview}, in the shape Flink 1.19 gives it. */
  @Test
  void aJobIsRunningUntilFlinkReportsItFinishedCancelledOrFailedAndEndedWhenTheClusterDoesNotKnowIt()
      throws Exception {
    ClusterJob job = ClusterJob.of("http://jm:8081/", "h2beam-sweep-root-1205-0a1b2c3d");
    assertEquals("http://jm:8081", job.rest());
    String overview = "{\"jobs\":[{\"jid\":\"d06cf6a68f9871a3403ea0f20bea0d3a\",\"name\":\"other\","
        + "\"state\":\"RUNNING\"},{\"jid\":\"12c95ad848f0adf4a8fbaba392f8eb68\",\"name\":\"" + job.name()
        + "\",\"start-time\":1764897190000,\"state\":\"%s\"}]}";
    for (String running : new String[] {"INITIALIZING", "CREATED", "RUNNING", "RESTARTING", "CANCELLING"}) {
      ClusterJob.State s = job.stateIn(Json.readTree(String.format(overview, running)));
      assertEquals(ClusterJob.Phase.RUNNING, s.phase(), running);
      assertEquals("curl -X PATCH 'http://jm:8081/jobs/12c95ad848f0adf4a8fbaba392f8eb68?mode=cancel'",
          s.cancelCommand(job));
    }
    for (String ended : new String[] {"FINISHED", "CANCELED", "FAILED"}) {
      ClusterJob.State s = job.stateIn(Json.readTree(String.format(overview, ended)));
      assertEquals(ClusterJob.Phase.ENDED, s.phase(), ended);
      assertEquals(ended, s.flinkState());
    }
    assertEquals(ClusterJob.Phase.ENDED, job.stateIn(Json.readTree("{\"jobs\":[]}")).phase());
    assertEquals(ClusterJob.Phase.UNKNOWN, job.stateIn(Json.readTree("{\"errors\":[\"Not found\"]}")).phase());
    // a name given twice (--jobName): taken for the one that may still write
    String twice = "{\"jobs\":[{\"jid\":\"1\",\"name\":\"" + job.name() + "\",\"state\":\"FINISHED\"},"
        + "{\"jid\":\"2\",\"name\":\"" + job.name() + "\",\"state\":\"RUNNING\"}]}";
    assertEquals("2", job.stateIn(Json.readTree(twice)).jid());
  }
}
