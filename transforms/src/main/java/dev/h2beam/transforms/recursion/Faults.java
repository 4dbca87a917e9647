package dev.h2beam.transforms.recursion;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Deliberate faults for testing the method's guards ({@code --inject=kind@task/mode,...}). Kinds:
 * {@code ledger-duplicate} records one rollout label twice before the ledger check, which must then refuse the mode.
 */
public final class Faults implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final Set<String> KINDS = Set.of("ledger-duplicate");
  public static final Faults NONE = new Faults(List.of());

  private final List<String> entries;

  private Faults(List<String> entries) {
    this.entries = List.copyOf(entries);
  }

  /** Parses {@code kind@task/mode} entries; an empty string means none. */
  public static Faults parse(String spec) {
    if (spec == null || spec.isBlank()) return NONE;
    List<String> out = new ArrayList<>();
    for (String raw : spec.split(",")) {
      String e = raw.strip();
      int at = e.indexOf('@');
      int slash = e.lastIndexOf('/');
      if (at < 1 || slash < at + 2 || slash == e.length() - 1 || !KINDS.contains(e.substring(0, at))) {
        throw new IllegalArgumentException("--inject entry '" + e + "' must look like kind@task/mode with kind one of "
            + KINDS);
      }
      out.add(e);
    }
    return new Faults(out);
  }

  public boolean has(String kind, String task, String mode) {
    return entries.contains(kind + "@" + task + "/" + mode);
  }

  @Override public String toString() {
    return String.join(",", entries);
  }
}
