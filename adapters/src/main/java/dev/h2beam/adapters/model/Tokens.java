package dev.h2beam.adapters.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The model tokens one rollout or session spent, as h2beam counted them at the endpoints it relays or calls: input and
 * output, and whether that count is all of it. {@code known} is false when a call went unanswered or answered without
 * its counts, when the work ended in an exception that reports nothing, or when the agent's calls are out of h2beam's
 * sight (a command executor given no endpoint); {@code input} and {@code output} are then only what was counted,
 * never a stand-in for the rest. Work that calls no model at all (the demo's script, its scripted improver) spends a
 * known nothing ({@link #NONE}).
 */
public record Tokens(long input, long output, boolean known) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Called no model: a known nothing. */
  public static final Tokens NONE = new Tokens(0, 0, true);
  /** Nothing counted, and not all of it: an unknown, never zero. */
  public static final Tokens UNKNOWN = new Tokens(0, 0, false);

  public Tokens {
    if (input < 0 || output < 0) throw new IllegalArgumentException("token counts are never negative");
  }

  /**
   * The tokens of work that observed {@code input} and {@code output} (null, or a count below 0: not observed):
   * known when it observed both and {@code complete} (what it cost is known, so nothing went uncounted), else the
   * part it observed. An executor's result, a rollout's completion marker and an agent's report are read so.
   */
  public static Tokens observed(Long input, Long output, boolean complete) {
    boolean in = input != null && input >= 0;
    boolean out = output != null && output >= 0;
    return new Tokens(in ? input : 0, out ? output : 0, in && out && complete);
  }

  /**
   * A token count as a file or a server's reply holds it: a whole number from 0 up, else null (no count: missing,
   * null, a fraction, a text, below 0).
   */
  public static Long count(JsonNode n) {
    return n != null && n.isIntegralNumber() && n.canConvertToLong() && n.longValue() >= 0 ? n.longValue() : null;
  }

  /**
   * The tokens a record of h2beam's says its work spent: its {@code tokens} ({@code {"input", "output"}}, as {@link
   * #toJson} writes them) and its {@code tokens_known} (absent: all counted; anything but true: not all). Null when
   * the record has none, or has them in another shape: no count, never a 0. A session's meta file, a journal line, a
   * selection record, a dead base's entry and a ledger (whose mark of counts left out is its own) are read so.
   */
  public static Tokens recorded(JsonNode record) {
    JsonNode t = record == null ? null : record.get("tokens");
    if (t == null || !t.isObject()) return null;
    Long in = count(t.get("input"));
    Long out = count(t.get("output"));
    if (in == null || out == null) return null;
    JsonNode known = record.get("tokens_known");
    return new Tokens(in, out, known == null || (known.isBoolean() && known.booleanValue()));
  }

  /**
   * This spend and {@code other}'s, known only when both are; {@link ArithmeticException} for counts past a long's
   * range, never a negative count.
   */
  public Tokens plus(Tokens other) {
    return new Tokens(Math.addExact(input, other.input), Math.addExact(output, other.output), known && other.known);
  }

  /** This count, no longer all of it (the work went on to spend what was not counted). */
  public Tokens partial() {
    return known ? new Tokens(input, output, false) : this;
  }

  public long total() {
    return input + output;
  }

  /** {@code {"input": n, "output": n}}, as the ledger, a selection and a session's meta file record it. */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("input", input);
    m.put("output", output);
    return m;
  }
}
