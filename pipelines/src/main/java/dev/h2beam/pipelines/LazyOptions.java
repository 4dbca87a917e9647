package dev.h2beam.pipelines;

import java.beans.Introspector;
import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * A command's options read without Beam's option registry, which costs about 1.2 CPU-seconds of every command the
 * first time it is touched (it validates every registered options interface, Flink's included): a sweep that finds
 * every task complete builds no pipeline and never needs it (BENCHMARKS.md, issue 12).
 *
 * <p>Only a plain command line qualifies: every argument names a property of the command's own options interface
 * (or one of the DirectRunner switches {@link Main#directDefaults} adds), of a simple type, and no other runner is
 * asked for. Anything else is parsed by Beam at once, exactly as before. The getters of h2beam's own properties read
 * the arguments and their constant {@link Default} annotations; {@code getRunner()} is the DirectRunner; anything
 * else (including {@code as(...)} and a default Beam computes) parses the same arguments with Beam first and answers
 * from that, and so does every getter once it has. {@link #beam} hands a pipeline Beam's own object.
 */
public final class LazyOptions implements InvocationHandler {

  /** DirectRunner switches {@link Main#directDefaults} appends to every command line on the DirectRunner. */
  private static final Set<String> DIRECT_SWITCHES = Set.of("enforceImmutability", "enforceEncodability");

  private static final Set<Class<?>> SIMPLE = Set.of(String.class, int.class, Integer.class, long.class, Long.class,
      BigInteger.class, double.class, Double.class, boolean.class, Boolean.class);

  private final String command;
  private final String[] args;
  private final Class<? extends PipelineOptions> type;
  private final Map<String, Object> values = new HashMap<>();
  /** Setter calls made before Beam parsed the arguments, replayed onto Beam's object. */
  private final List<Object[]> sets = new ArrayList<>();
  private PipelineOptions beam;

  private LazyOptions(String command, String[] args, Class<? extends PipelineOptions> type) {
    this.command = command;
    this.args = args.clone();
    this.type = type;
  }

  /**
   * The options of {@code args} without Beam's registry, or null when the command line is not plain (then the
   * caller parses with {@link OptionArgs#parse}). The arguments are checked as {@link OptionArgs#check} checks them.
   */
  static <T extends PipelineOptions> T of(String command, String[] args, Class<T> type) {
    Map<String, Method> own = OptionArgs.properties(List.<Class<? extends PipelineOptions>>of(type));
    LazyOptions handler = new LazyOptions(command, args, type);
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) return null;
      String name = arg.substring(2, eq);
      String value = arg.substring(eq + 1);
      if (DIRECT_SWITCHES.contains(name)) continue;
      Method getter = own.get(name);
      if (getter == null || !getter.getDeclaringClass().getName().startsWith("dev.h2beam.")
          || !SIMPLE.contains(getter.getReturnType()) || value.isEmpty() || !value.equals(value.strip())) {
        return null;
      }
    }
    // the same refusals, in the same words, as the full parse: every name is known here, so none differs
    Map<String, Method> known = new HashMap<>(own);
    known.putAll(OptionArgs.properties(
        List.<Class<? extends PipelineOptions>>of(org.apache.beam.runners.direct.DirectOptions.class)));
    OptionArgs.check(command, args, known);
    for (String arg : args) {
      int eq = arg.indexOf('=');
      String name = arg.substring(2, eq);
      if (DIRECT_SWITCHES.contains(name)) continue;
      handler.values.put(name, value(own.get(name).getReturnType(), arg.substring(eq + 1)));
    }
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  /** Beam's own options object behind {@code o} (parsing the arguments now if they were not yet); else {@code o}. */
  public static <T extends PipelineOptions> T beam(T o) {
    if (Proxy.isProxyClass(o.getClass()) && Proxy.getInvocationHandler(o) instanceof LazyOptions lazy) {
      @SuppressWarnings("unchecked")
      T real = (T) lazy.parsed().as(lazy.type);
      return real;
    }
    return o;
  }

  /**
   * Beam's object, parsed once. The parse runs without this object's lock, which waits for Beam's registry (a pipeline
   * built on another thread while the client's checks run, {@code Sweep.buildAhead}): meanwhile the getters of
   * h2beam's own properties keep answering from the arguments, and a setter called meanwhile is replayed with the
   * others. Two threads that both parse keep the first result.
   */
  private PipelineOptions parsed() {
    synchronized (this) {
      if (beam != null) return beam;
    }
    PipelineOptions p = OptionArgs.parse(command, args, type);
    synchronized (this) {
      if (beam == null) {
        for (Object[] s : sets) invokeOn(p, (Method) s[0], new Object[] {s[1]});
        beam = p;
      }
      return beam;
    }
  }

  @Override public Object invoke(Object proxy, Method m, Object[] a) throws Throwable {
    String n = m.getName();
    if (m.getDeclaringClass() == Object.class) {
      return switch (n) {
        case "equals" -> proxy == a[0];
        case "hashCode" -> System.identityHashCode(proxy);
        default -> "LazyOptions" + List.of(args);
      };
    }
    synchronized (this) {
      if (beam == null && m.getDeclaringClass().getName().startsWith("dev.h2beam.")) {
        String prop = property(m);
        // a default that is not a constant (computed by Beam) is Beam's to answer, below; a getter's annotations
        // are read when it is first asked, not every getter's at the start (30 ms of a cold JVM)
        if (prop != null && a == null && (values.containsKey(prop) || plainDefault(m))) {
          return values.containsKey(prop) ? values.get(prop) : defaultOf(m);
        }
        if (prop != null && n.startsWith("set") && a != null && a.length == 1) {
          values.put(prop, a[0]);
          sets.add(new Object[] {m, a[0]});
          return null;
        }
      }
      if (beam == null && n.equals("getRunner") && a == null) return DirectRunner.class;
    }
    return invokeOn(parsed().as(type), m, a);
  }

  private static Object invokeOn(Object target, Method m, Object[] a) {
    try {
      return m.invoke(target, a);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The property a getter or setter names, or null. */
  private static String property(Method m) {
    String n = m.getName();
    if (n.startsWith("get") && n.length() > 3) return Introspector.decapitalize(n.substring(3));
    if (n.startsWith("is") && n.length() > 2) return Introspector.decapitalize(n.substring(2));
    if (n.startsWith("set") && n.length() > 3) return Introspector.decapitalize(n.substring(3));
    return null;
  }

  /** Whether a getter's default is one {@link #defaultOf} knows: none, or a constant of a simple type. */
  private static boolean plainDefault(Method m) {
    boolean any = false;
    for (Annotation a : m.getAnnotations()) any |= a.annotationType().getEnclosingClass() == Default.class;
    return !any || declaredDefault(m) != null;
  }

  /** The constant of a getter's {@link Default} of a simple type, or null when it declares none of those. */
  static Object declaredDefault(Method m) {
    for (Annotation a : m.getAnnotations()) {
      if (a instanceof Default.String s) return s.value();
      if (a instanceof Default.Integer i) return i.value();
      if (a instanceof Default.Long l) return l.value();
      if (a instanceof Default.Double d) return d.value();
      if (a instanceof Default.Boolean b) return b.value();
    }
    return null;
  }

  /** A getter's {@link Default} value, or what Beam returns without one (null, or a primitive's zero). */
  private static Object defaultOf(Method m) {
    Object declared = declaredDefault(m);
    if (declared != null) return declared;
    Class<?> t = m.getReturnType();
    if (t == int.class) return 0;
    if (t == long.class) return 0L;
    if (t == double.class) return 0.0;
    if (t == boolean.class) return false;
    return null;
  }

  /** A checked argument's value as its getter's type. */
  private static Object value(Class<?> t, String v) {
    if (t == int.class || t == Integer.class) return Integer.parseInt(v);
    if (t == long.class || t == Long.class) return Long.parseLong(v);
    if (t == BigInteger.class) return new BigInteger(v);
    if (t == double.class || t == Double.class) return Double.parseDouble(v);
    if (t == boolean.class || t == Boolean.class) return Boolean.parseBoolean(v);
    return v;
  }
}
