package dev.h2beam.adapters.plugin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Plug-ins found by name, the way Beam finds runners: benchmarks, executors, proposer channels, graders, gated methods,
 * selection policies and commands, each registered in {@code META-INF/services/<its interface>} of a jar on the
 * classpath. One rule for all of them: built-ins first, then the registrations in class-path order, and the first of
 * a name wins, so a plug-in jar can add a name but never replace one already there.
 */
public final class Registry {
  private Registry() {}

  /** Every registered {@code type} by its name, in name order. */
  public static <T> TreeMap<String, T> byName(Class<T> type, Function<? super T, String> name) {
    return byName(type, name, List.of());
  }

  /** {@link #byName(Class, Function)} after {@code builtIns}, which keep their names. */
  public static <T> TreeMap<String, T> byName(Class<T> type, Function<? super T, String> name, List<T> builtIns) {
    TreeMap<String, T> m = new TreeMap<>();
    for (T t : builtIns) m.putIfAbsent(name.apply(t), t);
    for (T t : ServiceLoader.load(type)) m.putIfAbsent(name.apply(t), t);
    return m;
  }

  /**
   * The one called {@code name}; otherwise an {@link IllegalArgumentException} saying {@code unknown}, the known names
   * and {@code hint} (what to do, or empty).
   */
  public static <T> T named(Map<String, T> all, String name, String unknown, String hint) {
    T t = all.get(name);
    if (t == null) {
      throw new IllegalArgumentException(unknown + "; known: " + new ArrayList<>(all.keySet())
          + (hint.isEmpty() ? "" : " " + hint));
    }
    return t;
  }
}
