package dev.h2beam.adapters.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Finds benchmarks by name, the way Beam finds runners. */
public final class Benchmarks {
  private Benchmarks() {}

  public static TreeMap<String, BenchmarkProvider> all() {
    TreeMap<String, BenchmarkProvider> m = new TreeMap<>();
    for (BenchmarkProvider p : ServiceLoader.load(BenchmarkProvider.class)) m.put(p.name(), p);
    return m;
  }

  /** The provider named {@code name}; an error naming the known ones when there is none. */
  public static BenchmarkProvider named(String name) {
    TreeMap<String, BenchmarkProvider> all = all();
    BenchmarkProvider p = all.get(name);
    if (p == null) {
      throw new IllegalArgumentException("--bench=" + name + " is not a known benchmark; known: "
          + new ArrayList<>(all.keySet()));
    }
    return p;
  }

  public static List<String> names() {
    return new ArrayList<>(all().keySet());
  }
}
