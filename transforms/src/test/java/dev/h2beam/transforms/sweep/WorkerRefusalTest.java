package dev.h2beam.transforms.sweep;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Without Flink (the transforms' own class path: the DirectRunner's), a worker's refusal is thrown as it is. */
class WorkerRefusalTest {
  @Test
  void withoutFlinkTheRefusalIsThrownAsItIs() {
    assertThrows(ClassNotFoundException.class,
        () -> Class.forName("org.apache.flink.runtime.execution.SuppressRestartsException"));
    IllegalStateException refusal = new IllegalStateException("the worker on host h has no KEY");
    assertSame(refusal, WorkerRefusal.unrecoverable(refusal));
  }
}
