package dev.h2beam.pipelines.files;

import dev.h2beam.adapters.files.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A long JSON array written from parts made ahead of its writer on the common pool, in order ({@link Json#writePretty}
 * writes any {@code Iterable} as an array): each part is a run of its items already in their bytes ({@link
 * Json#prettyItems(Json.ItemWriter, int)}), at the array's depth. The file is byte for byte the one a single writer
 * gives, with the second core making parts while the writer writes; a few parts ahead at a time are made, as bytes, so
 * the items are never all held at once. A part with no item writes nothing. The writer makes a part itself when no
 * pool thread has begun it ({@link Forked}). Each iteration makes the parts anew.
 */
public final class JsonParts implements Iterable<Object> {
  /** Parts made ahead of the writer at most. */
  public static final int AHEAD = 8;
  private final List<Json.ItemWriter> parts;
  private final int depth;

  /** The parts in order; {@code depth} is the nesting of the array's elements (1 for a file that is an array). */
  public JsonParts(List<Json.ItemWriter> parts, int depth) {
    this.parts = List.copyOf(parts);
    this.depth = depth;
  }

  /** What writes one run of items, given as a list. */
  @FunctionalInterface
  public interface RunWriter<T> {
    void write(com.fasterxml.jackson.core.JsonGenerator g, List<T> run) throws java.io.IOException;
  }

  /** {@code items} in runs of {@code size}, each written by {@code writer}: a part per run. */
  public static <T> JsonParts runs(List<T> items, int size, int depth, RunWriter<T> writer) {
    if (size < 1) throw new IllegalArgumentException("a run holds at least one item, not " + size);
    List<Json.ItemWriter> parts = new ArrayList<>();
    for (int from = 0; from < items.size(); from += size) {
      List<T> run = items.subList(from, Math.min(items.size(), from + size));
      parts.add(g -> writer.write(g, run));
    }
    return new JsonParts(parts, depth);
  }

  @Override public Iterator<Object> iterator() {
    return new Iterator<>() {
      private final ArrayDeque<Forked<byte[]>> ahead = new ArrayDeque<>();
      private int next;
      private Object pending;

      @Override public boolean hasNext() {
        while (pending == null && (next < parts.size() || !ahead.isEmpty())) {
          while (ahead.size() < AHEAD && next < parts.size()) {
            Json.ItemWriter items = parts.get(next++);
            ahead.add(Forked.begin(() -> Json.prettyItems(items, depth)));
          }
          // while a pool thread makes this part, the writer makes later ones none has begun
          Forked<byte[]> first = ahead.poll();
          first.help();
          for (Iterator<Forked<byte[]>> it = ahead.iterator(); it.hasNext() && !first.isDone(); ) it.next().help();
          byte[] bytes = first.join();
          if (bytes.length > 0) pending = Json.part(bytes);
        }
        return pending != null;
      }

      @Override public Object next() {
        if (!hasNext()) throw new NoSuchElementException();
        Object out = pending;
        pending = null;
        return out;
      }
    };
  }
}
