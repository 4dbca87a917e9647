package dev.h2beam.transforms.selection;

import dev.h2beam.adapters.model.Tokens;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The outcome of choosing one final for a mode of a task (spec §2.9); written to selection.json and summary.json. */
public final class SelectionRecord {
  public final String taskId;
  public final String mode;
  public final int k;
  public String chosenId = "";
  public String chosenLabel = "";
  public String chosenRunId = "";
  public boolean chosenIsBase;
  public String why = "";
  public LinkedHashMap<String, String> idMap = new LinkedHashMap<>();
  public List<String> dropped = new ArrayList<>();
  public int nCandidates;
  public boolean ok;
  public boolean fallback;
  public String error = "";
  public double usd;
  /** False when {@link #usd} is only the known part of what the selector's and reflector's sessions cost. */
  public boolean usdKnown = true;
  /** The model tokens the selector's and reflector's sessions spent ({@link Tokens}: some uncounted when not known). */
  public Tokens tokens = Tokens.NONE;
  public LinkedHashMap<String, String> experience = new LinkedHashMap<>();
  /** Why the reflector's lesson was screened out of the library (instruction overrides, control tokens, keys). */
  public List<String> lessonScreened = new ArrayList<>();
  /**
   * Why no lesson came when the reflector did not answer usably (its endpoint down, out of quota) or the reflection
   * could not be made: a lesson lost, which {@code experience: {}} alone would show as the reflector's "no lesson".
   */
  public String reflectionError = "";
  public boolean trivial;
  public String evidence = "deliverable";
  public String chosenRunDir = "";

  public SelectionRecord(String taskId, String mode, int k) {
    this.taskId = taskId;
    this.mode = mode;
    this.k = k;
  }

  /** Adds what a selector's or reflector's call spent: its cost (known or not) and its tokens. */
  public void spent(double costUsd, boolean costKnown, Tokens spentTokens) {
    usd += costUsd;
    usdKnown &= costKnown;
    tokens = tokens.plus(spentTokens);
  }

  /** The record's keys in the order of spec §2.9, plus {@code chosen_run_dir}: the content of selection.json. */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("task_id", taskId);
    m.put("mode", mode);
    m.put("k", k);
    m.put("chosen_id", chosenId);
    m.put("chosen_label", chosenLabel);
    m.put("chosen_run_id", chosenRunId);
    m.put("chosen_is_base", chosenIsBase);
    m.put("why", why);
    m.put("id_map", new LinkedHashMap<>(idMap));
    m.put("dropped", List.copyOf(dropped));
    m.put("n_candidates", nCandidates);
    m.put("ok", ok);
    m.put("fallback", fallback);
    m.put("error", clip(error, 400));
    m.put("usd", usd);
    // only when false, as below
    if (!usdKnown) m.put("usd_known", false);
    // h2beam's own, in every record, so that no reader takes a record without them for one that spent none
    m.put("tokens", tokens.toJson());
    if (!tokens.known()) m.put("tokens_known", false);
    m.put("experience", new LinkedHashMap<>(experience));
    m.put("trivial", trivial);
    m.put("evidence", evidence);
    m.put("chosen_run_dir", chosenRunDir);
    // only when it happened, so every other record keeps harness2's exact keys
    if (!lessonScreened.isEmpty()) m.put("lesson_screened", List.copyOf(lessonScreened));
    if (!reflectionError.isEmpty()) m.put("reflection_error", clip(reflectionError, 400));
    return m;
  }

  static String clip(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n);
  }
}
