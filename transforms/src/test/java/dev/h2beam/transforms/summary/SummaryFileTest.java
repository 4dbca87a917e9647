package dev.h2beam.transforms.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.files.Build;
import dev.h2beam.adapters.files.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** summary.json: the merge rule of spec §8.4, the merged status of §2.11, and the written file. */
class SummaryFileTest {
  private static final String NO_BASE = "no base rollout produced anything";

  @TempDir Path dir;

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    return m;
  }

  private static Map<String, Object> mode(boolean ok, String tag) {
    return map("ok", ok, "finals", List.of(tag));
  }

  private static Map<String, Object> selection(boolean ok, String chosenLabel) {
    return map("ok", ok, "chosen_label", chosenLabel);
  }

  private static Map<String, Object> summary(String status, Map<String, Object> modes, Map<String, Object> selections,
      List<Object> errors) {
    return map("task_id", "ledger-1", "domain", "accounting", "k", 2, "seed", null, "status", status,
        "base", List.of(map("label", "base1", "run_id", "r/base1", "run_dir", "/r/base1")), "modes", modes,
        "selections", selections, "errors", errors);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> sub(Map<String, Object> m, String key) {
    return (Map<String, Object>) m.get(key);
  }

  private Path file() {
    return dir.resolve("demo-oc-agg2").resolve("ledger-1").resolve("summary.json");
  }

  // ---- merge (§8.4) ----

  @Test
  void modesOverlayTheOldModesPerMode() {
    Map<String, Object> old = summary("ok", map("agg", mode(true, "old-agg"), "seq", mode(true, "old-seq")),
        map(), List.of());
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "new-agg")), map(), List.of());
    Map<String, Object> merged = SummaryFile.merge(old, fresh);
    assertEquals(map("agg", mode(true, "new-agg"), "seq", mode(true, "old-seq")), sub(merged, "modes"));
  }

  @Test
  void selectionsOverlayTheOldSelectionsPerMode() {
    Map<String, Object> old = summary("ok", map(), map("agg", selection(true, "agg1"), "seq", selection(true, "c2")),
        List.of());
    Map<String, Object> fresh = summary("partial", map(), map("agg", selection(true, "agg2")), List.of());
    Map<String, Object> merged = SummaryFile.merge(old, fresh);
    assertEquals(map("agg", selection(true, "agg2"), "seq", selection(true, "c2")), sub(merged, "selections"));
  }

  @Test
  void legacyArmsAreMergedAsModes() {
    Map<String, Object> old = map("task_id", "ledger-1", "status", "ok", "arms", map("seq", mode(true, "c2")),
        "selections", map(), "errors", List.of());
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")), map(), List.of());
    Map<String, Object> merged = SummaryFile.merge(old, fresh);
    assertEquals(map("seq", mode(true, "c2"), "agg", mode(true, "agg2")), sub(merged, "modes"));
    assertFalse(merged.containsKey("arms"));
  }

  @Test
  void readTurnsLegacyArmsIntoModesInPlace() throws IOException {
    Path f = dir.resolve("summary.json");
    Files.writeString(f, "{\"task_id\": \"t\", \"arms\": {\"agg\": {\"ok\": true}}, \"errors\": []}");
    Map<String, Object> m = SummaryFile.read(f);
    assertEquals(List.of("task_id", "modes", "errors"), List.copyOf(m.keySet()));
    assertEquals(map("agg", map("ok", true)), sub(m, "modes"));
  }

  @Test
  void writeOverALegacyFileKeepsItsArmsUnderModes() throws IOException {
    Files.createDirectories(file().getParent());
    Files.writeString(file(), Json.pretty(map("task_id", "ledger-1", "status", "ok",
        "arms", map("seq", mode(true, "c2")), "selections", map("seq", selection(true, "c2")), "errors", List.of())));
    SummaryFile.write(file(), summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of()));
    Map<String, Object> onDisk = Json.readMap(file());
    assertFalse(onDisk.containsKey("arms"));
    assertEquals(List.of("agg", "seq"), List.copyOf(sub(onDisk, "modes").keySet()));
  }

  @Test
  void newErrorsComeFirstThenOldErrors() {
    Map<String, Object> old = summary("partial", map(), map(), List.of("agg: selection failed: old", "note: x"));
    Map<String, Object> fresh = summary("partial", map(), map(), List.of("seq: selection failed: new"));
    assertEquals(List.of("seq: selection failed: new", "agg: selection failed: old", "note: x"),
        SummaryFile.merge(old, fresh).get("errors"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ok", "partial"})
  void oldNoBaseErrorIsDroppedWhenTheNewStatusIsOkOrPartial(String status) {
    Map<String, Object> old = summary("base-failed", map(), map(), List.of(NO_BASE));
    Map<String, Object> fresh = summary(status, map("agg", mode(false, "agg1")), map(), List.of("agg: boom"));
    assertEquals(List.of("agg: boom"), SummaryFile.merge(old, fresh).get("errors"));
  }

  @Test
  void oldNoBaseErrorIsKeptWhenTheBasesFailedAgain() {
    Map<String, Object> old = summary("base-failed", map(), map(), List.of(NO_BASE));
    Map<String, Object> fresh = summary("base-failed", map(), map(), List.of());
    Map<String, Object> merged = SummaryFile.merge(old, fresh);
    assertEquals(List.of(NO_BASE), merged.get("errors"));
    assertEquals("base-failed", merged.get("status"));
  }

  @Test
  void oldErrorOfAModeNowOkWithAnOkSelectionAndChosenLabelIsDropped() {
    Map<String, Object> old = summary("partial", map(), map(), List.of("agg: selection failed: timeout"));
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of());
    assertEquals(List.of(), SummaryFile.merge(old, fresh).get("errors"));
  }

  @Test
  void oldErrorOfAModeWhoseSelectionChoseNoLabelIsKept() {
    Map<String, Object> old = summary("partial", map(), map(), List.of("agg: selection failed: timeout"));
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "")), List.of());
    assertEquals(List.of("agg: selection failed: timeout"), SummaryFile.merge(old, fresh).get("errors"));
  }

  @Test
  void oldErrorOfAModeWhoseSelectionFailedAgainIsKept() {
    Map<String, Object> old = summary("partial", map(), map(), List.of("agg: selection failed: timeout"));
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(false, "agg1")), List.of());
    assertEquals(List.of("agg: selection failed: timeout"), SummaryFile.merge(old, fresh).get("errors"));
  }

  @Test
  void oldErrorOfAModeThatIsNotOkIsKept() {
    Map<String, Object> old = summary("partial", map(), map(), List.of("seq: RuntimeError: boom"));
    Map<String, Object> fresh = summary("partial", map("seq", mode(false, "c1")),
        map("seq", selection(true, "c1")), List.of());
    assertEquals(List.of("seq: RuntimeError: boom"), SummaryFile.merge(old, fresh).get("errors"));
  }

  @Test
  void oldErrorOfAnotherModeIsKeptWhenOneModeSucceeds() {
    Map<String, Object> old = summary("partial", map(), map(), List.of("seq: selection failed: x"));
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of());
    assertEquals(List.of("seq: selection failed: x"), SummaryFile.merge(old, fresh).get("errors"));
  }

  @Test
  void duplicateErrorsAreDropped() {
    Map<String, Object> old = summary("partial", map(), map(), List.of("seq: x", "seq: y", "seq: y"));
    Map<String, Object> fresh = summary("partial", map(), map(), List.of("seq: x"));
    assertEquals(List.of("seq: x", "seq: y"), SummaryFile.merge(old, fresh).get("errors"));
  }

  @Test
  void duplicateErrorsAreComparedAsCanonicalJson() {
    Map<String, Object> old = summary("partial", map(), map(), List.of(map("b", 1, "a", 2)));
    Map<String, Object> fresh = summary("partial", map(), map(), List.of(map("a", 2, "b", 1)));
    assertEquals(1, ((List<?>) SummaryFile.merge(old, fresh).get("errors")).size());
  }

  @Test
  void statusIsRecomputedToOkWhenTheMergedModesAllSucceeded() {
    Map<String, Object> old = summary("ok", map("seq", mode(true, "c2")), map("seq", selection(true, "c2")),
        List.of());
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of());
    assertEquals("ok", SummaryFile.merge(old, fresh).get("status"));
  }

  @Test
  void statusIsRecomputedToPartialWhenAnOldErrorSurvives() {
    Map<String, Object> old = summary("partial", map("seq", mode(true, "c2")), map("seq", selection(false, "")),
        List.of("seq: selection failed: x"));
    Map<String, Object> fresh = summary("ok", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of());
    assertEquals("partial", SummaryFile.merge(old, fresh).get("status"));
  }

  @Test
  void mergeWithNoOldSummaryKeepsTheResult() {
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of());
    assertEquals(fresh, SummaryFile.merge(Map.of(), fresh));
  }

  // ---- merged status (§2.11) ----

  @Test
  void mergedStatusIsOkWhenEveryModeIsOkWithAnOkSelectionAndChosenLabel() {
    assertEquals("ok", SummaryFile.mergedStatus(summary("partial",
        map("agg", mode(true, "agg2"), "seq", mode(true, "c2")),
        map("agg", selection(true, "agg2"), "seq", selection(true, "c2")), List.of())));
  }

  @Test
  void mergedStatusIsPartialWithoutModes() {
    assertEquals("partial", SummaryFile.mergedStatus(summary("ok", map(), map(), List.of())));
    Map<String, Object> noModesKey = summary("ok", map(), map(), List.of());
    noModesKey.remove("modes");
    assertEquals("partial", SummaryFile.mergedStatus(noModesKey));
  }

  @Test
  void mergedStatusIsPartialWithAnyError() {
    assertEquals("partial", SummaryFile.mergedStatus(summary("ok", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of("something"))));
  }

  @Test
  void mergedStatusIsPartialWhenAModeIsNotOk() {
    assertEquals("partial", SummaryFile.mergedStatus(summary("ok", map("agg", mode(false, "agg2")),
        map("agg", selection(true, "agg2")), List.of())));
  }

  @Test
  void mergedStatusIsPartialWhenAModeRecordIsAnError() {
    assertEquals("partial", SummaryFile.mergedStatus(summary("ok",
        map("agg", map("ok", false, "error", "RuntimeError: x", "traceback", "...")),
        map("agg", selection(true, "agg2")), List.of())));
  }

  @Test
  void mergedStatusIsPartialWhenASelectionIsNotOk() {
    assertEquals("partial", SummaryFile.mergedStatus(summary("ok", map("agg", mode(true, "agg2")),
        map("agg", selection(false, "agg2")), List.of())));
  }

  @Test
  void mergedStatusIsPartialWhenAModeHasNoSelection() {
    assertEquals("partial", SummaryFile.mergedStatus(summary("ok",
        map("agg", mode(true, "agg2"), "seq", mode(true, "c2")), map("agg", selection(true, "agg2")), List.of())));
  }

  @Test
  void mergedStatusIsPartialWhenASelectionChoseNoLabel() {
    assertEquals("partial", SummaryFile.mergedStatus(summary("ok", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "")), List.of())));
  }

  // ---- canonical order ----

  @Test
  void writtenModesAndSelectionsPutAggBeforeSeqWhateverTheInsertionOrder() throws IOException {
    SummaryFile.write(file(), summary("partial", map("seq", mode(true, "c2"), "agg", mode(true, "agg2")),
        map("seq", selection(true, "c2"), "agg", selection(true, "agg2")), List.of()));
    Map<String, Object> onDisk = Json.readMap(file());
    assertEquals(List.of("agg", "seq"), List.copyOf(sub(onDisk, "modes").keySet()));
    assertEquals(List.of("agg", "seq"), List.copyOf(sub(onDisk, "selections").keySet()));
  }

  @Test
  void seqWrittenFirstStillEndsUpAfterAgg() throws IOException {
    SummaryFile.write(file(), summary("partial", map("seq", mode(true, "c2")), map("seq", selection(true, "c2")),
        List.of()));
    SummaryFile.write(file(), summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of()));
    Map<String, Object> onDisk = Json.readMap(file());
    assertEquals(List.of("agg", "seq"), List.copyOf(sub(onDisk, "modes").keySet()));
    assertEquals(List.of("agg", "seq"), List.copyOf(sub(onDisk, "selections").keySet()));
    assertEquals("ok", onDisk.get("status"));
  }

  @Test
  void canonicalOrdersErrorsByTheModeTheyNameAndIsStableWithinAMode() {
    Map<String, Object> s = summary("partial", map(), map(),
        List.of("seq: b", "agg: a", "seq: c", "agg: d"));
    assertEquals(List.of("agg: a", "agg: d", "seq: b", "seq: c"), SummaryFile.canonical(s).get("errors"));
  }

  @Test
  void canonicalKeepsTheTopLevelKeyOrder() {
    Map<String, Object> s = summary("partial", map("seq", mode(true, "c2")), map(), List.of());
    assertEquals(List.copyOf(s.keySet()), List.copyOf(SummaryFile.canonical(s).keySet()));
  }

  // ---- the file ----

  @Test
  void anUnreadableExistingFileIsTreatedAsEmpty() throws IOException {
    Files.createDirectories(file().getParent());
    Files.writeString(file(), "{\"task_id\": \"ledger-1\", \"modes\": {\"seq\"", StandardCharsets.UTF_8);
    Map<String, Object> fresh = summary("partial", map("agg", mode(true, "agg2")),
        map("agg", selection(true, "agg2")), List.of("agg: note"));
    SummaryFile.write(file(), fresh);
    assertTrue(SummaryFile.same(SummaryFile.stamped(fresh), Json.readMap(file())), "what was written, stamped");
  }

  @Test
  void writeReturnsExactlyWhatItWroteAsPrettyJson() throws IOException {
    Map<String, Object> written = SummaryFile.write(file(), summary("partial", map("seq", mode(true, "c2")),
        map("seq", selection(true, "c2")), List.of("seq: x")));
    assertEquals(Json.pretty(written), Files.readString(file(), StandardCharsets.UTF_8));
  }

  @Test
  void writeLeavesNoTemporaryFilesNorItsLock() throws IOException {
    SummaryFile.write(file(), summary("partial", map("agg", mode(true, "agg2")), map(), List.of()));
    SummaryFile.write(file(), summary("partial", map("seq", mode(true, "c2")), map(), List.of()));
    try (Stream<Path> s = Files.list(file().getParent())) {
      assertEquals(List.of("summary.json"),
          s.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void concurrentWritesOfDifferentModesAllSurvive() throws Exception {
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<String> expectedErrors = new ArrayList<>();
    try {
      List<Future<Map<String, Object>>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        String m = i % 2 == 0 ? "agg" : "seq";
        String error = m + ": RuntimeError: writer " + i;
        expectedErrors.add(error);
        Map<String, Object> result = summary("partial", map(m, map("ok", false, "error", "writer " + i)),
            map(), List.of(error));
        futures.add(pool.submit(() -> {
          start.await();
          return SummaryFile.write(file(), result);
        }));
      }
      start.countDown();
      for (Future<Map<String, Object>> f : futures) f.get();
    } finally {
      pool.shutdown();
    }
    Map<String, Object> onDisk = Json.readMap(file());
    assertEquals(List.of("agg", "seq"), List.copyOf(sub(onDisk, "modes").keySet()));
    @SuppressWarnings("unchecked")
    List<String> errors = (List<String>) onDisk.get("errors");
    assertEquals(expectedErrors.stream().sorted().toList(), errors.stream().sorted().toList());
    assertEquals("partial", onDisk.get("status"));
  }

  // ---- one writer per file: each mode's part, merged by the task's finish ----

  @Test
  void aSingleModesPartMergesIntoAnOkSummaryAndIsRemoved() throws IOException {
    SummaryFile.writePart(file(), "agg", summary("partial", map("agg", mode(true, "agg1")),
        map("agg", selection(true, "agg1")), List.of()));
    Map<String, Object> merged = SummaryFile.mergeParts(file());
    assertEquals("ok", merged.get("status"), "the provisional status of a part is decided over the task's modes");
    assertEquals(merged, SummaryFile.read(file()));
    assertTrue(!Files.exists(SummaryFile.part(file(), "agg")));
  }

  @Test
  void partsMergeInModeOrderWhicheverWasWrittenFirst() throws IOException {
    SummaryFile.writePart(file(), "seq", summary("partial", map("seq", mode(false, "c1")),
        map("seq", selection(true, "c1")), List.of("seq: boom")));
    SummaryFile.writePart(file(), "agg", summary("partial", map("agg", mode(true, "agg1")),
        map("agg", selection(true, "agg1")), List.of()));
    Map<String, Object> merged = SummaryFile.mergeParts(file());
    assertEquals(List.of("agg", "seq"), List.copyOf(sub(merged, "modes").keySet()));
    assertEquals("partial", merged.get("status"));
    assertEquals(List.of("seq: boom"), merged.get("errors"));
  }

  // ---- the build that made each mode's result ----

  /**
   * Each mode's result carries the build that made it: stamped as it is written, kept by a merge of other modes, and
   * kept by a resume that writes the same result again; a mode whose part an older h2beam left (no stamp) stays
   * without one, and so does a mode an older h2beam's summary holds.
   */
  @Test
  void eachModeCarriesTheBuildThatMadeItsResult() throws IOException {
    SummaryFile.writePart(file(), "agg", summary("partial", map("agg", mode(true, "agg1")),
        map("agg", selection(true, "agg1")), List.of()));
    Map<String, Object> merged = SummaryFile.mergeParts(file());
    assertEquals(map("agg", Build.id()), merged.get(Build.BY_MODE));

    // made by another build earlier: the same result written again keeps it, another result is this build's
    Map<String, Object> other = new LinkedHashMap<>(merged);
    other.put(Build.BY_MODE, map("agg", "feedfacefeedfacefeedfacefeedfacefeedface"));
    Files.writeString(file(), Json.pretty(other));
    SummaryFile.writePart(file(), "agg", summary("partial", map("agg", mode(true, "agg1")),
        map("agg", selection(true, "agg1")), List.of()));
    SummaryFile.writePart(file(), "seq", summary("partial", map("seq", mode(true, "c1")),
        map("seq", selection(true, "c1")), List.of()));
    merged = SummaryFile.mergeParts(file());
    assertEquals(map("agg", "feedfacefeedfacefeedfacefeedfacefeedface", "seq", Build.id()),
        merged.get(Build.BY_MODE));
    SummaryFile.write(file(), summary("ok", map("agg", mode(true, "agg2")), map("agg", selection(true, "agg2")),
        List.of()));
    assertEquals(map("agg", Build.id(), "seq", Build.id()), SummaryFile.read(file()).get(Build.BY_MODE));

    // an older h2beam's summary (its merge dropped the stamps) and a part it left: neither gains this build's
    Map<String, Object> older = new LinkedHashMap<>(SummaryFile.read(file()));
    older.remove(Build.BY_MODE);
    Files.writeString(file(), Json.pretty(older));
    Files.writeString(SummaryFile.part(file(), "gat"), Json.pretty(summary("partial", map("gat", mode(true, "b1")),
        map("gat", selection(true, "b1")), List.of())));
    SummaryFile.writePart(file(), "seq", summary("partial", map("seq", mode(true, "c2")),
        map("seq", selection(true, "c2")), List.of()));
    merged = SummaryFile.mergeParts(file());
    assertEquals(List.of("agg", "seq", "gat"), List.copyOf(sub(merged, "modes").keySet()));
    assertEquals(map("seq", Build.id()), merged.get(Build.BY_MODE));
  }

  /**
   * dogW: a later h2beam replaying a mode an older one finished adds keys the older did not record (the tokens) to the
   * same result. The record stays as the older build wrote it and unstamped, so the report still names who made it;
   * a changed value is another result.
   */
  @Test
  void aModeAnOlderH2beamMadeKeepsItsRecordAndNoStampWhenReplayedWithAddedKeys() throws IOException {
    Map<String, Object> olderAgg = mode(true, "agg1");
    Files.createDirectories(file().getParent());
    Files.writeString(file(), Json.pretty(summary("partial", map("agg", olderAgg), map("agg", selection(true, "agg1")),
        List.of())));
    Map<String, Object> replayedAgg = new LinkedHashMap<>(olderAgg);
    replayedAgg.put("tokens", map("input", 10, "output", 2));
    Map<String, Object> replayedSel = new LinkedHashMap<>(selection(true, "agg1"));
    replayedSel.put("tokens", map("input", 3, "output", 1));
    SummaryFile.writePart(file(), "agg", summary("partial", map("agg", replayedAgg), map("agg", replayedSel),
        List.of()));
    SummaryFile.writePart(file(), "seq", summary("partial", map("seq", mode(true, "c1")),
        map("seq", selection(true, "c1")), List.of()));
    Map<String, Object> merged = SummaryFile.mergeParts(file());
    assertEquals(olderAgg, sub(merged, "modes").get("agg"));
    assertEquals(selection(true, "agg1"), sub(merged, "selections").get("agg"));
    assertEquals(map("seq", Build.id()), merged.get(Build.BY_MODE));

    assertTrue(SummaryFile.recordsAsBefore(olderAgg, replayedAgg));
    assertFalse(SummaryFile.recordsAsBefore(replayedAgg, olderAgg), "a key the old record had is missing");
    Map<String, Object> changed = new LinkedHashMap<>(replayedAgg);
    changed.put("finals", List.of("agg2"));
    assertFalse(SummaryFile.recordsAsBefore(olderAgg, changed));
    assertFalse(SummaryFile.recordsAsBefore(null, replayedAgg), "no record before: a first result");
  }
}
