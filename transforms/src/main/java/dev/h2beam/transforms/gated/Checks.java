package dev.h2beam.transforms.gated;

import dev.h2beam.adapters.exec.ProcessResult;
import dev.h2beam.adapters.exec.ProcessRunner;
import dev.h2beam.adapters.exec.ProcessSpec;
import dev.h2beam.transforms.evidence.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A task's method-visible checks: {@code checks/check.sh}, run with {@code sh} in a fresh folder holding the
 * episode's deliverable files under {@code deliverable/}, with {@code H2BEAM_DELIVERABLE} (that folder) and
 * {@code H2BEAM_SOURCE} (the task's input files, when it has any) set and nothing else but {@code PATH}. The score is
 * the number on a last output line {@code score: <number>}, else 1 for exit 0 and 0 for any other exit. A check that
 * cannot start or runs past {@link #TIMEOUT} gives no score.
 */
public final class Checks {
  private Checks() {}

  /** The script a {@code checks/} folder must hold. */
  public static final String SCRIPT = "check.sh";

  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static final Pattern SCORE = Pattern.compile("(?m)^score:\\s*(-?[0-9]+(?:\\.[0-9]+)?)\\s*\\z");

  /** The episode's score under the task's checks. */
  public static OptionalDouble score(GateTask task, Episode episode) throws IOException, InterruptedException {
    Path checks = task.checks().orElseThrow(() -> new IllegalStateException("task " + task.id()
        + " has no checks/ folder; the gated mode's default method scores episodes with checks/" + SCRIPT));
    Path script = checks.resolve(SCRIPT);
    if (!Files.isRegularFile(script)) {
      throw new IOException(checks + " has no " + SCRIPT + "; a checks/ folder runs its " + SCRIPT);
    }
    Path dir = Files.createTempDirectory("h2beam-check-");
    try {
      Path deliverable = Files.createDirectories(dir.resolve("deliverable"));
      for (Map.Entry<String, String> f : new TreeMap<>(episode.deliverable()).entrySet()) {
        Path target = deliverable.resolve(f.getKey()).normalize();
        if (!target.startsWith(deliverable)) continue; // a path leaving the folder is not the episode's to place
        Files.createDirectories(target.getParent());
        Files.writeString(target, f.getValue());
      }
      Map<String, String> env = new TreeMap<>();
      env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
      env.put("H2BEAM_DELIVERABLE", deliverable.toString());
      task.source().ifPresent(s -> env.put("H2BEAM_SOURCE", s.toAbsolutePath().toString()));
      ProcessResult r = ProcessRunner.run(ProcessSpec.of(List.of("sh", script.toAbsolutePath().toString()), dir, env,
          dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), TIMEOUT));
      // a check that timed out or whose output was cut gave no signal: could not run, never a zero
      if (r.timedOut() || r.exit() == null || r.outputCut()) return OptionalDouble.empty();
      Matcher m = SCORE.matcher(r.stdoutText().strip());
      if (m.find()) return OptionalDouble.of(Double.parseDouble(m.group(1)));
      return OptionalDouble.of(r.exit() == 0 ? 1.0 : 0.0);
    } finally {
      FileTrees.deleteQuietly(dir);
    }
  }
}
