package dev.h2beam.pipelines.judge;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * The console lines for the rows a judge run could not grade, per namespace. judged.json alone cannot show them: a
 * failed re-judge of a run graded before keeps the earlier row, so without these lines a re-judge whose every row
 * failed would print only the old graded counts.
 */
final class RunFailures {
  private RunFailures() {}

  /** Rows shown per namespace beyond those whose failure judged.json does not show. */
  static final int SHOWN = 20;

  /**
   * Prints {@code <namespace>: this run: N row(s) judged, G graded, F not graded:} and one line per failed row with
   * its absence and error; every row whose earlier graded row was kept is shown, the others up to {@link #SHOWN}.
   * {@code file}: where the rows are, judged.json or base_judged.json.
   */
  @SuppressWarnings("unchecked")
  static void print(String label, long judged, List<Object> failed, String file, PrintStream out) {
    if (failed.isEmpty()) return;
    out.println(label + ": this run: " + judged + " row(s) judged, " + (judged - failed.size()) + " graded, "
        + failed.size() + " not graded:");
    int shown = 0;
    int hidden = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (Object o : failed) {
        Map<String, Object> f = (Map<String, Object>) o;
        boolean kept = Boolean.TRUE.equals(f.get("kept_earlier"));
        if (kept != (pass == 0)) continue;
        if (!kept && shown >= SHOWN) {
          hidden++;
          continue;
        }
        if (!kept) shown++;
        String chosen = String.valueOf(f.get("label"));
        out.println("  " + f.get("task_id") + " " + f.get("mode") + " k=" + f.get("k")
            + (chosen.isEmpty() ? "" : " (" + chosen + ")") + ": " + f.get("absence") + ": " + f.get("error")
            + (kept ? " [" + file + " keeps the earlier graded row of this same run: a failed re-judge never erases"
                + " a score; fix the cause and judge again]" : ""));
      }
    }
    if (hidden > 0) out.println("  ... and " + hidden + " more, each with its reason in " + file);
  }
}
