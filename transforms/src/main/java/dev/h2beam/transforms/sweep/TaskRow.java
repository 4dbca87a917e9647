package dev.h2beam.transforms.sweep;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/** A finished task's row in its domain's record (spec §8.5). */
public record TaskRow(TaskRef ref, String status, String error, Map<String, Integer> libraryEntriesBefore)
    implements Serializable {
  public TaskRow {
    libraryEntriesBefore = new LinkedHashMap<>(libraryEntriesBefore);
  }

  public boolean done() {
    return status.equals("ok") || status.equals("skipped");
  }
}
