package dev.h2beam.adapters.files;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job a client submitted to a Flink session cluster, which writes the folders the client's locks guard: the
 * JobManager's REST address and the job's name (Beam's default name is unique: the time and a random suffix). A job
 * outlives its client: killed with kill -9, or cut off, the client leaves the job running and writing on the cluster.
 * So while it runs, the client's locks name it ({@link WriterLock#jobStarted}); the next client asks the JobManager
 * before it takes such a lock over, and a client that exits any other way cancels its job first.
 */
public record ClusterJob(String rest, String name) {
  /** What the JobManager says of the job. */
  public enum Phase {
    /** Not ended: created, running, restarting, failing or being cancelled, so it may still write. */
    RUNNING,
    /** Finished, cancelled or failed for good, or not on the cluster at all. */
    ENDED,
    /** The JobManager could not be asked. */
    UNKNOWN
  }

  /**
   * The job's state: its phase, its id when the cluster has it, Flink's own name for the state, and for an unknown
   * phase why it is unknown.
   */
  public record State(Phase phase, String jid, String flinkState, String why, boolean refused) {
    /** A state whose JobManager answered, or did not for another reason than a refused connection. */
    public State(Phase phase, String jid, String flinkState, String why) {
      this(phase, jid, flinkState, why, false);
    }

    /** The command that cancels the job, for a running one. */
    public String cancelCommand(ClusterJob job) {
      return "curl -X PATCH '" + job.rest() + "/jobs/" + jid + "?mode=cancel'";
    }
  }

  /** The job {@code name} on the JobManager whose REST endpoint is at {@code rest} ({@code http://host:port}). */
  public static ClusterJob of(String rest, String name) {
    return new ClusterJob(rest.replaceAll("/+$", ""), name);
  }

  /** The job a lock file names ({@link #record}), or null when it names none. */
  static ClusterJob from(JsonNode lock) {
    JsonNode j = lock.path("job");
    String rest = j.path("flink_rest").asText("");
    String name = j.path("name").asText("");
    return rest.isEmpty() || name.isEmpty() ? null : new ClusterJob(rest, name);
  }

  /** The job as a lock file records it. */
  Map<String, Object> record() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("flink_rest", rest);
    m.put("name", name);
    return m;
  }

  /** A sentence naming the job, for messages. */
  public String describe() {
    return "the Flink job " + name + " on " + rest;
  }

  /** Asks the JobManager for the job's state ({@code GET /jobs/overview}); never throws. */
  public State state() {
    URI uri;
    try {
      uri = URI.create(rest + JobsOverview.PATH);
    } catch (IllegalArgumentException e) {
      return new State(Phase.UNKNOWN, "", "", rest + " is not an address");
    }
    try {
      HttpResponse<String> r = JobManagerRest.get(uri, Duration.ofSeconds(5));
      if (r.statusCode() != 200) return new State(Phase.UNKNOWN, "", "", "HTTP " + r.statusCode() + " from " + uri);
      return stateIn(Json.readTree(r.body()));
    } catch (IOException e) {
      return new State(Phase.UNKNOWN, "", "", JobManagerRest.noAnswer(uri, e), refused(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new State(Phase.UNKNOWN, "", "", "interrupted while asking " + uri);
    }
  }

  /**
   * The job's state in a {@code /jobs/overview} answer ({@link JobsOverview#job}): running while any job of its name
   * has not ended (a name given twice with {@code --jobName} is taken for the one that may still write), ended when
   * none is left running or the cluster does not know the name.
   */
  State stateIn(JsonNode overview) {
    if (!JobsOverview.listsJobs(overview)) {
      return new State(Phase.UNKNOWN, "", "", "the answer of " + rest + JobsOverview.PATH + " lists no jobs");
    }
    JsonNode j = JobsOverview.job(overview, name);
    if (j == null) return new State(Phase.ENDED, "", "not on the cluster", "");
    String state = j.path("state").asText("");
    return new State(JobsOverview.ended(state) ? Phase.ENDED : Phase.RUNNING, j.path("jid").asText(""), state, "");
  }

  /**
   * How long a job the cluster does not know must stay unknown before a cancel takes it for never submitted: the
   * client may still be sending it (the jar goes first), and other threads run on while an exiting JVM's hooks run.
   */
  static final Duration UNSEEN = Duration.ofSeconds(3);

  /** Whether {@code e}, or a cause of it, is a refused connection: nothing listens at the address. */
  private static boolean refused(Throwable e) {
    return Causes.any(e, t -> t instanceof java.net.ConnectException);
  }

  /**
   * How long a JobManager that refuses every connection is asked on: its process is gone (or the network between),
   * so no cancel can reach it. The client's exit waited the whole cancel wait for it twice, a minute after a lost
   * JobManager (dogAC F3, F6); the locks keep naming the job either way.
   */
  static final Duration REFUSED = Duration.ofSeconds(5);

  /**
   * Cancels the job ({@code PATCH /jobs/<jid>?mode=cancel}) and waits up to {@code wait} for it to end; returns the
   * last state seen: ended, or still running or unknown when the wait ran out or the JobManager did not answer
   * (refusing every connection for {@link #REFUSED}, it is not waited for longer).
   */
  public State cancel(Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    State s = state();
    boolean asked = false;
    long unseenSince = 0;
    long refusedSince = 0;
    while (System.nanoTime() < deadline) {
      if (s.refused()) {
        if (refusedSince == 0) refusedSince = System.nanoTime();
        if (System.nanoTime() - refusedSince >= REFUSED.toNanos()) break;
      } else {
        refusedSince = 0;
      }
      if (s.phase() == Phase.ENDED) {
        if (!s.jid().isEmpty()) break;
        // not on the cluster: ended only once it has stayed so for a while (a submission may be under way)
        if (unseenSince == 0) unseenSince = System.nanoTime();
        if (System.nanoTime() - unseenSince >= UNSEEN.toNanos()) break;
      } else {
        unseenSince = 0;
      }
      if (s.phase() == Phase.RUNNING && !asked) {
        try {
          HttpResponse<String> r = JobManagerRest.patch(URI.create(rest + "/jobs/" + s.jid() + "?mode=cancel"),
              Duration.ofSeconds(5));
          asked = r.statusCode() / 100 == 2;
        } catch (IOException e) {
          // asked again below, while the wait lasts
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return s;
        }
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return s;
      }
      s = state();
    }
    return s;
  }
}
