package dev.h2beam.transforms.evidence;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.HarnessRejected;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The grader-verdict tripwire of spec §5.4. */
class VerdictTripwireTest {
  @TempDir Path dir;

  static Stream<String> markers() {
    return VerdictTripwire.MARKERS.stream();
  }

  private static void write(Path root, String rel, String text) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private void cleanEvidence() throws IOException {
    write(dir, "task.md", "# Task\nReconcile the ledger.\n");
    write(dir, "rollouts/base1.md", "pass rate was discussed, passed count too\n");
    write(dir, "harness/systemprompt.md", "Be careful.\n");
  }

  @Test
  void markerListIsTheSpecList() {
    assertTrue(VerdictTripwire.MARKERS.containsAll(java.util.List.of("deterministic_eval_summary",
        "deterministic_eval_result", "judge_scope_and_deterministic_status", "Judge findings on the rendered result",
        "\"passed_count\"", "\"pass_rate\"", "\"test_pass_rate\"")));
    assertTrue(VerdictTripwire.MARKERS.size() == 7);
  }

  @ParameterizedTest
  @MethodSource("markers")
  void markerInAPathIsRejected(String marker) throws IOException {
    cleanEvidence();
    write(dir, "deliverables/" + marker + "/data.bin", "clean");
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> VerdictTripwire.assertNone(dir));
    assertTrue(e.getMessage().contains(marker), e.getMessage());
    assertTrue(e.getMessage().contains("path"), e.getMessage());
  }

  @ParameterizedTest
  @MethodSource("markers")
  void markerInContentIsRejected(String marker) throws IOException {
    cleanEvidence();
    write(dir, "deliverables/base1.md", "the result:\n{" + marker + ": 0.5}\n");
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> VerdictTripwire.assertNone(dir));
    assertTrue(e.getMessage().contains(marker), e.getMessage());
    assertTrue(e.getMessage().contains("deliverables/base1.md"), e.getMessage());
  }

  @Test
  void rejectionQuotesTheTextAroundTheMarker() throws IOException {
    write(dir, "out.json", "x".repeat(100) + "BEFORE {\"pass_rate\": 0.9} AFTER" + "y".repeat(200));
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> VerdictTripwire.assertNone(dir));
    assertTrue(e.getMessage().contains("BEFORE {\"pass_rate\": 0.9} AFTER"), e.getMessage());
    assertTrue(e.getMessage().contains("trace"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"raw/report.bin", "images/chart.png", "raw/book.xlsx", "raw/doc.pdf"})
  void contentOfANonTextSuffixIsNotScanned(String rel) throws IOException {
    write(dir, rel, "{\"pass_rate\": 1.0, \"passed_count\": 3}");
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(dir));
  }

  @ParameterizedTest
  @ValueSource(strings = {"README", "notes.MD", "a/b.yml", "run.log", "x.patch", ".env"})
  void contentOfATextOrSuffixlessFileIsScanned(String rel) throws IOException {
    write(dir, rel, "deterministic_eval_summary: 3/4");
    assertThrows(HarnessRejected.class, () -> VerdictTripwire.assertNone(dir));
  }

  @Test
  void quotedMarkersNeedTheirQuotes() throws IOException {
    write(dir, "notes.md", "pass_rate: 1.0, passed_count = 3, test_pass_rate");
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(dir));
  }

  @Test
  void markersAreCaseSensitive() throws IOException {
    write(dir, "notes.md", "\"PASS_RATE\" and Deterministic_Eval_Summary and judge findings on the rendered result");
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(dir));
  }

  @Test
  void aCleanFolderPasses() throws IOException {
    cleanEvidence();
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(dir));
  }

  @Test
  void aMissingFolderPasses() {
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(dir.resolve("missing")));
  }

  @ParameterizedTest
  @MethodSource("markers")
  void markerInAnInMemoryTreePathIsRejected(String marker) {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("systemprompt.md", "Be careful.\n");
    tree.put("skills/" + marker + "/SKILL.md", "clean");
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> VerdictTripwire.assertNone(tree));
    assertTrue(e.getMessage().contains(marker), e.getMessage());
  }

  @ParameterizedTest
  @MethodSource("markers")
  void markerInAnInMemoryTreeFileIsRejected(String marker) {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("systemprompt.md", "Be careful.\n");
    tree.put("guardrails.md", "Aim for " + marker + " of 1.0\n");
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> VerdictTripwire.assertNone(tree));
    assertTrue(e.getMessage().contains("guardrails.md"), e.getMessage());
  }

  @Test
  void inMemoryTreeSkipsContentOfNonTextSuffixes() {
    Map<String, String> tree = new LinkedHashMap<>();
    tree.put("plugin/guard.ts", "const k = \"pass_rate\";");
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(tree));
  }

  @Test
  void cleanInMemoryTreePasses() {
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(Map.of("systemprompt.md", "Be careful.\n",
        "scripts/check.sh", "#!/bin/sh\necho pass rate\n")));
  }

  @Test
  void aMarkerCutByAReadWindowInALargeFileIsStillFound(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    // the marker straddles the 1 Mi-character window edge of the streaming scan
    String marker = VerdictTripwire.MARKERS.get(0);
    StringBuilder text = new StringBuilder("x".repeat((1 << 20) - 5)).append(marker).append("\n");
    Files.writeString(dir.resolve("big.log"), text);
    HarnessRejected e = assertThrows(HarnessRejected.class, () -> VerdictTripwire.assertNone(dir));
    assertTrue(e.getMessage().contains(marker) && e.getMessage().contains("big.log"), e.getMessage());
    Files.writeString(dir.resolve("big.log"), "y".repeat(3 << 20));
    assertDoesNotThrow(() -> VerdictTripwire.assertNone(dir));
  }

  /**
   * The one-pass scan of held bytes finds a marker exactly where the decoded text holds one: after multi-byte
   * characters, at either end, beside look-alikes and malformed bytes; and finds none in text without one.
   */
  @ParameterizedTest
  @MethodSource("markers")
  void theByteScanFindsAMarkerWhereTheTextHoldsIt(String marker) {
    java.util.Random random = new java.util.Random(marker.hashCode());
    String[] pieces = {"é", "✓", "\uD83D\uDE00", "determin", "judge_", "Judge ", "\"pass", "\"passed_coun", "x", "\n",
        marker.substring(0, marker.length() - 1)};
    for (int round = 0; round < 300; round++) {
      StringBuilder sb = new StringBuilder();
      for (int k = random.nextInt(12); k > 0; k--) sb.append(pieces[random.nextInt(pieces.length)]);
      String clean = sb.toString();
      byte[] cleanBytes = clean.getBytes(StandardCharsets.UTF_8);
      boolean holds = VerdictTripwire.MARKERS.stream().anyMatch(clean::contains);
      assertEquals(holds, VerdictTripwire.mayHoldMarker(cleanBytes), clean);
      int at = random.nextInt(clean.length() + 1);
      String dirty = clean.substring(0, at) + marker + clean.substring(at);
      assertTrue(VerdictTripwire.mayHoldMarker(dirty.getBytes(StandardCharsets.UTF_8)), dirty);
      byte[] malformed = java.util.Arrays.copyOf(dirty.getBytes(StandardCharsets.UTF_8), dirty.length() * 3 + 1);
      malformed[malformed.length - 1] = (byte) 0xc3; // a lead byte cut off at the end
      assertTrue(VerdictTripwire.mayHoldMarker(malformed));
      assertTrue(new String(malformed, StandardCharsets.UTF_8).contains(marker));
    }
  }
}
