package dev.h2beam.pipelines.judge;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Build;
import dev.h2beam.adapters.files.Json;
import dev.h2beam.adapters.exec.RolloutMarker;
import dev.h2beam.adapters.files.Runmark;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.adapters.model.Tokens;
import dev.h2beam.pipelines.files.FileShapes;
import dev.h2beam.pipelines.files.JsonParts;
import dev.h2beam.transforms.sweep.ModeTiming;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-task metric vector (xaytune's discipline, seed 001): {@code metrics.json} beside judged.json, one row per
 * (task, mode, k, seed), each metric a value or an absence with a reason from a closed set. Zero never stands in for
 * an absence: a metric the sources did not record is {@code not-recorded}, one that does not apply (quality under a
 * grader that is not a rubric) is {@code not-applicable}, and the judge's own absences carry through.
 *
 * <p>Schema {@value #SCHEMA}: {@code {"schema", "namespace", "h2beam_build", "metrics": {name: {unit, direction,
 * source}}, "rows": [{"task_id", "mode", "k", "seed", "values": {name: number}, "absent": {name: reason}}]}}. Every
 * row names every metric exactly once, in one of the two maps; {@code h2beam_build} is the judge's build.
 */
public final class MetricVector {
  private MetricVector() {}

  public static final String SCHEMA = "h2beam-metrics/v2";
  /**
   * The schema before {@code selection_cost}: its {@code cost} left the selector's and reflector's sessions out, so it
   * is read with {@code cost} absent ({@link MetricRow#fromV1}), never compared with the whole spend of a v2 file.
   */
  public static final String SCHEMA_V1 = "h2beam-metrics/v1";

  /** Whether a metrics.json of {@code schema} is read: this one, or {@link #SCHEMA_V1} (its cost left absent). */
  public static boolean readable(String schema) {
    return SCHEMA.equals(schema) || SCHEMA_V1.equals(schema);
  }
  public static final String FILE = "metrics.json";

  /** The reasons a metric can be absent (with the judge's own {@link Absence} codes for score, pass and quality). */
  public static final List<String> REASONS = List.of("judge-failed", "judge-timeout", "selection-failed",
      "mode-failed", "base-failed", "run-missing", "evidence-changed", "not-recorded", "not-applicable",
      "spend-unaccounted");

  /** Every metric: name → unit, direction (what is better), source. */
  public static final Map<String, List<String>> METRICS = metrics();

  private static Map<String, List<String>> metrics() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("score", List.of("fraction", "max", "judge: criteria passed / criteria"));
    m.put("pass", List.of("0/1", "max", "judge: every criterion passed"));
    m.put("quality", List.of("fraction", "max", "rubric judge: the score; not-applicable for other graders"));
    m.put("input_tokens", List.of("tokens", "min", "the chosen rollout's completion marker"));
    m.put("output_tokens", List.of("tokens", "min", "the chosen rollout's completion marker"));
    m.put("cached_tokens", List.of("tokens", "min", "the chosen rollout's completion marker, where reported"));
    m.put("reasoning_tokens", List.of("tokens", "min", "the chosen rollout's completion marker, where reported"));
    m.put("total_tokens", List.of("tokens", "min", "input_tokens + output_tokens"));
    m.put("executor_cost", List.of("usd", "min", "the mode's ledger: every rollout of the mode, bases included"));
    m.put("improver_cost", List.of("usd", "min", "the mode's ledger: every improver session of the mode"));
    m.put("selection_cost", List.of("usd", "min",
        "the mode's selector and reflector sessions: summary.json selections.<mode>.usd"));
    m.put("cost", List.of("usd", "min", "executor_cost + improver_cost + selection_cost"));
    m.put("mode_input_tokens", List.of("tokens", "min", "every rollout (bases included) and session of the mode:"
        + " its ledger's tokens.input + selections.<mode>.tokens.input"));
    m.put("mode_output_tokens", List.of("tokens", "min", "every rollout (bases included) and session of the mode:"
        + " its ledger's tokens.output + selections.<mode>.tokens.output"));
    m.put("mode_tokens", List.of("tokens", "min", "mode_input_tokens + mode_output_tokens"));
    m.put("chosen_wall_s", List.of("seconds", "min", "the chosen rollout's completion marker"));
    m.put("mode_wall_s", List.of("seconds", "min", "_audit/<ns>/timing/<mode>/<task>.json (the run that did it)"));
    m.put("turns", List.of("count", "min", "the chosen rollout's trajectory: [ASSISTANT] lines"));
    m.put("tool_calls", List.of("count", "min", "the chosen rollout's trajectory: [ACTION] lines"));
    m.put("retries", List.of("count", "min", "the mode's ledger: session attempts beyond one per session"));
    return java.util.Collections.unmodifiableMap(m);
  }

  private static final Pattern GRAMMAR = Pattern.compile("(?m)^\\[(ACTION|ASSISTANT|OBSERVATION|USER)[\\] ]");
  private static final Pattern ACTION = Pattern.compile("(?m)^\\[ACTION\\]");
  private static final Pattern ASSISTANT = Pattern.compile("(?m)^\\[ASSISTANT\\]");

  /** Builds the vector of every judged row of the namespace and writes {@code metrics.json}; returns its path. */
  public static Path write(Path namespace, List<JudgedRow> rows, boolean rubric) throws IOException {
    return write(namespace, rows, rubric, Map.of());
  }

  /**
   * As {@link #write(Path, List, boolean)}, with the spend already read for some rows ({@code known}, by
   * {@link JudgedRow#key()}): the grading step reads each summary once and takes it from there. A row without an
   * entry (an earlier run's, kept in judged.json) has its task's summary read here.
   */
  public static Path write(Path namespace, List<JudgedRow> rows, boolean rubric, Map<String, Spend> known)
      throws IOException {
    return write(namespace, rows, rubric, known, JudgedFile.ROWS_PER_PART);
  }

  /** {@link #write}, its rows made in parts of {@code rowsPerPart} (the file is the same for any). */
  static Path write(Path namespace, List<JudgedRow> rows, boolean rubric, Map<String, Spend> known, int rowsPerPart)
      throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("schema", SCHEMA);
    out.put("namespace", namespace.getFileName().toString());
    out.put(Build.BY_MODE, Build.id()); // which h2beam judged: h2beam's own key, which the readers pass over
    Map<String, Object> defs = new LinkedHashMap<>();
    METRICS.forEach((name, d) -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("unit", d.get(0));
      m.put("direction", d.get(1));
      m.put("source", d.get(2));
      defs.put(name, m);
    });
    out.put("metrics", defs);
    out.put("reasons", REASONS);
    Namespace ns = Namespace.parse(namespace.getFileName().toString()).orElse(null);
    Timings timings = ns == null ? null : new Timings(namespace.getParent(), ns);
    // the rows are made and written in parts, on both cores for a long namespace (JudgedFile.ROWS_PER_PART)
    out.put("rows", JsonParts.runs(rows, rowsPerPart, 2, (g, run) -> {
      // a task's modes share its summary.json: read it once per task (rows come grouped by task)
      Map<String, JsonNode> summaries = new HashMap<>();
      boolean[] lastTrajectory = new boolean[1];
      for (JudgedRow r : run) {
        Spend spend = known.get(r.key());
        if (spend == null) {
          JsonNode summary = summaries.computeIfAbsent(r.taskId(),
              t -> readQuietly(namespace.resolve(Namespace.slug(t)).resolve("summary.json")));
          spend = Spend.of(summary, r.mode());
        }
        Json.MAPPER.writeValue(g, row(ns, r, rubric, spend, timings, lastTrajectory));
      }
    }));
    Path file = namespace.resolve(FILE);
    AtomicFiles.write(file, false, stream -> {
      Json.writePretty(stream, out);
      stream.write('\n');
    });
    return file;
  }

  /**
   * What a row's metrics take from its task's summary.json: the mode's chosen run dir ("" when none was chosen); from
   * the mode's ledger, what its rollouts and sessions cost and how many session attempts it retried (null when the
   * ledger does not record them); and from the mode's selection record, what its selector and reflector sessions
   * cost ({@code selectionCost}, with {@code selectionAbsent} the reason when it is null). A ledger's cost is null too
   * when the ledger names a rollout or session of it whose cost is not known ({@code cost_unknown}): its sum is then
   * only part of what was spent, and an unknown is never zero.
   *
   * @param selectionAbsent why {@code selectionCost} is null: {@code spend-unaccounted} (the selection says its usd
   *     is not all it cost) or {@code not-recorded} (no selection record, or one without a usd); null when it is not
   * @param modeInputTokens the model tokens every rollout and session of the mode spent, its ledger's and its
   *     selection's (input; {@code modeOutputTokens} output), null with {@code tokensAbsent} the reason when not all
   *     of them are known: {@code spend-unaccounted} (a record says some were not counted) or {@code not-recorded}
   *     (the ledger or the selection records none: harness2's files, and h2beam's before it counted them)
   */
  public record Spend(String chosenRunDir, Double executorCost, Double improverCost, Double selectionCost,
      String selectionAbsent, Double retries, Double modeInputTokens, Double modeOutputTokens, String tokensAbsent,
      Seen seen) implements java.io.Serializable {
    /** Why a selection cost or a mode's tokens are absent when the summary does not record them. */
    static final String NOT_RECORDED = "not-recorded";
    /** Why they are absent when a record says its figure is only the known part. */
    static final String UNACCOUNTED = "spend-unaccounted";

    public Spend {
      chosenRunDir = chosenRunDir == null ? "" : chosenRunDir;
      // a cost is a value or an absence with its reason, never both: the reason stands only beside no value, and a
      // missing value without one is what no record gives
      if (selectionCost != null) selectionAbsent = null;
      else if (selectionAbsent == null) selectionAbsent = NOT_RECORDED;
      else checkReason(selectionAbsent, "a selection cost");
      // the same for the tokens, both counts or neither
      if (modeInputTokens == null || modeOutputTokens == null) {
        modeInputTokens = null;
        modeOutputTokens = null;
        tokensAbsent = tokensAbsent == null ? NOT_RECORDED : checkReason(tokensAbsent, "a mode's tokens");
      } else {
        tokensAbsent = null;
      }
    }

    private static String checkReason(String reason, String what) {
      if (!reason.equals(NOT_RECORDED) && !reason.equals(UNACCOUNTED)) {
        throw new IllegalArgumentException(what + " is absent as " + NOT_RECORDED + " or "
            + UNACCOUNTED + ", not " + reason);
      }
      return reason;
    }

    /** A spend whose tokens are not recorded. */
    public Spend(String chosenRunDir, Double executorCost, Double improverCost, Double selectionCost,
        String selectionAbsent, Double retries, Seen seen) {
      this(chosenRunDir, executorCost, improverCost, selectionCost, selectionAbsent, retries, null, null, null, seen);
    }

    /** A spend whose chosen run has not been looked at (the metric vector reads its marker itself). */
    public Spend(String chosenRunDir, Double executorCost, Double improverCost, Double selectionCost,
        String selectionAbsent, Double retries) {
      this(chosenRunDir, executorCost, improverCost, selectionCost, selectionAbsent, retries, null);
    }

    /** This spend with what the grading step saw of its chosen run. */
    public Spend withSeen(Seen s) {
      return new Spend(chosenRunDir, executorCost, improverCost, selectionCost, selectionAbsent, retries,
          modeInputTokens, modeOutputTokens, tokensAbsent, s);
    }

    /** The spend of {@code mode} in a summary; {@code summary} null (it could not be read) records none. */
    public static Spend of(JsonNode summary, String mode) {
      // walked field by field, as a JSON pointer would (a missing or non-object step gives the missing node), without
      // compiling a pointer per row
      JsonNode ledger = summary == null ? null : summary.path("modes").path(mode).path("ledger");
      JsonNode selection = summary == null ? null : summary.path("selections").path(mode);
      String chosenDir = selection == null ? "" : selection.path("chosen_run_dir").asText("");
      boolean hasLedger = ledger != null && ledger.isObject() && ledger.has("rollout_usd") && ledger.has("session_usd");
      Double retries = hasLedger ? retries(ledger) : null;
      JsonNode unknown = hasLedger ? ledger.get("cost_unknown") : null;
      Double selectionCost = selectionUsd(selection);
      String selectionAbsent = selectionCost != null ? null
          : FileShapes.usdNotKnown(selection) ? UNACCOUNTED : NOT_RECORDED;
      Tokens tokens = hasLedger ? FileShapes.modeTokens(ledger, selection) : null;
      Double in = null;
      Double out = null;
      String tokensAbsent = tokens == null ? NOT_RECORDED : UNACCOUNTED;
      if (tokens != null && tokens.known()) {
        in = (double) tokens.input();
        out = (double) tokens.output();
      }
      // an amount the ledger does not hold (null, not a number, beyond a double) is unaccounted, never a known $0
      // (dogAL F3), as a part it names as unknown is
      Double executorCost = hasLedger && FileShapes.noneNamed(unknown, "rollouts")
          ? FileShapes.usdValue(ledger.get("rollout_usd")) : null;
      Double improverCost = hasLedger && FileShapes.noneNamed(unknown, "sessions")
          ? FileShapes.usdValue(ledger.get("session_usd")) : null;
      return new Spend(chosenDir, executorCost, improverCost, selectionCost, selectionAbsent, retries, in, out,
          tokensAbsent, null);
    }

    /**
     * The session attempts a ledger retried, or null when it cannot say: h2beam's {@code session_retries} when it
     * wrote one (a session made no attempt, so {@code session_attempts - P} would count short), else that difference
     * (harness2's files and every ledger whose sessions each made one attempt at least); none when a session's
     * attempts are not known ({@code attempts_unknown}), as a part is never taken for the whole.
     */
    static Double retries(JsonNode ledger) {
      JsonNode unknown = ledger.get("attempts_unknown");
      if (unknown != null && !(unknown.isArray() && unknown.isEmpty()) && !unknown.isNull()) return null;
      JsonNode own = ledger.get("session_retries");
      if (own != null && !own.isNull()) return own.isIntegralNumber() && own.asInt() >= 0 ? own.asDouble() : null;
      // attempts or a budget that are no whole number (null, a text) say nothing of retries: not 0 (dogAL F3)
      if (!ledger.path("session_attempts").isIntegralNumber() || !ledger.path("P").isIntegralNumber()) return null;
      return (double) Math.max(0, ledger.path("session_attempts").asInt() - ledger.path("P").asInt());
    }

    /**
     * What the selection record ({@code summary.json selections.<mode>}: the mode's selector and reflector sessions,
     * harness2's "selector cost + reflection cost") says they cost, when it says it all: its {@code usd}, a number or
     * a number's text as the summary's shape allows. Null when there is no record, it has no usd (or a null one: no
     * amount, which harness2 would read as 0, is not a recorded 0) or its {@code usd_known} is false (the usd is only
     * the known part).
     */
    private static Double selectionUsd(JsonNode selection) {
      if (selection == null || !selection.isObject() || FileShapes.usdNotKnown(selection)) return null;
      Double v = FileShapes.usdValue(selection.get("usd"));
      return v != null && Double.isFinite(v) ? v : null; // "NaN" or an overflow is no amount: not recorded, as none
    }
  }

  /**
   * What the grading step saw of a chosen run, so that the metric vector need not look again: {@code runDir} false
   * when its run dir is known not to be a folder and, from its completion marker, the numbers the vector takes (null
   * when there is no marker, it cannot be read or it does not record them), and {@code partial} when the marker says
   * its token counts are only the part counted ({@link RolloutMarker#tokens}). Coded as a JSON array: it travels with
   * every fresh row.
   */
  @JsonFormat(shape = JsonFormat.Shape.ARRAY)
  @JsonPropertyOrder({"runDir", "marked", "inputTokens", "outputTokens", "cachedTokens", "reasoningTokens", "wallS",
      "partial"})
  public record Seen(boolean runDir, boolean marked, Double inputTokens, Double outputTokens, Double cachedTokens,
      Double reasoningTokens, Double wallS, boolean partial) implements java.io.Serializable {
    /** A run dir that is not a folder: no marker, and no trajectory either. */
    public static final Seen NO_RUN_DIR = new Seen(false, false, null, null, null, null, null, false);

    /** A marker's numbers whose token counts are all it spent (or that records none). */
    public Seen(boolean runDir, boolean marked, Double inputTokens, Double outputTokens, Double cachedTokens,
        Double reasoningTokens, Double wallS) {
      this(runDir, marked, inputTokens, outputTokens, cachedTokens, reasoningTokens, wallS, false);
    }

    /** A run dir not known to be anything but a folder, with its marker as {@link Runmark#readMark} reads it. */
    public static Seen of(JsonNode mark) {
      return new Seen(true, mark != null, number(mark, "input_tokens"), number(mark, "output_tokens"),
          number(mark, "cached_tokens"), number(mark, "reasoning_tokens"), number(mark, "wall_s"),
          mark != null && !RolloutMarker.tokens(mark).known() && (mark.hasNonNull("input_tokens")
              || mark.hasNonNull("output_tokens")));
    }
  }

  /**
   * Records what grading saw of a chosen run ({@code seen}, null when it looked at none) with the spend of the row it
   * was graded for ({@code key} in {@code spend}, a namespace's spends or null), when that spend names the same run
   * dir: the writer then need not look at the run again. A spend of another run dir (a legacy selection's, whose task
   * names another folder) is left as it is.
   */
  static void carry(Map<String, Spend> spend, String key, String runDir, Seen seen) {
    if (seen == null || spend == null) return;
    spend.computeIfPresent(key, (k, sp) -> sp.chosenRunDir().equals(runDir) ? sp.withSeen(seen) : sp);
  }

  /**
   * The mode timings of one namespace ({@link ModeTiming}), each mode's folder listed once: a task whose file is not
   * listed has none, without a look of its own (most namespaces have no timings at all, and a look at a missing file
   * costs a system call and two exceptions; the 100 × 500 judge made 100,000 of them).
   */
  static final class Timings {
    private final Path runsRoot;
    private final Namespace ns;
    private final Map<String, Listed> listed = new java.util.concurrent.ConcurrentHashMap<>(); // parts on two threads

    /** A mode's timing folder and the names in it (none when it is missing or cannot be listed). */
    private record Listed(Path folder, Set<String> names) {}

    Timings(Path runsRoot, Namespace ns) {
      this.runsRoot = runsRoot;
      this.ns = ns;
    }

    /** The mode's wall seconds for the task, or null when no timing records them. */
    Double wall(String mode, String task) {
      Listed l = listed.computeIfAbsent(mode, m -> list(ModeTiming.folder(runsRoot, ns, m)));
      // no name or path is made for a row of a mode without timings (most namespaces have none)
      if (l.names().isEmpty()) return null;
      String name = ModeTiming.fileName(task);
      return l.names().contains(name) ? number(readQuietly(l.folder().resolve(name)), "wall_s") : null;
    }

    private static Listed list(Path folder) {
      Set<String> names = new HashSet<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
        for (Path e : entries) names.add(e.getFileName().toString());
      } catch (IOException | RuntimeException e) {
        // no folder (or none that can be listed): no timings
      }
      return new Listed(folder, names);
    }
  }

  /**
   * One row: every metric a value or an absence; {@code ns} is the namespace folder's name parsed (null when it does
   * not spell one), {@code spend} what the task's summary records for the row's mode, {@code timings} the
   * namespace's mode timings (null when {@code ns} is); {@code lastTrajectory} holds whether the namespace's last row
   * looked at had a trajectory, and is set for this one (it only orders the looks).
   */
  static Map<String, Object> row(Namespace ns, JudgedRow r, boolean rubric, Spend spend, Timings timings,
      boolean[] lastTrajectory) {
    Map<String, Object> values = new LinkedHashMap<>();
    Map<String, Object> absent = new LinkedHashMap<>();
    String judged = r.graded() ? null : (r.absence() == null || r.absence().isEmpty() ? "judge-failed" : r.absence());
    put(values, absent, "score", r.frac(), judged);
    put(values, absent, "pass", r.graded() ? (Boolean.TRUE.equals(r.allPass()) ? 1.0 : 0.0) : null, judged);
    if (!rubric) absent.put("quality", "not-applicable");
    else put(values, absent, "quality", r.frac(), judged);

    String chosenDir = spend.chosenRunDir();
    // what the grading step saw of the run, or a look now (a run dir that is not a folder holds no marker either:
    // the marker's own check answers both)
    Seen seen = chosenDir.isEmpty() ? null
        : spend.seen() != null ? spend.seen() : Seen.of(Runmark.readMark(Path.of(chosenDir)));
    // no run was chosen: the selection failed, or the mode failed before it selected or never ran (its row says so)
    String unchosen = Absence.MODE_FAILED.code.equals(r.absence()) || Absence.BASE_FAILED.code.equals(r.absence())
        ? r.absence() : "selection-failed";
    String noRun = chosenDir.isEmpty() ? unchosen : !seen.marked() ? "not-recorded" : null;
    // counts the marker marks as the part counted are not the rollout's tokens: never a part for the whole
    boolean partial = seen != null && seen.partial();
    String noCount = noRun != null ? noRun : partial ? Spend.UNACCOUNTED : "not-recorded";
    Double in = seen == null || partial ? null : seen.inputTokens();
    Double outTokens = seen == null || partial ? null : seen.outputTokens();
    put(values, absent, "input_tokens", in, noCount);
    put(values, absent, "output_tokens", outTokens, noCount);
    put(values, absent, "cached_tokens", seen == null ? null : seen.cachedTokens(),
        noRun == null ? "not-recorded" : noRun);
    put(values, absent, "reasoning_tokens", seen == null ? null : seen.reasoningTokens(),
        noRun == null ? "not-recorded" : noRun);
    put(values, absent, "total_tokens", in == null || outTokens == null ? null : in + outTokens, noCount);

    Double exec = spend.executorCost();
    Double impr = spend.improverCost();
    Double sel = spend.selectionCost();
    put(values, absent, "executor_cost", exec, "spend-unaccounted");
    put(values, absent, "improver_cost", impr, "spend-unaccounted");
    put(values, absent, "selection_cost", sel, spend.selectionAbsent());
    // the mode's whole spend, or none: a part that is absent, for whatever reason, leaves the sum short of what the
    // mode spent (as a ledger that records no cost does for executor_cost), and a partial sum never stands for it
    put(values, absent, "cost", exec == null || impr == null || sel == null ? null : exec + impr + sel,
        "spend-unaccounted");
    Double modeIn = spend.modeInputTokens();
    Double modeOut = spend.modeOutputTokens();
    // a mode that failed on the task records no ledger: its counts are absent because it failed, not because the
    // files predate them
    boolean modeFailed = Absence.MODE_FAILED.code.equals(r.absence());
    String noTokens = modeFailed ? Absence.MODE_FAILED.code : spend.tokensAbsent();
    put(values, absent, "mode_input_tokens", modeIn, noTokens);
    put(values, absent, "mode_output_tokens", modeOut, noTokens);
    put(values, absent, "mode_tokens", modeIn == null || modeOut == null ? null : modeIn + modeOut, noTokens);

    put(values, absent, "chosen_wall_s", seen == null ? null : seen.wallS(), noRun == null ? "not-recorded" : noRun);
    Double modeWall = timings == null ? null : timings.wall(r.mode(), r.taskId());
    put(values, absent, "mode_wall_s", modeWall, "not-recorded");

    String trajectory = null;
    // a run dir that is not a folder has no trajectory either
    if (seen != null && seen.runDir()) {
      try {
        Path t = Path.of(chosenDir).resolve("trajectory.md");
        // where a trajectory is unlikely (no marker, and the namespace's last row had none), asking whether it exists
        // costs half of a failed look at its kind; either way only a regular file is read
        boolean likely = seen.marked() || lastTrajectory[0];
        if ((likely || Files.exists(t)) && Files.isRegularFile(t)) trajectory = Files.readString(t);
      } catch (IOException | RuntimeException e) {
        trajectory = null;
      }
      lastTrajectory[0] = trajectory != null;
    }
    // only a trajectory in the shared grammar says how many turns and calls there were (then 0 is a real 0)
    boolean grammar = trajectory != null && GRAMMAR.matcher(trajectory).find();
    String noTrajectory = chosenDir.isEmpty() ? unchosen : "not-recorded";
    put(values, absent, "turns", grammar ? (double) count(ASSISTANT, trajectory) : null, noTrajectory);
    put(values, absent, "tool_calls", grammar ? (double) count(ACTION, trajectory) : null, noTrajectory);
    put(values, absent, "retries", spend.retries(), modeFailed ? Absence.MODE_FAILED.code : "not-recorded");

    Map<String, Object> row = new LinkedHashMap<>();
    row.put("task_id", r.taskId());
    row.put("mode", r.mode());
    row.put("k", r.k());
    row.put("seed", ns == null ? null : ns.seed());
    row.put("values", values);
    row.put("absent", absent);
    return row;
  }

  private static void put(Map<String, Object> values, Map<String, Object> absent, String name, Double v,
      String reason) {
    if (v != null && Double.isFinite(v)) values.put(name, v);
    else absent.put(name, reason);
  }

  private static Double number(JsonNode n, String field) {
    if (n == null || !n.has(field) || !n.get(field).isNumber()) return null;
    return n.get(field).asDouble();
  }

  private static int count(Pattern p, String text) {
    Matcher m = p.matcher(text);
    int n = 0;
    while (m.find()) n++;
    return n;
  }

  private static JsonNode readQuietly(Path file) {
    try {
      return Files.isRegularFile(file) ? Json.readTree(file) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
