package dev.h2beam.pipelines.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Causes;
import dev.h2beam.adapters.files.JobManagerRest;
import dev.h2beam.adapters.files.JobsOverview;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.FlinkMaster;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * What the JobManager says of a job on a remote Flink cluster (a sweep's, a judge's, a report's) while the client
 * waits for it, asked every {@link #POLL_MS} by a thread of the client: the job's state, how many times it restarted
 * and when last, how many of its subtasks wait for a slot, and since when the JobManager does not answer. The workers'
 * boards cannot tell any of it: a job restarting after a lost TaskManager, or waiting for slots another job holds,
 * showed frozen counts and {@code workers 0}, and a lost JobManager a growing estimate for two minutes (dogAC F3, F7,
 * F9).
 *
 * <p>When the JobManager has not answered for {@link #GIVE_UP_MS}, the thread waiting for the job ({@link #await}) is
 * interrupted and ends with {@link JobManagerSilent}, whose cause chain carries the runner's own failure, so the
 * client's end says what Main says of a lost cluster. The job's locks keep naming the job: its state is not known.
 */
public final class JobWatch implements AutoCloseable {
  static final long POLL_MS = 2_000;
  static final long GIVE_UP_MS = 30_000;
  private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

  /**
   * One look at the job: Flink's name of its state ({@code ""} while the cluster does not list it: being submitted),
   * its restarts and the time of the last one (0: none), its subtasks waiting for a slot ({@code SCHEDULED}) of all
   * its subtasks, and, when the JobManager does not answer, since when (else -1) and why, and whether it does answer,
   * but only with errors ({@code erring}: an error status or an unreadable body since then, no connection refused or
   * timed out), which the client gives up on as on silence: either way it learns nothing of its job.
   */
  record Status(String rest, String state, int restarts, long restartedMs, int waitingForSlots, int subtasks,
      long silentSinceMs, String why, boolean erring) {
    /** A look that was answered, or not at all. */
    Status(String rest, String state, int restarts, long restartedMs, int waitingForSlots, int subtasks,
        long silentSinceMs, String why) {
      this(rest, state, restarts, restartedMs, waitingForSlots, subtasks, silentSinceMs, why, false);
    }

    boolean answering() {
      return silentSinceMs < 0;
    }

    /**
     * Whether the job works: the JobManager answers and says it runs with every subtask in a slot (not being
     * submitted, restarting, or waiting for slots, when no task moves however long it lasts).
     */
    boolean working() {
      return answering() && state.equals("RUNNING") && waitingForSlots == 0;
    }

    /** What the progress line says of the job; empty for a job that runs as it should, with no restart. */
    String describe() {
      if (!answering()) {
        return "the JobManager at " + rest + (erring ? " answers only with errors" : " does not answer") + " since "
            + HMS.format(Instant.ofEpochMilli(silentSinceMs).atZone(ZoneId.systemDefault())) + " (" + why + ")";
      }
      if (state.isEmpty()) return "job not on the cluster yet (being submitted)";
      String after = restarts == 0 ? "" : " after " + restarts + (restarts == 1 ? " restart" : " restarts");
      if (waitingForSlots > 0) {
        return String.format(Locale.ROOT, "job %s%s, waiting for slots (%d of %d subtasks)", state, after,
            waitingForSlots, subtasks);
      }
      return state.equals("RUNNING") && restarts == 0 ? "" : "job " + state + after;
    }
  }

  private final String rest;
  private final String name;
  private final LongSupplier clock;
  private final long giveUpMs;
  private volatile Status status;
  private long lastRestartSeen;
  private int restartsSeen;
  private Thread poller;
  /** The thread waiting for the job ({@link #await}), interrupted when the JobManager is given up; guarded by this. */
  private Thread waiting;
  private volatile boolean gaveUp;

  /** Watches the job {@code name} on the JobManager whose REST endpoint is {@code rest} ({@code http://host:port}). */
  JobWatch(String rest, String name, LongSupplier clock, long giveUpMs) {
    this.rest = rest.replaceAll("/+$", "");
    this.name = name;
    this.clock = clock;
    this.giveUpMs = giveUpMs;
    this.status = new Status(this.rest, "", 0, 0, 0, 0, -1, "");
  }

  /** The watch of the job these options submit to a remote Flink cluster, asking already; null for any other run. */
  static JobWatch of(PipelineOptions o) {
    String master = FlinkMaster.remote(o);
    if (master == null) return null;
    return new JobWatch(FlinkMaster.rest(master), o.getJobName(), System::currentTimeMillis, GIVE_UP_MS).start();
  }

  /**
   * {@link FlinkMaster#runToEnd} under a watch of its job, for a command that shows no progress of its own (the judge,
   * the report): a lost JobManager ends its wait after {@link #GIVE_UP_MS}, not after Flink's client gives up (two
   * minutes; dogAC F6).
   */
  public static PipelineResult runToEnd(Pipeline p) throws IOException {
    try (JobWatch watch = of(p.getOptions())) {
      return watch == null ? FlinkMaster.runToEnd(p) : watch.await(() -> FlinkMaster.runToEnd(p));
    }
  }

  /** Starts asking, on a daemon thread, every {@link #POLL_MS}. */
  JobWatch start() {
    poller = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        lookOnce();
        try {
          Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "h2beam-job-watch");
    poller.setDaemon(true);
    poller.start();
    return this;
  }

  /** The last look's answer. */
  Status status() {
    return status;
  }

  /**
   * Asks the JobManager once; interrupts the waiting thread when it has not answered for {@code giveUpMs}, and again
   * at each look while that thread still waits: the runner takes the first interrupt for its failure and clears it,
   * and the client then waited 30 s more to cancel a job on a JobManager that refuses every connection (the exit
   * hook's cancel, which follows, tries again).
   */
  void lookOnce() {
    status = look();
    if (!status.answering() && clock.getAsLong() - status.silentSinceMs() >= giveUpMs) {
      synchronized (this) {
        if (waiting != null) {
          gaveUp = true;
          waiting.interrupt();
        }
      }
    }
  }

  private Status look() {
    long now = clock.getAsLong();
    Status before = status;
    JsonNode job;
    try {
      job = JobsOverview.job(get(JobsOverview.PATH), name);
    } catch (IOException e) {
      long since = before.answering() ? now : before.silentSinceMs();
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      // answered with an error status or a body that is no answer: the JobManager is there, and still of no use
      boolean erring = e instanceof ErrorAnswer || e instanceof com.fasterxml.jackson.core.JsonProcessingException;
      return new Status(rest, before.state(), before.restarts(), before.restartedMs(), 0, before.subtasks(), since,
          why, erring);
    }
    if (job == null) return new Status(rest, "", 0, 0, 0, 0, -1, "");
    String jid = job.path("jid").asText();
    int restarts = before.restarts();
    long restarted = before.restartedMs();
    try {
      // the time the job last entered RESTARTING: each restart sets it anew
      restarted = get("/jobs/" + jid).path("timestamps").path("RESTARTING").asLong(0);
      if (restarted > 0 && restarted != lastRestartSeen) {
        lastRestartSeen = restarted;
        restartsSeen++;
      }
      // Flink's own count, from a metrics store refreshed every 10 s; two restarts between looks are one above
      JsonNode metric = get("/jobs/" + jid + "/metrics?get=numRestarts");
      restarts = Math.max(restartsSeen, metric.isArray() && !metric.isEmpty() ? metric.get(0).path("value").asInt(0)
          : 0);
    } catch (IOException e) {
      restarts = Math.max(restarts, restartsSeen);
    }
    JsonNode tasks = job.path("tasks");
    return new Status(rest, job.path("state").asText(), restarts, restarted, tasks.path("scheduled").asInt(),
        tasks.path("total").asInt(), -1, "");
  }

  private JsonNode get(String path) throws IOException {
    URI uri = URI.create(rest + path);
    try {
      HttpResponse<String> r = JobManagerRest.get(uri, Duration.ofSeconds(5));
      if (r.statusCode() != 200) throw new ErrorAnswer("HTTP " + r.statusCode() + " from " + uri);
      return Json.readTree(r.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + uri, e);
    }
  }

  /** The JobManager answered, with an error status. */
  private static final class ErrorAnswer extends IOException {
    private static final long serialVersionUID = 1L;

    ErrorAnswer(String message) {
      super(message);
    }
  }

  /**
   * Runs {@code wait} (the client waiting for its job) on this thread, which is interrupted when the JobManager has
   * not answered for {@code giveUpMs}: then ends with {@link JobManagerSilent}, the runner's failure below it.
   */
  <T> T await(Wait<T> wait) throws IOException {
    synchronized (this) {
      waiting = Thread.currentThread();
    }
    try {
      return wait.run();
    } catch (IOException | RuntimeException e) {
      if (gaveUp) lost(e);
      throw e;
    } finally {
      synchronized (this) {
        waiting = null;
      }
      // the interrupt was this watch's, for the wait only: what the thread does next must not see it
      if (gaveUp) Thread.interrupted();
    }
  }

  /** The client's wait for its job. */
  interface Wait<T> {
    T run() throws IOException;
  }

  /**
   * Puts {@link JobManagerSilent} at the bottom of the failure of a wait this watch gave up, so that the failure names
   * the JobManager's silence (Main prints the innermost cause, and its advice for a lost cluster) and still reads as
   * the runner's.
   */
  private void lost(Exception runner) {
    JobManagerSilent silent = new JobManagerSilent(status.describe() + ", " + giveUpMs / 1000 + " s without "
        + (status.erring() ? "a usable" : "an") + " answer; the client stops waiting for the job");
    Throwable t = Causes.innermost(runner);
    try {
      t.initCause(silent);
    } catch (IllegalStateException e) {
      // a cause given as none cannot be set: the silence goes beside the runner's failure
      runner.addSuppressed(silent);
    }
  }

  /** The JobManager stopped answering while the client waited for its job. */
  static final class JobManagerSilent extends ConnectException {
    JobManagerSilent(String message) {
      super(message);
    }
  }

  @Override public void close() {
    if (poller != null) poller.interrupt();
  }
}
