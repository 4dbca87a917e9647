package dev.h2beam.pipelines.sweep;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.h2beam.transforms.sweep.WorkerRefusal;
import org.apache.beam.sdk.util.UserCodeException;
import org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler;
import org.junit.jupiter.api.Test;

/**
 * Where Flink runs, a worker's refusal (a key missing from its environment, another folder at the runs root's path)
 * is one Flink's own failure handler takes for unrecoverable, however Beam and Flink wrap it on the way: the job fails
 * at once instead of restarting into the same refusal. Any other failure is still retried.
 */
class WorkerRefusalOnFlinkTest {
  @Test
  void flinksFailureHandlerDoesNotRestartARefusedWorker() {
    IllegalStateException refusal = new IllegalStateException("the worker on host h has no KEY");
    RuntimeException thrown = WorkerRefusal.unrecoverable(refusal);
    assertSame(refusal, thrown.getCause(), "the refusal is the cause, so its message is what the client prints");
    assertTrue(ExecutionFailureHandler.isUnrecoverableError(
        new RuntimeException("Pipeline execution failed", UserCodeException.wrap(thrown))));
    assertFalse(ExecutionFailureHandler.isUnrecoverableError(
        new RuntimeException("Pipeline execution failed", UserCodeException.wrap(refusal))), "another failure");
  }
}
