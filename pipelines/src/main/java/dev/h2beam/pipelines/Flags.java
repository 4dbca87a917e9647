package dev.h2beam.pipelines;

import dev.h2beam.adapters.model.Namespace;
import java.util.ArrayList;
import java.util.List;

/** Parsing shared by every command's flags, with errors that name the flag. */
public final class Flags {
  private Flags() {}

  /** The non-blank, trimmed parts of a comma list. */
  public static List<String> split(String s) {
    if (s == null || s.isBlank()) return List.of();
    List<String> out = new ArrayList<>();
    for (String p : s.split(",")) if (!p.isBlank()) out.add(p.strip());
    return out;
  }

  /** {@code --modes}: mode names or tokens, normalised to tokens in the fixed order agg, seq. */
  public static List<String> modes(String spec) {
    List<String> tokens = new ArrayList<>();
    for (String raw : split(spec)) {
      String t;
      try {
        t = Namespace.modeToken(raw);
      } catch (IllegalArgumentException e) {
        throw new UsageError("--modes: '" + raw + "' is not a mode; use parallel, sequential, or both separated by a"
            + " comma");
      }
      if (!tokens.contains(t)) tokens.add(t);
    }
    if (tokens.isEmpty()) throw new UsageError("--modes is empty; use parallel, sequential, or both");
    List<String> ordered = new ArrayList<>();
    for (String m : List.of("agg", "seq")) if (tokens.contains(m)) ordered.add(m);
    return ordered;
  }
}
