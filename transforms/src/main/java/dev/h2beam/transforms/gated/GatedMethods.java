package dev.h2beam.transforms.gated;

import dev.h2beam.adapters.plugin.Registry;
import java.util.TreeMap;

/** Finds gated methods by name ({@code --method}), the way benchmarks and channels are found. */
public final class GatedMethods {
  private GatedMethods() {}

  /** The method used when {@code --method} is not given. */
  public static final String DEFAULT = ImproverMethod.NAME;

  public static TreeMap<String, GatedMethod> all() {
    return Registry.byName(GatedMethod.class, GatedMethod::name);
  }

  /** The method named {@code name}; an error naming the flag and the known ones when there is none. */
  public static GatedMethod named(String name) {
    return Registry.named(GatedMethod.class, all(), name, "--method=" + name + " is not a known gated method",
        "(a method's jar is added with H2BEAM_EXTRA_CLASSPATH=<jar> ./h2beam ..., and registers the method in"
        + " META-INF/services/" + GatedMethod.class.getName() + ")");
  }
}
