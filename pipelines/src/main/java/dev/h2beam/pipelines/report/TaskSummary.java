package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The spend, fallbacks and screened lessons one task's {@code summary.json} records per mode (spec §2.7, §2.9, §2.11).
 *
 * @param modes per mode token, what that mode spent and how many stages fell back
 */
public record TaskSummary(String path, String taskId, Map<String, ModeSpend> modes) implements Serializable {

  public TaskSummary {
    modes = new TreeMap<>(modes);
  }

  /** The mode's record, or nothing spent when the summary has no such mode. */
  public ModeSpend mode(String token) {
    return modes.getOrDefault(token, ModeSpend.NONE);
  }

  /**
   * One mode of one task.
   *
   * @param fellBack labels of the stages that fell back to the inherited harness
   * @param improverUsd stage usd plus selection usd (selection and reflection sessions)
   * @param executorUsd the ledger's {@code rollout_usd}; 0 when the executor reported no cost
   * @param lessonsScreened 1 when the selection record says its lesson was screened out of the library, else 0
   */
  public record ModeSpend(int fellBack, double improverUsd, double executorUsd, int lessonsScreened)
      implements Serializable {
    static final ModeSpend NONE = new ModeSpend(0, 0.0, 0.0, 0);

    public ModeSpend(int fellBack, double improverUsd, double executorUsd) {
      this(fellBack, improverUsd, executorUsd, 0);
    }
  }
}
