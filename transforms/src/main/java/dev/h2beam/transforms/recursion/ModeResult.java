package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.model.RunView;
import dev.h2beam.transforms.ledger.Ledger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One mode's run on one task (spec §2.7): stages, trees, rollouts (bases included), finals, ledger and census. */
public final class ModeResult {
  public final String mode;
  public final String taskId;
  public final int k;
  public final List<Stage> stages = new ArrayList<>();
  public final LinkedHashMap<String, LinkedHashMap<String, String>> trees = new LinkedHashMap<>();
  public final LinkedHashMap<String, RunView> rollouts = new LinkedHashMap<>();
  public final List<String> finals = new ArrayList<>();
  public final Ledger ledger;
  public Map<String, Object> similarity;
  /** The gated mode's record (method, policy, every step's proposal and decision); null for the other modes. */
  public Map<String, Object> gate;
  public final List<String> errors = new ArrayList<>();

  ModeResult(String mode, String taskId, int k) {
    this.mode = mode;
    this.taskId = taskId;
    this.k = k;
    this.ledger = new Ledger(mode, taskId, k);
  }

  public boolean ok() {
    return !finals.isEmpty() && errors.isEmpty();
  }

  void add(Stage s) {
    stages.add(s);
    trees.put(s.label(), s.tree());
  }

  public Map<String, Object> toJson() {
    List<String> fellBack = new ArrayList<>();
    List<String> keptBase = new ArrayList<>();
    List<Object> stageJson = new ArrayList<>();
    for (Stage s : stages) {
      if (s.fellBack()) fellBack.add(s.label());
      if (s.keptBase()) keptBase.add(s.label());
      stageJson.add(s.toJson());
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", mode);
    m.put("task_id", taskId);
    m.put("k", k);
    m.put("finals", List.copyOf(finals));
    m.put("ok", ok());
    m.put("fell_back", fellBack);
    m.put("kept_base", keptBase);
    m.put("stages", stageJson);
    m.put("similarity", similarity);
    m.put("ledger", ledger.toJson());
    m.put("errors", List.copyOf(errors));
    if (gate != null) m.put("gate", gate);
    return m;
  }
}
