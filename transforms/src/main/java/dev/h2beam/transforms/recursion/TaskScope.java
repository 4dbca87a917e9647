package dev.h2beam.transforms.recursion;

import dev.h2beam.adapters.bench.Benchmark;
import dev.h2beam.adapters.model.Namespace;
import dev.h2beam.transforms.evidence.ShownLibrary;
import dev.h2beam.transforms.proposer.Proposer;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;

/**
 * Everything one mode of one task works with: the benchmark, the namespaces, the improver, selector and reflector
 * proposers (the same one when a single channel serves every session), the rollout limit and
 * phase width, the library folder shown to improvers, and injected faults.
 *
 * @param library the domain library to show improvers, read once for the task, or null while it has no entry
 */
public record TaskScope(
    Benchmark bench, String task, int k, Namespace modeNs, Path runsRoot, Proposer proposer, Proposer selector,
    Proposer reflector, Semaphore rollouts, int phaseWidth, ShownLibrary library, Faults faults) {

  public String mode() {
    return modeNs.mode();
  }

  public Path workDir() {
    return modeNs.taskDir(runsRoot, task);
  }

  public String runId(String label) {
    return modeNs.runId(task, label);
  }

  /** The audit folder of the summary namespace, where journals and the reply cache live. */
  public static Path auditDir(Path runsRoot, Namespace ns) {
    return runsRoot.resolve("_audit").resolve(ns.summary().toString());
  }

  public Path executionsJournal() {
    return auditDir(runsRoot, modeNs).resolve("executions.jsonl");
  }
}
