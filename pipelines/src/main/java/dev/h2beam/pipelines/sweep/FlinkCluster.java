package dev.h2beam.pipelines.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.h2beam.pipelines.FlinkMaster;
import dev.h2beam.pipelines.UsageError;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200) {
        JsonNode n = new ObjectMapper().readTree(r.body());
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
      why = "no answer from " + uri + " (" + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
          + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UsageError("interrupted while asking the Flink cluster at --flinkMaster=" + master + " for its shape");
    }
    throw new UsageError("--flinkMaster=" + master + " does not reach a Flink JobManager: " + why + ". Start the"
        + " cluster (scripts/flink-cluster.sh start) or give the address of its REST endpoint (host:port)");
  }
}
