package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dogW: a mode an older h2beam finished, replayed by a later one because its task re-runs for another mode, is a
 * replay although the later build adds keys (the tokens): its timing file keeps the run that did the work.
 */
class ModeTimingTest {

  @Test
  void aReplayThatAddsKeysAnOlderBuildDidNotRecordIsAReplay(@TempDir Path dir) throws Exception {
    Map<String, Object> older = new LinkedHashMap<>(Map.of("ok", true, "finals", List.of("agg1")));
    Map<String, Object> olderSel = new LinkedHashMap<>(Map.of("ok", true, "chosen_label", "agg1"));
    Path summary = dir.resolve("summary.json");
    Files.writeString(summary, Json.pretty(Map.of("task_id", "t", "modes", Map.of("agg", older),
        "selections", Map.of("agg", olderSel))));

    Map<String, Object> replayed = new LinkedHashMap<>(older);
    replayed.put("tokens", Map.of("input", 10));
    Map<String, Object> replayedSel = new LinkedHashMap<>(olderSel);
    replayedSel.put("tokens", Map.of("input", 3));
    assertTrue(ModeTiming.replayed(summary, "agg", replayed, replayedSel));
    assertTrue(ModeTiming.replayed(summary, "agg", older, olderSel));

    Map<String, Object> other = new LinkedHashMap<>(replayed);
    other.put("finals", List.of("agg2"));
    assertFalse(ModeTiming.replayed(summary, "agg", other, replayedSel), "another result: this run's time");
    assertFalse(ModeTiming.replayed(summary, "seq", replayed, replayedSel), "a mode the summary lacks");
  }
}
