package dev.h2beam.adapters.exec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The environment a child process receives, built from an allow-list: a variable reaches the child only when its name
 * is in {@link #BASE}, is granted by name (an agent's {@code env_allow}, an endpoint's key variable), or is set as an
 * override. Nothing is inherited implicitly, so a secret in the parent's environment stays there unless someone names
 * it.
 */
public final class Env {
  private Env() {}

  /**
   * The variables every child may inherit: {@code PATH} (to find programs), {@code LANG}, {@code LC_ALL},
   * {@code LC_CTYPE} (so text tools decode UTF-8 the way the user's shell does), {@code TZ} and {@code TERM}. None of
   * them carries a credential.
   */
  public static final List<String> BASE = List.of("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM");

  /**
   * The child environment: every name of {@link #BASE} and of {@code granted} that {@code source} sets, with its
   * value from {@code source}, then {@code overrides} on top (an override wins, and may set a name nobody granted).
   * Keys are sorted, so the map prints and compares the same every time.
   *
   * @throws IllegalArgumentException a granted or overridden name is not a usable variable name
   */
  public static SortedMap<String, String> child(Map<String, String> source, Collection<String> granted,
      Map<String, String> overrides) {
    TreeMap<String, String> env = new TreeMap<>();
    List<String> names = new ArrayList<>(BASE);
    names.addAll(granted);
    for (String name : names) {
      checkName(name);
      String value = source.get(name);
      if (value != null) env.put(name, value);
    }
    overrides.forEach((name, value) -> {
      checkName(name);
      if (value == null || value.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("environment variable " + name + " needs a value without NUL characters");
      }
      env.put(name, value);
    });
    return Collections.unmodifiableSortedMap(env);
  }

  /** {@link #BASE} from {@code source}, nothing else: for programs that need no credential and no setting. */
  public static SortedMap<String, String> base(Map<String, String> source) {
    return child(source, List.of(), Map.of());
  }

  /**
   * Everything of {@code source} a shell can pass on, plus {@code overrides}: only for a program the user trusts with
   * their whole environment (their own grader), never for an agent. Say so where it is used.
   */
  public static SortedMap<String, String> inherited(Map<String, String> source, Map<String, String> overrides) {
    return child(source, source.keySet().stream().filter(Env::isName).toList(), overrides);
  }

  /** A name a POSIX shell can export: letters, digits and underscores, not starting with a digit. */
  static boolean isName(String name) {
    // looked at char by char: a pattern compiled for each name was a fifth of a percent of an L = 0 sweep's CPU
    if (name == null || name.isEmpty() || name.charAt(0) >= '0' && name.charAt(0) <= '9') return false;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')) return false;
    }
    return true;
  }

  static void checkName(String name) {
    if (!isName(name)) {
      throw new IllegalArgumentException("'" + name + "' is not an environment variable name (want letters, digits "
          + "and underscores, not starting with a digit)");
    }
  }
}
