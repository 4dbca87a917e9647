package dev.h2beam.pipelines.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.FutureTask;

/**
 * Work begun on the common pool (or on a thread of the caller's) that whoever needs its result makes itself when no
 * thread has begun it, so that nobody waits on work nobody is doing. Used where independent pieces (the report's
 * charts and namespaces read ahead, the parts of a long file: {@link JsonParts}) can be made on a core left idle.
 */
public final class Forked<T> {
  private final FutureTask<T> task;

  private Forked(Callable<T> work) {
    this.task = new FutureTask<>(work);
  }

  /** The work, handed to the common pool. */
  public static <T> Forked<T> begin(Callable<T> work) {
    Forked<T> f = new Forked<>(work);
    ForkJoinPool.commonPool().execute(f.task);
    return f;
  }

  /** The work, begun by nobody yet: a thread of the caller's runs it ({@link #help}), or whoever joins it. */
  public static <T> Forked<T> of(Callable<T> work) {
    return new Forked<>(work);
  }

  /** Makes it on this thread if no thread has begun it; returns at once otherwise. */
  public void help() {
    task.run();
  }

  public boolean isDone() {
    return task.isDone();
  }

  /** Its result, made here if no pool thread has begun it; its exception as it was thrown (checked: wrapped). */
  public T join() {
    task.run();
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a piece of work", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) throw new UncheckedIOException(io);
      if (cause instanceof RuntimeException r) throw r;
      if (cause instanceof Error err) throw err;
      throw new IllegalStateException(cause);
    }
  }
}
