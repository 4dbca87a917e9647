package dev.h2beam.transforms.resume;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.Namespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Why a cached summary does not let its task be skipped, in harness2's words (spec §8.3). */
class ResumeTest {
  private static final Namespace NS = Namespace.parse("demo-oc-agg1").orElseThrow();

  private static Map<String, Object> summary(String status, Map<String, Object> modes, Map<String, Object> sels) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("task_id", "t1");
    s.put("status", status);
    s.put("modes", modes);
    s.put("selections", sels);
    return s;
  }

  private static final Path FILE = Path.of("runs", "demo-oc-agg1", "t1", "summary.json");
  private static final String AT = FILE.toAbsolutePath().toString();

  private static Optional<String> whyNot(Map<String, Object> summary, List<String> modes) {
    // these refusals come before any adopted run is looked at: no benchmark is needed
    return Resume.whyNot(FILE, summary, modes, null, Path.of("runs"), NS, "t1");
  }

  private static Optional<String> refused(String words, String fields) {
    return Optional.of(words + " (" + AT + ", " + fields + ")" + Resume.RERUN);
  }

  @Test
  void aSummaryThatDoesNotCoverEveryRequestedModeNamesWhatItRecordsAndWhatIsReRunAsPythonLists() {
    Map<String, Object> sels = new LinkedHashMap<>();
    sels.put("agg", Map.of("ok", true, "chosen_label", "agg1"));
    sels.put("seq", Map.of("ok", true, "chosen_label", ""));
    Map<String, Object> modes = new LinkedHashMap<>();
    modes.put("seq", Map.of("ok", true));
    modes.put("agg", Map.of("ok", true));
    // seq's selection has no chosen label: harness2 lists every mode the summary records, sorted, then the missing
    assertEquals(refused("cached summary covers ['agg', 'seq'], re-running for ['seq']",
        "fields modes.seq.ok, selections.seq"),
        whyNot(summary("ok", modes, sels), List.of("seq", "agg")));
    // a mode the summary never ran
    assertEquals(refused("cached summary covers ['agg', 'seq'], re-running for ['gat']",
        "fields modes.gat.ok, selections.gat"),
        whyNot(summary("ok", modes, sels), List.of("agg", "gat")));
    // a chosen label recorded as null is no label (harness2 reads it as falsy)
    Map<String, Object> nullLabel = new LinkedHashMap<>();
    nullLabel.put("ok", true);
    nullLabel.put("chosen_label", null);
    sels.put("seq", nullLabel);
    assertEquals(refused("cached summary covers ['agg', 'seq'], re-running for ['seq']",
        "fields modes.seq.ok, selections.seq"),
        whyNot(summary("ok", modes, sels), List.of("agg", "seq")));
    // a failed mode and an empty modes record
    modes.put("agg", Map.of("ok", false));
    assertEquals(refused("cached summary covers ['agg', 'seq'], re-running for ['agg', 'seq']",
        "fields modes.agg.ok, selections.agg, modes.seq.ok, selections.seq"),
        whyNot(summary("ok", modes, sels), List.of("seq", "agg")));
    assertEquals(refused("cached summary covers [], re-running for ['agg']",
        "fields modes.agg.ok, selections.agg"),
        whyNot(summary("ok", Map.of(), sels), List.of("agg")));
  }

  @Test
  void aSummaryThatIsNotOkIsReRun() {
    assertEquals(refused("cached summary has status partial", "field status"),
        whyNot(summary("partial", Map.of(), Map.of()), List.of("agg")));
  }

  /** A refused resume names the file and the field that refused it, absolute, and that nothing needs doing. */
  @Test
  void anAdoptedRunDirectoryThatIsGoneIsNamedWithTheSummaryFieldThatNamesIt(@TempDir Path tmp) throws Exception {
    Path summaryFile = Files.createDirectories(tmp.resolve("runs/demo-oc-agg1/t1")).resolve("summary.json");
    Path gone = tmp.resolve("executions/demo-oc-agg1/t1/agg1");
    Map<String, Object> sel = new LinkedHashMap<>();
    sel.put("ok", true);
    sel.put("chosen_label", "agg1");
    sel.put("chosen_run_dir", gone.toString());
    Optional<String> why = Resume.whyNot(summaryFile, summary("ok", Map.of("agg", Map.of("ok", true)),
        Map.of("agg", sel)), List.of("agg"), null, tmp.resolve("runs"), NS, "t1");
    assertEquals(Optional.of("cannot resume agg: adopted run directory is missing (" + gone + ", from "
        + summaryFile.toAbsolutePath() + ", field selections.agg.chosen_run_dir); re-running the task (no action"
        + " needed: rollouts and sessions that did not change are reused, the rest run now)"), why);
  }
}
