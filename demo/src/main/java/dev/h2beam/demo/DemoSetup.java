package dev.h2beam.demo;

import dev.h2beam.adapters.files.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files the demo owns under its root (spec §16.1): the base harness at {@code base/}, one ledger per task at
 * {@code sources/<task>/ledger.csv} ({@link LedgerTasks}) and the task's own check at {@code checks/<task>/}. They are written only where absent, so a user's edits are never destroyed.
 */
final class DemoSetup {
  private DemoSetup() {}

  static final String SCRIPT = "scripts/summarize.sh";

  /** The base harness (relative path → text): the four OpenCode always-on files and the summarize script. */
  static final Map<String, String> BASE_HARNESS = ordered(
      "systemprompt.md", "Reconcile the ledger by running `sh scripts/summarize.sh ledger.csv`.\n",
      "guardrails.md", "",
      "LongTermMEMORY.md", "",
      "tool_descriptions/tool_guidance.md", "",
      SCRIPT, resource("summarize.sh"));

  static {
    if (!BASE_HARNESS.get(SCRIPT).contains(DemoBenchmark.POSITIVE_FILTER)) {
      throw new IllegalStateException("the bundled summarize.sh lost its positive-only filter '"
          + DemoBenchmark.POSITIVE_FILTER + "'; the scripted proposer has nothing to fix");
    }
  }

  /** The signed total of a ledger: the bundled summarize script without its positive-only filter. */
  static final String SIGNED_TOTAL = BASE_HARNESS.get(SCRIPT).replace(DemoBenchmark.POSITIVE_FILTER, "")
      .replace("# Usage: sh scripts/summarize.sh ledger.csv", "# Usage: sh signed_total.sh ledger.csv (credits included)");

  /** A task's own check, visible to the gated mode's method: the answer reports the signed total of its ledger. */
  static final String CHECK = "#!/bin/sh\n"
      + "# This task's own check, which the gated mode's method runs: the answer is the signed total of the ledger.\n"
      + "want=$(sh \"$(dirname \"$0\")/signed_total.sh\" \"$H2BEAM_SOURCE/ledger.csv\") || exit 2\n"
      + "grep -qxF \"$want\" \"$H2BEAM_DELIVERABLE/" + DemoBenchmark.ANSWER + "\"\n";

  /**
   * Writes every demo file that does not exist yet and returns the existing ones whose content differs from what
   * the demo would have written (left untouched: they may be deliberate edits).
   */
  static List<Path> writeMissing(Path root, LedgerTasks tasks) throws IOException {
    Map<Path, String> files = new LinkedHashMap<>();
    BASE_HARNESS.forEach((rel, text) -> files.put(root.resolve("base").resolve(rel), text));
    for (String task : tasks.ids()) {
      files.put(root.resolve("sources").resolve(task).resolve("ledger.csv"), tasks.ledger(task));
      files.put(root.resolve("checks").resolve(task).resolve("check.sh"), CHECK);
      files.put(root.resolve("checks").resolve(task).resolve("signed_total.sh"), SIGNED_TOTAL);
    }
    List<Path> differing = new ArrayList<>();
    for (Map.Entry<Path, String> f : files.entrySet()) {
      if (!AtomicFiles.createIfAbsent(f.getKey(), f.getValue()) && !sameText(f.getKey(), f.getValue())) {
        differing.add(f.getKey());
      }
    }
    return Collections.unmodifiableList(differing);
  }

  private static boolean sameText(Path file, String text) throws IOException {
    return Files.isRegularFile(file)
        && Arrays.equals(Files.readAllBytes(file), text.getBytes(StandardCharsets.UTF_8));
  }

  private static String resource(String name) {
    try (InputStream in = DemoSetup.class.getResourceAsStream(name)) {
      if (in == null) throw new IllegalStateException("resource " + name + " is missing from the demo jar");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> ordered(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) m.put(keysAndValues[i], keysAndValues[i + 1]);
    return Collections.unmodifiableMap(m);
  }
}
