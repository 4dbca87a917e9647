package dev.h2beam.transforms.recursion;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs one concurrent phase: up to {@code width} items at once, results in input order. Recording happens after the
 * phase drains, from the ordered results, so nothing written depends on thread timing.
 */
public final class Phases {
  private Phases() {}

  public interface Step<T, R> {
    R apply(T item) throws Exception;
  }

  public static <T, R> List<R> map(List<T> items, int width, Step<T, R> step) throws Exception {
    int w = Math.max(1, Math.min(width, items.size()));
    List<R> out = new ArrayList<>();
    if (w == 1) {
      for (T item : items) out.add(step.apply(item));
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(w, r -> {
      Thread t = new Thread(r, "h2beam-phase");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<R>> futures = new ArrayList<>();
      for (T item : items) futures.add(pool.submit(() -> step.apply(item)));
      for (Future<R> f : futures) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          Throwable c = e.getCause();
          if (c instanceof Exception ex) throw ex;
          if (c instanceof Error er) throw er;
          throw e;
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }
}
