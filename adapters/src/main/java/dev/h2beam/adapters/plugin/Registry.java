package dev.h2beam.adapters.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
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

  /**
   * {@link #byName(Class, Function)} after {@code builtIns}, which keep their names. A registration that loses its
   * name to an earlier one, or whose class cannot be made, is reported once on stderr and left out; the other names
   * still load, so one stale plug-in jar does not break every run that never asks for it.
   */
  public static <T> TreeMap<String, T> byName(Class<T> type, Function<? super T, String> name, List<T> builtIns) {
    TreeMap<String, T> m = new TreeMap<>();
    for (T t : builtIns) m.putIfAbsent(name.apply(t), t);
    for (T t : registered(type)) {
      String n = nameOf(type, t, name);
      if (n == null) continue;
      T first = m.putIfAbsent(n, t);
      if (first != null && first.getClass() != t.getClass()) {
        String winner = builtIns.contains(first) ? "the built-in " + simple(type) + " of that name"
            : first.getClass().getName() + " (" + BrokenProvider.source(first.getClass()) + ")";
        warnOnce("clash\0" + type.getName() + "\0" + t.getClass().getName() + "\0" + n, t.getClass().getName()
            + " (" + BrokenProvider.source(t.getClass()) + ") registers the " + simple(type) + " name '" + n
            + "', which " + winner + " already has: the first registration of a name wins, so it is not used;"
            + " give it another name");
      }
    }
    return m;
  }

  /** What a registered name may be: a flag's value and a folder's name alike. */
  private static final java.util.regex.Pattern NAME =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  /**
   * The name registration {@code t} gives, or null, reported once naming its class and jar, when asking for it fails
   * or it is no name ({@link #NAME}: null, empty, a path, white space), so that one careless plug-in is left out
   * instead of breaking every lookup of its kind.
   */
  private static <T> String nameOf(Class<T> type, T t, Function<? super T, String> name) {
    String n;
    String what = t.getClass().getName() + " (" + BrokenProvider.source(t.getClass()) + ")";
    try {
      n = name.apply(t);
    } catch (RuntimeException | LinkageError e) {
      warnOnce("name\0" + type.getName() + "\0" + t.getClass().getName(), what + ": its name() failed ("
          + e + "); it is not loaded, the other " + simple(type) + "s are");
      return null;
    }
    if (n != null && NAME.matcher(n).matches()) return n;
    warnOnce("name\0" + type.getName() + "\0" + t.getClass().getName(), what + " registers a " + simple(type)
        + " named " + (n == null ? "null" : "'" + n + "'") + ", which is no name: give it up to 64 letters, digits,"
        + " '.', '_' or '-', beginning with a letter or digit; it is not loaded, the other " + simple(type) + "s are");
    return null;
  }

  /**
   * The registrations of {@code type} that the thread's class loader could not load, in the order they were met
   * (per loader: a worker's or a test's own loader sees other jars).
   */
  public static List<BrokenProvider> broken(Class<?> type) {
    List<BrokenProvider> out = new ArrayList<>();
    synchronized (BROKEN) {
      for (BrokenProvider b : BROKEN.getOrDefault(loader(), Map.of()).values()) {
        if (b.service().equals(type.getName())) out.add(b);
      }
    }
    return out;
  }

  private static final Map<ClassLoader, Map<String, BrokenProvider>> BROKEN = new WeakHashMap<>();
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  /** The loader lookups go through: the thread's, else the application's (as the JDK's {@link ServiceLoader}). */
  private static ClassLoader loader() {
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    return cl == null ? ClassLoader.getSystemClassLoader() : cl;
  }

  private static void warnOnce(String key, String message) {
    // the registry is read by the client and by every worker, many times: a warning a user has seen helps once
    if (WARNED.add(key)) System.err.println("warning: " + message);
  }

  private static void broken(ClassLoader loader, BrokenProvider b) {
    synchronized (BROKEN) {
      BROKEN.computeIfAbsent(loader, l -> new LinkedHashMap<>()).putIfAbsent(b.service() + "\0" + b.provider(), b);
    }
    warnOnce("broken\0" + b.service() + "\0" + b.provider(), b.line() + "; it is not loaded, the other "
        + BrokenProvider.simple(b.service()) + "s are");
  }

  private static String simple(Class<?> type) {
    return BrokenProvider.simple(type.getName());
  }

  /**
   * Every registered {@code type} that could be made, in class-path order; each one that could not is reported
   * ({@link #broken(Class)}) instead of failing the lookup. The class names come from the launcher's
   * {@link ServicesIndex} when it named one and the lookup is on the class path it covers (the thread's class loader
   * and the type's are the application's), otherwise from the loader's registration files, read as the JDK's
   * {@link ServiceLoader} reads them; a type of a named module (the JDK's own) is left to that loader.
   */
  static <T> List<T> registered(Class<T> type) {
    ClassLoader loader = loader();
    List<T> found = new ArrayList<>();
    if (type.getModule().isNamed()) {
      for (T t : ServiceLoader.load(type, loader)) found.add(t);
      return found;
    }
    var index = ServicesIndex.forThisJvm();
    List<String> providers = index.isPresent() && loader == ClassLoader.getSystemClassLoader() && onClassPath(type)
        ? index.get().providers(type.getName()) : declared(type, loader);
    for (String provider : providers) {
      try {
        found.add(instantiate(type, provider, loader));
      } catch (ServiceConfigurationError e) {
        broken(loader, BrokenProvider.of(type, provider, loader, e.getCause() == null ? e : e.getCause()));
      }
    }
    return found;
  }

  /** The class names {@code loader}'s registration files list for {@code type}, the first of a name kept. */
  private static <T> List<String> declared(Class<T> type, ClassLoader loader) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    Enumeration<URL> files;
    try {
      files = loader.getResources("META-INF/services/" + type.getName());
    } catch (IOException e) {
      throw new ServiceConfigurationError(type.getName() + ": cannot list its registrations: " + e.getMessage(), e);
    }
    while (files.hasMoreElements()) {
      URL f = files.nextElement();
      try (InputStream in = f.openStream()) {
        names.addAll(ServicesIndex.parse(in));
      } catch (IOException e) {
        broken(loader, new BrokenProvider(type.getName(), "(the registrations in " + f + ")", f.toString(),
            "cannot be read: " + e.getMessage()));
      }
    }
    return List.copyOf(names);
  }

  /** Whether {@code type} comes from the application's class path (a named module can provide none of it). */
  static boolean onClassPath(Class<?> type) {
    return type.getClassLoader() == ClassLoader.getSystemClassLoader() && !type.getModule().isNamed();
  }

  /**
   * One provider, as the JDK makes it: its public no-argument constructor; a failure is a configuration error whose
   * cause is the original one.
   */
  static <T> T instantiate(Class<T> type, String provider, ClassLoader loader) {
    Class<?> c;
    try {
      c = Class.forName(provider, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ServiceConfigurationError(type.getName() + ": provider " + provider + " not found", e);
    }
    if (!type.isAssignableFrom(c)) {
      throw new ServiceConfigurationError(type.getName() + ": provider " + provider + " not a subtype",
          new ClassCastException("it does not implement " + type.getName()));
    }
    try {
      return type.cast(c.getConstructor().newInstance());
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      throw new ServiceConfigurationError(type.getName() + ": provider " + provider + " could not be instantiated",
          e);
    }
  }

  /**
   * The one called {@code name}; otherwise an {@link IllegalArgumentException} saying {@code unknown}, the known names,
   * {@code hint} (what to do, or empty) and the registrations of {@code type} that could not be loaded, one of which
   * may be the one asked for (its name is only known once its class is made).
   */
  public static <T> T named(Class<T> type, Map<String, T> all, String name, String unknown, String hint) {
    T t = all.get(name);
    if (t == null) {
      StringBuilder sb = new StringBuilder(unknown + "; known: " + new ArrayList<>(all.keySet())
          + (hint.isEmpty() ? "" : " " + hint));
      List<BrokenProvider> broken = broken(type);
      if (!broken.isEmpty()) {
        sb.append("; ").append(broken.size()).append(" registered ").append(simple(type))
            .append(broken.size() == 1 ? " was" : "s were").append(" not loaded, and may be the one asked for:");
        for (BrokenProvider b : broken) sb.append("\n  ").append(b.line());
      }
      throw new IllegalArgumentException(sb.toString());
    }
    return t;
  }
}
