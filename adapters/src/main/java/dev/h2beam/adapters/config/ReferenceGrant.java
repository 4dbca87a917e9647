package dev.h2beam.adapters.config;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A reference egress grant of the configuration ({@code grants:}): permission for the judge of one benchmark to send
 * that benchmark's grading references to one endpoint and one pinned model. A grader that sends references grades
 * only under a grant that matches it on every field; without one nothing is sent (seed document 001).
 *
 * @param benchmark the benchmark whose references may leave, as namespaces name it (e.g. {@code signed_sums})
 * @param endpoint the name of the endpoint under {@code endpoints:} they may go to
 * @param model the judge model, pinned: exactly the model the judge role names
 * @param references what is sent, as the grader names it (e.g. {@code grading/rubric.json})
 */
public record ReferenceGrant(String benchmark, String endpoint, String model, String references)
    implements Serializable {
  /** The grant's fields in the order the file writes them. */
  public static final List<String> FIELDS = List.of("benchmark", "endpoint", "model", "references");

  public ReferenceGrant {
    Objects.requireNonNull(benchmark, "benchmark");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(references, "references");
  }

  /** The fields (of {@link #FIELDS}) on which this grant differs from {@code other}, in that order. */
  public List<String> differences(ReferenceGrant other) {
    List<String> out = new ArrayList<>();
    if (!benchmark.equals(other.benchmark)) out.add("benchmark");
    if (!endpoint.equals(other.endpoint)) out.add("endpoint");
    if (!model.equals(other.model)) out.add("model");
    if (!references.equals(other.references)) out.add("references");
    return out;
  }

  /** A field's value by name (one of {@link #FIELDS}). */
  public String field(String name) {
    return switch (name) {
      case "benchmark" -> benchmark;
      case "endpoint" -> endpoint;
      case "model" -> model;
      case "references" -> references;
      default -> throw new IllegalArgumentException("a grant has no field " + name + "; fields: " + FIELDS);
    };
  }

  /** The entry as one line of the file's {@code grants:} list, ready to paste. */
  public String entry() {
    StringBuilder sb = new StringBuilder("{");
    for (String f : FIELDS) {
      if (sb.length() > 1) sb.append(", ");
      sb.append(f).append(": ").append(quoted(field(f)));
    }
    return sb.append('}').toString();
  }

  private static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
