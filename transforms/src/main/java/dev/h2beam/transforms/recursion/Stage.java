package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.transforms.ledger.Ledger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One improvement stage's outcome (spec §2.6). The tree is the harness it produced (a copy of its fallback if it fell
 * back); {@code usdKnown} is false when {@code usd} is only the known part of what its sessions cost ({@link
 * dev.h2beam.transforms.proposer.Reply#costKnown}), and {@code tokens} the model tokens its sessions spent (in the
 * ledger, not in the stage's JSON, which keeps harness2's keys). {@code refused} is the editable part of the last
 * proposal refused when the stage fell back because its edits were refused (the session answered every time), and
 * null otherwise (accepted, or a session failed): its files holding a credential hold the note the harvest left in
 * their place ({@link dev.h2beam.transforms.proposer.Reply#withheld}), never the credential.
 */
public record Stage(
    String label, String dim, LinkedHashMap<String, String> tree, boolean keptBase, boolean fellBack, String error,
    double usd, int attempts, boolean cached, String notes, boolean usdKnown, Tokens tokens,
    LinkedHashMap<String, String> refused) {

  /** A stage that was not refused. */
  public Stage(String label, String dim, LinkedHashMap<String, String> tree, boolean keptBase, boolean fellBack,
      String error, double usd, int attempts, boolean cached, String notes, boolean usdKnown, Tokens tokens) {
    this(label, dim, tree, keptBase, fellBack, error, usd, attempts, cached, notes, usdKnown, tokens, null);
  }

  /** A stage whose cost is known and whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public Stage(String label, String dim, LinkedHashMap<String, String> tree, boolean keptBase, boolean fellBack,
      String error, double usd, int attempts, boolean cached, String notes) {
    this(label, dim, tree, keptBase, fellBack, error, usd, attempts, cached, notes, true, Tokens.UNKNOWN);
  }

  /** A stage whose tokens are not said ({@link Tokens#UNKNOWN}). */
  public Stage(String label, String dim, LinkedHashMap<String, String> tree, boolean keptBase, boolean fellBack,
      String error, double usd, int attempts, boolean cached, String notes, boolean usdKnown) {
    this(label, dim, tree, keptBase, fellBack, error, usd, attempts, cached, notes, usdKnown, Tokens.UNKNOWN);
  }

  public Stage {
    tree = new LinkedHashMap<>(tree);
    error = clip(error == null ? "" : error, 400);
    notes = notes == null ? "" : notes;
    tokens = tokens == null ? Tokens.UNKNOWN : tokens;
    refused = refused == null || !fellBack ? null : new LinkedHashMap<>(refused);
  }

  /** Whether the stage fell back because its edits were refused, not because a session failed. */
  public boolean wasRefused() {
    return refused != null;
  }

  /** Notes, or the error when the stage produced none: what later stages read as this stage's decision. */
  public String decision() {
    return notes.isBlank() ? error : notes;
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("label", label);
    m.put("dim", dim);
    m.put("fell_back", fellBack);
    m.put("kept_base", keptBase);
    // an attempt count not known is no count, never a 0 (Ledger#ATTEMPTS_UNKNOWN)
    m.put("attempts", attempts == Ledger.ATTEMPTS_UNKNOWN ? null : attempts);
    m.put("usd", usd);
    // written only when false: a stage whose every call was priced keeps harness2's keys
    if (!usdKnown) m.put("usd_known", false);
    m.put("cached", cached);
    m.put("notes", notes);
    m.put("error", clip(error, 400));
    // h2beam's own key, written only when true (harness2 reads past it): the fallback was a refusal of the session's
    // edits, not a failed session, so the sweep's end tells the two apart
    if (refused != null) m.put("refused", true);
    return m;
  }

  static String clip(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n);
  }
}
