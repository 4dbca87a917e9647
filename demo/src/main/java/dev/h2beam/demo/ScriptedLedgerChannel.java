package dev.h2beam.demo;

import dev.h2beam.adapters.files.AtomicFiles;
import dev.h2beam.adapters.files.TextFiles;
import dev.h2beam.adapters.model.SessionResult;
import dev.h2beam.adapters.proposer.EvidenceView;
import dev.h2beam.adapters.proposer.ProposerChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The demo's scripted deterministic proposer (spec §10.5), as a channel: it reads the evidence of {@code context/}
 * (from the method's view, as the {@code openai} channel does) and edits {@code cwd/context/harness}, costs nothing,
 * and answers every session the same way.
 *
 * <ul>
 *   <li>{@code select.*}: chooses the first candidate, by file name, whose text reports the exact signed total of
 *       {@code context/source/ledger.csv}; chooses nothing when none does.
 *   <li>{@code experience.*}: one edit row for {@code scripts/summarize.sh}, and a lesson only when the adopted
 *       script differs from the base one ({@code NO_ENTRY} otherwise).
 *   <li>any other label (a stage): deletes {@link DemoBenchmark#POSITIVE_FILTER} from
 *       {@code context/harness/scripts/summarize.sh}.
 * </ul>
 */
public final class ScriptedLedgerChannel implements ProposerChannel {

  private static final String EDIT_ROWS = "component: " + DemoSetup.SCRIPT + "\n"
      + "candidates: inv1\n"
      + "change: dropped the positive-only filter\n"
      + "observed: the total now includes credits\n";

  private static final String EXPERIENCE = "<experience>\n"
      + "cue: a ledger mixes credits and debits and the harness script totals it\n"
      + "lesson: sum both signs in " + DemoSetup.SCRIPT + " and never filter amounts by their sign\n"
      + "evidence: the " + DemoSetup.SCRIPT + " row, where dropping the positive-only filter made the total "
      + "include credits\n"
      + "confidence: high\n"
      + "</experience>\n";

  private static final String NOTES = "<notes>\n"
      + "Kept signed amounts in " + DemoSetup.SCRIPT + ": the base total omitted credits (the negative amounts), "
      + "so it overstated the ledger; the script now sums every amount.\n"
      + "</notes>\n";

  @Override
  public SessionResult run(Path cwd, String mission, String system, String label, Duration timeout)
      throws IOException {
    return run(cwd, EvidenceView.of(cwd.resolve("context")), mission, system, label, timeout);
  }

  /**
   * Reads the evidence from the method's view, as the {@code openai} channel does; a stage edits its harness in
   * {@code cwd/context/harness}, the one folder copied there.
   */
  @Override
  public boolean readsEvidenceFromMemory() {
    return true;
  }

  @Override
  public SessionResult run(Path cwd, EvidenceView evidence, String mission, String system, String label,
      Duration timeout) throws IOException {
    if (label.startsWith("select.")) return SessionResult.scripted(select(evidence));
    if (label.startsWith("experience.")) return SessionResult.scripted(experience(evidence));
    stage(cwd.resolve("context"));
    return SessionResult.scripted(NOTES);
  }

  private static String select(EvidenceView evidence) throws IOException {
    String ledger = "source/ledger.csv";
    String total = LedgerAmounts.totalLine(LedgerAmounts.signedTotal("context/" + ledger,
        TextFiles.utf8(evidence.bytes(ledger), "context/" + ledger)));
    // the total must not run on into more digits: "Total: 85.15" is not in "Total: 85.159"
    Pattern reports = Pattern.compile(Pattern.quote(total) + "(?![0-9])");
    for (String candidate : candidates(evidence)) {
      if (reports.matcher(TextFiles.readCapped(evidence.open(candidate), DemoBenchmark.MAX_TEXT_CHARS)).find()) {
        String name = candidate.substring(candidate.lastIndexOf('/') + 1);
        String id = name.replaceFirst("\\.md$", "");
        return "<why>Candidate " + id + " reports " + total
            + ": the signed total matches the source ledger, credits included.</why>\n\n"
            + "```choice\n" + id + "\n```\n";
      }
    }
    return "<why>No candidate matched: none reports " + total
        + ", the signed total of the source ledger, so no candidate is chosen.</why>\n";
  }

  /** The {@code .md} files directly in {@code candidates/}, by file name. */
  private static List<String> candidates(EvidenceView evidence) {
    List<String> md = new ArrayList<>();
    for (String rel : evidence.filesIn("candidates")) if (rel.endsWith(".md")) md.add(rel);
    md.sort(Comparator.naturalOrder());
    return md;
  }

  private static String experience(EvidenceView evidence) throws IOException {
    boolean changed = !Arrays.equals(bytes(evidence, "harness/" + DemoSetup.SCRIPT).orElse(null),
        bytes(evidence, "base_harness/" + DemoSetup.SCRIPT).orElse(null));
    String edits = "<edits>\n" + EDIT_ROWS + "verdict: " + (changed ? "helped" : "no observed effect")
        + "\n</edits>\n\n";
    return edits + (changed ? EXPERIENCE : "NO_ENTRY\n");
  }

  private static void stage(Path context) throws IOException {
    Path script = context.resolve("harness").resolve(DemoSetup.SCRIPT);
    if (!Files.isRegularFile(script)) return;
    String text = TextFiles.readUtf8(script);
    if (text.contains(DemoBenchmark.POSITIVE_FILTER)) {
      // a rename, not an in-place write: the evidence folder may hard-link files shared with other folders
      AtomicFiles.writeString(script, text.replace(DemoBenchmark.POSITIVE_FILTER, ""));
    }
  }

  private static Optional<byte[]> bytes(EvidenceView evidence, String rel) throws IOException {
    return evidence.has(rel) ? Optional.of(evidence.bytes(rel)) : Optional.empty();
  }
}
