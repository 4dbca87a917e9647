package dev.h2beam.adapters.files;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/**
 * A Flink JobManager's answer to {@code GET /jobs/overview}, read for one job: whether a lock's job may still write
 * ({@link ClusterJob}) and what a client's progress line says of its job (the sweep's job watch) are read from it
 * alike. Flink 1.19 lists the jobs in no order (a hash set of them), and a name given twice with {@code --jobName} is
 * taken for the job that may still write.
 */
public final class JobsOverview {
  private JobsOverview() {}

  /** Where the answer is, below the JobManager's REST address ({@code http://host:port}). */
  public static final String PATH = "/jobs/overview";

  /** Flink's globally terminal job states: a job in one of them writes nothing more. */
  private static final Set<String> ENDED = Set.of("FINISHED", "CANCELED", "FAILED");

  /** Whether {@code flinkState} (Flink's name of a job's state) is one in which the job writes nothing more. */
  public static boolean ended(String flinkState) {
    return ENDED.contains(flinkState);
  }

  /** Whether {@code overview} lists jobs at all (an error's answer does not). */
  public static boolean listsJobs(JsonNode overview) {
    return overview.path("jobs").isArray();
  }

  /**
   * The entry ({@code jid}, {@code name}, {@code state}, {@code tasks}, ...) of the job {@code name} in {@code
   * overview}: the first of that name that has not {@link #ended}, else the last that has; null when none has the
   * name.
   */
  public static JsonNode job(JsonNode overview, String name) {
    JsonNode ended = null;
    for (JsonNode j : overview.path("jobs")) {
      if (!name.equals(j.path("name").asText())) continue;
      if (!ended(j.path("state").asText(""))) return j;
      ended = j;
    }
    return ended;
  }
}
