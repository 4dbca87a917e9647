package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.List;

/** The rows of one {@code judged.json}, in file order. */
public record JudgedFile(String path, List<Scored> rows) implements Serializable {
  public JudgedFile {
    rows = List.copyOf(rows);
  }
}
