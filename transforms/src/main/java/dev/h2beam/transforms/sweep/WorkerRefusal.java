package dev.h2beam.transforms.sweep;

/**
 * A worker's refusal that no retry can cure: its environment lacks a key the sweep needs, or it sees another folder
 * at the runs root's path. Flink retries a failed task as often as the job's restart strategy allows, and every
 * attempt is refused alike: four restarts took about 20 s on the test cluster, and a production strategy's delays
 * make it minutes before the user reads why. Wrapped in Flink's {@code SuppressRestartsException}, the job fails at
 * the first refusal. Flink's class is looked up by name, so that the transforms need no Flink to build or run; on
 * another runner the refusal is thrown as it is.
 */
public final class WorkerRefusal {
  private WorkerRefusal() {}

  /** The exception to throw for {@code refusal}: Flink's restart-suppressing wrapper around it where Flink runs. */
  public static RuntimeException unrecoverable(RuntimeException refusal) {
    try {
      Class<?> c = Class.forName("org.apache.flink.runtime.execution.SuppressRestartsException", false,
          WorkerRefusal.class.getClassLoader());
      return (RuntimeException) c.getConstructor(Throwable.class).newInstance(refusal);
    } catch (ReflectiveOperationException | LinkageError | ClassCastException noFlink) {
      return refusal;
    }
  }
}
