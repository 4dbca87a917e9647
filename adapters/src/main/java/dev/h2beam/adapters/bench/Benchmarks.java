package dev.h2beam.adapters.bench;

import dev.h2beam.adapters.plugin.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Finds benchmarks by name, the way Beam finds runners. */
public final class Benchmarks {
  private Benchmarks() {}

  public static TreeMap<String, BenchmarkProvider> all() {
    return Registry.byName(BenchmarkProvider.class, BenchmarkProvider::name);
  }

  /** The provider named {@code name}; an error naming the known ones when there is none. */
  public static BenchmarkProvider named(String name) {
    return Registry.named(BenchmarkProvider.class, all(), name, "--bench=" + name + " is not a known benchmark",
        "");
  }

  public static List<String> names() {
    return new ArrayList<>(all().keySet());
  }
}
