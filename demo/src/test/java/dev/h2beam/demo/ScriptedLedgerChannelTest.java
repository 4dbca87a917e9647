package dev.h2beam.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.adapters.model.ChannelSpec;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.proposer.ChannelProvider;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScriptedLedgerChannelTest {

  /** The selection parser's pattern (spec §7.2 step 8). */
  private static final Pattern CHOICE =
      Pattern.compile("```choice\\s*\\n?\\s*([A-Za-z0-9_-]+)\\s*\\n?\\s*```", Pattern.DOTALL);

  private static final String BASE_SCRIPT = DemoSetup.BASE_HARNESS.get(DemoSetup.SCRIPT);

  @TempDir Path cwd;

  private SessionResult call(String label) throws Exception {
    return new ScriptedLedgerChannel().run(cwd, "mission", "", label, Duration.ofMinutes(1));
  }

  private void write(String rel, String text) throws IOException {
    Path p = cwd.resolve("context").resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  @Test
  void selectChoosesTheFirstCandidateReportingTheSignedTotal() throws Exception {
    write("source/ledger.csv", "amount\n100.25\n-20.10\n5.00\n");
    write("candidates/A.md", "<!-- candidate A -->\nTotal: 105.25\n");
    write("candidates/B.md", "<!-- candidate B -->\nTotal: 85.15\n");
    write("candidates/C.md", "<!-- candidate C -->\nTotal: 85.15\n");
    SessionResult r = call("select.agg2");
    Matcher m = CHOICE.matcher(r.text());
    assertTrue(m.find(), r.text());
    assertEquals("B", m.group(1));
    assertTrue(r.text().startsWith("<why>"), r.text());
    assertTrue(r.text().contains("the signed total matches the source ledger"), r.text());
    assertEquals(0.0, r.costUsd());
  }

  @Test
  void selectChoosesNothingWhenNoCandidateReportsTheSignedTotal() throws Exception {
    write("source/ledger.csv", "amount\n100.25\n-20.10\n5.00\n");
    write("candidates/A.md", "Total: 105.25\n");
    write("candidates/B.md", "Total: 85.159\n");
    SessionResult r = call("select.seq2");
    assertFalse(CHOICE.matcher(r.text()).find(), r.text());
    assertTrue(r.text().contains("<why>No candidate matched"), r.text());
    assertTrue(r.error().isEmpty());
  }

  @Test
  void experienceRecordsAHelpfulEditAndALessonWhenTheScriptChanged() throws Exception {
    write("base_harness/scripts/summarize.sh", BASE_SCRIPT);
    write("harness/scripts/summarize.sh", BASE_SCRIPT.replace(DemoBenchmark.POSITIVE_FILTER, ""));
    String text = call("experience.seq2").text();
    assertTrue(text.startsWith("<edits>\ncomponent: scripts/summarize.sh\ncandidates: inv1\n"
        + "change: dropped the positive-only filter\nobserved: the total now includes credits\n"
        + "verdict: helped\n</edits>\n"), text);
    assertTrue(text.contains("<experience>\ncue: "), text);
    assertTrue(text.contains("\nlesson: sum both signs in scripts/summarize.sh"), text);
    assertTrue(text.contains("\nevidence: the scripts/summarize.sh row"), text);
    assertTrue(text.contains("\nconfidence: high\n</experience>"), text);
    assertFalse(text.contains("NO_ENTRY"), text);
  }

  @Test
  void experienceWritesNoEntryWhenTheScriptIsUnchanged() throws Exception {
    write("base_harness/scripts/summarize.sh", BASE_SCRIPT);
    write("harness/scripts/summarize.sh", BASE_SCRIPT);
    String text = call("experience.agg2").text();
    assertTrue(text.contains("verdict: no observed effect\n</edits>"), text);
    assertTrue(text.strip().endsWith("NO_ENTRY"), text);
    assertFalse(text.contains("<experience>"), text);
  }

  @Test
  void stageDeletesThePositiveOnlyFilter() throws Exception {
    write("harness/scripts/summarize.sh", BASE_SCRIPT);
    SessionResult r = call("inv1.a1");
    String edited = Files.readString(cwd.resolve("context/harness/scripts/summarize.sh"));
    assertEquals(BASE_SCRIPT.replace(DemoBenchmark.POSITIVE_FILTER, ""), edited);
    assertTrue(edited.contains("  total += amount\n"), edited);
    assertTrue(r.text().startsWith("<notes>") && r.text().contains("credits"), r.text());
    assertEquals(0.0, r.costUsd());
  }

  @Test
  void stageWithoutAScriptChangesNothing() throws Exception {
    write("harness/systemprompt.md", "prompt\n");
    SessionResult r = call("dom1.a1");
    assertTrue(r.text().startsWith("<notes>"), r.text());
    assertFalse(Files.exists(cwd.resolve("context/harness/scripts")));
    assertEquals("prompt\n", Files.readString(cwd.resolve("context/harness/systemprompt.md")));
  }

  @Test
  void signedTotalIsExact() throws Exception {
    write("source/ledger.csv", "amount\n0.10\n0.20\n");
    BigDecimal total = LedgerAmounts.signedTotal(cwd.resolve("context/source/ledger.csv"));
    assertEquals(0, total.compareTo(new BigDecimal("0.30")));
    assertEquals("Total: 0.30", LedgerAmounts.totalLine(total));
    assertEquals("Total: -3.05", LedgerAmounts.totalLine(new BigDecimal("-1.5").add(new BigDecimal("-1.55"))));
  }

  @Test
  void channelIsFoundByItsKind() throws Exception {
    assertTrue(ChannelProvider.forKind("scripted-ledger")
        .open(ChannelSpec.of("scripted-ledger", "local/deterministic")) instanceof ScriptedLedgerChannel);
  }
}
