package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.WriterLock;
import dev.h2beam.transforms.recursion.TaskScope;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where and when each (mode, domain) chain ran: host, process, worker thread (on Flink its name carries the slot,
 * "(i/P)"), start and end, one file per chain under the audit folder ({@code chains/<mode>.<domain>.json}), so
 * anyone can check from the files alone that chains spread over the worker slots. Diagnostic: no result depends on
 * it, and a replayed chain rewrites its own.
 */
public final class ChainRecord {
  private ChainRecord() {}

  /** The record's path for a chain. */
  public static Path file(SweepConfig config, String mode, String domain) {
    return TaskScope.auditDir(config.runs(), config.summaryNamespace()).resolve("chains")
        .resolve(mode + "." + domain.replaceAll("[^A-Za-z0-9_.-]+", "_") + ".json");
  }

  public static void write(SweepConfig config, String mode, String domain, int tasks, Instant started, Instant ended) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", mode);
    m.put("domain", domain);
    m.put("tasks", tasks);
    m.put("host", WriterLock.host());
    m.put("pid", ProcessHandle.current().pid());
    m.put("jvm", ManagementFactory.getRuntimeMXBean().getName());
    m.put("thread", Thread.currentThread().getName());
    m.put("started_at", started.toString());
    m.put("ended_at", ended.toString());
    try {
      Path f = file(config, mode, domain);
      Files.createDirectories(f.getParent());
      AtomicFiles.writeString(f, Json.pretty(m) + "\n");
    } catch (IOException e) {
      System.err.println("h2beam: could not write the chain record for " + mode + "/" + domain + ": " + e.getMessage());
    }
  }
}
