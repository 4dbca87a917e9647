package dev.h2beam.transforms.sweep;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The per-domain records of a sweep (spec §8.5) built from its finished task rows, in stream order. */
public final class SweepRecord {
  private SweepRecord() {}

  /**
   * The sweep record (spec §8.6): the header's keys (identity, domain order, started_at), then finished_at,
   * n_domains and one record per domain, each carrying the header's seed.
   */
  public static Map<String, Object> record(Map<String, Object> header, List<TaskRow> rows, String finishedAt) {
    Map<String, Object> record = new LinkedHashMap<>(header);
    record.put("finished_at", finishedAt);
    List<Map<String, Object>> domains = domains(rows, record.get("seed"));
    record.put("n_domains", domains.size());
    record.put("domains", domains);
    return record;
  }

  /**
   * Writes the sweep record of {@code rows} to {@code path}, finished now, and returns its text. The header is given
   * as its JSON text, as a pipeline carries it.
   */
  public static String write(Path path, String headerJson, List<TaskRow> rows) throws IOException {
    String json = Json.pretty(record(Json.readMap(headerJson), rows, Instant.now().toString())) + "\n";
    AtomicFiles.writeString(path, json);
    return json;
  }

  /** The rows in stream order (tasks finish, and their rows arrive, in no set order). */
  public static List<TaskRow> inStreamOrder(List<TaskRow> rows) {
    List<TaskRow> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparingInt(r -> r.ref().index()));
    return sorted;
  }

  /** One record per domain, domains and tasks in stream order. */
  public static List<Map<String, Object>> domains(List<TaskRow> rows, Object seed) {
    List<TaskRow> sorted = inStreamOrder(rows);
    LinkedHashMap<String, List<TaskRow>> byDomain = new LinkedHashMap<>();
    for (TaskRow r : sorted) byDomain.computeIfAbsent(r.ref().domain(), d -> new ArrayList<>()).add(r);
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, List<TaskRow>> e : byDomain.entrySet()) {
      int done = 0;
      int failed = 0;
      List<Object> tasks = new ArrayList<>();
      for (TaskRow r : e.getValue()) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("task", r.ref().task());
        t.put("status", r.status());
        if (r.done()) done++;
        else {
          failed++;
          t.put("error", r.error());
        }
        t.put("library_entries_before", r.libraryEntriesBefore());
        tasks.add(t);
      }
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("domain", e.getKey());
      d.put("n_tasks", e.getValue().size());
      d.put("seed", seed);
      d.put("done", done);
      d.put("failed", failed);
      d.put("tasks", tasks);
      out.add(d);
    }
    return out;
  }
}
