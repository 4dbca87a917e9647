package dev.h2beam.adapters.plugin;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
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

  /**
   * Called first by a main class: lets the launcher's {@link ServicesIndex} name SLF4J's logging provider, so that the
   * first log line does not open every jar of the class path to find it.
   */
  public static void atStart() {
    ServicesIndex.nameLoggingProvider();
  }

  /** Every registered {@code type} by its name, in name order. */
  public static <T> TreeMap<String, T> byName(Class<T> type, Function<? super T, String> name) {
    return byName(type, name, List.of());
  }

  /** {@link #byName(Class, Function)} after {@code builtIns}, which keep their names. */
  public static <T> TreeMap<String, T> byName(Class<T> type, Function<? super T, String> name, List<T> builtIns) {
    TreeMap<String, T> m = new TreeMap<>();
    for (T t : builtIns) m.putIfAbsent(name.apply(t), t);
    for (T t : registered(type)) m.putIfAbsent(name.apply(t), t);
    return m;
  }

  /**
   * Every registered {@code type}, in class-path order: through the launcher's {@link ServicesIndex} when it named
   * one and the lookup is on the class path it covers (the thread's class loader and the type's are the
   * application's, so no module of the JDK can provide one), otherwise through the JDK's {@link ServiceLoader}. Both
   * instantiate the same classes in the same order.
   */
  static <T> List<T> registered(Class<T> type) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    var index = ServicesIndex.forThisJvm();
    List<T> found = new ArrayList<>();
    if (index.isEmpty() || loader != ClassLoader.getSystemClassLoader() || !onClassPath(type)) {
      for (T t : ServiceLoader.load(type)) found.add(t);
      return found;
    }
    for (String provider : index.get().providers(type.getName())) found.add(instantiate(type, provider, loader));
    return found;
  }

  /** Whether {@code type} comes from the application's class path (a named module can provide none of it). */
  static boolean onClassPath(Class<?> type) {
    return type.getClassLoader() == ClassLoader.getSystemClassLoader() && !type.getModule().isNamed();
  }

  /** One provider, as the JDK makes it: its public no-argument constructor; a failure is a configuration error. */
  static <T> T instantiate(Class<T> type, String provider, ClassLoader loader) {
    Class<?> c;
    try {
      c = Class.forName(provider, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ServiceConfigurationError(type.getName() + ": provider " + provider + " not found", e);
    }
    if (!type.isAssignableFrom(c)) {
      throw new ServiceConfigurationError(type.getName() + ": provider " + provider + " not a subtype");
    }
    try {
      return type.cast(c.getConstructor().newInstance());
    } catch (InvocationTargetException e) {
      throw new ServiceConfigurationError(type.getName() + ": provider " + provider + " could not be instantiated",
          e.getCause());
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      throw new ServiceConfigurationError(type.getName() + ": provider " + provider + " could not be instantiated",
          e);
    }
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
