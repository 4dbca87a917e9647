package dev.h2beam.pipelines.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.JobManagerRest;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.pipelines.FlinkMaster;
import dev.h2beam.pipelines.UsageError;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * What the client learns of the Flink cluster a job goes to before building it: how many worker processes
 * (TaskManagers) and slots it has, read from the JobManager's REST endpoint ({@code GET /overview}). The slots set the
 * job's parallelism when none is given, and the chains' placement; the worker count divides the job's limits.
 */
public final class FlinkCluster {
  private FlinkCluster() {}

  /** A cluster's shape: worker processes and the slots they offer. */
  public record Shape(int workers, int slots) {}

  /**
   * The shape the job will run on: one worker with this machine's processors for an embedded cluster, the remote
   * cluster's as its JobManager reports it; {@code --parallelism}, when given, is the slots the job uses.
   */
  public static Shape shape(PipelineOptions o) {
    FlinkPipelineOptions f = o.as(FlinkPipelineOptions.class);
    int given = f.getParallelism() == null ? -1 : f.getParallelism();
    if (Sweep.runsLocally(o)) return new Shape(1, given > 0 ? given : Runtime.getRuntime().availableProcessors());
    Shape remote = overview(f.getFlinkMaster());
    if (given > remote.slots()) {
      // the job would wait, saying nothing, for slots that never come, until Flink's slot request times out (dogAC F5)
      throw new UsageError("--parallelism=" + given + " asks for more slots than the Flink cluster at --flinkMaster="
          + f.getFlinkMaster() + " has (" + remote.slots() + " on " + remote.workers() + " TaskManager(s)): the job"
          + " would wait for slots that never come; give --parallelism=" + remote.slots() + " or less (or leave it"
          + " out to use them all), or start more TaskManagers first");
    }
    return given > 0 ? new Shape(remote.workers(), given) : remote;
  }

  /** Asks the JobManager at {@code master} (host:port of its REST endpoint) for its TaskManagers and slots. */
  public static Shape overview(String master) {
    URI uri;
    try {
      uri = URI.create(FlinkMaster.rest(master) + "/overview");
    } catch (IllegalArgumentException e) {
      throw new UsageError("--flinkMaster=" + master + " is not an address; give the JobManager's REST endpoint as"
          + " host:port (for example 127.0.0.1:8081)");
    }
    String why;
    try {
      HttpResponse<String> r = JobManagerRest.get(uri, Duration.ofSeconds(10));
      if (r.statusCode() == 200) {
        JsonNode n = Json.readTree(r.body());
        int workers = n.path("taskmanagers").asInt(0);
        int slots = n.path("slots-total").asInt(0);
        if (workers < 1 || slots < 1) {
          throw new UsageError("--flinkMaster=" + master + ": the Flink cluster has " + workers + " TaskManager(s) and "
              + slots + " slot(s); start its TaskManagers (scripts/flink-cluster.sh start-taskmanager) and run again");
        }
        return new Shape(workers, slots);
      }
      why = "HTTP " + r.statusCode() + " from " + uri;
    } catch (IOException e) {
      why = JobManagerRest.noAnswer(uri, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UsageError("interrupted while asking the Flink cluster at --flinkMaster=" + master + " for its shape");
    }
    throw new UsageError("--flinkMaster=" + master + " does not reach a Flink JobManager: " + why + ". Start the"
        + " cluster (scripts/flink-cluster.sh start) or give the address of its REST endpoint (host:port)");
  }

  /** The CPU a JobManager's JVM has used since it started, in seconds; or, when that is not known, why. */
  public record JobManagerCpu(double seconds, String unknown) {
    static JobManagerCpu unknown(String why) {
      return new JobManagerCpu(Double.NaN, why);
    }

    public boolean known() {
      return unknown == null;
    }
  }

  /** How often the metrics are asked for again while waiting for them to refresh. */
  static final Duration METRICS_POLL = Duration.ofMillis(500);

  /**
   * The CPU time of the JobManager at {@code master} ({@code Status.JVM.CPU.Time}, nanoseconds), as its metrics tell
   * it after their next refresh. The REST endpoint answers from a store it refreshes at most every
   * {@code metrics.fetcher.update-interval} (10 s by default), so a value read once may leave out the last seconds'
   * work: the value is asked for until it changes, for at most {@code wait}. A JobManager always spends some CPU, so a
   * value that has not changed by then is a store that does not refresh: that reading is returned as unknown. A new
   * JobManager's store is empty until its first refresh, whose value is then taken. Never throws.
   */
  public static JobManagerCpu jobManagerCpu(String master, Duration wait) {
    URI uri;
    try {
      uri = URI.create(FlinkMaster.rest(master) + "/jobmanager/metrics?get=Status.JVM.CPU.Time");
    } catch (IllegalArgumentException | UsageError e) {
      return JobManagerCpu.unknown("--flinkMaster=" + master + " is not an address");
    }
    long deadline = System.nanoTime() + wait.toNanos();
    String first = null;
    boolean empty = false;
    while (true) {
      String value;
      try {
        HttpResponse<String> r = JobManagerRest.get(uri, Duration.ofSeconds(10));
        if (r.statusCode() != 200) return JobManagerCpu.unknown("HTTP " + r.statusCode() + " from " + uri);
        value = cpuValue(Json.readTree(r.body()));
      } catch (IOException e) {
        return JobManagerCpu.unknown(JobManagerRest.noAnswer(uri, e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return JobManagerCpu.unknown("interrupted while asking " + uri);
      }
      if (value == null) {
        // a JobManager's store is empty until its first refresh, which this question set off
        if (System.nanoTime() > deadline) {
          return JobManagerCpu.unknown(uri + " does not report Status.JVM.CPU.Time in " + wait.toSeconds() + " s (a"
              + " JVM that does not measure its CPU)");
        }
        empty = true;
      } else if (first == null && !empty) {
        first = value;
      } else if (empty || !first.equals(value)) {
        // changed, or the store's first value: either was read after this question
        try {
          return new JobManagerCpu(Long.parseLong(value) / 1e9, null);
        } catch (NumberFormatException e) {
          return JobManagerCpu.unknown(uri + " reports Status.JVM.CPU.Time as " + value + ", not a number");
        }
      }
      if (System.nanoTime() > deadline) {
        return JobManagerCpu.unknown("the metrics of " + uri + " did not refresh in " + wait.toSeconds() + " s");
      }
      try {
        Thread.sleep(METRICS_POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return JobManagerCpu.unknown("interrupted while asking " + uri);
      }
    }
  }

  /** The value of {@code Status.JVM.CPU.Time} in a metrics answer ({@code [{"id": ..., "value": ...}]}), or null. */
  private static String cpuValue(JsonNode metrics) {
    for (JsonNode m : metrics) {
      if ("Status.JVM.CPU.Time".equals(m.path("id").asText()) && m.hasNonNull("value")) {
        String v = m.path("value").asText().strip();
        return v.isEmpty() || v.startsWith("-") ? null : v;
      }
    }
    return null;
  }
}
