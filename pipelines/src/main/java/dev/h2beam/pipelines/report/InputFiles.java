package dev.h2beam.pipelines.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.exec.Isolation;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.pipelines.files.FileShapes;
import dev.h2beam.pipelines.judge.JudgeIdentity;
import dev.h2beam.pipelines.judge.MetricVector;
import dev.h2beam.transforms.selection.AnonIds;
import dev.h2beam.transforms.summary.SummaryFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Parses the files the report reads: {@code judged.json}, a task's {@code summary.json} and the namespace's
 * {@code config.json}, written by h2beam or by harness2 (legacy {@code arm}/{@code arms} keys, any key order), and
 * h2beam's own {@code metrics.json} and {@value JudgeIdentity#FILE}.
 * Malformed content is an {@link IOException} naming what is wrong; the caller turns it into a failure record.
 */
final class InputFiles {
  private InputFiles() {}

  enum Kind { JUDGED, SUMMARY, CONFIG, METRICS, JUDGE }

  /** Which of them a path is, or null for any other file. */
  static Kind kindOf(String path) {
    String name = Path.of(path).getFileName().toString();
    return switch (name) {
      case "judged.json" -> Kind.JUDGED;
      case "summary.json" -> Kind.SUMMARY;
      case "config.json" -> Kind.CONFIG;
      case "metrics.json" -> Kind.METRICS;
      case JudgeIdentity.FILE -> Kind.JUDGE;
      default -> null;
    };
  }

  /** judged.json: a JSON array of row objects (spec §2.12); {@code fallbackK} is used for a row without k. */
  static JudgedFile judged(String path, byte[] utf8, int fallbackK) throws IOException {
    String text = TextFiles.utf8(utf8, path); // strict: bytes that are not UTF-8 are an error
    List<Scored> streamed = JudgedReader.rows(utf8, fallbackK);
    return streamed != null ? new JudgedFile(path, streamed) : judgedFromTree(path, text, fallbackK);
  }

  /** judged.json from its tree: every file {@link JudgedReader} does not take, and the messages for them. */
  static JudgedFile judgedFromTree(String path, String text, int fallbackK) throws IOException {
    JsonNode root = Json.readTree(text);
    FileShapes.judged(root);
    List<Scored> rows = new ArrayList<>();
    for (JsonNode row : root) rows.add(row(row, fallbackK));
    return new JudgedFile(path, rows);
  }

  static Scored row(JsonNode r, int fallbackK) {
    JsonNode modeNode = r.has("mode") ? r.get("mode") : r.get("arm");
    JsonNode raw = r.get("raw");
    String metric = raw != null && raw.isObject() && raw.hasNonNull("metric") ? raw.get("metric").asText() : "";
    JsonNode k = r.get("k");
    int kk = k != null && k.canConvertToInt() && k.isNumber() ? k.asInt()
        : k != null && k.isTextual() && k.asText().matches("[0-9]+") ? Integer.parseInt(k.asText()) : fallbackK;
    return new Scored(text(r.get("task_id")), modeToken(text(modeNode)), kk, text(r.get("label")),
        text(r.get("run_id")), truthy(r.get("chosen_is_base")), number(r.get("n_passed")),
        number(r.get("n_criteria")), truthy(r.get("all_pass")), metric, text(r.get("error")),
        text(dev.h2beam.pipelines.judge.JudgedRow.absenceNode(r)),
        raw != null && raw.path("repeat_sd").isNumber() ? raw.get("repeat_sd").asDouble() : null);
  }

  /**
   * summary.json: per mode, fell-back stage count, improver spend (stages + selection), executor spend, the ledger's
   * rollout and session counts, how many of the costs are not known (left out of the spend) and the finals; for a
   * task whose every base failed, what its dead bases cost.
   */
  static TaskSummary summary(String path, String text) throws IOException {
    return summary(path, text, null);
  }

  /**
   * As {@link #summary(String, String)}, adding to {@code unstamped} (when not null) each mode whose result records
   * no build that wrote it ({@link Writers#unstamped}).
   */
  static TaskSummary summary(String path, String text, List<String> unstamped) throws IOException {
    JsonNode root = Json.readTree(text);
    FileShapes.summary(root);
    if (unstamped != null) Writers.unstamped(root, unstamped);
    JsonNode modes = root.has("modes") ? root.get("modes") : root.get("arms");
    JsonNode selections = root.get("selections");
    Map<String, TaskSummary.ModeSpend> out = new TreeMap<>();
    Map<String, List<String>> finals = new TreeMap<>();
    Map<String, TaskSummary.Choice> choices = new TreeMap<>();
    for (String m : keys(modes, selections)) {
      JsonNode rec = modes != null && modes.isObject() ? modes.get(m) : null;
      int fellBack = rec != null && rec.path("fell_back").isArray() ? rec.get("fell_back").size() : 0;
      double stages = 0;
      // the costs each usd leaves out (the shape check made every mark a boolean or a list of labels)
      int improverUnknown = 0;
      if (rec != null && rec.path("stages").isArray()) {
        for (JsonNode s : rec.get("stages")) {
          stages += usd(s.get("usd"));
          if (FileShapes.usdNotKnown(s)) improverUnknown++;
        }
      }
      JsonNode sel = selections != null && selections.isObject() ? selections.get(m) : null;
      double selection = sel != null ? usd(sel.get("usd")) : 0.0;
      // a selection whose usd is only the known part, or that records none (metrics.json's selection_cost
      // not-recorded): not known, never $0
      if (FileShapes.usdNotKnown(sel) || sel != null && sel.isObject() && FileShapes.usdValue(sel.get("usd")) == null) {
        improverUnknown++;
      }
      double executor = rec == null ? 0.0 : usd(rec.path("ledger").get("rollout_usd"));
      int executorUnknown = rec == null ? 0 : rec.path("ledger").path("cost_unknown").path("rollouts").size();
      JsonNode ledger = rec == null ? null : rec.get("ledger");
      if (ledger != null && ledger.isObject() && FileShapes.usdValue(ledger.get("rollout_usd")) == null) {
        // a ledger without its rollouts' amount (null, as no writer records it): every rollout of its R is not
        // known, never $0 as Python's float(x or 0.0) would have it (dogAL, unconfirmed 5)
        executorUnknown = Math.max(executorUnknown, Math.max(1, ledger.path("R").asInt(0)));
      }
      int screened = sel != null && sel.path("lesson_screened").isArray() && !sel.get("lesson_screened").isEmpty()
          ? 1 : 0;
      Tokens tokens = FileShapes.modeTokens(rec == null ? null : rec.get("ledger"), sel);
      out.put(modeToken(m), new TaskSummary.ModeSpend(fellBack, stages + selection, executor, screened,
          budget(rec == null ? null : rec.get("ledger")), improverUnknown, executorUnknown, tokens,
          attempts(rec == null ? null : rec.get("ledger")), gateSteps(rec == null ? null : rec.get("gate"))));
      finals.put(modeToken(m), texts(rec == null ? null : rec.get("finals")));
      TaskSummary.Choice choice = choice(sel);
      if (choice != null) choices.put(modeToken(m), choice);
    }
    JsonNode retried = root.get(SummaryFile.RETRIED);
    return new TaskSummary(path, text(root.get("task_id")), out, finals, deadBases(root), choices,
        retried != null && retried.isArray() ? retried.size() : 0, false);
  }

  /**
   * Where the id a selection record chose stood in the list its selector was shown (the ids of its {@code id_map} in
   * string order, as the prompt names them). Null when it shows no list: no record, a single final delivered as it
   * is ({@code trivial}), or no {@code id_map} (no candidate delivered, so no session ran; every selection record of
   * h2beam and harness2 that ran one names its ids). {@link TaskSummary.Choice#UNPLACED} when a session was shown the
   * list but its choice has no place: a failed session ({@code ok} false, or {@code fallback}: the stand-in), no
   * {@code chosen_id}, a chosen id not among the ids, or fewer than two ids.
   */
  static TaskSummary.Choice choice(JsonNode sel) {
    if (sel == null || !sel.isObject() || truthy(sel.get("trivial"))) return null;
    if (!sel.path("id_map").isObject() || sel.get("id_map").isEmpty()) return null;
    if (!truthy(sel.get("ok")) || truthy(sel.get("fallback")) || !sel.path("chosen_id").isTextual()) {
      return TaskSummary.Choice.UNPLACED;
    }
    TreeSet<String> ids = new TreeSet<>();
    sel.get("id_map").fieldNames().forEachRemaining(ids::add);
    String chosen = sel.get("chosen_id").asText();
    if (ids.size() < 2 || !ids.contains(chosen)) return TaskSummary.Choice.UNPLACED;
    return new TaskSummary.Choice(ids.headSet(chosen).size() + 1, ids.size());
  }

  /** The status the sweep writes in the summary of a task whose every base rollout failed (SweepSteps.rollBases). */
  static final String BASE_FAILED = "base-failed";

  /**
   * What the base rollouts of a base-failed task cost, or null for any other summary. No mode ran, so no ledger holds
   * them: each {@code base} entry carries its own {@code cost_usd}, and {@code cost_known: false} when that is only
   * the known part; beside such entries, one without a cost is counted as not known, never as $0. A summary none of
   * whose entries has a cost was written by a sweep that tracked no executor cost (harness2, whose ledgers' rollout
   * usd is always 0 and read as it reads it, or h2beam before it recorded one): null, as for any other summary, so
   * its report stays harness2's. Only the status says the task is one: the entries of any other summary are in its
   * modes' ledgers already.
   */
  private static TaskSummary.DeadBases deadBases(JsonNode root) {
    if (!BASE_FAILED.equals(text(root.get("status")))) return null;
    double usd = 0;
    int unknown = 0;
    TaskSummary.TokenCount tokens = TaskSummary.TokenCount.NONE;
    boolean tracked = false;
    JsonNode base = root.get("base");
    if (base != null && base.isArray()) {
      // the shape check made every entry an object, every cost_usd a number, its text or null, every mark a boolean,
      // every tokens two counts or null
      for (JsonNode b : base) {
        JsonNode cost = b.get("cost_usd");
        usd += usd(cost);
        boolean recorded = cost != null && !cost.isNull();
        tracked |= recorded;
        if (!recorded || !b.path("cost_known").asBoolean(true)) unknown++;
        tokens = tokens.plus(TaskSummary.TokenCount.of(Tokens.recorded(b)));
      }
    }
    return tracked ? new TaskSummary.DeadBases(usd, unknown, tokens) : null;
  }

  /** config.json: the declared executor, improver and judge (spec §3.6). */
  static RunIdentity config(String path, String text) throws IOException {
    JsonNode root = Json.readTree(text);
    FileShapes.config(root);
    JsonNode seed = root.get("seed");
    JsonNode timing = root.get("timing");
    return new RunIdentity(path, identity(root.get("executor")), identity(root.get("improver")),
        identity(root.get("judge")), seed != null && seed.isIntegralNumber() ? seed.bigIntegerValue() : null,
        identity(timing), timing != null && timing.path("mixed").asBoolean(false), cohort(root),
        Writers.recorded(root), gateSetup(root));
  }

  /** {@link RunIdentity#gate}: the {@link RunIdentity#GATE_KEYS} config.json records, or null for none. */
  static String gateSetup(JsonNode root) {
    Map<String, Object> out = new TreeMap<>();
    for (String key : RunIdentity.GATE_KEYS) {
      JsonNode v = root.get(key);
      if (v != null && !v.isNull()) out.put(key, Json.MAPPER.convertValue(v, Object.class));
    }
    return out.isEmpty() ? null : Json.canonical(out);
  }

  /**
   * {@value JudgeIdentity#FILE}: the judge h2beam graded a namespace with whose config.json harness2's sweep wrote
   * (that file's {@code judge} names the judge harness2's sweep was started for), or null when it records none.
   */
  static String judge(String text) throws IOException {
    JsonNode judge = Json.readTree(text).get("judge");
    if (judge != null && !judge.isNull() && !judge.isTextual()) {
      throw new IOException("judge must be text, found " + judge.getNodeType());
    }
    return judge == null || judge.isNull() ? null : judge.asText();
  }

  /**
   * The cohort of {@link RunIdentity#cohort}: each of {@link RunIdentity#COHORT_KEYS} config.json records, the task
   * ids as a sorted set, and each part of {@code input_digests} apart ({@code input_digests.base}, ...), so that a
   * part an older h2beam did not record is left out rather than counted as a difference. Null when none is recorded.
   */
  static String cohort(JsonNode root) {
    Map<String, Object> out = new TreeMap<>();
    TreeSet<String> unverified = unverified(root);
    for (String key : RunIdentity.COHORT_KEYS) {
      if (root.has(key) && !unverified.contains(key)) out.put(key, Json.MAPPER.convertValue(root.get(key),
          Object.class));
    }
    JsonNode tasks = root.get("tasks");
    if (tasks != null && tasks.isArray()) {
      TreeSet<String> ids = new TreeSet<>();
      for (JsonNode t : tasks) ids.add(t.isArray() && t.size() > 0 ? t.get(t.size() - 1).asText() : t.asText());
      out.put("tasks", new ArrayList<>(ids));
    }
    JsonNode digests = root.get("input_digests");
    if (digests != null && digests.isObject()) {
      digests.fields().forEachRemaining(e -> {
        if (!unverified.contains("input_digests." + e.getKey())) {
          out.put("input_digests." + e.getKey(), Json.MAPPER.convertValue(e.getValue(), Object.class));
        }
      });
    }
    if (!unverified.isEmpty()) out.put(RunIdentity.UNVERIFIED, new ArrayList<>(unverified));
    // how the selector's ids were shuffled (replicates must agree): a config.json that records none followed
    // harness2's rule
    if (!out.isEmpty()) {
      out.put(AnonIds.CONFIG_KEY, root.path(AnonIds.CONFIG_KEY).isTextual() ? root.get(AnonIds.CONFIG_KEY).asText()
          : AnonIds.TASK);
      // and whether the rollouts' agents could read the benchmark's answer keys: none recorded, they could
      out.put(Isolation.CONFIG_KEY, root.path(Isolation.CONFIG_KEY).isTextual()
          ? root.get(Isolation.CONFIG_KEY).asText() : Isolation.NONE);
    }
    return out.isEmpty() ? null : Json.canonical(out);
  }

  /**
   * The cohort keys config.json lists as {@code unverified}: recorded by a resume that could not check them against
   * the work done before (an older h2beam's), so not the run's own. {@code input_digests} stands for each of its parts.
   */
  static TreeSet<String> unverified(JsonNode root) {
    TreeSet<String> out = new TreeSet<>();
    JsonNode list = root.get(RunIdentity.UNVERIFIED);
    if (list == null || !list.isArray()) return out;
    for (JsonNode n : list) {
      String key = n.asText();
      if (key.equals("input_digests") && root.path("input_digests").isObject()) {
        root.get("input_digests").fieldNames().forEachRemaining(f -> out.add("input_digests." + f));
      } else {
        out.add(key);
      }
    }
    return out;
  }

  /**
   * metrics.json (h2beam-metrics/v2, written by the judge, or v1 read with its {@code cost} absent:
   * {@link MetricRow#fromV1}): its rows. A file of another schema, or a row whose values are not numbers or whose
   * reasons are not in the closed set, is malformed: nothing of it is used.
   */
  static List<MetricRow> metrics(String path, byte[] utf8) throws IOException {
    String text = TextFiles.utf8(utf8, path); // strict: bytes that are not UTF-8 are an error
    List<MetricRow> streamed = new MetricsReader().rows(utf8);
    return streamed != null ? streamed : metricsFromTree(path, text);
  }

  /** metrics.json from its tree: every file {@link MetricsReader} does not take, and the messages for them. */
  static List<MetricRow> metricsFromTree(String path, String text) throws IOException {
    JsonNode root = Json.readTree(text);
    String schema = root == null ? null : root.path("schema").asText();
    boolean v1 = MetricVector.SCHEMA_V1.equals(schema);
    if (root == null || !root.isObject() || !MetricVector.readable(schema)) {
      throw new IOException(path + ": not a " + MetricVector.SCHEMA + " file (schema "
          + (root == null ? "missing" : root.path("schema")) + "); re-run ./h2beam judge to rewrite it");
    }
    if (!root.path("rows").isArray()) throw new IOException(path + ": rows must be a list");
    List<MetricRow> out = new ArrayList<>();
    int i = -1;
    for (JsonNode r : root.get("rows")) {
      i++;
      Map<String, Double> values = new TreeMap<>();
      Map<String, String> absent = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = r.path("values").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isNumber()) {
          throw new IOException(rowAt(path, i) + ": values." + e.getKey() + " is not a number");
        }
        if (!Double.isFinite(e.getValue().asDouble())) {
          throw new IOException(rowAt(path, i) + ": values." + e.getKey() + " is " + e.getValue().asDouble()
              + ", beyond any value a metric has; re-run ./h2beam judge to rewrite the file");
        }
        values.put(e.getKey(), e.getValue().asDouble());
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = r.path("absent").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!MetricVector.REASONS.contains(e.getValue().asText())) {
          throw new IOException(rowAt(path, i) + ": absent." + e.getKey() + " reason '" + e.getValue().asText()
              + "' is not one of " + MetricVector.REASONS);
        }
        absent.put(e.getKey(), e.getValue().asText());
      }
      JsonNode k = r.get("k");
      if (k == null || !k.canConvertToInt()) throw new IOException(rowAt(path, i) + ": k must be a whole number");
      MetricRow row = new MetricRow(text(r.get("task_id")), modeToken(text(r.get("mode"))), k.asInt(), values, absent);
      out.add(v1 ? row.fromV1() : row);
    }
    return out;
  }

  /** A row of metrics.json as a message names it: made only for a message, not for each of its rows. */
  private static String rowAt(String path, int i) {
    return path + ": rows[" + i + "]";
  }

  private static List<String> keys(JsonNode a, JsonNode b) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : new JsonNode[] {a, b}) {
      if (n == null || !n.isObject()) continue;
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!out.contains(key)) out.add(key);
      }
    }
    return out;
  }


  /** The ledger's {@code R} and {@code P} when it records both as integers, else null (nothing to compare). */
  private static TaskSummary.Budget budget(JsonNode ledger) {
    if (ledger == null || !ledger.path("R").isIntegralNumber() || !ledger.path("P").isIntegralNumber()) return null;
    return new TaskSummary.Budget(ledger.get("R").asInt(), ledger.get("P").asInt());
  }

  /**
   * The gated mode's {@code gate} record: its steps, its {@code method_failed} (null when not recorded, never 0) and
   * whether its final harness is the base; null when the mode records no gate (the shape check made the fields the
   * types read here).
   */
  private static TaskSummary.GateSteps gateSteps(JsonNode gate) {
    if (gate == null || !gate.isObject()) return null;
    JsonNode failed = gate.get("method_failed");
    return new TaskSummary.GateSteps(gate.path("steps").size(), failed == null || failed.isNull() ? null
        : failed.asInt(), "base".equals(gate.path("final_harness").asText(null)));
  }

  /**
   * The ledger's {@code session_attempts} when it records them as a whole number from 0 up, else null (not recorded:
   * no ledger, or one without them); not known when its {@code attempts_unknown} names a session.
   */
  private static TaskSummary.Attempts attempts(JsonNode ledger) {
    Long n = ledger == null ? null : Tokens.count(ledger.get("session_attempts"));
    if (n == null || n > Integer.MAX_VALUE) return null;
    JsonNode unknown = ledger.get("attempts_unknown");
    boolean known = unknown == null || unknown.isNull() || (unknown.isArray() && unknown.isEmpty());
    return new TaskSummary.Attempts(n.intValue(), known);
  }

  /** The text items of a JSON array; empty for anything else. */
  private static List<String> texts(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n != null && n.isArray()) for (JsonNode x : n) if (x.isTextual()) out.add(x.asText());
    return out;
  }

  /** An identity value as text; objects (a channel spec) in canonical JSON so equal identities compare equal. */
  private static String identity(JsonNode n) {
    if (n == null || n.isNull()) return null;
    if (n.isValueNode()) return n.asText();
    return Json.canonical(Json.MAPPER.convertValue(n, Object.class));
  }

  /** The mode token of a token or human name ({@link Namespace#modeToken}); anything else is kept as written. */
  static String modeToken(String mode) {
    try {
      return Namespace.modeToken(mode);
    } catch (IllegalArgumentException e) {
      return mode;
    }
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? "" : n.asText();
  }

  private static Double number(JsonNode n) {
    if (n == null || n.isNull()) return null;
    if (n.isNumber()) return n.asDouble();
    return null;
  }

  /** Python's {@code float(x or 0.0)} for a usd field. */
  private static double usd(JsonNode n) {
    Double v = FileShapes.usdValue(n);
    return v == null ? 0.0 : v;
  }


  private static boolean truthy(JsonNode n) {
    if (n == null || n.isNull()) return false;
    if (n.isBoolean()) return n.asBoolean();
    if (n.isNumber()) return n.asDouble() != 0;
    if (n.isTextual()) return !n.asText().isEmpty();
    return n.size() > 0;
  }
}
