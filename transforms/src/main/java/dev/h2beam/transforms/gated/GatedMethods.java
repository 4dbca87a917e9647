package dev.h2beam.transforms.gated;

import java.util.ArrayList;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Finds gated methods by name ({@code --method}), the way benchmarks and channels are found. */
public final class GatedMethods {
  private GatedMethods() {}

  /** The method used when {@code --method} is not given. */
  public static final String DEFAULT = ImproverMethod.NAME;

  public static TreeMap<String, GatedMethod> all() {
    TreeMap<String, GatedMethod> m = new TreeMap<>();
    for (GatedMethod p : ServiceLoader.load(GatedMethod.class)) m.put(p.name(), p);
    return m;
  }

  /** The method named {@code name}; an error naming the flag and the known ones when there is none. */
  public static GatedMethod named(String name) {
    TreeMap<String, GatedMethod> all = all();
    GatedMethod p = all.get(name);
    if (p == null) {
      throw new IllegalArgumentException("--method=" + name + " is not a known gated method; known: "
          + new ArrayList<>(all.keySet()) + " (a method's jar must be on the classpath, registered in"
          + " META-INF/services/" + GatedMethod.class.getName() + ")");
    }
    return p;
  }
}
