package dev.h2beam.transforms.resume;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.h2beam.adapters.model.Namespace;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

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

  private static Optional<String> whyNot(Map<String, Object> summary, List<String> modes) {
    // these refusals come before any adopted run is looked at: no benchmark is needed
    return Resume.whyNot(summary, modes, null, Path.of("runs"), NS, "t1");
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
    assertEquals(Optional.of("cached summary covers ['agg', 'seq'], re-running for ['seq']"),
        whyNot(summary("ok", modes, sels), List.of("seq", "agg")));
    // a mode the summary never ran
    assertEquals(Optional.of("cached summary covers ['agg', 'seq'], re-running for ['gat']"),
        whyNot(summary("ok", modes, sels), List.of("agg", "gat")));
    // a chosen label recorded as null is no label (harness2 reads it as falsy)
    Map<String, Object> nullLabel = new LinkedHashMap<>();
    nullLabel.put("ok", true);
    nullLabel.put("chosen_label", null);
    sels.put("seq", nullLabel);
    assertEquals(Optional.of("cached summary covers ['agg', 'seq'], re-running for ['seq']"),
        whyNot(summary("ok", modes, sels), List.of("agg", "seq")));
    // a failed mode and an empty modes record
    modes.put("agg", Map.of("ok", false));
    assertEquals(Optional.of("cached summary covers ['agg', 'seq'], re-running for ['agg', 'seq']"),
        whyNot(summary("ok", modes, sels), List.of("seq", "agg")));
    assertEquals(Optional.of("cached summary covers [], re-running for ['agg']"),
        whyNot(summary("ok", Map.of(), sels), List.of("agg")));
  }

  @Test
  void aSummaryThatIsNotOkIsReRun() {
    assertEquals(Optional.of("cached summary has status partial; re-running"),
        whyNot(summary("partial", Map.of(), Map.of()), List.of("agg")));
  }
}
