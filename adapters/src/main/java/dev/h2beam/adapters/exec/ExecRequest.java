package dev.h2beam.adapters.exec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * One rollout to run.
 *
 * @param task the task id ({@code <domain>/<task>} for a folder benchmark)
 * @param instruction the task text the executor receives
 * @param sourceDir the task's source files, or null when it has none
 * @param harnessDir the harness tree to materialise (never null: the base harness is passed as its folder)
 * @param runDir the rollout's own folder, existing and empty; the executor writes its deliverable, trajectory and
 *     logs there
 * @param deliverable the deliverable's file name (for example {@code answer.md}) inside {@code runDir}, or inside the
 *     output folder of an executor that gives its agent one ({@code command}: {@code runDir/output/})
 * @param timeout the wall-clock limit of the whole rollout
 * @param isolation what the agent may not see of the file system ({@link Isolation}: the benchmark and runs folders
 *     but {@code runDir}), or null to run it as it is; only an executor that {@link Executor#isolates} is given one
 */
public record ExecRequest(String task, String instruction, Path sourceDir, Path harnessDir, Path runDir,
    String deliverable, Duration timeout, Isolation isolation) {

  /** A rollout run without isolation. */
  public ExecRequest(String task, String instruction, Path sourceDir, Path harnessDir, Path runDir,
      String deliverable, Duration timeout) {
    this(task, instruction, sourceDir, harnessDir, runDir, deliverable, timeout, null);
  }

  public ExecRequest {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(instruction, "instruction");
    Objects.requireNonNull(harnessDir, "harnessDir");
    Objects.requireNonNull(runDir, "runDir");
    Objects.requireNonNull(deliverable, "deliverable");
    Objects.requireNonNull(timeout, "timeout");
  }
}
