package dev.h2beam.pipelines;

import java.beans.Introspector;
import java.lang.reflect.Method;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Parses a command's {@code --name=value} arguments into its options interface, the one way every command reads its
 * command line. Each argument is first checked against the getters of the interface and of every registered Beam
 * options interface: an unknown, repeated or valueless flag, or a value of the wrong type, is refused with the flag,
 * the value and the expected form, instead of Beam's wording (a Jackson deserialisation error, or {@code expected one
 * element but was}, which names neither).
 */
public final class OptionArgs {
  private OptionArgs() {}

  /**
   * Lower bounds of Beam's own options that Beam checks without a message (the DirectRunner fails a parallelism of 0
   * with a bare IllegalArgumentException, which printed {@code error: null}).
   */
  private static final Map<String, Integer> AT_LEAST = Map.of("targetParallelism", 1);

  /** Checks {@code args}, then parses them with Beam's validation; every error is a {@link UsageError}. */
  public static <T extends PipelineOptions> T parse(String command, String[] args, Class<T> options) {
    check(command, args, options);
    T parsed;
    try {
      parsed = PipelineOptionsFactory.fromArgs(args).withValidation().as(options);
    } catch (IllegalArgumentException e) {
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst()
          .orElse("");
      throw new UsageError("h2beam " + command + " refused its options: " + withFlinkHint(why) + help(command));
    }
    // Beam names a job after its application, the class that parsed the options: every job was
    // "optionargs-root-<time>-<n>". Named after the command, a cluster's job list tells a sweep from a judge; the
    // time and a random part keep names apart as Beam's do (a client finds its job on the cluster by its name)
    boolean named = Arrays.stream(args).anyMatch(a -> a.startsWith("--appName=") || a.startsWith("--jobName="));
    if (!named) {
      parsed.setJobName("h2beam-" + command + "-" + JOB_TIME.format(java.time.Instant.now()) + "-"
          + String.format(Locale.ROOT, "%08x", new java.security.SecureRandom().nextInt()));
    }
    FlinkMaster.requireUsable(parsed, FLINK_CONNECT_TIMEOUT);
    StagedJars.requireCurrent(parsed);
    return parsed;
  }

  /**
   * Beam's refusal of an unknown runner lists the runners on the classpath; the launcher leaves Flink's jars out
   * unless the command line names Flink, so say how FlinkRunner is had when the list lacks it.
   */
  static String withFlinkHint(String why) {
    if (!why.startsWith("Unknown 'runner'") || why.contains("FlinkRunner")) return why;
    return why + "; FlinkRunner too, when the command line names it (--runner=FlinkRunner: the launcher then adds"
        + " Flink's jars)";
  }

  /**
   * The same options, read without Beam's option registry when the command line is plain ({@link LazyOptions}):
   * Beam parses them only once something needs Beam's object, such as a pipeline ({@link LazyOptions#beam}).
   */
  public static <T extends PipelineOptions> T parseLazily(String command, String[] args, Class<T> options) {
    T lazy = LazyOptions.of(command, args, options);
    return lazy != null ? lazy : parse(command, args, options);
  }

  /** The time in a job's name, as Beam writes it in its own ({@code MMddHHmmss}, UTC). */
  private static final java.time.format.DateTimeFormatter JOB_TIME = java.time.format.DateTimeFormatter
      .ofPattern("MMddHHmmss").withZone(java.time.ZoneOffset.UTC);

  /** How long a remote {@code --flinkMaster} has to accept a connection before the command is refused. */
  static final Duration FLINK_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /**
   * Beam's registered options interfaces; where the registry failed on {@link BeamRegistry}'s thread, that failure
   * (the class's initialisation error), not the JVM's bare {@code NoClassDefFoundError} of every later use.
   */
  private static Set<Class<? extends PipelineOptions>> registeredOptions() {
    try {
      return PipelineOptionsFactory.getRegisteredOptions();
    } catch (NoClassDefFoundError e) {
      BeamRegistry.rethrowFailure(e);
      throw e;
    }
  }

  /** Refuses the first argument that is not a known option with a value of its type. */
  static void check(String command, String[] args, Class<? extends PipelineOptions> options) {
    Set<Class<? extends PipelineOptions>> all = new HashSet<>(registeredOptions());
    all.add(options);
    check(command, args, properties(all));
  }

  /**
   * Options of Beam's Flink runner, which only it reads. Given with another runner they did nothing: {@code
   * --flinkMaster=host:port} alone ran the sweep on the DirectRunner, in this process, without a word (the launcher
   * had even put Flink's jars on the classpath for it), and skipped every check a cluster run makes.
   */
  static final Set<String> FLINK_ONLY = Set.of("flinkMaster", "parallelism", "maxParallelism", "checkpointingInterval",
      "objectReuse", "executionModeForBatch", "attachedMode", "numberOfExecutionRetries", "executionRetryDelay",
      "fasterCopy", "latencyTrackingInterval", "autoWatermarkInterval", "shutdownSourcesAfterIdleMs");

  /**
   * The options that say where a command runs, which a printed next command repeats: without them the judge a
   * cluster sweep suggested would run on the DirectRunner, in the client (dogAC F9).
   */
  private static final List<String> WHERE = List.of("runner", "flinkMaster", "filesToStage", "parallelism",
      "flinkConfDir");

  /** The options of {@code args} that say where the command runs ({@link #WHERE}), each as ` --name=value`, quoted. */
  public static String whereFlags(String[] args) {
    StringBuilder out = new StringBuilder();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 2 && WHERE.contains(arg.substring(2, eq))) {
        out.append(' ').append(dev.h2beam.adapters.exec.Shell.word(arg));
      }
    }
    return out.toString();
  }

  /** Refuses a Flink runner's option given without {@code --runner=FlinkRunner}, naming it and the runner flag. */
  static void requireFlinkRunnerFor(String command, String[] args) {
    String runner = null;
    String flinkOnly = null;
    for (String arg : args) {
      int eq = arg.indexOf('=');
      String name = arg.startsWith("--") ? (eq < 0 ? arg.substring(2) : arg.substring(2, eq)) : "";
      if (name.equals("runner") && eq > 0) runner = arg.substring(eq + 1);
      if (FLINK_ONLY.contains(name) && flinkOnly == null) flinkOnly = arg;
    }
    if (flinkOnly == null || runner != null && runner.toLowerCase(Locale.ROOT).contains("flink")) return;
    throw new UsageError(flinkOnly + " is an option of the FlinkRunner, and this command runs on "
        + (runner == null ? "the DirectRunner (the default)" : runner) + ", which would ignore it: add"
        + " --runner=FlinkRunner to run on Flink, or leave the option out" + help(command));
  }

  /** Refuses the first argument that is not one of the {@code known} options with a value of its type. */
  static void check(String command, String[] args, Map<String, Method> known) {
    requireFlinkRunnerFor(command, args);
    Map<String, String> seen = new LinkedHashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--") || arg.length() == 2 || arg.startsWith("--=")) {
        throw new UsageError("'" + arg + "' is not an option: write each option as --name=value" + help(command));
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
      String value = eq < 0 ? null : arg.substring(eq + 1);
      Method getter = known.get(name);
      if (getter == null) {
        String near = nearest(name, known.keySet());
        throw new UsageError("--" + name + " is not an option of h2beam " + command
            + (near == null ? "" : "; did you mean --" + near + "?") + help(command));
      }
      Class<?> type = getter.getReturnType();
      boolean many = type.isArray() || Collection.class.isAssignableFrom(type);
      if (seen.containsKey(name) && !many) {
        throw new UsageError("--" + name + " is given twice (" + seen.get(name) + " and " + arg + "); give it once");
      }
      seen.put(name, arg);
      if (value == null) {
        if (type == boolean.class || type == Boolean.class) continue;
        throw new UsageError("--" + name + " has no value; give it as --" + name + "=VALUE (a value after a space is"
            + " not read), expected " + form(name, getter));
      }
      if (!fits(type, value) && outOfRange(type, value)) {
        throw new UsageError("--" + name + "=" + value + " is out of range; expected " + range(name, type));
      }
      if (!fits(type, value)) {
        throw new UsageError("--" + name + "=" + value + (value.isEmpty() ? " has no value" : " is not valid")
            + "; expected " + form(name, getter));
      }
      Integer min = AT_LEAST.get(name);
      if (min != null && Integer.parseInt(value.strip()) < min) {
        throw new UsageError("--" + name + "=" + value + " is too small; expected a whole number of at least " + min
            + ", e.g. --" + name + "=2");
      }
    }
  }

  /** Every option name the command line accepts, with its getter. */
  static Map<String, Method> properties(Class<? extends PipelineOptions> options) {
    Set<Class<? extends PipelineOptions>> all = new HashSet<>(registeredOptions());
    all.add(options);
    return properties(all);
  }

  /** The option names of these interfaces (and those they extend), with their getters. */
  static Map<String, Method> properties(Collection<Class<? extends PipelineOptions>> all) {
    Map<String, Method> out = new TreeMap<>();
    for (Class<? extends PipelineOptions> c : all) {
      for (Method m : c.getMethods()) {
        String n = m.getName();
        if (m.getParameterCount() != 0 || m.getReturnType() == void.class || m.isDefault()) continue;
        String prop = n.startsWith("get") && n.length() > 3 ? n.substring(3)
            : n.startsWith("is") && n.length() > 2 && m.getReturnType() == boolean.class ? n.substring(2) : null;
        if (prop == null || n.equals("getClass")) continue;
        out.putIfAbsent(Introspector.decapitalize(prop), m);
      }
    }
    return out;
  }

  private static boolean fits(Class<?> type, String value) {
    String v = value.strip();
    try {
      if (type == int.class || type == Integer.class) Integer.parseInt(v);
      else if (type == long.class || type == Long.class) Long.parseLong(v);
      else if (type == BigInteger.class) new BigInteger(v);
      else if (type == double.class || type == Double.class) {
        if (v.isEmpty() || !Double.isFinite(Double.parseDouble(v))) return false;
      } else if (type == boolean.class || type == Boolean.class) {
        return v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false");
      } else if (type.isEnum()) {
        for (Object c : type.getEnumConstants()) if (c.toString().equals(v)) return true;
        return false;
      }
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** A whole number too large or too small for a whole-number option's type. */
  private static boolean outOfRange(Class<?> type, String value) {
    boolean whole = type == int.class || type == Integer.class || type == long.class || type == Long.class;
    return whole && value.strip().matches("[-+]?[0-9]+");
  }

  /** The range of a whole-number option, with an example. */
  private static String range(String name, Class<?> type) {
    boolean isInt = type == int.class || type == Integer.class;
    return "a whole number from " + (isInt ? Integer.MIN_VALUE : Long.MIN_VALUE) + " to "
        + (isInt ? Integer.MAX_VALUE : Long.MAX_VALUE) + ", e.g. --" + name + (isInt ? "=2" : "=7");
  }

  /** The expected form of a value, with an example; for text, what the option is for. */
  private static String form(String name, Method getter) {
    Class<?> type = getter.getReturnType();
    if (type == int.class || type == Integer.class) {
      Integer min = AT_LEAST.get(name);
      return "a whole number" + (min == null ? "" : " of at least " + min) + ", e.g. --" + name + "=2";
    }
    if (type == long.class || type == Long.class) return "a whole number, e.g. --" + name + "=7";
    if (type == BigInteger.class) return "a whole number of any size, e.g. --" + name + "=7";
    if (type == double.class || type == Double.class) return "a number, e.g. --" + name + "=5.0";
    if (type == boolean.class || type == Boolean.class) {
      return "true or false, e.g. --" + name + "=true (or just --" + name + ")";
    }
    if (type.isEnum()) return "one of " + Arrays.toString(type.getEnumConstants()) + ", e.g. --" + name + "="
        + type.getEnumConstants()[0];
    Description d = getter.getAnnotation(Description.class);
    return "--" + name + "=VALUE" + (d == null ? "" : ": " + d.value());
  }

  /** The known name closest to {@code name} (same letters in another case, or at most two edits), or null. */
  static String nearest(String name, Collection<String> known) {
    String best = null;
    int bestDistance = 3;
    List<String> sorted = new ArrayList<>(known);
    sorted.sort(null);
    for (String k : sorted) {
      int d = k.equalsIgnoreCase(name) ? 0
          : distance(k.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) prev[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static String help(String command) {
    return " (h2beam " + command + " --help lists every option)";
  }
}
