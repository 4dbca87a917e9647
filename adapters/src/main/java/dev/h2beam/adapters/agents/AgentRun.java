package dev.h2beam.adapters.agents;

import dev.h2beam.adapters.exec.ProcessResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How one agent CLI run ended.
 *
 * @param process the CLI's exit status (null when it was killed), wall time and output sizes
 * @param stdoutJsonl the CLI's standard output: one JSON event per line ({@code --format json} / {@code --json})
 * @param stderr the CLI's standard error
 * @param timedOut the run outlived its timeout and was killed with everything it started
 * @param modelCalls each model call the CLI made through its endpoint relay, as the relay recorded it (none for a
 *     run straight to the endpoint)
 */
public record AgentRun(ProcessResult process, Path stdoutJsonl, Path stderr, boolean timedOut,
    List<Map<String, Object>> modelCalls) {
  public AgentRun {
    Objects.requireNonNull(process, "process");
    Objects.requireNonNull(stdoutJsonl, "stdoutJsonl");
    Objects.requireNonNull(stderr, "stderr");
    if (timedOut != process.timedOut()) {
      throw new IllegalArgumentException("timedOut is " + timedOut + " but the process says " + process.timedOut());
    }
    modelCalls = List.copyOf(modelCalls);
  }

  AgentRun(ProcessResult process, Path stdoutJsonl, Path stderr, boolean timedOut) {
    this(process, stdoutJsonl, stderr, timedOut, List.of());
  }

  /** This run with the model calls its relay recorded. */
  AgentRun withModelCalls(List<Map<String, Object>> calls) {
    return new AgentRun(process, stdoutJsonl, stderr, timedOut, calls);
  }

  /** The CLI exited with status 0. */
  public boolean succeeded() {
    return process.succeeded();
  }
}
