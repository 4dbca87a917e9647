package dev.h2beam.pipelines;

import dev.h2beam.adapters.files.ClusterJob;
import dev.h2beam.adapters.files.WriterLock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Set;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Checks, before any pipeline is built, that the Flink cluster named by {@code --flinkMaster} answers. Without this
 * check an unreachable master surfaced only at job submission, as a 115-line stack trace that named neither the flag
 * nor what to do. Also the one place that tells a remote cluster from Flink in this process, for every check that
 * depends on it (the folders, the staged jars, the cluster's shape).
 */
public final class FlinkMaster {
  /** Flink's REST port when the address names none. */
  static final int DEFAULT_PORT = 8081;
  /** Masters that run inside this process and need no connection, spelled as Beam's Flink runner compares them. */
  private static final Set<String> EMBEDDED = Set.of("[local]", "[auto]");
  /** Flink's collection executor, which Beam's runner also offers, and which h2beam refuses ({@link #requireUsable}). */
  static final String COLLECTION = "[collection]";

  private FlinkMaster() {}

  /** Whether these options run on Flink, embedded or remote. */
  public static boolean isFlink(PipelineOptions o) {
    return o.getRunner() != null && o.getRunner().getSimpleName().equals("FlinkRunner");
  }

  /**
   * The {@code --flinkMaster} of options that run on a remote Flink cluster, or null (another runner, or Flink
   * embedded in this process). The names of the embedded masters are compared as Beam compares them, unstripped: Beam
   * takes {@code " [local]"} for a host's address, and so does this check.
   */
  public static String remote(PipelineOptions o) {
    if (!isFlink(o)) return null;
    String master = o.as(FlinkPipelineOptions.class).getFlinkMaster();
    return master == null || EMBEDDED.contains(master) ? null : master;
  }

  /**
   * Refuses a detached submission, Flink's collection executor, and a remote Flink master nothing answers at within
   * {@code timeout}. The collection executor ran the demo's sweep to its end and reported one task of two, done: the
   * other task's chains never ran, and nothing said so.
   */
  static void requireUsable(PipelineOptions o, Duration timeout) {
    if (!isFlink(o)) return;
    FlinkPipelineOptions flink = o.as(FlinkPipelineOptions.class);
    if (!flink.getAttachedMode()) {
      throw new UsageError("--attachedMode=false submits the job detached, but every h2beam command waits for its job"
          + " and then writes from what it wrote (the sweep's record, the judge's rows, the report); on an embedded"
          + " Flink a detached sweep ran its tasks and then failed with the cluster gone. Leave the flag out; to keep a"
          + " sweep going after the terminal closes, run the client with nohup (a sweep run again resumes where it"
          + " stopped)");
    }
    if (COLLECTION.equals(flink.getFlinkMaster())) {
      throw new UsageError("--flinkMaster=" + COLLECTION + " runs Flink's collection executor, which loses part of"
          + " h2beam's pipelines (a demo sweep on it finished one of its two tasks and reported no failure); use"
          + " --flinkMaster=[local] to run Flink in this process, or host:port of a cluster's JobManager");
    }
    String master = remote(o);
    if (master == null) return;
    InetSocketAddress address = address(master);
    try (Socket s = new Socket()) {
      s.connect(address, (int) timeout.toMillis());
    } catch (UnknownHostException e) {
      throw unreachable(master, "the host " + address.getHostString() + " is unknown");
    } catch (IOException e) {
      throw unreachable(master, "nothing answers at " + address.getHostString() + ":" + address.getPort() + " ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
    }
  }

  /**
   * Runs the pipeline to its end and returns its result. A job on a remote cluster outlives its client, so while it
   * runs every lock this process holds names it ({@link WriterLock#jobStarted}): a client killed with kill -9 leaves
   * locks that the next client takes over only once the JobManager reports the job ended, and a client told to exit
   * cancels the job first. A run that ends in an exception while its job may still be running (the client cut off
   * from the JobManager, say) cancels the job; the locks stop naming it once it has ended.
   */
  public static PipelineResult runToEnd(Pipeline p) throws IOException {
    String master = remote(p.getOptions());
    if (master == null) {
      PipelineResult r = p.run();
      r.waitUntilFinish();
      return r;
    }
    ClusterJob job = ClusterJob.of(rest(master), p.getOptions().getJobName());
    WriterLock.jobStarted(job);
    boolean ended = false;
    try {
      PipelineResult r = p.run();
      r.waitUntilFinish();
      ended = true;
      return r;
    } finally {
      if (!ended) ended = job.cancel(WriterLock.CANCEL_WAIT).phase() == ClusterJob.Phase.ENDED;
      if (ended) WriterLock.jobEnded(job);
    }
  }

  /** The URL of the REST endpoint a {@code --flinkMaster} value names ({@code http://host:port}, 8081 by default). */
  public static String rest(String master) {
    String scheme = master.strip().matches("(?i)^https://.*") ? "https://" : "http://";
    InetSocketAddress a = address(master);
    String host = a.getHostString();
    return scheme + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  /** The host and port of a {@code --flinkMaster} value such as {@code host:8081} or {@code http://host:8081/}. */
  static InetSocketAddress address(String master) {
    String a = master.strip().replaceFirst("^[A-Za-z]+://", "").replaceFirst("/.*$", "");
    String host = a;
    int port = DEFAULT_PORT;
    int colon = a.lastIndexOf(':');
    if (colon > 0 && colon > a.lastIndexOf(']')) {
      host = a.substring(0, colon);
      try {
        port = Integer.parseInt(a.substring(colon + 1));
      } catch (NumberFormatException e) {
        port = -1;
      }
    }
    if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
    if (host.isEmpty() || port < 1 || port > 65535) {
      throw new UsageError("--flinkMaster=" + master + " is not an address; expected host:port of the Flink"
          + " JobManager's REST endpoint (e.g. --flinkMaster=flink-jm:" + DEFAULT_PORT + "), or [local] to run Flink"
          + " in this process");
    }
    return new InetSocketAddress(host, port); // left unresolved when the host is unknown: connect says so
  }

  private static UsageError unreachable(String master, String why) {
    return new UsageError("--flinkMaster=" + master + ": no Flink cluster answers: " + why + ". Start the cluster or"
        + " correct the address (host:port of the JobManager's REST endpoint, usually port " + DEFAULT_PORT + "),"
        + " or run Flink in this process with --flinkMaster=[local]");
  }
}
