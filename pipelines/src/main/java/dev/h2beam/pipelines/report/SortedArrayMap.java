package dev.h2beam.pipelines.report;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;

/**
 * An immutable map from strings, sorted by key, held in two arrays: what a {@link TreeMap} gives for reading (order,
 * equality, hash code) at a quarter of its memory. The report holds one per metric row, 100,000 of them over 100
 * namespaces x 500 tasks, several times over while the runner copies its side input.
 */
final class SortedArrayMap<V> extends AbstractMap<String, V> implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final SortedArrayMap<?> EMPTY = new SortedArrayMap<>(new String[0], new Object[0]);

  private final String[] keys;
  private final Object[] values;

  private SortedArrayMap(String[] keys, Object[] values) {
    this.keys = keys;
    this.values = values;
  }

  /** A sorted copy of {@code m} (a map already of this kind is returned as it is). */
  @SuppressWarnings("unchecked")
  static <V> SortedArrayMap<V> copyOf(Map<String, ? extends V> m) {
    if (m instanceof SortedArrayMap<?> s) return (SortedArrayMap<V>) s;
    if (m.isEmpty()) return (SortedArrayMap<V>) EMPTY;
    Map<String, ? extends V> sorted = m instanceof TreeMap<String, ? extends V> t && t.comparator() == null
        ? t : new TreeMap<>(m);
    String[] k = new String[sorted.size()];
    Object[] v = new Object[sorted.size()];
    int i = 0;
    for (Map.Entry<String, ? extends V> e : sorted.entrySet()) {
      k[i] = e.getKey();
      v[i++] = e.getValue();
    }
    return new SortedArrayMap<>(k, v);
  }

  /**
   * A map of {@code keys} to {@code values}, both arrays kept as they are (not copied), so that maps with the same keys
   * can share one array of them: the facts codec's rows of a namespace all name the same metrics and modes. The keys
   * must be ascending without repeats; anything else is a caller's bug and is refused.
   */
  @SuppressWarnings("unchecked")
  static <V> SortedArrayMap<V> ofSorted(String[] keys, Object[] values) {
    if (keys.length != values.length) {
      throw new IllegalArgumentException(keys.length + " keys for " + values.length + " values");
    }
    for (int i = 1; i < keys.length; i++) {
      if (keys[i - 1].compareTo(keys[i]) >= 0) {
        throw new IllegalArgumentException("keys not ascending: '" + keys[i - 1] + "' before '" + keys[i] + "'");
      }
    }
    return keys.length == 0 ? (SortedArrayMap<V>) EMPTY : new SortedArrayMap<>(keys, values);
  }

  @Override public int size() {
    return keys.length;
  }

  @Override public boolean containsKey(Object key) {
    return key instanceof String s && Arrays.binarySearch(keys, s) >= 0;
  }

  @SuppressWarnings("unchecked")
  @Override public V get(Object key) {
    if (!(key instanceof String s)) return null;
    int i = Arrays.binarySearch(keys, s);
    return i >= 0 ? (V) values[i] : null;
  }

  @Override public Set<Map.Entry<String, V>> entrySet() {
    return new AbstractSet<>() {
      @Override public int size() {
        return keys.length;
      }

      @Override public Iterator<Map.Entry<String, V>> iterator() {
        return new Iterator<>() {
          private int i;

          @Override public boolean hasNext() {
            return i < keys.length;
          }

          @SuppressWarnings("unchecked")
          @Override public Map.Entry<String, V> next() {
            if (i >= keys.length) throw new NoSuchElementException();
            Map.Entry<String, V> e = new AbstractMap.SimpleImmutableEntry<>(keys[i], (V) values[i]);
            i++;
            return e;
          }
        };
      }
    };
  }
}
