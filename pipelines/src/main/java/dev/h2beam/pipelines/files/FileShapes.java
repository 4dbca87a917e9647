package dev.h2beam.pipelines.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.Build;
import dev.h2beam.adapters.model.Tokens;
import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * The least a summary.json (spec §2.11, §2.9), a judged.json row (§2.12) and a config.json (§3.6) must hold for the
 * judge and the report to use them, written by h2beam or by harness2 (legacy {@code arm}/{@code arms} keys). A key
 * the readers use must have its type when present; the keys they cannot do without must be present. Every
 * refusal is an {@link IOException} naming the field, e.g. {@code selections.agg.ok must be true or false, found
 * "yes" (a string)}; the caller names the file.
 */
public final class FileShapes {
  private FileShapes() {}

  private static final String FIX = "; repair the field or move the file aside";

  /**
   * summary.json: an object with a non-empty {@code task_id} and a {@code selections} object; each selection has a
   * boolean {@code ok}, a mode and k of their types (k on the selection or the summary), and, when ok, a non-empty
   * {@code chosen_label} and {@code chosen_run_dir}; mode records, stages, ledgers and base rollouts have their
   * types, and so do the marks of costs not known (a stage's or selection's {@code usd_known}, a ledger's
   * {@code cost_unknown}, a dead base's {@code cost_known}), and so does the build each mode's result records and the
   * gated mode's {@code gate} (its steps, final harness and {@code method_failed}).
   */
  public static void summary(JsonNode root) throws IOException {
    requireObject(root, "the summary");
    requireText(root, "task_id", "", ".", true);
    optionalK(root, "", ".");
    optionalText(root, "domain", "", ".");
    optionalText(root, "status", "", ".");
    optionalWhole(root, "seed", "", ".");
    optionalArray(root, "errors", "", ".");
    JsonNode selections = root.get("selections");
    if (selections == null) throw wrong("selections is missing: a summary records each mode's selection there");
    requireObject(selections, "selections");
    for (Iterator<Map.Entry<String, JsonNode>> it = selections.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      selection(e.getValue(), "selections." + e.getKey(), root.has("k"));
    }
    String modesKey = root.has("modes") ? "modes" : "arms";
    JsonNode modes = root.get(modesKey);
    if (modes != null && !modes.isNull()) {
      requireObject(modes, modesKey);
      for (Iterator<Map.Entry<String, JsonNode>> it = modes.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        mode(e.getValue(), modesKey + "." + e.getKey());
      }
    }
    JsonNode builds = root.get(Build.BY_MODE);
    if (builds != null && !builds.isNull()) {
      requireObject(builds, Build.BY_MODE);
      for (Iterator<String> it = builds.fieldNames(); it.hasNext(); ) {
        optionalText(builds, it.next(), Build.BY_MODE, ".");
      }
    }
    JsonNode base = root.get("base");
    if (base != null && !base.isNull()) {
      requireArray(base, "base");
      int i = 0;
      for (JsonNode b : base) {
        String at = "base[" + i++ + "]";
        requireObject(b, at);
        for (String key : new String[] {"label", "run_id", "run_dir"}) optionalText(b, key, at, ".");
        // what a dead base cost (a base-failed task's entries carry it, with no ledger to hold it)
        optionalUsd(b, "cost_usd", at);
        optionalBoolean(b, "cost_known", at, ".");
        tokens(b.get("tokens"), at + ".tokens");
        optionalBoolean(b, "tokens_known", at, ".");
      }
    }
  }

  private static void selection(JsonNode s, String at, boolean summaryHasK) throws IOException {
    requireObject(s, at);
    optionalBoolean(s, "ok", at, ".");
    optionalText(s, "mode", at, ".");
    optionalText(s, "arm", at, ".");
    optionalText(s, "task_id", at, ".");
    optionalK(s, at, ".");
    if (!s.has("k") && !summaryHasK) throw wrong(at + ".k is missing, and the summary has no k either");
    for (String key : new String[] {"chosen_label", "chosen_run_id", "chosen_run_dir", "harness_fingerprint",
        "error", "evidence", "why"}) {
      optionalText(s, key, at, ".");
    }
    for (String key : new String[] {"chosen_is_base", "chosen_tree_is_base", "fallback", "trivial"}) {
      optionalBoolean(s, key, at, ".");
    }
    optionalUsd(s, "usd", at);
    optionalBoolean(s, "usd_known", at, ".");
    tokens(s.get("tokens"), at + ".tokens");
    optionalBoolean(s, "tokens_known", at, ".");
    if (s.path("ok").asBoolean(false)) {
      requireText(s, "chosen_label", at, ".", true);
      requireText(s, "chosen_run_dir", at, ".", true);
    }
  }

  private static void mode(JsonNode m, String at) throws IOException {
    requireObject(m, at);
    optionalBoolean(m, "ok", at, ".");
    optionalText(m, "error", at, ".");
    optionalArray(m, "fell_back", at, ".");
    JsonNode stages = m.get("stages");
    if (stages != null && !stages.isNull()) {
      requireArray(stages, at + ".stages");
      int i = 0;
      for (JsonNode st : stages) {
        String where = at + ".stages[" + i++ + "]";
        requireObject(st, where);
        optionalUsd(st, "usd", where);
        optionalBoolean(st, "usd_known", where, ".");
        optionalBoolean(st, "refused", where, ".");
      }
    }
    JsonNode ledger = m.get("ledger");
    if (ledger != null && !ledger.isNull()) {
      requireObject(ledger, at + ".ledger");
      JsonNode rollout = ledger.get("rollout_usd");
      if (rollout != null && !usd(rollout)) {
        throw wrong(at + ".ledger.rollout_usd must be a number, found " + describe(rollout));
      }
      labelsNotKnown(ledger.get("cost_unknown"), at + ".ledger.cost_unknown");
      tokens(ledger.get("tokens"), at + ".ledger.tokens");
      labelsNotKnown(ledger.get("tokens_unknown"), at + ".ledger.tokens_unknown");
      JsonNode retries = ledger.get("session_retries");
      if (retries != null && !retries.isNull() && Tokens.count(retries) == null) {
        throw wrong(at + ".ledger.session_retries must be a whole number from 0 up, found " + describe(retries));
      }
      JsonNode attempts = ledger.get("attempts_unknown");
      if (attempts != null && !attempts.isNull()) labels(attempts, at + ".ledger.attempts_unknown");
    }
    gate(m.get("gate"), at + ".gate");
  }

  /**
   * The gated mode's {@code gate} (absent or null in every other mode): an object whose {@code steps} is a list,
   * {@code final_harness} a label and {@code method_failed} a count of those steps (absent in a summary written
   * before h2beam counted it).
   */
  private static void gate(JsonNode n, String at) throws IOException {
    if (n == null || n.isNull()) return;
    requireObject(n, at);
    optionalArray(n, "steps", at, ".");
    optionalText(n, "final_harness", at, ".");
    JsonNode failed = n.get("method_failed");
    if (failed != null && !failed.isNull()) {
      Long count = Tokens.count(failed);
      if (count == null || count > n.path("steps").size()) {
        throw wrong(at + ".method_failed must be a whole number from 0 up to the " + n.path("steps").size()
            + " steps, found " + describe(failed));
      }
    }
  }

  /**
   * h2beam's {@code tokens} of a ledger or a selection (absent or null: not recorded, as in harness2's files): an
   * object of two whole numbers from 0 up, {@code input} and {@code output}.
   */
  private static void tokens(JsonNode n, String at) throws IOException {
    if (n == null || n.isNull()) return;
    requireObject(n, at);
    for (String key : new String[] {"input", "output"}) {
      JsonNode count = n.get(key);
      if (count == null) throw wrong(at + "." + key + " is missing");
      if (Tokens.count(count) == null) {
        throw wrong(at + "." + key + " must be a whole number from 0 up, found " + describe(count));
      }
    }
  }

  /**
   * A ledger's {@code cost_unknown} or {@code tokens_unknown} (absent or null: every cost, or every count, known): an
   * object with both lists, {@code rollouts} and {@code sessions}, of the labels whose figure is not known. A marker
   * of another shape cannot say which the ledger's sums leave out.
   */
  private static void labelsNotKnown(JsonNode n, String at) throws IOException {
    if (n == null || n.isNull()) return;
    requireObject(n, at);
    for (String key : new String[] {"rollouts", "sessions"}) {
      JsonNode labels = n.get(key);
      if (labels == null) throw wrong(at + "." + key + " is missing");
      labels(labels, at + "." + key);
    }
  }

  /** A list of labels: an array of texts. */
  private static void labels(JsonNode n, String at) throws IOException {
    requireArray(n, at);
    for (JsonNode label : n) {
      if (!label.isTextual()) throw wrong(at + " must list labels, found " + describe(label));
    }
  }

  /** judged.json: an array of row objects. */
  public static void judged(JsonNode root) throws IOException {
    if (root == null || !root.isArray()) {
      throw new IOException("judged.json must be a JSON array of rows, found " + describe(root));
    }
    int i = 0;
    for (JsonNode row : root) judgedRow(row, i++);
  }

  /**
   * One judged.json row: a non-empty {@code task_id} and mode ({@code mode}, legacy {@code arm}); k a whole number
   * (or its digits as text, as legacy rows have it) when present; scores numbers or null; flags booleans; texts
   * strings or null; {@code raw} an object or null.
   */
  public static void judgedRow(JsonNode row, int index) throws IOException {
    RowAt at = new RowAt(index);
    requireObject(row, at);
    requireText(row, "task_id", at, ": ", true);
    if (row.has("mode") || !row.has("arm")) requireText(row, "mode", at, ": ", true);
    else requireText(row, "arm", at, ": ", true);
    JsonNode k = row.get("k");
    if (k != null && !k.isNull() && !(k.isIntegralNumber() && k.asLong() >= 1)
        && !(k.isTextual() && k.asText().matches("[0-9]+"))) {
      throw wrong(at + ": k must be a whole number >= 1, found " + describe(k));
    }
    for (String key : new String[] {"n_passed", "n_criteria"}) {
      JsonNode n = row.get(key);
      if (n != null && !n.isNull() && !n.isNumber()) {
        throw wrong(at + ": " + key + " must be a number or null, found " + describe(n));
      }
      // beyond a double (1e400), or below zero: no count of criteria (dogAL F1)
      if (n != null && n.isNumber() && !(Double.isFinite(n.asDouble()) && n.asDouble() >= 0)) {
        throw wrong(at + ": " + key + " must be a finite number from 0 up, found " + n.asDouble());
      }
    }
    // as the judge grades: a row never passes more criteria than it has (dogAL F1: a score of 275%)
    JsonNode passed = row.get("n_passed");
    JsonNode criteria = row.get("n_criteria");
    if (passed != null && passed.isNumber() && criteria != null && criteria.isNumber()
        && moreThan(passed.asDouble(), criteria.asDouble())) {
      throw wrong(at + ": n_passed " + passed + " is more than n_criteria " + criteria);
    }
    for (String key : new String[] {"chosen_is_base", "all_pass"}) optionalBoolean(row, key, at, ": ");
    for (String key : new String[] {"label", "run_id", "error", "absence"}) optionalText(row, key, at, ": ");
    JsonNode raw = row.get("raw");
    if (raw != null && !raw.isNull() && !raw.isObject()) {
      throw wrong(at + ": raw must be an object or null, found " + describe(raw));
    }
  }

  /**
   * Whether {@code passed} criteria are more than {@code criteria}, beyond the rounding of a sum of weights (a float
   * sum one step above its total is every criterion passed, as an upstream JobBench judge may write it).
   */
  public static boolean moreThan(double passed, double criteria) {
    return passed > criteria + Math.max(1e-9, Math.abs(criteria) * 1e-9);
  }

  /** config.json: an object whose {@code seed} is a whole number or null. */
  public static void config(JsonNode root) throws IOException {
    requireObject(root, "config.json");
    optionalWhole(root, "seed", "", ".");
  }

  /** A row of judged.json as messages name it, made into text only for a message. */
  private record RowAt(int index) {
    @Override public String toString() {
      return "row " + index + " of judged.json";
    }
  }

  /**
   * The name of {@code parent}'s field {@code key} at {@code at} ({@code ""} for a file's top level), joined by
   * {@code sep}: made only for a message, as every field of every summary and row is checked.
   */
  private static String field(Object at, String sep, String key) {
    String where = at.toString();
    return where.isEmpty() ? key : where + sep + key;
  }

  private static void requireObject(JsonNode n, Object at) throws IOException {
    if (n == null || !n.isObject()) throw wrong(at + " must be a JSON object, found " + describe(n));
  }

  private static void requireArray(JsonNode n, String at) throws IOException {
    if (!n.isArray()) throw wrong(at + " must be a list, found " + describe(n));
  }

  private static void requireText(JsonNode parent, String key, Object at, String sep, boolean nonEmpty)
      throws IOException {
    JsonNode n = parent.get(key);
    if (n == null) throw wrong(field(at, sep, key) + " is missing");
    if (!n.isTextual()) throw wrong(field(at, sep, key) + " must be a string, found " + describe(n));
    if (nonEmpty && n.asText().isBlank()) throw wrong(field(at, sep, key) + " is empty");
  }

  private static void optionalText(JsonNode parent, String key, Object at, String sep) throws IOException {
    JsonNode n = parent.get(key);
    if (n != null && !n.isNull() && !n.isTextual()) {
      throw wrong(field(at, sep, key) + " must be a string, found " + describe(n));
    }
  }

  private static void optionalBoolean(JsonNode parent, String key, Object at, String sep) throws IOException {
    JsonNode n = parent.get(key);
    if (n != null && !n.isBoolean()) throw wrong(field(at, sep, key) + " must be true or false, found " + describe(n));
  }

  private static void optionalArray(JsonNode parent, String key, Object at, String sep) throws IOException {
    JsonNode n = parent.get(key);
    if (n != null && !n.isNull() && !n.isArray()) {
      throw wrong(field(at, sep, key) + " must be a list, found " + describe(n));
    }
  }

  private static void optionalWhole(JsonNode parent, String key, Object at, String sep) throws IOException {
    JsonNode n = parent.get(key);
    if (n != null && !n.isNull() && !n.isIntegralNumber()) {
      throw wrong(field(at, sep, key) + " must be a whole number or null, found " + describe(n));
    }
  }

  private static void optionalK(JsonNode parent, Object at, String sep) throws IOException {
    JsonNode n = parent.get("k");
    if (n != null && !(n.isIntegralNumber() && n.asLong() >= 1 && n.canConvertToInt())) {
      throw wrong(field(at, sep, "k") + " must be a whole number >= 1, found " + describe(n));
    }
  }

  /**
   * An amount of dollars ({@code usd}, a dead base's {@code cost_usd}): a number, its text, or null (harness2 reads
   * it with {@code float(x or 0.0)}).
   */
  private static void optionalUsd(JsonNode parent, String key, String at) throws IOException {
    JsonNode n = parent.get(key);
    if (n != null && !usd(n)) throw wrong(at + "." + key + " must be a number, found " + describe(n));
  }

  private static boolean usd(JsonNode n) {
    return n.isNull() || usdValue(n) != null;
  }

  /**
   * The amount an {@code usd} field holds as the summary's shape allows it (a number, or its text), or null when
   * there is none: absent, null, or anything else, NaN and infinities (a text "NaN", a number beyond a double)
   * included: no amount, which the shape check refuses where one is required (dogAL F1).
   */
  public static Double usdValue(JsonNode n) {
    if (n == null) return null;
    if (n.isNumber()) return Double.isFinite(n.asDouble()) ? n.asDouble() : null;
    if (!n.isTextual()) return null;
    try {
      double v = Double.parseDouble(n.asText().strip());
      return Double.isFinite(v) ? v : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Whether a stage or selection record says its {@code usd} is not all it cost ({@code usd_known: false}, written
   * only then); a record without the mark, or not a record, says nothing of the kind.
   */
  public static boolean usdNotKnown(JsonNode record) {
    return record != null && record.path("usd_known").isBoolean() && !record.get("usd_known").booleanValue();
  }

  /**
   * The model tokens a mode of a summary spent: its ledger's {@code tokens} (every rollout of the mode, bases included,
   * and every improver session) plus its selection record's (the selector's and reflector's sessions), all of them
   * when neither says it left some out ({@code tokens_unknown} naming a label, {@code tokens_known} anything but
   * true). Null when the two do not both record them (harness2's files, h2beam's before it counted tokens, a mode
   * with no selection record) or record them in another shape: not recorded, which is no count of 0.
   */
  public static Tokens modeTokens(JsonNode ledger, JsonNode selection) {
    Tokens spent = Tokens.recorded(ledger);
    Tokens selecting = Tokens.recorded(selection);
    if (spent == null || selecting == null) return null;
    JsonNode notCounted = ledger.get("tokens_unknown");
    boolean known = noneNamed(notCounted, "rollouts") && noneNamed(notCounted, "sessions");
    Tokens sum;
    try {
      sum = spent.plus(selecting);
    } catch (ArithmeticException overflow) {
      // counts past a long's range (dogAL F6): no count of tokens, as a shape the reader does not know
      return null;
    }
    return known ? sum : sum.partial();
  }

  /**
   * Whether a ledger's {@code cost_unknown} or {@code tokens_unknown} names no label under {@code part}
   * ({@code rollouts} or {@code sessions}): absent or null, every figure is known; a marker without the list, or with
   * it in another shape, cannot say which were left out.
   */
  public static boolean noneNamed(JsonNode notKnown, String part) {
    if (notKnown == null || notKnown.isNull()) return true;
    JsonNode labels = notKnown.get(part);
    return labels != null && labels.isArray() && labels.isEmpty();
  }

  private static IOException wrong(String what) {
    return new IOException(what + FIX);
  }

  /** A found value for a message: its JSON text (cut at 60 characters) and its kind. */
  static String describe(JsonNode n) {
    if (n == null || n.isMissingNode()) return "nothing";
    String text = n.toString();
    if (text.length() > 60) text = text.substring(0, 57) + "...";
    String kind = n.isTextual() ? "a string" : n.isBoolean() ? "a boolean" : n.isNumber() ? "a number"
        : n.isArray() ? "a list" : n.isObject() ? "an object" : n.getNodeType().toString().toLowerCase(Locale.ROOT);
    return n.isNull() ? "null" : text + " (" + kind + ")";
  }
}
