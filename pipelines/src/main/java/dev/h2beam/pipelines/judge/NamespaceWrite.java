package dev.h2beam.pipelines.judge;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writing one namespace's judgement, once its rows are graded: judged.json merged with what it held, the metric vector
 * beside it, and a result record for the command to print. The judge pipeline calls it from the one place that holds a
 * namespace whole: the shard that graded all of its summaries, or else the namespace's group.
 */
final class NamespaceWrite {
  private NamespaceWrite() {}

  /**
   * Writes every namespace a shard graded whole: each with rows or an unreadable summary, in name order, its rows as
   * the grouping's coder would have given them back ({@link #asCoded}), so that its files are those the grouping's
   * writer would write.
   */
  static void whole(JudgePipeline.Config c, Map<String, List<JudgedRow>> rows, Map<String, List<String>> problems,
      Map<String, Map<String, MetricVector.Spend>> spend, Map<String, List<Integer>> served) throws IOException {
    TreeMap<String, List<JudgedRow>> written = new TreeMap<>(rows);
    problems.keySet().forEach(ns -> written.putIfAbsent(ns, List.of()));
    for (Map.Entry<String, List<JudgedRow>> e : written.entrySet()) {
      write(c, e.getKey(), asCoded(e.getValue()), problems.getOrDefault(e.getKey(), List.of()),
          spend.getOrDefault(e.getKey(), Map.of()), served.getOrDefault(e.getKey(), List.of()));
    }
  }

  /**
   * The row as the grouping's coder ({@link JudgePipeline#GRADED}) gives it back, so that a namespace written by the
   * shard that graded it is written as one that went through the grouping: the coder orders the keys of every map of a
   * grader's raw record, and gives its numbers and the scores back as JSON numbers read into a {@code Number} or a map
   * are.
   * Only those values can come back otherwise (texts, flags and ints come back as they went, and the spend is read
   * for its values, not its order), so only they are coded; {@code JudgePipelineTest} holds this equal to the whole
   * row coded and decoded. A namespace's rows are coded in one array, each element as it would be alone.
   */
  static List<JudgedRow> asCoded(List<JudgedRow> rows) throws IOException {
    Coded[] out = new Coded[rows.size()];
    for (int i = 0; i < out.length; i++) {
      JudgedRow r = rows.get(i);
      out[i] = new Coded(r.nPassed(), r.nCriteria(), r.raw());
    }
    Coded[] back = Json.CODER.readValue(Json.CODER.writeValueAsBytes(out), Coded[].class);
    List<JudgedRow> coded = new ArrayList<>(back.length);
    for (int i = 0; i < back.length; i++) {
      JudgedRow r = rows.get(i);
      coded.add(new JudgedRow(r.namespace(), r.taskId(), r.mode(), r.k(), r.label(), r.runId(), r.chosenIsBase(),
          back[i].nPassed(), back[i].nCriteria(), r.allPass(), back[i].raw(), r.error(), r.absence()));
    }
    return coded;
  }

  /** A row's values that its coder may give back otherwise, typed as {@link JudgedRow} declares them. */
  record Coded(Number nPassed, Number nCriteria, Map<String, Object> raw) {}

  /**
   * What the judge model cost for this run's rows: {@code judge_usd}, the calls' reported costs summed (a row's
   * {@code judge_cost_usd}, or each repeat's under {@code repeat_raw}); {@code judge_usd_rows}, the rows with such a
   * cost; and {@code judge_usd_unknown_rows}, the rows with a grade whose cost is not known here (the judge timed out
   * on it, failed without saying what its calls cost, {@link JudgeModelFailure}, or made a call that got no answer
   * or whose answer reported no tokens: its {@code judge_cost_usd} is null), never counted as zero. A row
   * the judge was never called for (no selection, a missing run, no deliverable) costs nothing.
   */
  static Map<String, Object> judgeSpend(List<JudgedRow> fresh) {
    return judgeSpend(fresh, List.of());
  }

  /**
   * The same, leaving out the grades {@code served} (row by row, a mask of repeats) says were served from
   * {@link KeptGrades}: the judge that made them paid for them, not this run.
   */
  static Map<String, Object> judgeSpend(List<JudgedRow> fresh, List<Integer> served) {
    double usd = 0;
    long priced = 0;
    long unknown = 0;
    for (int row = 0; row < fresh.size(); row++) {
      JudgedRow r = fresh.get(row);
      int kept = row < served.size() ? served.get(row) : 0;
      // each repeat is one grade; an ungraded row stands for the grade that failed, by its absence
      List<?> grades = r.raw().get("repeat_raw") instanceof List<?> repeats ? repeats
          : List.of(r.graded() || r.raw().containsKey("judge_cost_usd") ? r.raw()
              : Map.of("absence", r.absence() == null ? "" : r.absence()));
      boolean known = false;
      boolean notKnown = false;
      for (int i = 0; i < grades.size(); i++) {
        if ((kept >> i & 1) != 0 || !(grades.get(i) instanceof Map<?, ?> m)) continue;
        if (m.get("judge_cost_usd") instanceof Number n) {
          usd += n.doubleValue();
          known = true;
        } else {
          // a grade whose cost is null (a call unanswered, or answered without its tokens), or that failed
          Object absence = m.get("absence");
          notKnown |= m.containsKey("judge_cost_usd") || Absence.JUDGE_FAILED.code.equals(absence)
              || Absence.JUDGE_TIMEOUT.code.equals(absence);
        }
      }
      if (known) priced++;
      if (notKnown) unknown++;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("judge_usd", usd);
    m.put("judge_usd_rows", priced);
    m.put("judge_usd_unknown_rows", unknown);
    return m;
  }

  /**
   * Writes one namespace from its fresh rows, its unreadable summaries, its rows' spend and, row by row, the mask of
   * the repeats whose grades were served from {@link KeptGrades}; once its judged.json (or base_judged.json) holds the
   * rows, the grades kept for them are removed.
   */
  static void write(JudgePipeline.Config c, String ns, List<JudgedRow> fresh, List<String> unsorted,
      Map<String, MetricVector.Spend> spend, List<Integer> served) throws IOException {
    List<String> problems = new ArrayList<>(unsorted);
    problems.sort(null);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("namespace", ns);
    result.put("new_rows", fresh.size());
    result.put("new_graded", fresh.stream().filter(JudgedRow::graded).count());
    result.put("unreadable", problems);
    result.put("missing", ListedTasks.missing(Paths.get(ns)));
    result.put("kept_served", KeptGrades.count(served));
    if ("rubric".equals(c.graders().get(ns))) result.putAll(judgeSpend(fresh, served));
    if (c.bases()) {
      result.putAll(JudgedFile.writeBases(Paths.get(ns), fresh));
    } else {
      JudgedFile.Merged merged = JudgedFile.mergeInto(Paths.get(ns), fresh);
      result.putAll(merged.result());
      if (merged.rows() != null) {
        result.put("kept_unread", ListedTasks.keptUnread(ns, merged.rows(), fresh, problems));
        // the metric vector of every judged row, beside judged.json (by the same one writer)
        result.put("metrics", MetricVector.write(Paths.get(ns), merged.rows(),
            "rubric".equals(c.graders().get(ns)), spend).toString());
      }
    }
    if (!result.containsKey("error")) KeptGrades.forget(ns, fresh);
    String name = Integer.toHexString(ns.hashCode()) + "-" + Paths.get(ns).getFileName() + ".json";
    AtomicFiles.writeString(Paths.get(c.resultsDir()).resolve(name), Json.pretty(result));
  }
}
